"""The service's typed answers to the pages: small frozen models, no ORM rows, nothing Streamlit."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from coach.grading.dimensions import ScoreCard
from coach.session.runner import Attempt
from coach.vocab import Dimension


class View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RetakesLeft(View):
    """Readiness starts left in the rolling window, and when the next opens if none are left."""

    module: str
    limit: int
    used: int
    remaining: int
    next_open_at: datetime | None  # None while a start is available
    window_hours: float


class GradedAttempt(View):
    attempt: Attempt
    card: ScoreCard


class AttemptSummary(View):
    """One line of the history page."""

    id: str
    kind: str
    module: str
    module_title: str
    state: str
    started_at: datetime
    submitted_at: datetime | None
    graded_at: datetime | None
    answered: int
    questions: int
    overall: float | None
    band: str | None
    dimensions: dict[Dimension, float | None]


class PendingAnswer(View):
    """An answer the database could not take yet: the page keeps it and hands it back to `flush_pending`."""

    attempt_id: str
    index: int
    choice: int | None = None
    text: str | None = None
    skip: bool = False
    advance: bool | None = None


class SharedResult(View):
    """All a share link shows: never answer text, never per-question content, the name only if opted in."""

    module: str
    module_title: str
    date: datetime
    band: str
    overall: float
    dimensions: dict[Dimension, float | None]
    name: str | None
