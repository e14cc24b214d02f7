"""MCQ options must be told apart by their numbers (issue 16), in every variant.

The rules apply to numeric MCQs: in a variant where every option's rendered text holds exactly one number
(product names such as H100 or 70B, and formulas in backticks, are not numbers: `content/numbers.py`), that
number is the option's answer. Its unit is read with `coach.units`, so "1,024 KiB" and "1 MiB" are the same
number. Items whose options hold several numbers, or none, are left out: there the number is context, and
options are told apart by what they claim ("It owns 8,192 tokens and receives nothing" / "… one merged K/V
tensor"), or hold the same numbers for different things ("TP8 0.43 M, DP8 3.42 M" against the swap).
- No two options may state the same number.
- Under "roughly", "about", "approximately", "~" or "≈" in the stem or the key, each distractor's number must
  differ from the key's by at least 15% of the key, or the options are told apart only by their wording.
"""

from __future__ import annotations

import re

from coach.content.numbers import NUMBER, mask_non_numbers, normalise
from coach.content.render import RenderedItem, render, variants
from coach.content.schema import McqItem
from coach.units import base_of, parse_unit, quantity

MIN_APPROX_GAP = 0.15
APPROXIMATE = re.compile(r"\b(?:roughly|about|approximately|around)\b|~|≈", re.IGNORECASE)
_UNIT_WORDS = re.compile(r"\s*([A-Za-zµμ%×/]+(?:/[A-Za-z]+)?(?:\s+per\s+[A-Za-z]+)?)")

Number = tuple[float, str]  # magnitude in base units, dimensionality (or the unit word when pint has none)


def stated_numbers(text: str) -> list[tuple[Number, str]]:
    """Each number in an option's text with its unit, as (base magnitude, dimensionality) and as written."""
    masked = mask_non_numbers(text)
    found = []
    for m in NUMBER.finditer(masked):
        magnitude = float(normalise(m.group(0)))
        unit_match = _UNIT_WORDS.match(masked, m.end())
        unit = unit_match.group(1) if unit_match else ""
        number = _with_unit(magnitude, unit)
        written = text[m.start(): unit_match.end() if unit_match else m.end()].strip()
        found.append((number, written))
    return found


def _with_unit(magnitude: float, unit: str) -> Number:
    """The number in base units when `unit` (or its first word) is one coach.units knows; else the bare number
    keyed by the word, so "8 copies" and "8 GPUs" still compare as counts of different things."""
    for candidate in (unit, unit.split()[0] if unit.split() else ""):
        if candidate and parse_unit(candidate) is not None:
            return base_of(quantity(magnitude, candidate))
    return magnitude, (unit.split()[0].lower().rstrip("s") if unit.split() else "dimensionless")


def _single(text: str) -> tuple[Number, str] | None:
    numbers = stated_numbers(text)
    return numbers[0] if len(numbers) == 1 else None


def check_option_numbers(item: McqItem) -> list[str]:
    msgs: list[str] = []
    for variant in variants(item):
        try:
            rendered = render(item, variant)
        except (KeyError, ValueError, TypeError):
            continue  # reported by the render check
        where = f"variant {variant}: " if variant else ""
        msgs += [where + m for m in _check_rendered(rendered)]
    return msgs


def _check_rendered(rendered: RenderedItem) -> list[str]:
    msgs: list[str] = []
    singles = [_single(o.text) for o in rendered.options]
    if any(s is None for s in singles):
        return msgs  # not a numeric MCQ (see the module docstring)
    for i in range(len(singles)):
        for j in range(i + 1, len(singles)):
            a, b = singles[i], singles[j]
            if a is not None and b is not None and a[0][1] == b[0][1] and _same(a[0][0], b[0][0]):
                msgs.append(f"options {i + 1} ({a[1]!r}) and {j + 1} ({b[1]!r}) state the same number: change "
                            "one distractor's formula or value so every option is a different answer")
    key = rendered.key_index
    if key is None or singles[key] is None:
        return msgs
    if not (APPROXIMATE.search(rendered.stem) or APPROXIMATE.search(rendered.options[key].text)):
        return msgs
    (k_value, k_dims), k_text = singles[key]  # type: ignore[misc]
    for i, s in enumerate(singles):
        if i == key or s is None or s[0][1] != k_dims or k_value == 0:
            continue
        gap = abs(s[0][0] - k_value) / abs(k_value)
        if gap < MIN_APPROX_GAP and not _same(s[0][0], k_value):
            msgs.append(f"under 'roughly/about', distractor {i + 1} ({s[1]!r}) is within {gap:.1%} of the key "
                        f"({k_text!r}); it must differ by at least {MIN_APPROX_GAP:.0%}: move the distractor, "
                        "drop this variant, or ask for the exact figure")
    return msgs


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-30)
