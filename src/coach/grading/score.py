"""Grades are objects: a value with the evidence behind it and any flags, never a bare float."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from coach.vocab import Dimension


class Verdict(StrEnum):
    MET = "met"
    PARTIAL = "partial"
    MISSED = "missed"
    CONTRADICTED = "contradicted"


VERDICT_CREDIT = {Verdict.MET: 1.0, Verdict.PARTIAL: 0.5, Verdict.MISSED: 0.0, Verdict.CONTRADICTED: 0.0}


class Flag(StrEnum):
    LOW_CONFIDENCE = "low_confidence"
    JUDGE_UNSCORED = "judge_unscored"
    EMPTY = "empty"
    TOO_LONG = "too_long"
    STUFFING = "stuffing"
    NEGATION = "negation"
    QUESTION_COPY = "question_copy"
    OFF_TOPIC = "off_topic"
    GIBBERISH = "gibberish"  # no longer raised (guard deleted); kept so that stored grades still load
    PADDING = "padding"  # likewise
    NON_ENGLISH = "non_english"
    INJECTION = "injection"
    MISCONCEPTION = "misconception"


class CriterionResult(BaseModel):
    """How one rubric criterion fared, with the answer sentence that earned or cost it."""

    model_config = ConfigDict(frozen=True)

    criterion_id: str
    description: str
    weight: float
    dimension: Dimension
    verdict: Verdict
    similarity: float = 0.0
    evidence: str | None = None  # the sentence of the answer that matched
    reason: str = ""
    misconception_id: str | None = None
    by_numbers: bool = False  # decided by a wrong or swapped figure or a slip (numeric/verdict.py): no judge lifts it


class Score(BaseModel):
    """One graded answer. `value` is in [0, 1]; `unscored` means no grade could be given at all."""

    model_config = ConfigDict(frozen=True)

    value: float = Field(ge=0.0, le=1.0)
    source: str  # "mcq" | "embedding" | "judge" | "combined"
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    criteria: tuple[CriterionResult, ...] = ()
    flags: tuple[Flag, ...] = ()
    notes: tuple[str, ...] = ()  # plain sentences shown to the candidate (why a flag was raised, etc.)
    unscored: bool = False

    def with_flags(self, *flags: Flag, note: str | None = None) -> Score:
        merged = tuple(dict.fromkeys((*self.flags, *flags)))
        notes = self.notes if note is None else (*self.notes, note)
        return self.model_copy(update={"flags": merged, "notes": notes})
