"""Response records read from the store's graded attempts: the `ResponseSource` the item analysis uses."""

from __future__ import annotations

from coach.analytics.records import ResponseRecord
from coach.grading.score import Score
from coach.store.attempts import graded_attempts
from coach.store.db import Database
from coach.store.records import AttemptRecord


def records_of(attempt: AttemptRecord) -> list[ResponseRecord]:
    """One record per graded answer of one attempt; `attempt_total` sums the attempt's item scores."""
    graded = [(a, Score.model_validate(a.grade)) for a in attempt.answers if a.grade is not None]
    total = sum(score.value for _, score in graded)
    out = []
    for answer, score in graded:
        kind = str(attempt.items[answer.index].get("type", "mcq"))
        out.append(ResponseRecord(
            attempt_id=attempt.id,
            candidate_id=attempt.candidate_id,
            item_id=answer.item_id,
            item_version=answer.item_version,
            variant=",".join(f"{k}={v}" for k, v in answer.variant),
            type="short" if kind == "short" else "mcq",
            chosen_text=None if answer.skipped else answer.choice_text,
            chosen_index=None if answer.skipped else answer.choice,
            score=score.value,
            criteria={c.criterion_id: c.verdict.value for c in score.criteria},
            attempt_total=total,
        ))
    return out


class StoreResponseSource:
    """Every candidate's graded answers (readiness checks and practice tests) from the database."""

    def __init__(self, db: Database, module: str | None = None) -> None:
        self.db = db
        self.module = module

    def responses(self, item_id: str | None = None) -> list[ResponseRecord]:
        records = [r for a in graded_attempts(self.db, module=self.module) for r in records_of(a)]
        return [r for r in records if item_id is None or r.item_id == item_id]
