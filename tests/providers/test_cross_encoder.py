"""The cross-encoder provider: the shipped adapter loads offline onto the packaged MiniLM, is small, records its
version and figures, and scores a pair the same whatever it is batched with."""

from __future__ import annotations

import numpy as np
import pytest

from coach.providers.base import PAIR_LABELS, PairScorer
from coach.providers.cross_encoder import adapter_meta, shipped_adapter

REF = "Megatron splits the first MLP matrix by columns and the second by rows."


def test_shipped_adapter_is_a_few_megabytes_with_its_version_and_figures() -> None:
    folder = shipped_adapter()
    size = sum(f.stat().st_size for f in folder.iterdir())
    assert size < 5_000_000
    meta = adapter_meta(folder)
    assert meta["version"] and meta["labels"] == list(PAIR_LABELS)
    assert meta["figures"]["steps"] > 0 and "validation" in meta["figures"]


def test_scores_are_probabilities_independent_of_the_batch(pair_scorer) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(pair_scorer, PairScorer)
    pairs = [("The up projection is column-split and the down projection row-split.", REF),
             ("The French Revolution began in 1789.", REF),
             ("A much longer answer that goes on about many things, " * 6, REF)]
    together = pair_scorer.score_pairs(pairs)
    assert together.shape == (3, len(PAIR_LABELS))
    assert np.allclose(together.sum(axis=1), 1.0, atol=1e-5)
    pair_scorer._cache.clear()
    alone = np.vstack([pair_scorer.score_pairs([p]) for p in pairs[::-1]])[::-1]
    assert np.array_equal(together, alone)


def test_a_pair_scores_the_same_whatever_the_number_of_rows_of_its_pass(pair_scorer) -> None:  # type: ignore[no-untyped-def]
    # 21 pairs of one padded length run as a pass of 16 rows and one of 8 (the last 5); one alone, a pass of 4
    pairs = [(f"span number {i + 10} about GPUs", REF) for i in range(21)]
    together = pair_scorer.score_pairs(pairs)
    for i in (0, 15, 16, 20):
        pair_scorer._cache.clear()
        assert np.array_equal(pair_scorer.score_pairs([pairs[i]])[0], together[i])


def test_it_tells_a_paraphrase_from_an_unrelated_text(pair_scorer) -> None:  # type: ignore[no-untyped-def]
    right, off = pair_scorer.score_pairs([
        ("The first matrix is divided by columns, the second one by rows.", REF),
        ("The French Revolution began in 1789.", REF),
    ])
    correct, irrelevant = PAIR_LABELS.index("correct"), PAIR_LABELS.index("irrelevant")
    assert PAIR_LABELS[int(np.argmax(off))] == "irrelevant"
    assert right[correct] > off[correct] and right[irrelevant] < off[irrelevant]


@pytest.mark.xfail(strict=True, reason="adapter 3 reads this right paraphrase as contradicting (0.87): in-domain "
                   "sentences that share few words with the criterion still lean to 'contradicts' (data card)")
def test_a_right_paraphrase_reads_as_correct(pair_scorer) -> None:  # type: ignore[no-untyped-def]
    (right,) = pair_scorer.score_pairs([("The first matrix is divided by columns, the second one by rows.", REF)])
    assert PAIR_LABELS[int(np.argmax(right))] == "correct"


def test_an_adapter_folder_can_be_named_by_the_environment(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from coach.config import get_settings
    from coach.providers import registry

    monkeypatch.setattr(registry, "_pair_scorer", None)
    monkeypatch.setenv("COACH_CROSS_ENCODER_ADAPTER", str(tmp_path / "not-trained"))
    get_settings.cache_clear()
    try:
        assert registry.default_pair_scorer() is None  # no adapter there: the grader falls back to the bi-encoder
    finally:
        get_settings.cache_clear()
