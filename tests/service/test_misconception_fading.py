"""The fading rule of the misconception profile, on stored records built from real bank items (no database)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from coach.content.bank import Bank
from coach.content.render import RenderedItem
from coach.grading.mcq import grade_mcq
from coach.service import convert
from coach.service.misconceptions import MisconceptionStatus, misconception_profile
from coach.session.assembly import present
from coach.session.runner import Answer, AttemptKind, start
from coach.store.records import AttemptRecord

T0 = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def tagged(bank: Bank) -> tuple[RenderedItem, RenderedItem]:
    """Two MCQs: one with a distractor tagged with a misconception, one that cannot show that misconception."""
    rendered = [present(i, random.Random(0)) for i in sorted(bank.items.values(), key=lambda i: i.id)
                if i.type == "mcq"]
    first = next(r for r in rendered if any(o.misconception for o in r.options))
    mid = next(o.misconception for o in first.options if o.misconception)
    other = next(r for r in rendered if all(o.misconception != mid for o in r.options))
    return first, other


def graded(item: RenderedItem, choice: int, n: int) -> AttemptRecord:
    at = T0 + timedelta(days=n)
    attempt = start(AttemptKind.PRACTICE, item.module, [item], seed=n).model_copy(
        update={"answers": (Answer(index=0, choice=choice, at=at),), "position": 1, "started": at})
    base = convert.attempt_record(attempt, "c")
    score = grade_mcq(item, choice)
    answers = tuple(a.__class__(**{**a.__dict__, "grade": convert.grade_json(score), "graded_at": at})
                    for a in base.answers)
    return base.__class__(**{**base.__dict__, "state": "graded", "graded_at": at, "overall": score.value,
                             "band": "x", "dimensions": (), "answers": answers})


def status_after(bank: Bank, records: list[AttemptRecord]) -> tuple[MisconceptionStatus, int, int]:
    (entry,) = misconception_profile(bank, records)
    return entry.status, entry.clean_tests, len(entry.evidence)


def test_an_entry_fades_after_two_clean_tests_and_returns_when_shown_again(bank: Bank, tagged) -> None:  # type: ignore[no-untyped-def]
    item, other = tagged
    wrong = next(i for i, o in enumerate(item.options) if o.misconception)
    right = item.key_index
    assert right is not None
    records = [graded(item, wrong, 0)]
    assert status_after(bank, records) == (MisconceptionStatus.ACTIVE, 0, 1)
    records.append(graded(other, other.key_index or 0, 1))  # cannot show it: says nothing
    assert status_after(bank, records) == (MisconceptionStatus.ACTIVE, 0, 1)
    records.append(graded(item, right, 2))
    assert status_after(bank, records) == (MisconceptionStatus.FADING, 1, 1)
    records.append(graded(item, right, 3))
    assert status_after(bank, records) == (MisconceptionStatus.FADED, 2, 1)
    records.append(graded(item, wrong, 4))
    assert status_after(bank, records) == (MisconceptionStatus.ACTIVE, 0, 2)


def test_the_entry_names_what_was_chosen_and_the_page_that_fixes_it(bank: Bank, tagged) -> None:  # type: ignore[no-untyped-def]
    item, _ = tagged
    wrong = next(i for i, o in enumerate(item.options) if o.misconception)
    (entry,) = misconception_profile(bank, [graded(item, wrong, 0)])
    assert entry.evidence[0].chose == item.options[wrong].text and entry.evidence[0].question == 1
    assert entry.evidence[0].stem == item.stem and entry.concept is not None
    assert entry.concept.id in bank.concepts
