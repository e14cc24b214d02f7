"""Whose number is it? Two right numbers given to each other's places ("hash mod N moves 11.1%, a
consistent-hash ring 88.9%", where the figures are the other way round) are both values the check expects, but
the claim is wrong. Each expected number carries the model answer's clause up to it (`QuantitySpec.context`);
a number is read as placed where the words just before it in the answer share clearly more with the other
number's clause than with its own. Those words run back to the clause's start or to the figure before it that is
one of the same check's quantities, whichever is nearer, in the answer and the model answer alike: in "each GPU
idles 75% of the time and is busy 25%", 25% is the figure for "time, busy", not for the idle words before 75%.
A swap needs each of two numbers in the other's place, so one loosely worded clause never contradicts a right
answer; one number alone in another's place counts only where that quantity's named wrong formula gives the same
number (check.py, `_misplaced`). Pure and lexical: no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from coach.grading.offline.lexical import content_stems

if TYPE_CHECKING:
    from coach.grading.numeric.check import QuantityResult

WINDOW = 8  # content words before a number that say what it is the figure for
MARGIN = 2  # how many more of them the other number's clause must share than the number's own


def clause_start(text: str, end: int) -> int:
    """Where the clause holding position `end` starts: after the last ". ", "; " or line break before it."""
    return max(text.rfind(". ", 0, end), text.rfind("; ", 0, end), text.rfind("\n", 0, end)) + 1


def _word(stem: str) -> str:
    return stem[:-1] if len(stem) > 3 and stem.endswith("e") else stem  # the stemmer: "move" but "moves" -> "mov"


def words_before(text: str, end: int, figures: Iterable[int] = ()) -> frozenset[str]:
    """The last WINDOW content-word stems of the clause up to `end`, after the last of `figures` (where other
    figures end) before it. Numbers are left out: they are the figures."""
    start = max([clause_start(text, end), *(f for f in figures if f <= end)])
    stems = [_word(s) for s in content_stems(text[start:end]) if not s[0].isdigit()]
    return frozenset(stems[-WINDOW:])


def _figure_ends(text: str, figure: str) -> list[int]:
    """Where `figure` ("75%", "2") ends each time it stands alone in `text` (not the "2" of "H200")."""
    return [m.end() for m in re.finditer(rf"(?<![\w.]){re.escape(figure)}(?![\w]|[.,]\d)", text)] if figure else []


def _own(result: QuantityResult, results: Sequence[QuantityResult]) -> frozenset[str]:
    """The words the model answer puts just before this number, after the check's other numbers it shows."""
    context = result.spec.context
    ends = [end for o in results if o.spec is not result.spec for end in _figure_ends(context, o.spec.text)]
    return words_before(context, len(context), ends)


def _here(answer: str, result: QuantityResult, results: Sequence[QuantityResult]) -> frozenset[str]:
    """The words the answer puts just before the number it wrote for this quantity, after the others'."""
    assert result.found is not None
    ends = [o.found.end for o in results if o.spec is not result.spec and o.found is not None]
    return words_before(answer, result.found.start, ends)


def _placed_as(here: frozenset[str], own: frozenset[str], other: frozenset[str]) -> bool:
    return len(here & other) >= len(here & own) + MARGIN


def reads_as(answer: str, a: QuantityResult, b: QuantityResult, results: Sequence[QuantityResult],
             owns: Mapping[int, frozenset[str]] | None = None) -> bool:
    """Does a's number sit clearly in b's clause rather than its own? (`results`: the check's quantities;
    `owns`: their `_own` words by `id` of the spec, when the caller has them)"""
    own_a = owns[id(a.spec)] if owns is not None else _own(a, results)
    own_b = owns[id(b.spec)] if owns is not None else _own(b, results)
    return own_a != own_b and _placed_as(_here(answer, a, results), own_a, own_b)


def swapped(answer: str, results: Sequence[QuantityResult]) -> tuple[QuantityResult, QuantityResult] | None:
    """The first pair of right numbers the answer gives to each other's places, or None."""
    placed = [r for r in results if r.right and r.found is not None and r.spec.context]
    owns = {id(r.spec): _own(r, results) for r in placed}  # once per quantity, not once per pair it is tried in
    for a, b in combinations(placed, 2):
        assert a.found is not None and b.found is not None
        if a.found.start == b.found.start or abs(a.spec.shown - b.spec.shown) <= a.spec.tolerance * abs(b.spec.shown):
            continue  # one number read for both, or one value under two names
        if a.found.dims != b.found.dims:
            continue  # a time and a rate cannot trade places
        if reads_as(answer, a, b, results, owns) and reads_as(answer, b, a, results, owns):
            return a, b
    return None
