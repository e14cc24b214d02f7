"""A point stated the wrong way round costs more than a point left out (issue 19: a flipped key claim deserves
0-0.2, where the grader gave it a missed point's credit)."""

from __future__ import annotations

import pytest

from coach.content.bank import Bank
from coach.content.render import render
from coach.grading.attempt import target_for
from coach.grading.offline.grader import CONTRADICTION_COST, CONTRADICTION_NOTE, RUBRIC_BLEND, rubric_credit
from coach.grading.score import CriterionResult, Verdict
from coach.vocab import Dimension


def _results(*verdicts: Verdict, weight: float = 1.0) -> list[CriterionResult]:
    return [CriterionResult(criterion_id=f"c{i}", description="d", weight=weight, dimension=Dimension.CONCEPTUAL,
                            verdict=v) for i, v in enumerate(verdicts)]


def test_a_contradicted_point_costs_its_weight_again() -> None:
    credit, factor = rubric_credit(_results(Verdict.MET, Verdict.MET, Verdict.MISSED))
    assert (credit, factor) == pytest.approx((2 / 3, 1.0))
    credit, factor = rubric_credit(_results(Verdict.MET, Verdict.MET, Verdict.CONTRADICTED))
    assert credit == pytest.approx(2 / 3 - CONTRADICTION_COST / 3)
    assert factor == pytest.approx(1 - (1 + CONTRADICTION_COST) / 3)
    assert credit < 2 / 3 and factor < 1.0


def test_the_cost_never_takes_the_score_below_zero() -> None:
    credit, factor = rubric_credit(_results(Verdict.PARTIAL, Verdict.CONTRADICTED, Verdict.CONTRADICTED))
    assert (credit, factor) == (0.0, 0.0)
    assert rubric_credit([]) == (0.0, 1.0)


# if-dm-why: mechanism and levers right, the floor estimate either left out or computed at one byte per parameter
RIGHT = ("Each decode step reads every weight from HBM to make one token, about one FLOP per byte, so decode is "
         "memory-bandwidth-bound. What helps is more HBM bandwidth, fewer weight bytes such as FP8 weights, or "
         "batching several requests.")
REVERSED = RIGHT + (" The 8B model's weights are 8 GB at one byte per parameter, so a step takes 2.4 ms, about 418 "
                    "tokens/s.")


def test_a_reversed_point_scores_below_the_same_point_left_out(bank: Bank, grader) -> None:  # type: ignore[no-untyped-def]
    target = target_for(bank, render(bank.items["if-dm-why"]))
    left_out, reversed_ = grader.grade(RIGHT, target), grader.grade(REVERSED, target)
    verdicts = {c.criterion_id: c.verdict for c in reversed_.criteria}
    assert {c.criterion_id: c.verdict for c in left_out.criteria}["floor-estimate"] in (Verdict.MISSED, Verdict.PARTIAL)
    assert verdicts["floor-estimate"] == Verdict.CONTRADICTED
    assert [k for k, v in verdicts.items() if v == Verdict.CONTRADICTED] == ["floor-estimate"]
    share = next(c.weight for c in reversed_.criteria if c.criterion_id == "floor-estimate")
    share /= sum(c.weight for c in reversed_.criteria)
    # the credit part alone falls by the point's share again; the fitted model's part falls too
    assert left_out.value - reversed_.value >= RUBRIC_BLEND * CONTRADICTION_COST * share
    assert CONTRADICTION_NOTE in reversed_.notes and CONTRADICTION_NOTE not in left_out.notes
