"""Attempts and answers in the store, on SQLite and PostgreSQL: ownership, upserts, the start limit under a race."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from coach.errors import AttemptNotFound, RetakeLimitReached, SessionError
from coach.store import attempts, candidates
from coach.store.db import Database
from coach.store.records import AnswerRecord, AttemptRecord

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ITEMS = tuple({"id": f"q{i}", "n": i} for i in range(3))


def new_attempt(candidate_id: str, attempt_id: str, started: datetime = T0, kind: str = "readiness",
                module: str = "mod") -> AttemptRecord:
    return AttemptRecord(id=attempt_id, candidate_id=candidate_id, kind=kind, module=module, seed=7, reveal="end",
                         difficulty=None, state="in_progress", position=0, items=ITEMS, started_at=started)


def answer(index: int, text: str = "an answer") -> AnswerRecord:
    return AnswerRecord(index=index, item_id=f"q{index}", item_version=2, variant=(("model", "llama"),),
                        answered_at=T0, text=text)


@pytest.fixture
def owner(database: Database) -> str:
    return candidates.get_or_create(database, "local", "k" * 32, "Ada").id


def test_an_attempt_round_trips_with_aware_times(database: Database, owner: str) -> None:
    attempts.insert_attempt(database, new_attempt(owner, "a1"))
    loaded = attempts.load_attempt(database, owner, "a1")
    assert loaded is not None and loaded.items == ITEMS and loaded.started_at == T0
    assert loaded.started_at.tzinfo is not None


def test_another_candidate_gets_nothing(database: Database, owner: str) -> None:
    other = candidates.get_or_create(database, "local", "o" * 32, "Eve").id
    attempts.insert_attempt(database, new_attempt(owner, "a1"))
    assert attempts.load_attempt(database, other, "a1") is None
    with pytest.raises(AttemptNotFound):
        attempts.save_answer(database, other, "a1", answer(0), 1, "in_progress")
    assert attempts.load_attempt(database, owner, "a1").answers == ()  # type: ignore[union-attr]


def test_an_answer_is_replaced_not_duplicated(database: Database, owner: str) -> None:
    attempts.insert_attempt(database, new_attempt(owner, "a1"))
    attempts.save_answer(database, owner, "a1", answer(0, "first"), 0, "in_progress")
    stored = attempts.save_answer(database, owner, "a1", answer(0, "second"), 1, "in_progress")
    assert [(a.index, a.text, a.item_version, a.variant) for a in stored.answers] == [
        (0, "second", 2, (("model", "llama"),))
    ]
    assert stored.position == 1


def test_the_last_answer_submits_and_grades_are_written(database: Database, owner: str) -> None:
    attempts.insert_attempt(database, new_attempt(owner, "a1"))
    for i in range(3):
        record = attempts.save_answer(database, owner, "a1", answer(i), i + 1, "submitted" if i == 2 else "in_progress")
    assert record.state == "submitted" and record.submitted_at is not None
    with pytest.raises(SessionError):
        attempts.save_answer(database, owner, "a1", answer(0), 3, "submitted")
    graded = attempts.save_grades(database, owner, "a1", {0: {"value": 1.0, "flags": ["x"]}}, overall=0.5,
                                  band="Developing", dimensions=[{"dimension": "conceptual", "value": 0.5}])
    assert graded.state == "graded" and graded.answers[0].grade == {"value": 1.0, "flags": ["x"]}
    assert graded.answers[0].graded_at is not None and graded.answers[1].grade is None


def test_grading_an_unfinished_attempt_is_refused(database: Database, owner: str) -> None:
    attempts.insert_attempt(database, new_attempt(owner, "a1"))
    with pytest.raises(SessionError):
        attempts.save_grades(database, owner, "a1", {}, overall=0.0, band="x", dimensions=[])


def test_the_start_limit_counts_a_rolling_window(database: Database, owner: str) -> None:
    limit = attempts.StartLimit(3, timedelta(hours=24))
    for n, hours in enumerate((0, 5, 10)):
        at = T0 + timedelta(hours=hours)
        attempts.insert_attempt(database, new_attempt(owner, f"a{n}", at), limit, now=at)
    with pytest.raises(RetakeLimitReached) as refused:
        attempts.insert_attempt(database, new_attempt(owner, "a3", T0 + timedelta(hours=12)), limit,
                                now=T0 + timedelta(hours=12))
    assert refused.value.remaining == 0 and refused.value.next_open_at == T0 + timedelta(hours=24)
    # other modules and practice are not limited by readiness starts here
    attempts.insert_attempt(database, new_attempt(owner, "b1", T0, module="other"), limit, now=T0)
    later = T0 + timedelta(hours=24, minutes=1)
    attempts.insert_attempt(database, new_attempt(owner, "a4", later), limit, now=later)


@pytest.mark.parametrize("racers", [8])
def test_two_tabs_racing_cannot_get_a_fourth_start(database: Database, owner: str, racers: int) -> None:
    limit = attempts.StartLimit(3, timedelta(hours=24))
    now = datetime.now(UTC)
    attempts.insert_attempt(database, new_attempt(owner, "pre1", now - timedelta(hours=1)), limit)
    attempts.insert_attempt(database, new_attempt(owner, "pre2", now - timedelta(minutes=30)), limit)
    gate = threading.Barrier(racers)

    # widen the race: every racer pauses between counting its starts and inserting its attempt
    @event.listens_for(database.engine, "after_cursor_execute")
    def _pause(conn: object, cursor: object, statement: str, *args: object) -> None:
        if statement.startswith("SELECT attempts.started_at"):
            time.sleep(0.15)

    won: list[str] = []
    refused: list[str] = []
    errors: list[BaseException] = []

    def race(n: int) -> None:
        gate.wait()
        try:
            attempts.insert_attempt(database, new_attempt(owner, f"race{n}", datetime.now(UTC)), limit)
            won.append(f"race{n}")
        except RetakeLimitReached:
            refused.append(f"race{n}")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=race, args=(n,)) for n in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(won) == 1 and len(refused) == racers - 1
    assert len(attempts.list_attempts(database, owner, module="mod", kind="readiness")) == 3


def test_the_open_attempt_is_the_latest_unfinished_one(database: Database, owner: str) -> None:
    attempts.insert_attempt(database, new_attempt(owner, "old", T0))
    attempts.insert_attempt(database, new_attempt(owner, "new", T0 + timedelta(minutes=5)))
    assert attempts.find_open(database, owner, "mod", "readiness").id == "new"  # type: ignore[union-attr]
    attempts.abandon(database, owner, "new")
    assert attempts.find_open(database, owner, "mod", "readiness").id == "old"  # type: ignore[union-attr]
    assert attempts.find_open(database, owner, "mod", "practice") is None


def test_a_naive_datetime_is_refused(database: Database, owner: str) -> None:
    with pytest.raises(Exception, match="naive"):
        attempts.insert_attempt(database, new_attempt(owner, "a1", datetime(2026, 1, 1)))
