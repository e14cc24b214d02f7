"""The guard wrapper the held-out eval puts around graders that do not run the guards themselves."""

from __future__ import annotations

import pytest

from coach.evals.heldout import GuardedGrader
from coach.grading.guards.assess import LIST_STRIPPED
from coach.grading.offline.auto_rubric import auto_target
from coach.grading.score import Score
from coach.grading.target import GradingTarget

TARGET = auto_target("In a Megatron tensor-parallel MLP, how are the two weight matrices split, and why?",
                     "The first weight matrix is split by columns and the second by rows, so the intermediate "
                     "activation stays sharded and only one all-reduce is needed at the end of the block.")
# the guards set the trailing bare term list aside and grade the rest
ANSWER = ("The up projection is split by columns and the down projection by rows, so each GPU's slice of the "
          "intermediate activation feeds its rows directly and only one all-reduce is needed.\n"
          "Keywords: Megatron TP MLP GEMM NCCL NVLink column row all-reduce GeLU")


class _KeywordGrader:
    """Scores `high` when the text contains the word, else `low`: which text it was given shows in the score."""

    def __init__(self, word: str, high: float, low: float) -> None:
        self.word, self.high, self.low = word, high, low

    def grade(self, answer: str, target: GradingTarget) -> Score:
        return Score(value=self.high if self.word in answer else self.low, source="embedding")


@pytest.mark.parametrize(("high", "low", "expected", "stripped"), [
    (0.9, 0.2, 0.9, False),  # the whole answer grades higher: it stands, and no note says the list was set aside
    (0.3, 0.8, 0.8, True),  # the rest grades higher: the list is set aside, and said so
])
def test_a_term_list_is_set_aside_only_when_that_does_not_lower_the_grade(  # type: ignore[no-untyped-def]
        embedder, high: float, low: float, expected: float, stripped: bool) -> None:
    score = GuardedGrader(_KeywordGrader("NCCL", high, low), embedder).grade(ANSWER, TARGET)
    assert score.value == pytest.approx(expected)
    assert (LIST_STRIPPED in score.notes) is stripped
