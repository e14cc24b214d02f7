"""Throughput: answers per second of offline grading against the raw forward passes that grading needs.

The raw side runs, on the same texts, exactly the model passes the grader needs: the embedder's full pass over
every text the grader encodes (answers and their targets' texts) and, with a cross-encoder, its forward pass
over every pair the grader reads. Both sides are timed in one run, interleaved, each repeat cold (no cached
vectors or pair scores, and the grader's per-text caches emptied); the model loads are not timed. Grading
includes everything it does for an answer: its target's encoding, alignment, the cross-encoder's readings, the
fitted model, criterion verdicts and the guards.
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
from coach.providers.base import Matrix


class _Recording:
    """A pair scorer that remembers which pairs the grader asked for."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name = inner, getattr(inner, "name", "scorer")
        self.pairs: dict[tuple[str, str], None] = {}

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        self.pairs.update(dict.fromkeys(pairs))
        return self.inner.score_pairs(pairs)


def _needs(embedder: Any, scorer: Any, pairs: list[tuple[str, GradingTarget]],
           use_guards: bool) -> tuple[list[str], list[tuple[str, str]]]:
    """The texts the grader encodes and the pairs it reads, found by one untimed run."""
    recording = _Recording(scorer) if scorer is not None else None
    probe = EmbeddingGrader(embedder, use_guards=use_guards, pair_scorer=recording)
    probe.grade_many(pairs)
    return list(probe.encoder._cache), list(recording.pairs) if recording is not None else []


def bench(make_embedder: Callable[[], Any], rows: Sequence[Row], repeats: int = 3, use_guards: bool = True,
          make_scorer: Callable[[], Any] | None = None) -> dict[str, Any]:
    """Best of `repeats` timings for each side, on fresh caches each time (the models themselves are reused)."""
    embedder = make_embedder()
    scorer = make_scorer() if make_scorer is not None else None
    targets: dict[str, GradingTarget] = {}
    pairs = []
    for r in rows:
        if r.qkey not in targets:
            targets[r.qkey] = auto_target(r.question, r.reference, r.extra_refs)
        pairs.append((r.answer, targets[r.qkey]))
    texts, xe_pairs = _needs(embedder, scorer, pairs, use_guards)
    raw_times, grade_times = [], []
    for _ in range(repeats):
        clear_model_caches(embedder, scorer)
        t0 = time.perf_counter()
        if hasattr(embedder, "embed_full"):
            embedder.embed_full(texts)
        else:
            embedder.embed(texts)
        if scorer is not None:
            scorer.score_pairs(xe_pairs)
        raw_times.append(time.perf_counter() - t0)
        clear_model_caches(embedder, scorer)
        clear_text_caches()
        grader = EmbeddingGrader(embedder, use_guards=use_guards, pair_scorer=scorer)
        t0 = time.perf_counter()
        grader.grade_many(pairs)
        grade_times.append(time.perf_counter() - t0)
    n = len(rows)
    raw_rate, grade_rate = n / min(raw_times), n / min(grade_times)
    return {
        "answers": n,
        "questions": len(targets),
        "repeats": repeats,
        "guards": use_guards,
        "cross_encoder": getattr(scorer, "name", None),
        "texts_encoded": len(texts),
        "pairs_read": len(xe_pairs),
        "grading_answers_per_s": round(grade_rate, 1),
        "raw_forward_answers_per_s": round(raw_rate, 1),
        "ratio": round(grade_rate / raw_rate, 3),
        "raw_seconds": [round(t, 3) for t in raw_times],
        "grading_seconds": [round(t, 3) for t in grade_times],
    }


def clear_text_caches() -> None:
    """Empty the grading layer's memoised per-text work (clauses, stems, word lists), so that a repeat is not
    timed on answers it has already read."""
    for name, module in list(sys.modules.items()):
        if name.startswith("coach.grading"):
            for value in vars(module).values():
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def clear_model_caches(*models: Any) -> None:
    """Empty the embedder's and the pair scorer's caches of vectors and scores (None is skipped)."""
    for model in models:
        clear_model_caches(*getattr(model, "members", ()))  # a consensus of scorers: each keeps its own
        cache = getattr(model, "_cache", None)
        if cache is not None:
            cache.clear()
