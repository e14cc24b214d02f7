"""Checking that a quote (the judge's, or the coach feedback's) is really in the answer."""

from __future__ import annotations

import re

from coach.grading.guards.injection import normalise_for_scan

MIN_QUOTE_CHARS = 4

_QUOTE_FOLD = str.maketrans(
    {"“": '"', "”": '"', "‘": "'", "’": "'", "`": "'", "–": "-", "—": "-", "‹": "<", "›": ">", "…": "..."}
)


def _fold(text: str) -> str:
    text = normalise_for_scan(text).translate(_QUOTE_FOLD).lower()
    return re.sub(r"\s+", " ", text).strip()


def quote_in_answer(quote: str, answer: str) -> bool:
    """Is the quote in the answer, up to case, whitespace, quote/dash styles and an ellipsis between fragments?"""
    haystack = _fold(answer)
    parts = [p.strip(" \"'.,;:!?()[]") for p in re.split(r"\.\.\.|\[\.\.\.\]", _fold(quote))]
    parts = [p for p in parts if p]
    if not parts or sum(len(p) for p in parts) < MIN_QUOTE_CHARS:
        return False
    pos = 0
    for part in parts:
        found = haystack.find(part, pos)
        if found < 0:
            return False
        pos = found + len(part)
    return True
