"""Progress, the misconception profile and share links, through the service on both backends."""

from __future__ import annotations

import json

import pytest

from coach.errors import AttemptNotFound, SessionError
from coach.service.identity import new_local_key
from coach.service.journey import Candidate, Journey
from coach.service.misconceptions import MisconceptionStatus
from coach.vocab import Dimension
from tests.service.sitting import MODULE, answer_all


def sit(journey: Journey, who: Candidate, good: bool, seed: int) -> str:
    attempt = answer_all(journey, who, journey.start_readiness(who, MODULE, seed=seed), good=good)
    return journey.submit_and_grade(who, attempt.id).attempt.id


def test_progress_has_latest_best_series_ready_and_next(journey: Journey, ada: Candidate) -> None:
    weak = sit(journey, ada, good=False, seed=1)
    strong = sit(journey, ada, good=True, seed=2)
    progress = journey.progress(ada)
    mp = next(m for m in progress.modules if m.module == MODULE)
    assert (mp.checks, mp.latest.attempt_id, mp.best.attempt_id) == (2, strong, strong)  # type: ignore[union-attr]
    assert mp.overall_series[0].attempt_id == weak and mp.overall_series[0].overall < mp.best.overall  # type: ignore[union-attr]
    assert all(len(points) == 2 for points in mp.series.values())  # a readiness check measures every dimension
    assert mp.ready == (mp.best.overall >= 0.8)  # type: ignore[union-attr]
    assert progress.suggested_next == ("inference-fundamentals")  # first on the path, not ready yet
    untouched = next(m for m in progress.modules if m.module == "distributed-inference")
    assert untouched.latest is None and not untouched.ready and untouched.series[Dimension.CONCEPTUAL] == ()


def test_a_module_is_ready_once_a_check_passes_the_threshold(journey: Journey, ada: Candidate) -> None:
    sit(journey, ada, good=True, seed=2)
    best = next(m for m in journey.progress(ada).modules if m.module == MODULE).best
    assert best is not None
    journey.policy = type(journey.policy)(ready_threshold=best.overall)
    assert next(m for m in journey.progress(ada).modules if m.module == MODULE).ready
    journey.policy = type(journey.policy)(ready_threshold=min(1.0, best.overall + 0.01))
    assert not next(m for m in journey.progress(ada).modules if m.module == MODULE).ready


def test_the_profile_shows_evidence_and_the_page_to_read(journey: Journey, ada: Candidate) -> None:
    sit(journey, ada, good=False, seed=1)
    profile = journey.misconceptions(ada)
    assert profile and all(e.status == MisconceptionStatus.ACTIVE for e in profile)
    entry = profile[0]
    assert entry.evidence[0].chose or entry.evidence[0].wrote
    assert entry.statement and entry.concept is not None and entry.concept.id in journey.bank.concepts
    shown = {(e.attempt_id, e.question) for e in entry.evidence}
    assert len(shown) == len(entry.evidence)  # one piece of evidence per question that showed it

def test_a_share_shows_the_headline_and_nothing_of_the_answers(journey: Journey, ada: Candidate) -> None:
    attempt_id = sit(journey, ada, good=True, seed=4)
    attempt = journey.open_attempt(ada, attempt_id)
    link = journey.create_share(ada, attempt_id)
    assert len(link.token) >= 43  # token_urlsafe(32): 256 bits
    view = journey.open_share(link.token)
    assert view is not None and view.name is None and view.module == MODULE
    assert set(view.model_dump()) == {"module", "module_title", "date", "band", "overall", "dimensions", "name"}
    public = view.model_dump_json()
    for item, answer in zip(attempt.items, attempt.answers, strict=True):
        assert item.stem not in public and (answer.text or "\x00") not in public
        assert all(o.text not in public for o in item.options)
    assert "Ada" not in public
    named = journey.create_share(ada, attempt_id, show_name=True)
    assert journey.open_share(named.token).name == "Ada"  # type: ignore[union-attr]
    assert journey.revoke_share(ada, link.token) and journey.open_share(link.token) is None
    assert journey.open_share(named.token) is not None  # revoking one link leaves the other
    assert [s.active for s in journey.shares(ada, attempt_id)] == [False, True]
    assert json.loads(public)["overall"] == pytest.approx(journey.result(ada, attempt_id).card.overall)  # type: ignore[union-attr]


def test_only_the_owner_shares_or_revokes_and_only_graded_results(journey: Journey, ada: Candidate) -> None:
    eve = journey.local_candidate(new_local_key(), "Eve")
    attempt_id = sit(journey, ada, good=True, seed=4)
    with pytest.raises(AttemptNotFound):
        journey.create_share(eve, attempt_id)
    link = journey.create_share(ada, attempt_id)
    assert not journey.revoke_share(eve, link.token) and journey.open_share(link.token) is not None
    open_attempt = journey.start_practice(ada, MODULE, count=2)
    with pytest.raises(SessionError):
        journey.create_share(ada, open_attempt.id)
    assert journey.open_share("not-a-token") is None and journey.open_share("") is None
