"""The domain's units, defined once: one pint registry that content checks and the numeric grader share.

Only what inference arithmetic uses: bytes with decimal and binary prefixes, bits (so 400 Gb/s is 50 GB/s),
seconds, FLOPs (their own dimension, so a ridge in FLOP/byte is not a bandwidth), percent, and counts
(tokens, sequences, requests, parameters, "billion") as dimensionless. A fresh registry, not pint's default one, so that
"Gb" is a gigabit and not a gigabarn, and "B" a byte.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pint

_DEFINITIONS = """
kilo- = 1e3 = k- = K-
mega- = 1e6 = M-
giga- = 1e9 = G-
tera- = 1e12 = T-
peta- = 1e15 = P-
milli- = 1e-3 = m-
micro- = 1e-6 = µ- = μ- = u-
nano- = 1e-9 = n-
kibi- = 2**10 = Ki-
mebi- = 2**20 = Mi-
gibi- = 2**30 = Gi-
tebi- = 2**40 = Ti-
second = [time] = s = sec
minute = 60 * second = min
hour = 60 * minute = h = hr
byte = [information] = B = Byte
bit = byte / 8 = b = Bit
FLOP = [compute] = _ = flop
FLOPS = FLOP / second
bps = bit / second
percent = 0.01 = %
ratio = 1 = x
token = 1 = tok
sequence = 1 = seq
request = 1 = req
parameter = 1 = param
thousand = 1e3
million = 1e6
billion = 1e9
trillion = 1e12
"""

Quantity = Any  # pint.Quantity of this registry (pint's generics do not type-check cleanly)


@lru_cache(maxsize=1)
def registry() -> Any:
    ureg: Any = pint.UnitRegistry(None, autoconvert_offset_to_baseunit=False)
    for line in _DEFINITIONS.strip().splitlines():
        ureg.define(line)
    return ureg


@lru_cache(maxsize=512)
def parse_unit(text: str) -> Any | None:
    """The unit a string names ("GB/s", "FLOPs per byte", "KiB"), or None when it names none.
    "" is dimensionless."""
    text = " ".join(text.replace(" per ", "/").replace("×", "x").split())
    if not text:
        return registry().dimensionless
    try:
        unit = registry().parse_units(text)
    except (pint.errors.PintError, AssertionError, AttributeError, TypeError, ValueError, SyntaxError):
        # pint's parser raises several kinds on text that is not a unit
        return None
    return unit


def quantity(magnitude: float, unit: str) -> Quantity:
    """magnitude · unit in this registry; raises ValueError for a unit it does not know."""
    parsed = parse_unit(unit)
    if parsed is None:
        raise ValueError(f"unknown unit {unit!r}")
    return registry().Quantity(magnitude, parsed)


def base_of(q: Quantity) -> tuple[float, str]:
    """(magnitude in base units, dimensionality as text): two quantities compare when the texts are equal."""
    base = q.to_base_units()
    return float(base.magnitude), str(base.dimensionality)


def base_unit(dims: str) -> str:
    """The base unit of a dimensionality text from `base_of` ("[information] / [time]" -> "byte / second")."""
    names = {"[information]": "byte", "[time]": "second", "[compute]": "FLOP", "dimensionless": ""}
    for dim, unit in names.items():
        dims = dims.replace(dim, unit)
    return dims.strip()


DimensionalityError = pint.errors.DimensionalityError
