"""Criteria built automatically from a reference answer."""

from __future__ import annotations

import pytest

from coach.grading.offline.auto_rubric import MAX_CRITERIA, auto_target, key_for, propositions
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Verdict
from coach.grading.target import GradedExample

Q = "How does tensor parallelism split the work of an MLP block across GPUs?"
REF = ("The first weight matrix is split by columns so each GPU computes part of the hidden activations; "
       "the second matrix is split by rows, and an all-reduce sums the partial outputs at the end of the block.")


def test_a_reference_splits_into_its_key_propositions() -> None:
    parts = propositions(REF, Q)
    assert len(parts) >= 3
    assert any("columns" in p for p in parts)
    assert any("rows" in p for p in parts)
    assert any("all-reduce" in p for p in parts)
    assert all("columns" not in p or "rows" not in p for p in parts)  # the two splits are separate criteria


def test_a_one_word_clause_is_merged_not_made_a_criterion() -> None:
    parts = propositions("Yes; because the stack is last in first out.", "Is a stack LIFO?")
    assert len(parts) == 1
    assert "last in first out" in parts[0]


def test_criteria_weights_sum_to_one_and_favour_new_content() -> None:
    target = auto_target(Q, REF)
    assert sum(c.weight for c in target.criteria) == pytest.approx(1.0)
    assert not target.from_rubric
    assert all(c.phrasings for c in target.criteria)
    echo = auto_target("What does an all-reduce do after a row-parallel layer?",
                       "It happens after a row-parallel layer; it sums the partial results held by every GPU.")
    # the clause that only repeats the question carries less weight than the one that answers it
    weights = {c.description: c.weight for c in echo.criteria}
    if len(weights) > 1:
        assert weights[max(weights, key=lambda d: "sums" in d)] == max(weights.values())


def test_long_references_are_capped() -> None:
    ref = ". ".join(f"Point {i} concerns a distinct mechanism number {i} of the system" for i in range(12)) + "."
    assert len(auto_target("Explain the system.", ref).criteria) <= MAX_CRITERIA


def test_keys_are_stable_and_distinct() -> None:
    assert key_for(Q, REF) == key_for(Q, REF)
    assert key_for(Q, REF) != key_for(Q, REF + " Also latency.")
    assert auto_target(Q, REF).key == key_for(Q, REF)


def test_extra_references_and_examples_ride_along() -> None:
    t = auto_target("What is a stack?", "A last in first out structure.", extra_references=["LIFO storage."],
                    examples=[GradedExample(answer="LIFO", score=1.0)])
    assert "LIFO storage." in t.criteria[0].phrasings
    assert t.extra_references == ("LIFO storage.",)
    assert len(t.examples) == 1


def test_each_proposition_is_judged_on_its_own(grader: EmbeddingGrader) -> None:
    target = auto_target(Q, REF)
    only_first = "Each GPU holds some columns of the first weight matrix and computes part of the hidden layer."
    score = grader.grade(only_first, target)
    verdicts = {c.description: c.verdict for c in score.criteria}
    first = next(d for d in verdicts if "columns" in d)
    last = next(d for d in verdicts if "all-reduce" in d)
    assert verdicts[first] in (Verdict.MET, Verdict.PARTIAL)
    assert verdicts[last] == Verdict.MISSED
    full = grader.grade(REF, target)
    assert full.value > score.value
    assert all(c.verdict == Verdict.MET for c in full.criteria)
