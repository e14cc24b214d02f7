"""The cross-encoder as a check on contradiction alone (grading/offline/contradiction.py): on the bi-encoder
path it reads only the spans that state an attached misconception. A scripted pair scorer stands in for the
model so each rule is tested on its own; the real model runs in the bank probe and the regression tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from coach.grading.offline import contradiction
from coach.grading.offline.calibration import Verdicts, shipped_params
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Verdict
from coach.providers.base import Matrix
from tests.grading.test_embedding import GOOD, RUBRIC

# Close to the misconception's phrasing (cosine 0.67) but below the bi-encoder's own cut (0.72): a candidate
CANDIDATE = "An all-gather collects the outputs into one tensor."
OPPOSITE, RIGHT, NEUTRAL = (0.05, 0.05, 0.85, 0.05), (0.9, 0.05, 0.03, 0.02), (0.1, 0.6, 0.1, 0.2)


class Reads:
    """Reads a pair by the first rule whose word is in the answer span (or, `by_reference`, in the criterion text);
    records what it was asked."""

    name = "scripted"

    def __init__(self, rules: Sequence[tuple[str, tuple[float, ...]]], default: tuple[float, ...] = NEUTRAL,
                 by_reference: bool = False) -> None:
        self.rules, self.default, self.by_reference = rules, default, by_reference
        self.calls: list[tuple[str, str]] = []

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        self.calls.extend(pairs)
        read = [b if self.by_reference else a for a, b in pairs]
        return np.array([next((p for w, p in self.rules if w in t), self.default) for t in read], dtype=np.float32)


def _partial_sums(grader: EmbeddingGrader, answer: str):  # type: ignore[no-untyped-def]
    return next(c for c in grader.grade(answer, RUBRIC).criteria if c.criterion_id == "partial-sums")


def test_a_statement_read_as_the_opposite_is_contradicted_and_named(embedder) -> None:  # type: ignore[no-untyped-def]
    alone = _partial_sums(EmbeddingGrader(embedder), CANDIDATE)
    checked = _partial_sums(EmbeddingGrader(embedder, checker=Reads([("all-gather", OPPOSITE)])), CANDIDATE)
    assert alone.verdict != Verdict.CONTRADICTED
    assert checked.verdict == Verdict.CONTRADICTED and checked.misconception_id == "allgather"
    assert checked.evidence is not None and "all-gather" in checked.evidence and "opposite" in checked.reason


def test_a_candidate_not_read_as_the_opposite_is_not_contradicted(embedder) -> None:  # type: ignore[no-untyped-def]
    hit = _partial_sums(EmbeddingGrader(embedder, checker=Reads([])), CANDIDATE)
    assert hit.verdict != Verdict.CONTRADICTED and hit.misconception_id is None


def test_a_span_read_as_right_keeps_the_criterion_from_being_contradicted(embedder) -> None:  # type: ignore[no-untyped-def]
    answer = f"Each GPU computes a partial sum of the output. {CANDIDATE}"
    # beside a right sentence the candidate comes within the bi-encoder's cut: raise it, to test the check alone
    params = replace(shipped_params(), verdicts=replace(Verdicts(), misconception=0.95))
    scripted = [("partial sum", RIGHT), ("all-gather", OPPOSITE)]
    hit = _partial_sums(EmbeddingGrader(embedder, params, checker=Reads(scripted)), answer)
    assert hit.verdict != Verdict.CONTRADICTED and hit.misconception_id is None
    alone = _partial_sums(EmbeddingGrader(embedder, params, checker=Reads(scripted[1:])), answer)
    assert alone.verdict == Verdict.CONTRADICTED


def test_a_phrasing_match_read_as_right_is_vetoed(embedder) -> None:  # type: ignore[no-untyped-def]
    answer = "An all-gather just concatenates the outputs of the GPUs."
    assert _partial_sums(EmbeddingGrader(embedder), answer).verdict == Verdict.CONTRADICTED
    vetoed = _partial_sums(EmbeddingGrader(embedder, checker=Reads([("all-gather", RIGHT)])), answer)
    assert vetoed.verdict != Verdict.CONTRADICTED and vetoed.misconception_id is None


def test_only_candidates_are_read_and_a_right_answer_costs_no_pair(embedder) -> None:  # type: ignore[no-untyped-def]
    scorer = Reads([("all-gather", OPPOSITE)])
    grader = EmbeddingGrader(embedder, checker=scorer)
    grader.grade_many([(GOOD, RUBRIC)])
    assert scorer.calls == []  # nothing in it states a misconception
    grader.grade_many([(CANDIDATE, RUBRIC)])
    spec = RUBRIC.criteria[0]  # the one the misconception is attached to, read through all its texts
    assert scorer.calls and {b for _, b in scorer.calls} == {spec.description, *spec.phrasings}


def test_a_phrasing_match_not_read_as_the_opposite_names_nothing_and_earns_at_most_partial(embedder) -> None:  # type: ignore[no-untyped-def]
    right = "Each GPU computes a partial sum of the layer output."
    answer = f"{right} An all-gather just concatenates the outputs of the GPUs."
    scorer = Reads([("all-gather", NEUTRAL)])
    assert _partial_sums(EmbeddingGrader(embedder, checker=scorer), right).verdict == Verdict.MET
    doubted = _partial_sums(EmbeddingGrader(embedder, checker=scorer), answer)
    assert doubted.verdict == Verdict.PARTIAL and doubted.misconception_id is None
    confirmed = _partial_sums(EmbeddingGrader(embedder, checker=Reads([("all-gather", OPPOSITE)])), answer)
    assert confirmed.verdict == Verdict.CONTRADICTED and confirmed.misconception_id == "allgather"


IRRELEVANT = (0.02, 0.02, 0.3, 0.66)


def test_the_reading_leaves_out_the_criterion_texts_the_span_does_not_speak_to() -> None:
    spec = RUBRIC.criteria[0]
    word = "added"  # only its last text has it
    assert not any(word in t for t in (spec.description, *spec.phrasings[:-1]))
    reading = contradiction.criterion_reading("a span", spec, Reads([(word, OPPOSITE)], IRRELEVANT, by_reference=True))
    assert np.allclose(reading, OPPOSITE) and contradiction.reads_as_opposite(reading, Verdicts())
    # read as irrelevant to every text: the mean, which says irrelevant, not the opposite
    nowhere = contradiction.criterion_reading("a span", spec, Reads([], IRRELEVANT, by_reference=True))
    assert np.allclose(nowhere, IRRELEVANT) and not contradiction.reads_as_opposite(nowhere, Verdicts())
    # on topic with two texts, read as right by one of them: the two are averaged, and right outweighs
    mixed = contradiction.criterion_reading(
        "a span", spec, Reads([(word, OPPOSITE), (spec.description, RIGHT)], IRRELEVANT, by_reference=True))
    assert not contradiction.reads_as_opposite(mixed, Verdicts())
