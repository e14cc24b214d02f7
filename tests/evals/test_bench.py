"""The throughput bench on a few rows with the real model: what it reports, and that repeats start cold."""

from __future__ import annotations

import pytest

from coach.evals.bench import bench, clear_text_caches
from coach.evals.datasets import Row
from coach.grading.guards import clauses as guards_clauses
from coach.grading.guards import lexical as guards_lexical
from coach.grading.offline.calibration import shipped_params

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
    assert out["cross_encoder"] == pair_scorer.name and out["texts_encoded"] > 4
    # these automatic targets are read through the whole answer only, and only a model fitted with the
    # cross-encoder's features uses that reading: with none shipped, the grader reads no pair at all
    reads_whole = shipped_params(cross=True).weights_whole_reading
    assert out["pairs_read"] >= 4 if reads_whole else out["pairs_read"] == 0
    assert len(out["raw_seconds"]) == len(out["grading_seconds"]) == 2
    # every figure is printed rounded (rates to 0.1, seconds to 0.001, the ratio to 0.001): compare each with what
    # the other printed figures imply, within the rounding of both, so the machine's speed cannot matter
    for rate, seconds in (("grading_answers_per_s", "grading_seconds"), ("raw_forward_answers_per_s", "raw_seconds")):
        assert out[rate] == pytest.approx(4 / min(out[seconds]), abs=_rate_slack(4, min(out[seconds])))
    grade, raw = out["grading_answers_per_s"], out["raw_forward_answers_per_s"]
    assert raw > 0.05
    slack = 0.05 * (1 + grade / raw) / (raw - 0.05) + 0.0005
    assert out["ratio"] == pytest.approx(grade / raw, abs=slack)


def _rate_slack(n: int, seconds: float) -> float:
    """How far n / seconds may be from the printed rate: the rate's rounding plus the seconds' (±0.0005 s)."""
    low = max(seconds - 0.0005, 1e-6)
    return 0.05 + n / low - n / (seconds + 0.0005) + 1e-9


def test_a_repeat_does_not_reuse_the_grader_s_per_text_work() -> None:
    guards_clauses.clauses("The pipeline does not stall when micro-batches grow.")
    guards_lexical.tokens("The pipeline does not stall when micro-batches grow.")
    assert guards_clauses._clauses.cache_info().currsize > 0
    clear_text_caches()
    assert guards_clauses._clauses.cache_info().currsize == 0
    assert guards_lexical.tokens.cache_info().currsize == 0
