"""The contradiction check asks two cross-encoders: a pair reads "contradicts" only as surely as the less sure of
them, "correct" as surely as the surer, so a contradiction one model alone sees is dropped."""

from __future__ import annotations

import numpy as np
import pytest

from coach.grading.offline.consensus import Consensus
from coach.providers.base import PAIR_LABELS


class Fixed:
    """A scorer that reads every pair the same way."""

    def __init__(self, name: str, **probs: float) -> None:
        self.name = name
        self.row = np.array([probs.get(label, 0.0) for label in PAIR_LABELS], dtype=np.float32)

    def score_pairs(self, pairs):  # type: ignore[no-untyped-def]
        return np.tile(self.row, (len(pairs), 1))


def _row(scorer: Consensus) -> dict[str, float]:
    (row,) = scorer.score_pairs([("a span", "a criterion")])
    return {label: round(float(v), 3) for label, v in zip(PAIR_LABELS, row, strict=True)}


def test_a_contradiction_needs_both_and_either_reading_as_right_counts() -> None:
    sure = Fixed("a", contradicts=0.9, correct=0.05, partial=0.05)
    doubts = Fixed("b", contradicts=0.2, correct=0.6, irrelevant=0.2)
    row = _row(Consensus([sure, doubts]))
    assert row["contradicts"] == 0.2 and row["correct"] == 0.6
    assert row["partial"] == 0.025 and row["irrelevant"] == 0.1  # the other labels: their mean


def test_two_that_agree_keep_their_reading() -> None:
    row = _row(Consensus([Fixed("a", contradicts=0.8, correct=0.1, partial=0.1),
                          Fixed("b", contradicts=0.7, correct=0.2, partial=0.1)]))
    assert row["contradicts"] == 0.7 and row["correct"] == 0.2


def test_it_names_its_members_and_reads_no_pair_when_given_none() -> None:
    both = Consensus([Fixed("x3", correct=1.0), Fixed("x4", correct=1.0)])
    assert both.name == "consensus-x3+x4"
    assert both.score_pairs([]).shape == (0, len(PAIR_LABELS))


def test_it_needs_a_member() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Consensus([])


def test_the_bench_empties_each_members_cache() -> None:
    from coach.evals.bench import clear_model_caches

    a, b = Fixed("a"), Fixed("b")
    a._cache, b._cache = {"pair": 1}, {"pair": 2}  # type: ignore[attr-defined]
    clear_model_caches(Consensus([a, b]))
    assert a._cache == {} and b._cache == {}  # type: ignore[attr-defined]
