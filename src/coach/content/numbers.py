"""Finds numbers written into item prose by hand, which must instead be computed or sourced.

A number may appear in an item only as a placeholder (computed by `coach.calc`), inside a product name
(H100, Llama 3.1 70B), inside a `formula` in backticks, or declared in `literals` with its source.
"""

from __future__ import annotations

import re

from coach.calc.tables import HARDWARE, LINKS, MODELS

_NAMES = sorted(
    {m.name for m in MODELS.values()} | {h.name for h in HARDWARE.values()} | {link.name for link in LINKS.values()},
    key=len,
    reverse=True,
)
_NAME_TOKENS = re.compile(
    "|".join(re.escape(n) for n in _NAMES)
    + r"|\b(?:[A-Z]{1,4}\d+[A-Za-z0-9]*|[A-Za-z]+-\d+[A-Za-z0-9.-]*|Llama ?\d(?:\.\d)?(?: \d+B)?"
    r"|Qwen\d[\w.-]*|NVLink ?\d|PCIe ?(?:Gen ?)?\d|Gen ?\d|x\d+|\d+x\d+B|GPT-?\d|FP\d+|BF16|INT\d|\d+B\b|"
    r"NVL\d+|HBM\d\w?|[A-Z][a-z]+\d+[A-Za-z]*)"
)
_CODE = re.compile(r"`[^`]*`")
NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?\}")


def normalise(number: str) -> str:
    return number.replace(",", "")


def bare_numbers(text: str) -> list[str]:
    """Numbers in `text` that are not placeholders, names or formulas."""
    text = PLACEHOLDER.sub(" ", text)
    text = _CODE.sub(" ", text)
    text = _NAME_TOKENS.sub(" ", text)
    return [normalise(n) for n in NUMBER.findall(text)]


def mask_non_numbers(text: str) -> str:
    """`text` with placeholders, formulas and names blanked out, every other character where it was (so a
    number's position still points into `text`)."""
    def blank(match: re.Match[str]) -> str:
        return " " * len(match.group(0))

    for pattern in (PLACEHOLDER, _CODE, _NAME_TOKENS):
        text = pattern.sub(blank, text)
    return text


def sheet_numbers(sheet_text: str) -> set[str]:
    found = {normalise(n) for n in NUMBER.findall(sheet_text)}
    # "0.65 ms" also appears as ".65"? no; but "42.9%" and "42.9" are the same number
    return found
