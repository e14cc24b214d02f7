"""Numbers written as a series share the unit written once at its end: "0.26, 0.53 and 0.79 s", "3 to 5 ms",
"between 40 and 60%", "3-5 GB". Read alone, "0.26" would be a bare number and could only be compared as written.
A series ending in a bare 1 after "to" or ":" is a ratio ("about 2.4 to 1", "3:1"): the numbers before it are
ratios (2.4×) and the 1 states nothing.

Pure: it takes the numbers `extract` found and returns them with the series read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from coach.units import base_of, quantity

if TYPE_CHECKING:  # extract.py calls this module: the type alone, no import cycle at run time
    from coach.grading.numeric.extract import Found

# between two numbers of a series: a comma (not before the last), "and", "or", "to", a dash; "~" may lead a number
_JOIN = re.compile(r"\s*(?:(?P<comma>,)\s*(?:(?:and|or)\s+)?|\s+(?:and|or|to)\s+|\s*[-–]\s*|\s*(?P<colon>:)\s*)~?\s*")


def _with_unit(f: Found, unit: str) -> Found:
    base, dims = base_of(quantity(f.magnitude, unit))
    return replace(f, unit=unit, base=base, dims=dims)


def read_series(text: str, found: Sequence[Found]) -> list[Found]:
    """`found` (in order) with each series read: its bare numbers take the unit written at its end."""
    standalone = [f for f in found if not f.operand and not f.derived]
    out = {id(f): f for f in found}
    drop: set[int] = set()
    i = 0
    while i < len(standalone):
        chain, joins = [standalone[i]], []
        while i + len(chain) < len(standalone):
            nxt = standalone[i + len(chain)]
            m = _JOIN.fullmatch(text, chain[-1].end, nxt.start)
            if m is None or not chain[-1].bare:
                break
            chain.append(nxt)
            joins.append(m)
        i += len(chain)
        if len(chain) < 2 or joins[-1].group("comma"):  # "At batch 16, 835 tokens/s": a clause, no series
            continue
        last = chain[-1]
        if last.bare or last.unit == "ratio":
            if last.magnitude == 1 and (joins[-1].group("colon") or "to" in joins[-1].group()):
                drop.add(id(last))
                for f in chain[:-1]:
                    out[id(f)] = _with_unit(f, "×")
            continue
        if any(m.group("colon") for m in joins):
            continue
        for f in chain[:-1]:
            out[id(f)] = _with_unit(f, last.unit)
    return [out[id(f)] for f in found if id(f) not in drop]
