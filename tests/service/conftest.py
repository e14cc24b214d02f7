"""A Journey on each backend, with the real bank and the real offline grader."""

from __future__ import annotations

import pytest

from coach.service.identity import new_local_key
from coach.service.journey import Candidate, Journey, Policy


@pytest.fixture
def journey(database, bank, grader) -> Journey:  # type: ignore[no-untyped-def]
    return Journey(database, bank, grader, policy=Policy())


@pytest.fixture
def ada(journey: Journey) -> Candidate:
    return journey.local_candidate(new_local_key(), "Ada")

