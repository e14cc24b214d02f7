"""Builds the judge review step for an attempt from settings, or None when the judge is off."""

from __future__ import annotations

from coach.config import Settings
from coach.grading.attempt import JudgeReview
from coach.grading.embedding import EmbeddingGrader


def judge_review_from_settings(settings: Settings, grader: EmbeddingGrader) -> JudgeReview | None:
    if not settings.judge_enabled:
        return None
    return None  # wired to coach.grading.judge + combine once they land
