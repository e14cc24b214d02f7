"""Plain, frozen records the store hands out and takes in (no ORM object leaves a transaction).

The store knows nothing of sessions or grades: items, grades and dimension scores are JSON the service
layer produces and reads back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from coach.store.models import AnswerRow, AttemptRow, Candidate, ReviewDecisionRow, ShareLink

Json = dict[str, Any]


@dataclass(frozen=True)
class CandidateRecord:
    id: str
    display_name: str
    identity: str
    mode: str  # "local" | "oidc"
    created_at: datetime

    @classmethod
    def of(cls, row: Candidate) -> CandidateRecord:
        return cls(row.id, row.display_name, row.identity, row.mode, row.created_at)


@dataclass(frozen=True)
class AnswerRecord:
    index: int
    item_id: str
    item_version: int
    variant: tuple[tuple[str, str], ...]
    answered_at: datetime
    choice: int | None = None
    choice_text: str | None = None
    text: str | None = None
    skipped: bool = False
    grade: Json | None = None
    graded_at: datetime | None = None

    @classmethod
    def of(cls, row: AnswerRow) -> AnswerRecord:
        return cls(
            index=row.index,
            item_id=row.item_id,
            item_version=row.item_version,
            variant=tuple((str(k), str(v)) for k, v in row.variant),
            answered_at=row.answered_at,
            choice=row.choice,
            choice_text=row.choice_text,
            text=row.text,
            skipped=row.skipped,
            grade=row.grade,
            graded_at=row.graded_at,
        )

    def columns(self) -> Json:
        """The answer's own columns (no grade): what `save_answer` writes."""
        return {
            "index": self.index,
            "item_id": self.item_id,
            "item_version": self.item_version,
            "variant": [list(p) for p in self.variant],
            "choice": self.choice,
            "choice_text": self.choice_text,
            "text": self.text,
            "skipped": self.skipped,
            "answered_at": self.answered_at,
        }


@dataclass(frozen=True)
class AttemptRecord:
    id: str
    candidate_id: str
    kind: str  # "readiness" | "practice"
    module: str
    seed: int
    reveal: str
    difficulty: str | None
    state: str  # "in_progress" | "submitted" | "graded" | "abandoned"
    position: int
    items: tuple[Json, ...]
    started_at: datetime
    submitted_at: datetime | None = None
    graded_at: datetime | None = None
    overall: float | None = None
    band: str | None = None
    dimensions: tuple[Json, ...] | None = None
    answers: tuple[AnswerRecord, ...] = field(default=())

    @classmethod
    def of(cls, row: AttemptRow, answers: list[AnswerRow]) -> AttemptRecord:
        return cls(
            id=row.id,
            candidate_id=row.candidate_id,
            kind=row.kind,
            module=row.module,
            seed=row.seed,
            reveal=row.reveal,
            difficulty=row.difficulty,
            state=row.state,
            position=row.position,
            items=tuple(row.items),
            started_at=row.started_at,
            submitted_at=row.submitted_at,
            graded_at=row.graded_at,
            overall=row.overall,
            band=row.band,
            dimensions=tuple(row.dimensions) if row.dimensions is not None else None,
            answers=tuple(AnswerRecord.of(a) for a in sorted(answers, key=lambda a: a.index)),
        )


@dataclass(frozen=True)
class ShareRecord:
    token: str
    attempt_id: str
    created_at: datetime
    revoked_at: datetime | None
    show_name: bool

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @classmethod
    def of(cls, row: ShareLink) -> ShareRecord:
        return cls(row.token, row.attempt_id, row.created_at, row.revoked_at, row.show_name)


@dataclass(frozen=True)
class ReviewDecision:
    """One authoring-studio decision on a draft item (the `DecisionLog` protocol's record)."""

    id: int
    item_id: str
    draft_path: str
    action: str  # "approve" | "edit_approve" | "reject"
    reason: str
    author: str
    at: datetime
    resulting_version: int | None

    @classmethod
    def of(cls, row: ReviewDecisionRow) -> ReviewDecision:
        return cls(row.id, row.item_id, row.draft_path, row.action, row.reason, row.author, row.at,
                   row.resulting_version)
