"""Review decisions of the authoring studio: who approved, edited or rejected which draft, and why."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import select

from coach.store.db import Database
from coach.store.models import ReviewDecisionRow, utcnow
from coach.store.records import ReviewDecision

Action = Literal["approve", "edit_approve", "reject"]
ACTIONS = ("approve", "edit_approve", "reject")


class DecisionStore:
    """Implements the authoring `DecisionLog` protocol on the database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def record_decision(
        self,
        *,
        item_id: str,
        draft_path: str,
        action: Action,
        author: str,
        reason: str = "",
        resulting_version: int | None = None,
        at: datetime | None = None,
    ) -> ReviewDecision:
        if action not in ACTIONS:
            raise ValueError(f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        with self.db.write() as session:
            row = ReviewDecisionRow(item_id=item_id, draft_path=draft_path, action=action, reason=reason,
                                    author=author, at=at or utcnow(), resulting_version=resulting_version)
            session.add(row)
            session.flush()
            return ReviewDecision.of(row)

    def list_decisions(self, item_id: str | None = None) -> list[ReviewDecision]:
        """Every decision (or those on one item), oldest first."""
        query = select(ReviewDecisionRow).order_by(ReviewDecisionRow.at, ReviewDecisionRow.id)
        if item_id is not None:
            query = query.where(ReviewDecisionRow.item_id == item_id)
        with self.db.read() as session:
            return [ReviewDecision.of(r) for r in session.scalars(query)]
