from __future__ import annotations

import random

import pytest

from coach.errors import AnswerError, SessionError
from coach.session.assembly import assemble_practice
from coach.session.runner import Attempt, AttemptKind, AttemptState, Reveal, advance, mark_graded, record, start
from tests.factories import make_bank


def _attempt(reveal: Reveal = Reveal.END) -> Attempt:
    bank = make_bank()
    items = [i for i in assemble_practice(bank, "mod", None, 31, random.Random(3))]
    items.sort(key=lambda i: i.type)  # MCQs first, then short answers
    return start(AttemptKind.PRACTICE, "mod", items[:2] + items[-1:], seed=3, reveal=reveal)


def test_a_full_pass_reaches_submitted_then_graded() -> None:
    a = _attempt()
    a = advance(record(a, choice=0))
    a = advance(record(a, skip=True))
    a = advance(record(a, text="  Stages run one after another.  "))
    assert a.state == AttemptState.SUBMITTED
    assert a.answer_for(2) is not None and a.answer_for(2).text == "Stages run one after another."
    assert mark_graded(a).state == AttemptState.GRADED


@pytest.mark.parametrize("text", ["", "   \n\t  ", None])
def test_empty_and_whitespace_answers_are_refused_with_a_message(text: str | None) -> None:
    a = _attempt()
    a = advance(record(advance(record(a, choice=1)), choice=2))
    with pytest.raises(AnswerError, match="empty"):
        record(a, text=text)


def test_a_very_long_answer_is_refused_and_says_the_limit() -> None:
    a = _attempt()
    a = advance(record(advance(record(a, choice=1)), choice=2))
    with pytest.raises(AnswerError, match="limit is 4,000"):
        record(a, text="word " * 2000)


def test_mcq_needs_a_valid_choice() -> None:
    a = _attempt()
    with pytest.raises(AnswerError):
        record(a, choice=None)
    with pytest.raises(AnswerError):
        record(a, choice=9)


def test_cannot_skip_ahead_or_answer_after_submission() -> None:
    a = _attempt()
    with pytest.raises(SessionError):
        advance(a)
    for _ in range(3):
        a = advance(record(a, skip=True))
    with pytest.raises(SessionError):
        record(a, skip=True)


def test_changing_an_answer_replaces_it_and_the_attempt_round_trips_as_json() -> None:
    a = record(record(_attempt(Reveal.EACH), choice=0), choice=3)
    assert [x.choice for x in a.answers] == [3]
    again = Attempt.model_validate_json(a.model_dump_json())
    assert again == a
