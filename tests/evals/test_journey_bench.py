"""A small journey load run on each backend: every answer of every concurrent candidate is in the database once."""

from __future__ import annotations

from coach.evals.journey_bench import run_journey_bench
from coach.store.db import Database

KEYS = {"sessions", "answers_expected", "answers_written", "lost", "duplicated", "p50_s", "p95_s", "sessions_per_s"}


def test_eight_concurrent_candidates_lose_and_duplicate_nothing(database: Database, bank, grader) -> None:  # type: ignore[no-untyped-def]
    result = run_journey_bench(database, bank, grader, sessions=8, seed=1, modules=["model-parallelism"])
    assert set(result) >= KEYS
    assert result["errors"] == [] and result["completed"] == 8
    assert result["answers_expected"] == 80 == result["answers_written"]
    assert (result["lost"], result["duplicated"], result["attempts_graded"]) == (0, 0, 8)
    assert result["backend"] == database.dialect
