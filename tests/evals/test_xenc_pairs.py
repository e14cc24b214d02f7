"""The cross-encoder's training pairs: only training splits of half-A questions, bank pairs labelled as the data
card says, and term swaps that flip a claim."""

from __future__ import annotations

import random

from coach.content.bank import Bank
from coach.evals.datasets import Row
from coach.evals.xenc_pairs import (
    CONTRADICTS,
    CORRECT,
    IRRELEVANT,
    PARTIAL,
    answer_spans,
    bank_pairs,
    in_half_a,
    public_pairs,
    shuffled_irrelevant,
    swap_terms,
    training_pairs,
)
from coach.grading.offline.lexical import content_set


def test_swaps_flip_both_ways_and_keep_case() -> None:
    assert swap_terms("Split by rows, then by columns.") == "Split by columns, then by rows."
    assert swap_terms("Prefill is compute-bound; decode is memory-bound.") == (
        "Decode is memory-bound; prefill is compute-bound.")
    assert swap_terms("All GPUs within a node.") == "All GPUs across nodes."
    assert swap_terms("Nothing to swap here.") == ""


def _row(split: str, qkey: str, label: str, dataset: str = "semeval") -> Row:
    return Row(dataset=dataset, split=split, group="beetle", qkey=qkey, question="q", reference="the reference",
               answer=f"answer to {qkey} in {split}", gold=float(label == "correct"), label=label)


def test_public_pairs_read_training_splits_of_half_a_only() -> None:
    keys = [f"beetle/q{i}" for i in range(40)]
    rows = [_row(s, k, "correct" if i % 2 else "incorrect") for i, k in enumerate(keys)
            for s in ("train", "test-unseen-answers", "test-unseen-questions")]
    rows.append(_row("all", "mohler/1.1", "correct", dataset="mohler"))
    pairs = public_pairs(rows, per_dataset=1000, rng=random.Random(0))
    assert pairs and all(" in train" in a for a, _, _ in pairs)
    assert {a.split(" ")[2] for a, _, _ in pairs} == {k for k in keys if in_half_a(k)}
    assert {y for _, _, y in pairs} <= {CORRECT, PARTIAL}
    assert 0 < sum(in_half_a(k) for k in keys) < len(keys)


def test_bank_pairs_label_misconceptions_contradicting_their_criteria(bank: Bank) -> None:
    pairs = bank_pairs(bank, random.Random(0))
    labels = {y for _, _, y in pairs}
    assert labels == {CORRECT, CONTRADICTS, IRRELEVANT}
    rubric = bank.rubrics["mp-meg-embedding-lookup-short"]
    masked = next(c for c in rubric.criteria if c.id == "masked-lookup")
    statement = bank.misconceptions["embedding-split-hidden"].statement
    assert (statement, masked.description, CONTRADICTS) in pairs
    assert all((p, masked.description, CORRECT) in pairs for p in masked.phrasings)
    # the statement also meets a phrasing, so "contradicts" is not learnt as "uses other words than the description"
    assert any(a == statement and b in masked.phrasings and y == CONTRADICTS for a, b, y in pairs)
    # and a phrasing is correct against another phrasing, not only against the description
    assert any(a in masked.phrasings and b in masked.phrasings and a != b and y == CORRECT for a, b, y in pairs)


def test_answer_spans_are_the_closest_sentences_and_both_in_order() -> None:
    text = "Decode reads the weights. Prefill is compute-bound. The KV cache grows with context."
    spans = answer_spans(text, "the KV cache grows with the context length during decode")
    assert spans == ["Decode reads the weights.", "The KV cache grows with context.",
                     "Decode reads the weights. The KV cache grows with context."]


def test_shuffled_irrelevant_pairs_share_few_words() -> None:
    pairs = [("ring all-reduce sends two bytes per element", "tensor parallel all-reduce per layer", CORRECT),
             ("photosynthesis makes sugar from light", "plants turn light into chemical energy", CORRECT),
             ("the battery terminal is connected to the bulb", "a closed path lets current flow", PARTIAL)]
    out = shuffled_irrelevant(pairs, 20, random.Random(1))
    assert out and all(y == IRRELEVANT for _, _, y in out)
    assert all(len(content_set(a) & content_set(b)) <= 2 for a, b, _ in out)
    assert shuffled_irrelevant(pairs, 20, random.Random(1)) == out


def test_training_pairs_are_seeded(bank: Bank) -> None:
    rows = [_row("train", f"beetle/q{i}", "correct") for i in range(30)]
    a, counts = training_pairs(rows, bank, per_dataset=10, seed=3)
    b, _ = training_pairs(rows, bank, per_dataset=10, seed=3)
    c, _ = training_pairs(rows, bank, per_dataset=10, seed=4)
    assert a == b and a != c
    assert counts["public_train_splits"] + counts["bank"] == len(a)
    d, more = training_pairs(rows, bank, per_dataset=10, seed=3, irrelevant=50)
    assert more["shuffled_irrelevant"] == 50 and len(d) == len(a) + 50
