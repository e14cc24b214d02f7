"""Builds the judge review step for an attempt from settings, or None when the judge is off."""

from __future__ import annotations

from collections.abc import Sequence

from coach.config import Settings
from coach.grading.attempt import JudgeReview
from coach.grading.combine import grade_with_judge
from coach.grading.judge.llm import LLMJudge
from coach.grading.score import Score
from coach.grading.target import GradingTarget


def judge_review_from_settings(settings: Settings) -> JudgeReview | None:
    judge = LLMJudge.from_settings(settings)
    if judge is None:
        return None

    def review(rows: Sequence[tuple[str, GradingTarget, Score]]) -> list[Score]:
        return grade_with_judge(rows, judge)

    return review
