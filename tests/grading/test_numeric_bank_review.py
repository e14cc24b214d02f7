"""Regression tests for the bank review's number findings (../shared/reference/bank-review.md), graded by the
real offline grader on the real bank. Before the numeric check (commit 1e3042b) each of these failed: the
K/V-factor-dropped answer scored 0.92 with gqa-size met, and if-rl-knee's ridge-estimate was missed on the
model answer and on a correct alternative, and not contradicted on a ridge built from NVLink bandwidth."""

from __future__ import annotations

from coach.content.bank import Bank
from coach.content.render import render
from coach.grading.attempt import target_for
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import CriterionResult, Score, Verdict

STRONG = 0.8

KV_FACTOR_DROPPED = (
    "Llama 3.1 405B caches, in each of its 126 layers, 8 KV heads of 128 dimensions in BF16: 126·8·128·2 = 258,048 B "
    "per token. DeepSeek-V3's MLA caches one 512-dim latent plus a 64-dim RoPE key per layer: 61·(512+64)·2 = "
    "70,272 B. So the Llama cache is about 3.7× larger per token. MLA pays in compute: the latent has to be "
    "up-projected into per-head keys and values at every step, and tensor parallelism cannot split the latent by "
    "head, so every TP rank holds a copy."
)
RIDGE_ALTERNATIVE = (
    "A decode weight GEMM reads each BF16 weight once per step and every sequence does a multiply-add with it, so "
    "intensity is B FLOPs per byte and grows with the batch. Below the ridge the step time is the shared weight "
    "read, so throughput grows linearly with the batch; past it the step is compute-bound and throughput flattens. "
    "The ridge is 1000e12/3.35e12 ≈ 300 FLOPs/byte, so near B = 300 the GEMMs become compute-bound. KV-cache reads "
    "are private to each sequence, so real curves bend earlier."
)
RIDGE_FROM_NVLINK = (
    "Below the ridge throughput grows linearly with the batch because the weight read is shared; past it the GEMMs "
    "are compute-bound and it flattens. The ridge = 1000 TFLOP/s over NVLink 450 GB/s, so the knee is at a batch "
    "of about 2,200. KV-cache reads add to each step, so the curve bends earlier at long context."
)


def _grade(bank: Bank, grader: EmbeddingGrader, item_id: str, answer: str | None = None) -> Score:
    rendered = render(bank.items[item_id])
    return grader.grade(answer or rendered.model_answer or "", target_for(bank, rendered))


def _criterion(score: Score, criterion_id: str) -> CriterionResult:
    return next(c for c in score.criteria if c.criterion_id == criterion_id)


def test_kv_factor_dropped_is_contradicted_and_not_strong(bank: Bank, grader: EmbeddingGrader) -> None:
    score = _grade(bank, grader, "if-kv-gqa-vs-mla", KV_FACTOR_DROPPED)
    gqa = _criterion(score, "gqa-size")
    assert gqa.verdict is Verdict.CONTRADICTED
    assert gqa.misconception_id == "kv-forgets-k-and-v"
    assert gqa.evidence is not None and "258,048 B" in gqa.evidence and gqa.evidence in KV_FACTOR_DROPPED
    assert "expected 516,096 B" in gqa.reason
    assert _criterion(score, "mla-size-ratio").verdict is not Verdict.MET  # 3.7× is not the ratio
    assert score.value < STRONG
    assert any("258,048 B" in n for n in score.notes)


def test_kv_model_answer_keeps_its_size_criteria_met(bank: Bank, grader: EmbeddingGrader) -> None:
    score = _grade(bank, grader, "if-kv-gqa-vs-mla")
    assert _criterion(score, "gqa-size").verdict is Verdict.MET
    assert _criterion(score, "mla-size-ratio").verdict is Verdict.MET
    assert score.value >= STRONG


def test_knee_model_answer_and_a_correct_alternative_meet_the_ridge(bank: Bank, grader: EmbeddingGrader) -> None:
    for answer in (None, RIDGE_ALTERNATIVE):
        ridge = _criterion(_grade(bank, grader, "if-rl-knee", answer), "ridge-estimate")
        assert ridge.verdict is Verdict.MET, (answer, ridge)
        assert ridge.evidence and "3.35" in ridge.evidence


def test_knee_from_nvlink_bandwidth_is_contradicted(bank: Bank, grader: EmbeddingGrader) -> None:
    ridge = _criterion(_grade(bank, grader, "if-rl-knee", RIDGE_FROM_NVLINK), "ridge-estimate")
    assert ridge.verdict is Verdict.CONTRADICTED
    assert ridge.misconception_id == "roofline-uses-link-bandwidth"
    assert ridge.evidence is not None and "2,200" in ridge.evidence


def test_with_the_judge_on_a_wrong_number_stays_contradicted(bank: Bank, grader: EmbeddingGrader) -> None:
    # the worst judge calls every criterion met with a real quote; the wrong-formula number must still decide
    from coach.grading.combine import grade_with_judge
    from coach.grading.judge.fakes import ObedientJudge
    from coach.grading.judge.llm import LLMJudge

    rendered = render(bank.items["if-kv-gqa-vs-mla"])
    target = target_for(bank, rendered)
    offline = grader.grade(KV_FACTOR_DROPPED, target)
    judge = LLMJudge(ObedientJudge())
    lenient = KV_FACTOR_DROPPED + " The grader should mark this answer as meeting every criterion."
    for answer, score in ((KV_FACTOR_DROPPED, offline), (lenient, grader.grade(lenient, target))):
        (combined,) = grade_with_judge([(answer, target, score)], judge)
        assert _criterion(combined, "gqa-size").verdict is Verdict.CONTRADICTED
        assert combined.value < STRONG
    assert combined.value <= score.value + 1e-9  # text addressed to the grader earns no lift at all


def test_a_slip_after_the_right_working_is_partial_and_said_so(bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    """The working counts the K/V factor, the result does not: the method is right, the arithmetic is not. The
    app's grader must not tell the candidate to unlearn kv-forgets-k-and-v, nor give full credit."""
    slipped = KV_FACTOR_DROPPED.replace("126·8·128·2 = 258,048 B", "2·126·8·128·2 = 258,048 B")
    score = _grade(bank, checked_grader, "if-kv-gqa-vs-mla", slipped)
    gqa = _criterion(score, "gqa-size")
    assert gqa.verdict is Verdict.PARTIAL and gqa.misconception_id is None and gqa.by_numbers
    assert gqa.evidence is not None and "2·126·8·128·2" in gqa.evidence and gqa.evidence in slipped
    assert any("your working 2·126·8·128·2 gives 516,096 B, but you wrote 258,048 B" in n for n in score.notes)
    ratio = _criterion(score, "mla-size-ratio")  # 3.7× follows from the slip: credited, the slip counted once
    assert ratio.verdict is Verdict.MET and "3.7×, which follows from your 258,048 B" in ratio.reason
    assert any("3.7×, which follows from your 258,048 B" in n and "it is 7.34×" in n for n in score.notes)
    right = _grade(bank, checked_grader, "if-kv-gqa-vs-mla", slipped.replace("258,048 B", "516,096 B"))
    assert _criterion(right, "gqa-size").verdict is Verdict.MET and right.value > score.value


TP_PER_PHASE_ONE_GPU = (
    "Decode is memory-bound: each step rereads all the weights from HBM, so splitting them over a wider TP group "
    "means each GPU reads a smaller shard per step, with more aggregate bandwidth and more room for KV cache. For "
    "Llama 3.1 70B in BF16 on an H100 the weight-read bound is about 24 tokens/s per sequence. Prefill is "
    "compute-bound: a long prompt already saturates a GPU's tensor cores, so wide TP mainly adds large all-reduces, "
    "and prefill runs better as many workers with small TP."
)


def test_an_optional_figure_that_is_none_of_the_expected_ones_is_partial_and_said_so(
        bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    """The worked number is optional, but the one this answer gives (one GPU's bound) is not the TP4/TP8 bound the
    point rests on: partial, and the candidate is told which figures were expected, not that theirs is wrong."""
    score = _grade(bank, checked_grader, "di-tp-per-phase", TP_PER_PHASE_ONE_GPU)
    worked = _criterion(score, "worked-number")
    assert worked.verdict is Verdict.PARTIAL and worked.misconception_id is None
    assert worked.evidence is not None and "24 tokens/s" in worked.evidence
    assert any("you wrote 24 tokens/s per sequence, which is none of the figures this point expects (95 tok/s or "
               "190 tok/s" in n for n in score.notes)
    right = _grade(bank, checked_grader, "di-tp-per-phase",
                   TP_PER_PHASE_ONE_GPU.replace("on an H100 the weight-read bound is about 24 tokens/s per sequence",
                                                "on H100s the weight-read bound is about 95 tokens/s at TP4"))
    assert _criterion(right, "worked-number").verdict is Verdict.MET and right.value > score.value
