"""Checking that a judge's quote is really in the answer, and reading JSON out of a reply."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from coach.grading.guards.injection import normalise_for_scan

if TYPE_CHECKING:
    pass

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


def extract_json(text: str) -> object:
    """The JSON object in a reply: bare, fenced in ``` blocks, or between the first '{' and the last '}'."""
    stripped = text.strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", stripped, re.DOTALL)
    candidates = [stripped]
    if fenced:
        candidates.append(fenced.group(1))
    if "{" in stripped and "}" in stripped:
        candidates.append(stripped[stripped.find("{") : stripped.rfind("}") + 1])
    for c in candidates:
        try:
            return json.loads(c)
        except json.JSONDecodeError:
            continue
    raise ValueError("the reply is not valid JSON")


