"""The offline grader with the real embedder: ordering, criterion verdicts, independence, fallbacks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from coach.grading.offline.auto_rubric import auto_target
from coach.grading.offline.calibration import DEFAULT_BASE, GraderParams, shipped_params, shipped_params_path
from coach.grading.offline.grader import LOW_CONFIDENCE, EmbeddingGrader, confidence_of
from coach.grading.score import Flag, Verdict
from coach.grading.target import CriterionSpec, GradedExample, GradingTarget, MisconceptionSpec
from coach.providers.base import Matrix
from coach.vocab import Dimension

QUESTION = "Why does tensor parallelism need an all-reduce after the row-parallel layer?"
REFERENCE = ("Each GPU holds a slice of the rows of the weight matrix, so each computes only a partial sum of the "
             "output. An all-reduce adds the partial sums so every GPU gets the full output before the next layer.")

RUBRIC = GradingTarget(
    key="tp-allreduce@1",
    question=QUESTION,
    reference=REFERENCE,
    criteria=(
        CriterionSpec(id="partial-sums", description="Each GPU produces only a partial sum of the output",
                      weight=0.5, dimension=Dimension.CONCEPTUAL,
                      phrasings=("Each GPU computes a partial sum of the layer output.",
                                 "The GPUs each hold part of the result, which must be added up."),
                      misconceptions=("allgather",)),
        CriterionSpec(id="sum-before-next", description="The all-reduce sums them before the next layer",
                      weight=0.5, dimension=Dimension.CONCEPTUAL,
                      phrasings=("The all-reduce adds the partial results so every GPU has the full output.",
                                 "Summing across GPUs gives each one the complete activations for the next "
                                 "layer.")),
    ),
    misconceptions=(
        MisconceptionSpec(id="allgather", statement="An all-gather concatenates the outputs",
                          phrasings=("An all-gather just concatenates the outputs of the GPUs.",
                                     "The outputs are concatenated, not summed.")),
    ),
)

GOOD = ("Every GPU only has some rows of the weights, so it produces a partial sum of the output. The all-reduce "
        "adds those partial sums so all GPUs hold the full output for the next layer.")
HALF = "Every GPU only has some rows of the weights, so it produces a partial sum of the output."
WRONG = "An all-gather just concatenates the outputs of the GPUs, they are not summed."
OFF = "My favourite pasta is carbonara with plenty of black pepper."


def test_better_answers_score_higher(grader: EmbeddingGrader) -> None:
    target = auto_target(QUESTION, REFERENCE)
    good, half, off = (grader.grade(a, target).value for a in (GOOD, HALF, OFF))
    assert good > half > off
    assert good >= 0.6
    assert off <= 0.2


def test_rubric_verdicts_carry_the_answer_sentence_as_evidence(grader: EmbeddingGrader) -> None:
    score = grader.grade(GOOD, RUBRIC)
    by_id = {c.criterion_id: c for c in score.criteria}
    assert by_id["partial-sums"].verdict == Verdict.MET
    assert by_id["sum-before-next"].verdict == Verdict.MET
    assert by_id["sum-before-next"].evidence is not None and "all-reduce" in by_id["sum-before-next"].evidence
    assert by_id["partial-sums"].evidence is not None and by_id["partial-sums"].evidence in GOOD
    half = grader.grade(HALF, RUBRIC)
    by_id = {c.criterion_id: c for c in half.criteria}
    assert by_id["partial-sums"].verdict == Verdict.MET
    assert by_id["sum-before-next"].verdict in (Verdict.MISSED, Verdict.PARTIAL)
    assert half.value < score.value


def test_a_stated_misconception_contradicts_its_criterion(grader: EmbeddingGrader) -> None:
    score = grader.grade(WRONG, RUBRIC)
    by_id = {c.criterion_id: c for c in score.criteria}
    assert by_id["partial-sums"].verdict == Verdict.CONTRADICTED
    assert by_id["partial-sums"].misconception_id == "allgather"
    assert Flag.MISCONCEPTION in score.flags
    assert score.value < grader.grade(HALF, RUBRIC).value


def test_empty_and_off_topic_answers(grader: EmbeddingGrader) -> None:
    empty = grader.grade("   ", RUBRIC)
    assert empty.value == 0.0 and Flag.EMPTY in empty.flags
    off = grader.grade(OFF, RUBRIC)
    assert off.value <= 0.1
    assert all(c.verdict == Verdict.MISSED for c in off.criteria)


def test_scores_are_independent_of_the_batch(grader: EmbeddingGrader, embedder) -> None:  # type: ignore[no-untyped-def]
    target = auto_target(QUESTION, REFERENCE)
    answers = [GOOD, HALF, WRONG, "partial sums are added", "The GPUs talk to each other over NVLink."]
    together = [s.value for s in EmbeddingGrader(embedder).grade_many([(a, target) for a in answers])]
    alone = [EmbeddingGrader(embedder).grade(a, target).value for a in answers]
    reversed_ = [s.value for s in EmbeddingGrader(embedder).grade_many([(a, target) for a in answers[::-1]])][::-1]
    assert together == alone == reversed_  # bit-identical, not merely close


def test_embed_full_is_bit_identical_alone_and_in_a_batch(embedder) -> None:  # type: ignore[no-untyped-def]
    texts = [GOOD, HALF, "short", *[f"filler sentence number {i} about GPUs" for i in range(9)]]
    alone = embedder.embed_full([texts[1]])[0]
    batch = embedder.embed_full(texts)[1]
    assert alone[0] == batch[0]
    assert all(np.array_equal(alone[k], batch[k]) for k in (2, 3, 4))
    # and it agrees with the model's own sentence embedding
    assert float(alone[3] @ embedder.embed([texts[1]])[0]) > 0.9999


def test_a_text_is_bit_identical_whatever_the_number_of_rows_of_its_pass(embedder) -> None:  # type: ignore[no-untyped-def]
    # 21 texts of one padded length run as a pass of 16 rows and one of 8 (the last 5); one alone, a pass of 4
    texts = [f"filler sentence number {i + 10} about GPUs" for i in range(21)]
    lengths = {len(embedder._model.tokenizer(t)["input_ids"]) for t in texts}
    assert len(lengths) == 1
    batch = embedder.embed_full(texts)
    for i in (0, 15, 16, 20):
        alone = embedder.embed_full([texts[i]])[0]
        assert all(np.array_equal(alone[k], batch[i][k]) for k in (2, 3, 4))


def test_long_texts_are_bit_identical_alone_and_among_texts_of_their_length(embedder) -> None:  # type: ignore[no-untyped-def]
    # long texts take fewer rows per pass; their vectors must still not depend on the other texts
    longs = [" ".join([GOOD] * 2) + f" Case {i}." for i in range(6)]  # 87 pieces: 5 rows a pass
    alone = embedder.embed_full([longs[3]])[0]
    batch = embedder.embed_full([*longs, HALF])[3]
    assert 64 < len(alone[0]) < 128
    assert all(np.array_equal(alone[k], batch[k]) for k in (2, 3, 4))


def test_alignment_vectors_keep_more_of_the_word_than_the_last_layer(embedder) -> None:  # type: ignore[no-untyped-def]
    # the same word in two unrelated sentences: soft alignment should see it as the same word
    first, second = embedder.embed_full(["Decode is bound by memory bandwidth.",
                                         "We bought more bandwidth for the office."])

    def word(full: tuple, piece: str, space: int) -> np.ndarray:  # type: ignore[type-arg]
        return full[space][full[0].index(piece)]

    last = float(word(first, "bandwidth", 2) @ word(second, "bandwidth", 2))
    align = float(word(first, "bandwidth", 4) @ word(second, "bandwidth", 4))
    assert align > last + 0.05
    assert np.allclose(np.linalg.norm(first[4], axis=1), 1.0, atol=1e-5)


class SentenceOnly:
    """An embedder with nothing but `embed` (as the fakes have)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name = "sentence-only"

    def embed(self, texts: Sequence[str]) -> Matrix:
        return self.inner.embed(texts)  # type: ignore[attr-defined, no-any-return]


def test_an_embedder_without_token_vectors_still_grades(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(SentenceOnly(embedder))
    target = auto_target(QUESTION, REFERENCE)
    good, off = grader.grade(GOOD, target), grader.grade(OFF, target)
    assert good.value > off.value
    assert {c.criterion_id for c in grader.grade(GOOD, RUBRIC).criteria} == {"partial-sums", "sum-before-next"}


def test_graded_examples_pull_the_score_towards_their_grade(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(embedder, use_guards=False)
    if grader.params.anchored is None:
        pytest.skip("no anchored model in the params")
    answer = "Because each GPU only has a piece of the sum."
    high = auto_target(QUESTION, REFERENCE, examples=[GradedExample(answer=answer, score=1.0),
                                                      GradedExample(answer=OFF, score=0.0)])
    low = auto_target(QUESTION, REFERENCE, examples=[GradedExample(answer=answer, score=0.0),
                                                     GradedExample(answer=GOOD, score=1.0)])
    assert grader.grade(answer, high).value > grader.grade(answer, low).value


def test_params_round_trip_and_defaults(tmp_path: Path) -> None:
    params = shipped_params()
    path = tmp_path / "p.json"
    params.save(path)
    again = GraderParams.load(path)
    assert again.base == params.base and again.anchored == params.anchored and again.verdicts == params.verdicts
    assert GraderParams().base == DEFAULT_BASE  # what the grader uses when no file ships
    if shipped_params_path().exists():
        meta = json.loads(shipped_params_path().read_text())
        assert {"version", "created", "fitted_on", "protocol", "figures", "models"} <= set(meta)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 999, "models": {}}))
    with pytest.raises(ValueError):
        GraderParams.load(bad)


def test_default_params_grade_without_any_data(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(embedder, GraderParams())
    target = auto_target(QUESTION, REFERENCE)
    assert grader.grade(GOOD, target).value > grader.grade(OFF, target).value


def test_guards_cap_a_keyword_list(grader: EmbeddingGrader) -> None:
    stuffed = "all-reduce partial sum rows GPU output all-reduce sum rows partial GPU next layer weights"
    score = grader.grade(stuffed, RUBRIC)
    assert Flag.STUFFING in score.flags
    assert score.value <= 0.2 + 1e-9


def test_confidence_is_lowest_at_the_toss_up_point() -> None:
    assert confidence_of(0.5, 0.5) == 0.05
    assert confidence_of(0.45, 0.45) < LOW_CONFIDENCE <= confidence_of(0.62, 0.62)
    assert confidence_of(0.95, 0.95) == confidence_of(0.05, 0.05) == 1.0
    # criteria built from a reference do not lower it; an author's rubric and graded examples do
    assert confidence_of(0.9, 0.1) == 1.0
    assert confidence_of(0.9, 0.1, rubric=True) < LOW_CONFIDENCE
    assert confidence_of(0.9, 0.9, knn_vote=0.2) < LOW_CONFIDENCE


def test_word_piece_alignment_with_graded_examples_tells_which_example_the_answer_says(embedder) -> None:  # type: ignore[no-untyped-def]
    from coach.grading.offline.anchors import anchor_features, example_weights, token_f1

    enc = EmbeddingGrader(embedder, use_guards=False).encoder.encode_one
    good = enc("The all-reduce sums the partial outputs of the GPUs before the next layer.")
    poor = enc("The all-gather concatenates the partial outputs of the GPUs before the next layer.")
    examples = [(good, 1.0), (poor, 0.0)]
    q = frozenset({"gpu"})
    w = example_weights(good, q)
    assert token_f1(good, good, w, w) == pytest.approx(1.0, abs=1e-5)
    says_good = anchor_features(enc("The all-reduce adds up the partial outputs of the GPUs."), examples, q_stems=q)
    says_poor = anchor_features(enc("An all-gather concatenates the GPUs' partial outputs."), examples, q_stems=q)
    assert says_good["knn_tok_margin"] > 0 > says_poor["knn_tok_margin"]
    assert says_good["knn_tok_good"] > says_poor["knn_tok_good"]
    weighted = anchor_features(enc("The all-reduce adds up the partial outputs of the GPUs."), examples, q_stems=q,
                               weights=[example_weights(e, q) for e, _ in examples])
    assert weighted == says_good  # weights computed ahead (the target's context) give the same features


def test_the_shipped_anchored_model_reads_the_examples_word_by_word() -> None:
    anchored = shipped_params().anchored
    assert anchored is not None and {"knn_tok_good", "knn_tok_margin"} <= set(anchored.features)
