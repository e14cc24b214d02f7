"""Plain-text helpers shared by the graders: sentence/clause splitting and normalisation."""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_COMMA = re.compile(r"(?<!\d),|,(?!\d)")  # not the separator of "4,096": a quote must not cut a number in two


def sentences(text: str) -> list[str]:
    """Split an answer into sentences; very long sentences are further split at commas (not inside numbers)."""
    parts = [p.strip() for p in _SENTENCE.split(text) if p and p.strip()]
    out: list[str] = []
    for p in parts:
        if len(p.split()) > 40:
            out.extend(s.strip() for s in _COMMA.split(p) if s.strip())
        else:
            out.append(p)
    return out


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())
