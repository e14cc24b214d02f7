"""Load on the journey: N concurrent candidates start a readiness check, answer every question, submit and are
graded offline; the rows are counted afterwards to prove nothing was lost or duplicated.

Submission latency is the time of `submit_and_grade` (grading included; one grader per process, so concurrent
submissions queue for it, as they do in one app instance); `answer_write_*` times each `record_answer`, the
store's share of the work. Figures depend on the machine: print, never assert.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from coach.content.bank import Bank
from coach.grading.offline.grader import EmbeddingGrader
from coach.service.identity import new_local_key
from coach.service.journey import Journey, Policy
from coach.session.runner import Attempt, AttemptState
from coach.store import counts
from coach.store.db import Database

WEAK_ANSWER = "It depends on the hardware and the batch size, so it is hard to say in general."


@dataclass(frozen=True)
class SessionRun:
    attempt_id: str
    questions: int
    submit_s: float
    writes_s: tuple[float, ...]  # each record_answer call (validate, write, read back)


def _answer(journey: Journey, who: Any, attempt: Attempt, rng: random.Random) -> tuple[Attempt, list[float]]:
    writes = []
    while attempt.state == AttemptState.IN_PROGRESS:
        item = attempt.items[attempt.position]
        started = time.perf_counter()
        if item.type == "mcq":
            attempt = journey.record_answer(who, attempt.id, choice=rng.randrange(len(item.options)), advance=True)
        else:
            text = item.model_answer if rng.random() < 0.5 else WEAK_ANSWER
            attempt = journey.record_answer(who, attempt.id, text=text, advance=True)
        writes.append(time.perf_counter() - started)
    return attempt, writes


def _one_session(journey: Journey, module: str, n: int, seed: int) -> SessionRun:
    rng = random.Random(seed * 100_003 + n)
    who = journey.local_candidate(new_local_key(), f"Bench candidate {n}")
    attempt = journey.start_readiness(who, module, seed=rng.randrange(2**31))
    attempt, writes = _answer(journey, who, attempt, rng)
    started = time.perf_counter()
    journey.submit_and_grade(who, attempt.id)
    return SessionRun(attempt.id, len(attempt.items), time.perf_counter() - started, tuple(writes))


def run_journey_bench(db: Database, bank: Bank, grader: EmbeddingGrader, sessions: int, seed: int = 0,
                      modules: list[str] | None = None) -> dict[str, Any]:
    """Drive `sessions` concurrent candidates through the service and count what the database holds.
    Candidates take the open modules in turn (or `modules`)."""
    journey = Journey(db, bank, grader, policy=Policy())
    modules = modules or [m.id for m in bank.ready_modules()]
    grader.embedder.embed(["warm the model before timing"])  # load the weights before any timing
    wall = time.perf_counter()
    errors: list[str] = []
    runs: list[SessionRun] = []
    with ThreadPoolExecutor(max_workers=sessions) as pool:
        futures = [pool.submit(_one_session, journey, modules[n % len(modules)], n, seed) for n in range(sessions)]
        for future in futures:
            try:
                runs.append(future.result())
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
    wall_s = time.perf_counter() - wall
    ids = [r.attempt_id for r in runs]
    written = counts.answers_per_attempt(db, ids)
    expected = {r.attempt_id: r.questions for r in runs}
    lost = sum(max(0, n - written.get(a, 0)) for a, n in expected.items())
    extra = sum(max(0, written.get(a, 0) - n) for a, n in expected.items())
    latencies = np.array([r.submit_s for r in runs]) if runs else np.array([0.0])
    writes = np.array([w for r in runs for w in r.writes_s]) if runs else np.array([0.0])
    return {
        "sessions": sessions,
        "backend": db.dialect,
        "completed": len(runs),
        "errors": errors,
        "answers_expected": sum(expected.values()),
        "answers_written": sum(written.values()),
        "lost": lost,
        "duplicated": extra + counts.duplicate_answers(db, ids),
        "attempts_graded": counts.graded_attempts(db, ids),
        "p50_s": round(float(np.percentile(latencies, 50)), 3),
        "p95_s": round(float(np.percentile(latencies, 95)), 3),
        "max_s": round(float(latencies.max()), 3),
        "answer_write_p50_s": round(float(np.percentile(writes, 50)), 4),
        "answer_write_p95_s": round(float(np.percentile(writes, 95)), 4),
        "wall_s": round(wall_s, 3),
        "sessions_per_s": round(len(runs) / wall_s, 3) if wall_s else 0.0,
        "answers_per_s": round(sum(written.values()) / wall_s, 3) if wall_s else 0.0,
    }
