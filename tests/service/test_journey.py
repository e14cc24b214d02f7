"""The journey API on both backends: identity, the retake limit, ownership, answers before grades, grading."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from coach.errors import AnswerError, AttemptNotFound, RetakeLimitReached, SessionError
from coach.grading.score import Score
from coach.service.identity import new_local_key
from coach.service.journey import Candidate, Journey
from coach.session.runner import AttemptKind, AttemptState
from coach.store.models import AnswerRow
from tests.service.sitting import MODULE, answer_all


def test_a_browser_key_is_one_candidate_and_a_bad_key_is_refused(journey: Journey) -> None:
    key = new_local_key()
    first = journey.local_candidate(key, "  Ada\x00 Lovelace  ")
    again = journey.local_candidate(key, "someone else")
    assert first.id == again.id and first.display_name == "Ada Lovelace" and first.mode == "local"
    with pytest.raises(ValueError):
        journey.local_candidate("guessable", "Eve")
    oidc = journey.oidc_candidate("sub-1", "Grace", issuer="https://idp.example")
    assert oidc.mode == "oidc" and oidc.id != first.id
    assert journey.oidc_candidate("sub-1", None, issuer="https://idp.example").id == oidc.id


def test_a_fourth_readiness_check_in_24_hours_is_refused(journey: Journey, ada: Candidate) -> None:
    t0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
    for hours in (0, 1, 2):
        journey.start_readiness(ada, MODULE, seed=hours, now=t0 + timedelta(hours=hours))
    left = journey.retakes_left(ada, MODULE, now=t0 + timedelta(hours=3))
    assert (left.remaining, left.used, left.next_open_at) == (0, 3, t0 + timedelta(hours=24))
    with pytest.raises(RetakeLimitReached) as refused:
        journey.start_readiness(ada, MODULE, now=t0 + timedelta(hours=3))
    assert refused.value.remaining == 0 and refused.value.next_open_at == t0 + timedelta(hours=24)
    assert "08:00" in str(refused.value)
    for _ in range(4):  # practice is unlimited
        journey.start_practice(ada, MODULE, count=3)
    journey.start_readiness(ada, MODULE, now=t0 + timedelta(hours=24, seconds=1))
    assert journey.retakes_left(ada, "inference-fundamentals").remaining == 3


def test_another_candidates_attempt_does_not_open(journey: Journey, ada: Candidate) -> None:
    eve = journey.local_candidate(new_local_key(), "Eve")
    attempt = journey.start_practice(ada, MODULE, count=2)
    for call in (lambda: journey.open_attempt(eve, attempt.id),
                 lambda: journey.record_answer(eve, attempt.id, skip=True),
                 lambda: journey.submit_and_grade(eve, attempt.id),
                 lambda: journey.abandon(eve, attempt.id)):
        with pytest.raises(AttemptNotFound) as refused:
            call()
        assert attempt.items[0].stem not in str(refused.value)
    assert journey.history(eve) == [] and journey.current_open_attempt(eve, MODULE, AttemptKind.PRACTICE) is None
    assert journey.open_attempt(ada, attempt.id).answers == ()


def test_an_answer_is_written_before_grading_and_resumes_where_it_was(journey: Journey, ada: Candidate) -> None:
    attempt = journey.start_readiness(ada, MODULE, seed=11)
    first = attempt.items[0]
    after = journey.record_answer(ada, attempt.id, choice=0) if first.type == "mcq" else \
        journey.record_answer(ada, attempt.id, text="Each replica holds a full copy of the weights.")
    assert after.position == 1 and after.state == AttemptState.IN_PROGRESS
    with journey.db.read() as s:
        row = s.scalars(select(AnswerRow).where(AnswerRow.attempt_id == attempt.id)).one()
    assert (row.item_id, row.item_version, row.grade) == (first.id, first.version, None)
    assert row.variant == [list(p) for p in first.variant]
    if first.type == "mcq":
        assert row.choice == 0 and row.choice_text == first.options[0].text
    resumed = journey.current_open_attempt(ada, MODULE, AttemptKind.READINESS)
    assert resumed is not None and resumed.id == attempt.id and resumed.position == 1
    assert resumed.items == attempt.items  # the exact rendering, options in the order shown


def test_bad_input_writes_nothing_and_says_why(journey: Journey, ada: Candidate) -> None:
    attempt = journey.start_readiness(ada, MODULE, seed=3)
    while attempt.items[attempt.position].type != "short":
        attempt = journey.record_answer(ada, attempt.id, skip=True)
    before = journey.open_attempt(ada, attempt.id)
    with pytest.raises(AnswerError, match="empty"):
        journey.record_answer(ada, attempt.id, text=" \n\t ")
    with pytest.raises(AnswerError, match="limit is 4,000"):
        journey.record_answer(ada, attempt.id, text="x" * 4001)
    assert journey.open_attempt(ada, attempt.id) == before
    with pytest.raises(AnswerError, match="empty"):
        journey.record_answer(ada, attempt.id, text="\x00\x01\x7f")
    pasted = journey.record_answer(ada, attempt.id, text="Weights\x00 are\x07 replicated;\tκ-cache 日本\n")
    assert pasted.answer_for(before.position).text == "Weights are replicated;\tκ-cache 日本"  # type: ignore[union-attr]
    with pytest.raises(SessionError):
        journey.record_answer(ada, attempt.id, text="an answer", index=before.position + 5)


def test_submit_and_grade_writes_every_grade_with_its_evidence(journey: Journey, ada: Candidate) -> None:
    attempt = answer_all(journey, ada, journey.start_readiness(ada, MODULE, seed=5), good=True)
    assert attempt.state == AttemptState.SUBMITTED
    graded = journey.submit_and_grade(ada, attempt.id)
    assert graded.attempt.state == AttemptState.GRADED and 0.0 <= graded.card.overall <= 1.0
    with journey.db.read() as s:
        rows = s.scalars(select(AnswerRow).where(AnswerRow.attempt_id == attempt.id).order_by(AnswerRow.index)).all()
    assert len(rows) == len(attempt.items) and all(r.graded_at is not None for r in rows)
    stored = [Score.model_validate(r.grade) for r in rows]
    assert stored == [r.score for r in graded.card.results]
    shorts = [s for s, item in zip(stored, attempt.items, strict=True) if item.type == "short"]
    assert shorts and all(s.criteria for s in shorts)
    assert any(c.evidence for s in shorts for c in s.criteria)  # a model answer matches some criterion
    again = journey.submit_and_grade(ada, attempt.id)  # idempotent: the stored result comes back
    assert again.card == graded.card == journey.result(ada, attempt.id).card  # type: ignore[union-attr]
    summary = journey.history(ada)[0]
    assert summary.id == attempt.id and summary.overall == pytest.approx(graded.card.overall)


def test_an_unfinished_attempt_cannot_be_graded(journey: Journey, ada: Candidate) -> None:
    attempt = journey.start_practice(ada, MODULE, count=2)
    with pytest.raises(SessionError, match="every question"):
        journey.submit_and_grade(ada, attempt.id)
    assert journey.result(ada, attempt.id) is None


def test_abandoned_attempts_leave_history_but_keep_the_start(journey: Journey, ada: Candidate) -> None:
    attempt = journey.start_readiness(ada, MODULE, seed=1)
    journey.abandon(ada, attempt.id)
    assert journey.current_open_attempt(ada, MODULE, AttemptKind.READINESS) is None
    assert journey.history(ada) == [] and journey.retakes_left(ada, MODULE).used == 1
    with pytest.raises(AttemptNotFound):
        journey.open_attempt(ada, attempt.id)


def test_the_judge_reviews_short_answers_and_its_grades_are_stored(database, bank, grader) -> None:  # type: ignore[no-untyped-def]
    from coach.config import Settings
    from coach.grading.judge.review import judge_review_from_settings

    judge = judge_review_from_settings(Settings(llm_mode="fake"))
    assert judge is not None
    journey = Journey(database, bank, grader, judge=judge)
    ada = journey.local_candidate(new_local_key(), "Ada")
    attempt = answer_all(journey, ada, journey.start_readiness(ada, MODULE, seed=5), good=True)
    graded = journey.submit_and_grade(ada, attempt.id)
    sources = {r.score.source for r in graded.card.results if r.item.type == "short"}
    assert sources and sources != {"embedding"}  # the judge's review replaced the offline grade
    assert journey.result(ada, attempt.id).card == graded.card  # type: ignore[union-attr]
