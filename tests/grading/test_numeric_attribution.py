"""Number attribution: two right numbers in each other's places contradict the criterion (naming no
misconception); right answers that word or order their numbers differently are not read as swaps."""

from __future__ import annotations

import pytest

from coach.content.bank import Bank
from coach.content.render import render, variants
from coach.content.schema import ShortItem
from coach.grading.attempt import target_for
from coach.grading.numeric.check import NumericResult, NumericStatus, check_numbers, given_numbers
from coach.grading.numeric.verdict import combine
from coach.grading.score import CriterionResult, Verdict
from coach.grading.target import GradingTarget
from coach.vocab import Dimension

ROUTER = "ms-kv-router"
SWAPPED = ("Random routing finds the cache for 12.5% of follow-ups. For placement, hash mod N moves only about 11.1% "
           "of sessions when a ninth replica joins, while a consistent-hash ring would reshuffle about 88.9%.")
RIGHT = (
    "Random routing finds the cache for 12.5% of follow-ups. For placement, hash mod N moves about 88.9% of "
    "sessions when a ninth replica joins, while a consistent-hash ring moves only about 11.1%.",
    "A consistent-hash ring moves only 11.1% of sessions on scale-out, versus 88.9% for hash mod N.",
    "Unlike a consistent-hash ring, which remaps 11.1%, hash mod N moves 88.9% of sessions to new replicas.",
    "Going from 8 to 9 replicas: modulo hashing reassigns 88.9% of sessions. A ring reassigns 11.1%. Random "
    "placement hits the cache 12.5% of the time.",
)


def _check(bank: Bank, item_id: str, answer: str, criterion: str) -> tuple[NumericResult, GradingTarget]:
    target = target_for(bank, render(bank.items[item_id]))
    spec = next(c.numeric for c in target.criteria if c.id == criterion)
    assert spec is not None
    given, inputs = given_numbers(target.question, target.reference), given_numbers(target.question)
    return check_numbers(answer, spec, given, inputs), target


def test_right_numbers_in_each_others_places_are_a_swap(bank: Bank) -> None:
    result, _ = _check(bank, ROUTER, SWAPPED, "numbers-and-scale-out")
    assert result.status is NumericStatus.SWAPPED
    reason = result.reason()
    assert "88.9%" in reason and "11.1%" in reason and "hash mod N" in reason and "consistent-hash ring" in reason
    semantic = CriterionResult(criterion_id="numbers-and-scale-out", description="d", weight=0.3,
                               dimension=Dimension.EXPLANATION, verdict=Verdict.MET, evidence="the words")
    judged = combine(semantic, result, SWAPPED)
    assert judged.verdict is Verdict.CONTRADICTED and judged.misconception_id is None and judged.by_numbers
    assert judged.evidence is not None and "11.1%" in judged.evidence and judged.evidence in SWAPPED


@pytest.mark.parametrize("answer", RIGHT)
def test_right_numbers_worded_or_ordered_differently_are_no_swap(bank: Bank, answer: str) -> None:
    result, _ = _check(bank, ROUTER, answer, "numbers-and-scale-out")
    assert result.status is NumericStatus.MET, result.reason()


def test_no_model_answer_of_any_variant_swaps_its_own_numbers(bank: Bank) -> None:
    checked = 0
    for item in bank.items.values():
        if not isinstance(item, ShortItem) or bank.rubric_for(item) is None:
            continue
        for variant in variants(item):
            rendered = render(item, variant)
            target = target_for(bank, rendered)
            given = given_numbers(target.question, target.reference)
            for c in target.criteria:
                if c.numeric is not None and len(c.numeric.quantities) > 1:
                    status = check_numbers(rendered.model_answer or "", c.numeric, given).status
                    assert status is not NumericStatus.SWAPPED, (item.id, variant, c.id)
                    checked += 1
    assert checked > 20


def test_the_app_grader_marks_the_swap_and_says_why(bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    target = target_for(bank, render(bank.items[ROUTER]))
    score = checked_grader.grade(SWAPPED, target)
    verdict = next(c for c in score.criteria if c.criterion_id == "numbers-and-scale-out")
    assert verdict.verdict is Verdict.CONTRADICTED and verdict.misconception_id is None
    assert any("other way round" in n for n in score.notes)
    right = checked_grader.grade(RIGHT[0], target)
    assert next(c for c in right.criteria if c.criterion_id == "numbers-and-scale-out").verdict is Verdict.MET


def test_another_quantitys_right_value_in_another_notation_is_no_mistake(bank: Bank) -> None:
    # 1/9 is the ring's 11.1%; it is also what believing hash mod N moves only 1/9 would give for hash mod N
    answer = "When a ninth replica joins, consistent hashing moves only about 1/9 of conversations, not nearly all."
    result, _ = _check(bank, ROUTER, answer, "numbers-and-scale-out")
    assert result.status is not NumericStatus.WRONG, result.reason()
    assert [q.spec.name for q in result.right] == ["ring"]


def test_figures_of_different_kinds_never_trade_places(bank: Bank) -> None:
    # a rate written where the time belongs (and back) is odd prose, not two figures swapped
    odd = ("For Llama 3.1 70B in BF16 on H100s, an 8k-token prompt at TP8 moves enough all-reduce traffic for "
           "about 95 tok/s. The weight-read bound is about 83.5 ms per sequence.")
    result, _ = _check(bank, "di-tp-per-phase", odd, "worked-number")
    assert result.status is not NumericStatus.SWAPPED
    assert {q.spec.name for q in result.right} == {"tp4", "prefill_ms"}


@pytest.mark.parametrize("answer", [
    "For placement, hash mod N moves only about 11.1% of sessions when a ninth replica joins.",
    "Random routing finds the cache for 12.5% of follow-ups, and when the fleet grows a hash mod N scheme would "
    "move just 11.1% of sessions.",
])
def test_the_rings_figure_given_to_hash_mod_n_alone_is_the_misconception(bank: Bank, answer: str) -> None:
    result, _ = _check(bank, ROUTER, answer, "numbers-and-scale-out")
    assert result.status is NumericStatus.WRONG, result.reason()
    (wrong,) = result.wrong
    assert wrong.spec.name == "moved" and wrong.wrong is not None
    assert wrong.wrong.misconception_id == "ms-modulo-hash-stable"
    assert "ring" not in {q.spec.name for q in result.right}
    assert "no number found" not in result.reason()  # the figures are optional here (need 0): none is missed


@pytest.mark.parametrize("answer", [
    "When a ninth replica joins, a consistent-hash ring moves only about 11.1% of sessions.",
    "Hash mod N is far worse than a ring, which moves 11.1% of sessions when a replica joins.",
    "For placement, hash mod N is a poor choice; a consistent-hash ring moves 11.1% of sessions, and hash mod N "
    "would move far more than 11.1%.",
])
def test_the_rings_figure_in_its_own_place_is_right(bank: Bank, answer: str) -> None:
    result, _ = _check(bank, ROUTER, answer, "numbers-and-scale-out")
    assert result.status is not NumericStatus.WRONG, result.reason()
    assert "ring" in {q.spec.name for q in result.right}


PIPELINE = "mp-pp-low-util-short"  # its model answer gives the idle and the busy share in one clause


def test_two_figures_of_one_clause_are_each_read_by_the_words_since_the_figure_before() -> None:
    from coach.grading.numeric.attribution import words_before

    text = "each GPU idles 75% of the time and is busy 25%"
    assert words_before(text, text.index("25%")) >= {"idl", "busy"}  # the whole clause
    assert words_before(text, text.index("25%"), [text.index("75%") + 3]) == {"tim", "busy"}  # stems


def test_two_figures_of_one_clause_in_each_others_places_are_a_swap(bank: Bank) -> None:
    swapped = "With a single micro-batch each GPU is idle for 25% of the time and busy for 75%."
    result, _ = _check(bank, PIPELINE, swapped, "idle-fraction")
    assert result.status is NumericStatus.SWAPPED, result.reason()
    right = "With a single micro-batch each GPU is idle for 75% of the time and busy for 25%."
    result, _ = _check(bank, PIPELINE, right, "idle-fraction")
    assert result.status is NumericStatus.MET, result.reason()


def test_a_figure_ends_only_where_it_stands_alone() -> None:
    from coach.grading.numeric.attribution import _figure_ends

    text = "an H200 holds 2 heads, 2.5 of them; 2"
    assert _figure_ends(text, "2") == [text.index("2 heads") + 1, len(text)]
    assert _figure_ends(text, "") == []
