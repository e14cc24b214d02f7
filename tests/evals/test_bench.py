"""The throughput bench on a few rows with the real model: what it reports, and that repeats start cold."""

from __future__ import annotations

import pytest

from coach.evals.bench import _clear_text_caches, bench
from coach.evals.datasets import Row
from coach.grading.guards import clauses as guards_clauses
from coach.grading.guards import lexical as guards_lexical

Q = "Why does tensor parallelism need an all-reduce?"
REF = "Each GPU holds a slice of the weights and computes a partial sum; the all-reduce adds the partial sums."


def _rows() -> list[Row]:
    answers = ["The partial sums from every GPU are added so each GPU has the full output.", "It is faster.",
               "GPUs are used.", "Each shard computes part of the matmul; all-reduce sums them."]
    return [Row(dataset="t", split="all", group="", qkey="q1", question=Q, reference=REF, answer=a, gold=0.0)
            for a in answers]


def test_bench_reports_both_rates_and_their_ratio(st_embedder, pair_scorer) -> None:  # type: ignore[no-untyped-def]
    out = bench(lambda: st_embedder, _rows(), repeats=2, make_scorer=lambda: pair_scorer)
    assert (out["answers"], out["questions"], out["repeats"], out["guards"]) == (4, 1, 2, True)
    assert out["cross_encoder"] == pair_scorer.name and out["pairs_read"] >= 4 and out["texts_encoded"] > 4
    assert len(out["raw_seconds"]) == len(out["grading_seconds"]) == 2
    assert out["grading_answers_per_s"] == pytest.approx(4 / min(out["grading_seconds"]), abs=0.06)  # 1 decimal
    raw = 4 / min(out["raw_seconds"])
    assert out["ratio"] == pytest.approx(min(out["raw_seconds"]) / min(out["grading_seconds"]), abs=0.002)
    assert out["raw_forward_answers_per_s"] == pytest.approx(raw, abs=0.06)


def test_a_repeat_does_not_reuse_the_grader_s_per_text_work() -> None:
    guards_clauses.clauses("The pipeline does not stall when micro-batches grow.")
    guards_lexical.tokens("The pipeline does not stall when micro-batches grow.")
    assert guards_clauses._clauses.cache_info().currsize > 0
    _clear_text_caches()
    assert guards_clauses._clauses.cache_info().currsize == 0
    assert guards_lexical.tokens.cache_info().currsize == 0
