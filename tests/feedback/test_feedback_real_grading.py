"""Fake mode end to end on a really graded readiness check: real bank, real embeddings, the keyword judge."""

from __future__ import annotations

import random

from coach.config import Settings
from coach.content.bank import Bank
from coach.feedback.cache import InMemoryFeedbackCache
from coach.feedback.llm import coach_feedback
from coach.grading.attempt import grade_attempt
from coach.grading.judge.review import judge_review_from_settings
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.text import sentences
from coach.session.assembly import assemble_readiness
from coach.session.runner import AttemptKind, advance, record, start

MODULE = "model-parallelism"


def test_fake_mode_feedback_on_a_graded_check_cites_only_what_was_graded(grader: EmbeddingGrader, bank: Bank) -> None:
    rng = random.Random(11)
    attempt = start(AttemptKind.READINESS, MODULE, assemble_readiness(bank, MODULE, rng), seed=11)
    for item in attempt.items:
        if item.type == "mcq":
            attempt = record(attempt, choice=rng.randrange(len(item.options)))
        else:  # the first two sentences of the model answer: a plausible, incomplete answer
            attempt = record(attempt, text=" ".join(sentences(item.model_answer or "")[:2]))
        attempt = advance(attempt)
    settings = Settings(llm_mode="fake")
    card = grade_attempt(attempt, bank, grader, judge_review_from_settings(settings))
    fb = coach_feedback(card, bank, MODULE, attempt_id=attempt.id, settings=settings, cache=InMemoryFeedbackCache())
    assert fb.source == "llm" and fb.fallback_reason is None
    assert fb.dropped == ()  # the fake writer cites only what the grades show
    shorts = {r.index + 1: r.answer.text for r in card.results if r.item.type == "short" and r.answer}
    assert sorted(n.question for n in fb.notes) == sorted(shorts)
    assert all(n.quote in (shorts[n.question] or "") for n in fb.notes)
    assert all(link.concept in bank.concepts for link in fb.study)
