"""The guard wrapper the held-out eval puts around graders that do not run the guards themselves."""

from __future__ import annotations

import pytest

from coach.evals.heldout import GuardedGrader
from coach.grading.offline.auto_rubric import auto_target
from coach.grading.score import Flag, Score
from coach.grading.target import GradingTarget

TARGET = auto_target("What happens to the pipeline bubble when you use more micro-batches?",
                     "The bubble shrinks: its share is (p-1)/(m+p-1), so more micro-batches m make it smaller.")
# the guards take the last two sentences for filler (the reference is short)
ANSWER = ("It gets smaller. With p stages the first stage idles p-1 slots while the pipe fills and the last "
          "idles while it drains. Those idle slots are fixed, and the useful work grows with m.")


class _KeywordGrader:
    """Scores `high` when the text contains the word, else `low`: which text it was given shows in the score."""

    def __init__(self, word: str, high: float, low: float) -> None:
        self.word, self.high, self.low = word, high, low

    def grade(self, answer: str, target: GradingTarget) -> Score:
        return Score(value=self.high if self.word in answer else self.low, source="embedding")


@pytest.mark.parametrize(("high", "low", "expected", "padding"), [
    (0.9, 0.2, 0.9, False),  # the whole answer grades higher: it stands, and no padding is reported
    (0.3, 0.8, 0.8, True),  # the core grades higher: filler is set aside, and said so
])
def test_filler_is_set_aside_only_when_that_does_not_lower_the_grade(  # type: ignore[no-untyped-def]
        embedder, high: float, low: float, expected: float, padding: bool) -> None:
    score = GuardedGrader(_KeywordGrader("idles", high, low), embedder).grade(ANSWER, TARGET)
    assert score.value == pytest.approx(expected)
    assert (Flag.PADDING in score.flags) is padding
