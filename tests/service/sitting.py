"""Sitting an attempt through the service the way a candidate would, well or badly."""

from __future__ import annotations

from coach.service.journey import Candidate, Journey
from coach.session.runner import Attempt, AttemptState

MODULE = "model-parallelism"


def wrong_choice(attempt: Attempt) -> int:
    """A distractor tagged with a misconception when the item has one, else any wrong option."""
    item = attempt.items[attempt.position]
    tagged = [i for i, o in enumerate(item.options) if not o.correct and o.misconception]
    return (tagged or [i for i, o in enumerate(item.options) if not o.correct])[0]


def answer_all(journey: Journey, who: Candidate, attempt: Attempt, good: bool = True) -> Attempt:
    """Answer every question: keys and model answers when `good`, tagged distractors and a weak text otherwise."""
    while attempt.state == AttemptState.IN_PROGRESS:
        item = attempt.items[attempt.position]
        if item.type == "mcq":
            choice = item.key_index if good else wrong_choice(attempt)
            attempt = journey.record_answer(who, attempt.id, choice=choice, advance=True)
        else:
            text = item.model_answer if good else "I am not sure; it depends on the hardware."
            attempt = journey.record_answer(who, attempt.id, text=text, advance=True)
    return attempt
