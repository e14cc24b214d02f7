"""A database outage: a real PostgreSQL stopped while a candidate answers, then started again."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from coach.errors import StoreUnavailable
from coach.service.identity import new_local_key
from coach.service.journey import Journey
from coach.session.runner import AttemptState
from coach.store.db import Database
from tests.service.sitting import MODULE
from tests.support import postgres


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[postgres.PostgresServer]:
    """A PostgreSQL of this test's own, so stopping it disturbs no other test."""
    if not postgres.available():
        message = f"PostgreSQL binaries not found in {postgres.PG_BIN}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    server = postgres.PostgresServer()
    server.init()
    yield server
    server.destroy()


def test_answers_typed_during_an_outage_are_written_when_it_ends(own_postgres, bank, grader) -> None:  # type: ignore[no-untyped-def]
    db = Database(own_postgres.url)
    journey = Journey(db, bank, grader)
    ada = journey.local_candidate(new_local_key(), "Ada")
    attempt = journey.start_practice(ada, MODULE, count=3, seed=9)
    attempt = journey.record_answer(ada, attempt.id, skip=True, advance=True)
    own_postgres.stop()
    try:
        item = attempt.items[attempt.position]
        typed = {"choice": item.key_index} if item.type == "mcq" else {"text": "Replicas hold full weights."}
        with pytest.raises(StoreUnavailable, match="not reachable") as down:
            journey.record_answer(ada, attempt.id, advance=True, **typed)  # type: ignore[arg-type]
        assert "password" not in str(down.value).lower() and "psycopg" not in str(down.value)
        pending = journey.pending(attempt, advance=True, **typed)  # type: ignore[arg-type]
        with pytest.raises(StoreUnavailable):
            journey.flush_pending(ada, pending)  # still down: still kept
        with pytest.raises(StoreUnavailable):
            journey.open_attempt(ada, attempt.id)
    finally:
        own_postgres.start()
    written = journey.flush_pending(ada, pending)
    assert written.position == 2 and written.answer_for(1) is not None
    assert journey.flush_pending(ada, pending) == written  # a second flush (reply lost) writes nothing twice
    assert journey.open_attempt(ada, attempt.id).answers == written.answers
    while written.state == AttemptState.IN_PROGRESS:
        written = journey.record_answer(ada, attempt.id, skip=True, advance=True)
    assert journey.submit_and_grade(ada, attempt.id).attempt.state == AttemptState.GRADED
    db.dispose()


def test_a_pending_answer_flushed_twice_is_one_row(journey: Journey) -> None:
    ada = journey.local_candidate(new_local_key(), "Ada")
    attempt = journey.start_practice(ada, MODULE, count=2, seed=1)
    pending = journey.pending(attempt, skip=True, advance=True)
    first = journey.flush_pending(ada, pending)
    assert journey.flush_pending(ada, pending) == first and len(first.answers) == 1
