"""Row counts that prove a load run lost or duplicated nothing."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import func, select

from coach.store.db import Database
from coach.store.models import AnswerRow, AttemptRow


def answers_per_attempt(db: Database, attempt_ids: Collection[str]) -> dict[str, int]:
    """How many answer rows each attempt has (attempts without any are absent)."""
    with db.read() as session:
        rows = session.execute(
            select(AnswerRow.attempt_id, func.count())
            .where(AnswerRow.attempt_id.in_(list(attempt_ids)))
            .group_by(AnswerRow.attempt_id)
        )
        return {attempt_id: int(n) for attempt_id, n in rows}


def duplicate_answers(db: Database, attempt_ids: Collection[str]) -> int:
    """Answer rows beyond the first for the same (attempt, question): zero unless the unique key failed."""
    with db.read() as session:
        groups = session.execute(
            select(func.count())
            .where(AnswerRow.attempt_id.in_(list(attempt_ids)))
            .group_by(AnswerRow.attempt_id, AnswerRow.index)
            .having(func.count() > 1)
        )
        return sum(int(n) - 1 for (n,) in groups)


def graded_attempts(db: Database, attempt_ids: Collection[str]) -> int:
    with db.read() as session:
        return int(session.scalar(
            select(func.count()).select_from(AttemptRow)
            .where(AttemptRow.id.in_(list(attempt_ids)), AttemptRow.state == "graded")
        ) or 0)
