"""Shared vocabulary every layer may use (content, session, grading, feedback, ui): names, no logic."""

from __future__ import annotations

from enum import StrEnum


class Dimension(StrEnum):
    CONCEPTUAL = "conceptual"
    TRADEOFF = "tradeoff"
    QUANTITATIVE = "quantitative"
    EXPLANATION = "explanation"

    @property
    def label(self) -> str:
        return {
            "conceptual": "Conceptual understanding",
            "tradeoff": "Trade-off reasoning",
            "quantitative": "Quantitative / applied knowledge",
            "explanation": "Explanation quality",
        }[self.value]
