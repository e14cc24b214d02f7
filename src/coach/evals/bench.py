"""Throughput: answers per second of offline grading against raw sentence embedding of the same answers.

Both sides start cold (no cached vectors, and the grader's per-text caches emptied); the model load is not timed.
Grading includes everything it does for an answer: its target's encoding, alignment, the model, criterion
verdicts and the guards.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from coach.evals.datasets import Row
from coach.grading.offline.auto_rubric import auto_target
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.target import GradingTarget


def bench(make_embedder: Callable[[], Any], rows: Sequence[Row], repeats: int = 3,
          use_guards: bool = True) -> dict[str, Any]:
    """Best of `repeats` timings for each side, on fresh caches each time (the model itself is reused)."""
    embedder = make_embedder()
    texts = [r.answer for r in rows]
    targets: dict[str, GradingTarget] = {}
    pairs = []
    for r in rows:
        if r.qkey not in targets:
            targets[r.qkey] = auto_target(r.question, r.reference, r.extra_refs)
        pairs.append((r.answer, targets[r.qkey]))
    raw_times, grade_times = [], []
    for _ in range(repeats):
        _clear(embedder)
        t0 = time.perf_counter()
        embedder.embed(texts)
        raw_times.append(time.perf_counter() - t0)
        _clear(embedder)
        _clear_text_caches()
        grader = EmbeddingGrader(embedder, use_guards=use_guards)
        t0 = time.perf_counter()
        grader.grade_many(pairs)
        grade_times.append(time.perf_counter() - t0)
    raw_rate = len(texts) / min(raw_times)
    grade_rate = len(texts) / min(grade_times)
    return {
        "answers": len(texts),
        "questions": len(targets),
        "repeats": repeats,
        "guards": use_guards,
        "grading_answers_per_s": round(grade_rate, 1),
        "raw_embedding_answers_per_s": round(raw_rate, 1),
        "ratio": round(grade_rate / raw_rate, 3),
        "raw_seconds": [round(t, 3) for t in raw_times],
        "grading_seconds": [round(t, 3) for t in grade_times],
    }


def _clear_text_caches() -> None:
    """Empty the grading layer's memoised per-text work (clauses, stems, word lists), so that a repeat is not
    timed on answers it has already read."""
    for name, module in list(sys.modules.items()):
        if name.startswith("coach.grading"):
            for value in vars(module).values():
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def _clear(embedder: Any) -> None:
    cache = getattr(embedder, "_cache", None)
    if cache is not None:
        cache.clear()
