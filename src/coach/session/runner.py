"""The attempt as a plain, serialisable model and the pure transitions that drive it.

Every transition returns a new Attempt; nothing here touches the UI, a store or a model.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from coach.content.render import RenderedItem
from coach.errors import AnswerError, SessionError


class AttemptKind(StrEnum):
    PRACTICE = "practice"
    READINESS = "readiness"


class Reveal(StrEnum):
    EACH = "each"  # show the answer and explanation after each question
    END = "end"


class AttemptState(StrEnum):
    IN_PROGRESS = "in_progress"
    SUBMITTED = "submitted"  # all answers in, not yet graded
    GRADED = "graded"


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True)

    index: int
    choice: int | None = None  # MCQ option index as shown
    text: str | None = None  # short answer
    skipped: bool = False
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))


class Attempt(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    kind: AttemptKind
    module: str
    seed: int
    reveal: Reveal = Reveal.END
    difficulty: str | None = None
    items: tuple[RenderedItem, ...]
    answers: tuple[Answer, ...] = ()
    position: int = 0
    state: AttemptState = AttemptState.IN_PROGRESS
    started: datetime = Field(default_factory=lambda: datetime.now(UTC))

    @property
    def current(self) -> RenderedItem | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def answer_for(self, index: int) -> Answer | None:
        return next((a for a in self.answers if a.index == index), None)

    @property
    def answered(self) -> int:
        return len(self.answers)


def start(
    kind: AttemptKind,
    module: str,
    items: list[RenderedItem],
    seed: int,
    reveal: Reveal = Reveal.END,
    difficulty: str | None = None,
) -> Attempt:
    if not items:
        raise SessionError("an attempt needs at least one question")
    return Attempt(kind=kind, module=module, seed=seed, reveal=reveal, difficulty=difficulty, items=tuple(items))


def validate_text(text: str | None, max_chars: int) -> str:
    """Clean a short answer or raise AnswerError with a message fit for the candidate."""
    cleaned = (text or "").strip()
    if not cleaned:
        raise AnswerError("Your answer is empty. Write an answer, or choose Skip to move on without one.")
    if len(cleaned) > max_chars:
        raise AnswerError(
            f"Your answer is {len(cleaned):,} characters; the limit is {max_chars:,}. "
            "Shorten it: your text is kept in the box."
        )
    return cleaned


def record(
    attempt: Attempt, *, choice: int | None = None, text: str | None = None, skip: bool = False, max_chars: int = 4000
) -> Attempt:
    """Record the answer to the current question (it is stored before any grading happens)."""
    if attempt.state != AttemptState.IN_PROGRESS:
        raise SessionError("this attempt is no longer taking answers")
    item = attempt.current
    if item is None:
        raise SessionError("every question is already answered")
    if skip:
        answer = Answer(index=attempt.position, skipped=True)
    elif item.type == "mcq":
        if choice is None or not 0 <= choice < len(item.options):
            raise AnswerError("Choose one of the options, or choose Skip.")
        answer = Answer(index=attempt.position, choice=choice)
    else:
        answer = Answer(index=attempt.position, text=validate_text(text, max_chars))
    answers = (*tuple(a for a in attempt.answers if a.index != attempt.position), answer)
    return attempt.model_copy(update={"answers": answers})


def advance(attempt: Attempt) -> Attempt:
    """Move to the next question; after the last one the attempt is submitted for grading."""
    if attempt.answer_for(attempt.position) is None:
        raise SessionError("answer or skip the current question first")
    position = attempt.position + 1
    state = AttemptState.SUBMITTED if position >= len(attempt.items) else attempt.state
    return attempt.model_copy(update={"position": position, "state": state})


def mark_graded(attempt: Attempt) -> Attempt:
    if attempt.state != AttemptState.SUBMITTED:
        raise SessionError("only a submitted attempt can be graded")
    return attempt.model_copy(update={"state": AttemptState.GRADED})
