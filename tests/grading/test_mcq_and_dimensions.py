from __future__ import annotations

import random

import pytest

from coach.grading.dimensions import ItemResult, band_for, score_card
from coach.grading.mcq import grade_mcq
from coach.grading.score import CriterionResult, Flag, Score, Verdict
from coach.session.assembly import present
from coach.session.runner import Answer
from coach.vocab import Dimension
from tests.factories import make_bank


def test_mcq_is_graded_exactly_against_the_shown_key() -> None:
    item = present(make_bank().items["q01"], random.Random(5))
    key = item.key_index
    assert key is not None
    assert grade_mcq(item, key).value == 1.0
    wrong = (key + 1) % 4
    score = grade_mcq(item, wrong)
    assert score.value == 0.0 and any("The answer:" in n for n in score.notes)
    assert grade_mcq(item, None).flags == (Flag.EMPTY,)


def test_misconception_distractor_is_flagged() -> None:
    item = present(make_bank().items["q01"], random.Random(5))
    tagged = next(i for i, o in enumerate(item.options) if o.misconception)
    assert Flag.MISCONCEPTION in grade_mcq(item, tagged).flags


def _criterion(dim: Dimension, verdict: Verdict, weight: float) -> CriterionResult:
    return CriterionResult(criterion_id=f"c-{dim}", description="d", weight=weight, dimension=dim, verdict=verdict)


def test_score_card_feeds_dimensions_from_items_and_criteria() -> None:
    bank = make_bank()
    mcq = present(bank.items["q01"], random.Random(0))  # q01 measures tradeoff
    short = present(bank.items["s00"], random.Random(0))
    results = [
        ItemResult(index=0, item=mcq, answer=Answer(index=0, choice=0), score=Score(value=1.0, source="mcq")),
        ItemResult(
            index=1,
            item=short,
            answer=Answer(index=1, text="x"),
            score=Score(
                value=0.6,
                source="embedding",
                criteria=(
                    _criterion(Dimension.CONCEPTUAL, Verdict.MET, 0.6),
                    _criterion(Dimension.EXPLANATION, Verdict.MISSED, 0.4),
                ),
            ),
        ),
    ]
    card = score_card(results)
    assert card.overall == pytest.approx(0.8)
    assert card.dimension(Dimension(mcq.dimensions[0])).value == 1.0
    assert card.dimension(Dimension.CONCEPTUAL).value == 1.0
    assert card.dimension(Dimension.EXPLANATION).value == 0.0
    assert card.dimension(Dimension.QUANTITATIVE).value is None


def test_unscored_answers_are_left_out_not_zeroed() -> None:
    bank = make_bank()
    item = present(bank.items["s00"], random.Random(0))
    results = [
        ItemResult(index=0, item=item, answer=None, score=Score(value=1.0, source="embedding")),
        ItemResult(index=1, item=item, answer=None, score=Score(value=0.0, source="judge", unscored=True)),
    ]
    card = score_card(results)
    assert card.overall == 1.0 and card.unscored == 1


@pytest.mark.parametrize(
    ("value", "band"),
    [
        (0.95, "Interview-ready"),
        (0.8, "Interview-ready"),
        (0.65, "Nearly ready"),
        (0.45, "Developing"),
        (0.1, "Not yet ready"),
    ],
)
def test_bands(value: float, band: str) -> None:
    assert band_for(value) == band
