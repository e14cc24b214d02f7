"""A candidate distractor, the reasons it was rejected, and the signals that ranked it."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from coach.content.schema import ValueSpec


class Source(StrEnum):
    WRONG_FORMULA = "wrong-formula"  # a named wrong calculator evaluated on the item's own params
    DERIVATION = "derivation-step"  # an intermediate value of the item's own derivation, offered as the answer
    ARGUMENT = "argument-slip"  # the right calculator on a misread input (another dtype, the other param value)
    SLIP = "factor-slip"  # the right value times 2, 1/2, 10 or 1/10
    CATALOGUE = "catalogue"  # a misconception's statement, adapted to the stem
    SWAP = "term-swap"  # the key with one paired term swapped (prefill/decode, row/column, ...)
    SIBLING = "sibling-key"  # the key of another item in the module
    LLM = "llm"  # proposed by a chat model, grounded in the page


class Candidate(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str  # as a candidate would see it (the item's first variant)
    source: Source
    why_wrong: str
    misconception: str | None = None
    origin: str = ""  # the calculator, the swapped pair, the sibling item, the model
    # For a computed distractor: the option as it goes into the item file, and the value specs it adds.
    template: str | None = None
    values: dict[str, ValueSpec] = Field(default_factory=dict)
    value: float | None = None  # the number it shows, before formatting
    page_quote: str | None = None  # LLM candidates: the page's words that show why it is wrong


class Signal(BaseModel):
    """One ranking signal: its value in [0, 1], its weight, and what it measured."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: float
    weight: float
    note: str

    @property
    def contribution(self) -> float:
        return self.value * self.weight


class Assessed(BaseModel):
    """A candidate after validation (`reasons` empty when valid) and ranking."""

    model_config = ConfigDict(frozen=True)

    candidate: Candidate
    reasons: tuple[str, ...] = ()
    plausibility: float = 0.0
    signals: tuple[Signal, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.reasons

    def explain(self) -> str:
        """Which signals put the candidate where it is, largest contribution first."""
        parts = sorted(self.signals, key=lambda s: s.contribution, reverse=True)
        return "; ".join(f"{s.name} {s.contribution:+.2f} ({s.note})" for s in parts)

    def public(self) -> dict[str, object]:
        """The `coach author distractors --json` record (a contract other tools depend on)."""
        c = self.candidate
        return {
            "text": c.text,
            "misconception": c.misconception,
            "why_wrong": c.why_wrong,
            "plausibility": round(self.plausibility, 3),
            "source": c.source.value,
        }
