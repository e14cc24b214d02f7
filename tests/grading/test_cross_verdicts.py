"""Criterion verdicts with a cross-encoder: the criterion is contradicted when a span reads as the opposite and
none reads as right (that span is the evidence), or when a span is close to a catalogue phrasing of an attached
misconception and the cross-encoder does not read it as right; a misconception is named only when the span
states it; the bi-encoder alone never contradicts against the cross-encoder's reading. A scripted pair scorer
stands in for the model, so each rule is tested on its own (the real one: test_issue19_regressions)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from coach.evals.fit_grader import CROSS_FEATURES
from coach.grading.offline.calibration import Verdicts
from coach.grading.offline.criteria import judge
from coach.grading.offline.cross import CriterionReading, Reading, pairs_for
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Verdict
from coach.providers.base import PAIR_LABELS, Matrix
from tests.grading.test_embedding import RUBRIC

V = Verdicts()


def _reading(correct: float, partial: float, contra: float, span: str = "s") -> Reading:
    return Reading(span=span, probs=(correct, partial, contra, 1.0 - correct - partial - contra))


def test_contradicted_needs_a_span_read_as_the_opposite_and_none_read_as_right() -> None:
    wrong = _reading(0.1, 0.1, 0.7, "the opposite")
    right = _reading(0.8, 0.1, 0.05, "the point")
    aside = _reading(0.1, 0.6, 0.1, "an aside")
    assert judge(0.9, CriterionReading(best=wrong, opposed=wrong), V)[0] == Verdict.CONTRADICTED
    assert judge(0.9, CriterionReading(best=aside, opposed=wrong), V)[0] == Verdict.CONTRADICTED
    # one span read as wrong beside one read as right is the model's doubt: no misconception is invented
    assert judge(0.9, CriterionReading(best=right, opposed=wrong), V)[0] == Verdict.MET
    assert judge(0.9, CriterionReading(best=right, opposed=right), V)[0] == Verdict.MET
    barely = _reading(0.1, 0.1, V.xe_contra - 0.01)
    assert judge(0.2, CriterionReading(best=barely, opposed=barely), V)[0] != Verdict.CONTRADICTED
    unsure = _reading(0.5, 0.0, 0.5)  # contradiction not above its own "correct": no verdict of error
    assert judge(0.2, CriterionReading(best=unsure, opposed=unsure), V)[0] != Verdict.CONTRADICTED


def test_a_bi_encoder_match_alone_earns_at_most_partial() -> None:
    poor = _reading(0.05, 0.1, 0.1)
    assert judge(0.95, CriterionReading(best=poor, opposed=poor), V)[0] == Verdict.PARTIAL
    assert judge(0.95, None, V)[0] == Verdict.MET  # no cross-encoder: the bi-encoder decides, as before


class Scripted:
    """Reads "concatenat" as contradicting the partial-sums criterion, and "partial sum" as correct; everything
    else as partial."""

    name = "scripted"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        self.calls.extend(pairs)
        rows = []
        for a, b in pairs:
            if "concatenat" in a and "partial sum" in b:
                rows.append((0.05, 0.05, 0.85, 0.05))
            elif "partial sum" in a:
                rows.append((0.9, 0.05, 0.03, 0.02))
            else:
                rows.append((0.1, 0.6, 0.1, 0.2))
        return np.array(rows, dtype=np.float32)


def test_the_grader_shows_the_contradicting_span_and_names_the_misconception(embedder) -> None:  # type: ignore[no-untyped-def]
    scorer = Scripted()
    grader = EmbeddingGrader(embedder, pair_scorer=scorer)
    answer = "The results are simply concatenated by an all-gather. Then the next layer runs on the GPUs."
    score = grader.grade(answer, RUBRIC)
    by_id = {c.criterion_id: c for c in score.criteria}
    hit = by_id["partial-sums"]
    assert hit.verdict == Verdict.CONTRADICTED
    assert hit.evidence is not None and "concatenated" in hit.evidence and hit.evidence in answer
    assert hit.misconception_id == "allgather" and "opposite" in hit.reason
    assert by_id["sum-before-next"].verdict != Verdict.CONTRADICTED
    assert len(PAIR_LABELS) == 4 and scorer.calls


def test_a_right_span_beside_one_read_as_wrong_is_not_contradicted(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(embedder, pair_scorer=Scripted())
    answer = "Each GPU computes a partial sum of the output. The layers are concatenated in order."
    hit = next(c for c in grader.grade(answer, RUBRIC).criteria if c.criterion_id == "partial-sums")
    assert hit.verdict == Verdict.MET and hit.misconception_id is None


def test_a_span_read_as_the_opposite_of_no_known_misconception_is_not_contradicted(embedder) -> None:  # type: ignore[no-untyped-def]
    """The cross-encoder reads many right in-domain sentences as "contradicts"; its reading stands only on a span
    that states a misconception attached to the criterion (close to one of its phrasings), which it then names."""

    class ReadsPipelineAsWrong(Scripted):
        def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
            return np.array([(0.05, 0.05, 0.85, 0.05) if "pipeline" in a else (0.1, 0.6, 0.1, 0.2)
                             for a, _ in pairs], dtype=np.float32)

    grader = EmbeddingGrader(embedder, pair_scorer=ReadsPipelineAsWrong())
    answer = "Each GPU runs its own pipeline stage of whole layers, one after another."
    for c in grader.grade(answer, RUBRIC).criteria:
        assert c.verdict != Verdict.CONTRADICTED and c.misconception_id is None, c
        assert "opposite" not in c.reason
    stated = "Each GPU runs its own pipeline stage, and then an all-gather concatenates the outputs of the GPUs."
    hit = next(c for c in grader.grade(stated, RUBRIC).criteria if c.criterion_id == "partial-sums")
    assert hit.verdict == Verdict.CONTRADICTED and hit.misconception_id == "allgather"


def test_a_catalogue_statement_beside_a_right_span_is_contradicted_and_named(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(embedder, pair_scorer=Scripted())
    answer = "Each GPU computes a partial sum of the output. An all-gather just concatenates the outputs of the GPUs."
    hit = next(c for c in grader.grade(answer, RUBRIC).criteria if c.criterion_id == "partial-sums")
    assert hit.verdict == Verdict.CONTRADICTED and hit.misconception_id == "allgather"
    assert hit.evidence == "An all-gather just concatenates the outputs of the GPUs."
    assert "catalogue" in hit.reason


def test_the_cross_encoder_vetoes_a_phrasing_match_it_reads_as_right(embedder) -> None:  # type: ignore[no-untyped-def]
    """The bi-encoder cannot tell a statement from its opposite: its phrasing match stands only where the
    cross-encoder does not read the span as right."""

    class ReadsAllRight(Scripted):
        def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
            return np.array([(0.9, 0.05, 0.03, 0.02)] * len(pairs), dtype=np.float32)

    grader = EmbeddingGrader(embedder, pair_scorer=ReadsAllRight())
    answer = "An all-gather just concatenates the outputs of the GPUs."
    hit = next(c for c in grader.grade(answer, RUBRIC).criteria if c.criterion_id == "partial-sums")
    assert hit.verdict != Verdict.CONTRADICTED and hit.misconception_id is None


def test_pairs_read_per_criterion_are_few(embedder) -> None:  # type: ignore[no-untyped-def]
    grader = EmbeddingGrader(embedder)
    answer = "One. Two sentences here. Three of them. Four in all."
    pairs = pairs_for(grader.encoder.encode_one(answer), grader.context(RUBRIC))
    assert len(pairs) == 1 + len(RUBRIC.criteria) * 3  # whole answer, then 2 spans and both joined per criterion


def test_the_whole_answer_is_read_only_for_a_model_that_weights_it(embedder) -> None:  # type: ignore[no-untyped-def]
    """The whole-answer pair is the longest one; a model fitted without xe_* features never uses its reading."""
    from coach.grading.offline.calibration import GraderParams, Model

    plain = EmbeddingGrader(embedder).params
    assert not plain.weights_whole_reading
    n = len(CROSS_FEATURES)
    weighted = GraderParams(base=Model(
        features=plain.base.features + CROSS_FEATURES, mean=plain.base.mean + (0.5,) * n,
        scale=plain.base.scale + (0.2,) * n, coef=plain.base.coef + (1.0,) * n, intercept=plain.base.intercept))
    assert weighted.weights_whole_reading
    answer = "Each GPU holds a partial sum. The all-reduce adds them."
    for params, whole in ((plain, False), (weighted, True)):
        scorer = Scripted()
        grader = EmbeddingGrader(embedder, params, pair_scorer=scorer)
        grader.grade_many([(answer, RUBRIC)])
        assert ((answer, RUBRIC.reference) in scorer.calls) is whole
        assert any(desc == c.description for _, desc in scorer.calls for c in RUBRIC.criteria)  # criteria: always
    asked = Scripted()
    EmbeddingGrader(embedder, plain, pair_scorer=asked, read_whole=True).grade(answer, RUBRIC)  # as calibration
    assert (answer, RUBRIC.reference) in asked.calls


def test_automatic_criteria_grade_as_before_while_the_model_has_no_cross_features(embedder) -> None:  # type: ignore[no-untyped-def]
    """The public datasets' targets are read through the whole answer only: with the bi-encoder path's params
    (fitted without the cross-encoder's features), their grades do not move."""
    from coach.grading.offline.auto_rubric import auto_target
    from tests.grading.test_embedding import GOOD, HALF, OFF, QUESTION, REFERENCE

    target = auto_target(QUESTION, REFERENCE)
    plain = EmbeddingGrader(embedder)
    assert not plain.params.weights_whole_reading
    read = EmbeddingGrader(embedder, plain.params, pair_scorer=Scripted())
    for answer in (GOOD, HALF, OFF):
        assert plain.grade(answer, target) == read.grade(answer, target)


def test_each_path_grades_with_its_own_fitted_params(embedder, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With a cross-encoder the grader takes the params fitted with its features, and the bi-encoder path
    never does (a model weighting xe_* features would read their means for an answer nobody read); with no
    cross fit shipped, both paths use the bi-encoder's."""
    from coach.grading.offline import calibration
    from coach.grading.offline.calibration import GraderParams, Model

    plain_params = calibration.shipped_params(cross=False)
    n = len(CROSS_FEATURES)
    cross_model = Model(features=plain_params.base.features + CROSS_FEATURES, mean=plain_params.base.mean + (0.5,) * n,
                        scale=plain_params.base.scale + (0.2,) * n, coef=plain_params.base.coef + (1.0,) * n,
                        intercept=plain_params.base.intercept)
    fitted = tmp_path / calibration.CROSS_PARAMS_FILE
    GraderParams(base=cross_model, meta={"cross_encoder": "test"}).save(fitted)
    real_path = calibration.shipped_params_path
    for present in (True, False):
        monkeypatch.setattr(calibration, "shipped_params_path",
                            lambda cross=False, p=present: (fitted if p else tmp_path / "absent.json") if cross
                            else real_path(False))
        calibration.shipped_params.cache_clear()
        try:
            plain, read = EmbeddingGrader(embedder), EmbeddingGrader(embedder, pair_scorer=Scripted())
        finally:
            calibration.shipped_params.cache_clear()
        assert plain.params.base == plain_params.base
        assert read.params.base == (cross_model if present else plain_params.base)


def test_prepare_reads_every_pair_grading_needs_in_one_batch(embedder) -> None:  # type: ignore[no-untyped-def]
    """Grading after `prepare` asks the scorer for no pair it has not seen: the readings of the answer with its
    term list set aside are batched too (unbatched, they made the cross-encoder path 40% slower than its passes)."""

    class Remembering(Scripted):
        def __init__(self) -> None:
            super().__init__()
            self.batches: list[set[tuple[str, str]]] = []

        def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
            self.batches.append(set(pairs))
            return super().score_pairs(pairs)

    scorer = Remembering()
    grader = EmbeddingGrader(embedder, pair_scorer=scorer)
    listed = ("Each GPU computes a partial sum of the output. The all-reduce adds them before the next layer.\n"
              "Keywords: Megatron GPipe 1F1B NCCL NVLink stages micro-batches bubble schedule interleaving")
    rows = [(listed, RUBRIC), ("An all-gather just concatenates the outputs of the GPUs.", RUBRIC)]
    report = grader.guard_report(listed, RUBRIC)
    assert report is not None and report.clean_answer.strip() not in ("", listed)  # the list is set aside
    grader.prepare(rows)
    prepared = set().union(*scorer.batches)
    scorer.batches.clear()
    for answer, target in rows:
        grader.grade(answer, target)
    asked = set().union(*scorer.batches)
    assert asked and asked <= prepared
