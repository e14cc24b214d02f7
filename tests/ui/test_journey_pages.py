"""The journey pages (identity, progress, profile, shared result, share controls, retakes) under AppTest,
against a real SQLite store filled through the service the way a candidate fills it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from streamlit.testing.v1 import AppTest

from coach.config import get_settings
from coach.service.identity import new_local_key
from coach.service.journey import Candidate, Journey
from coach.service.views import RetakesLeft
from coach.ui import services
from coach.ui.components.retakes import clock_text, retakes_message, wait_text
from coach.ui.state import CANDIDATE_KEY
from tests.service.sitting import MODULE, answer_all


@pytest.fixture
def journey(isolated_state, bank, grader) -> Iterator[Journey]:  # type: ignore[no-untyped-def]
    """The Journey the pages will open (same settings, same SQLite file), and a fresh page cache."""
    services.journey.clear()
    j = Journey.from_settings(get_settings(), bank, grader)
    yield j
    services.journey.clear()
    j.db.dispose()


@pytest.fixture
def ada(journey: Journey) -> Candidate:
    return journey.local_candidate(new_local_key(), "Ada Lovelace")


def sit(journey: Journey, who: Candidate, good: bool, seed: int) -> str:
    attempt = answer_all(journey, who, journey.start_readiness(who, MODULE, seed=seed), good=good)
    return journey.submit_and_grade(who, attempt.id).attempt.id


def page(script: str, who: Candidate | None = None, **args: object) -> AppTest:
    at = AppTest.from_string(script, default_timeout=120)
    if who is not None:
        at.session_state[CANDIDATE_KEY] = who.identity
    for name, value in args.items():
        at.session_state[name] = value
    return at.run()


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [t.value for t in at.title]
    parts += [s.value for s in at.subheader] + [str(x.value) for x in at.info] + [str(x.value) for x in at.success]
    parts += [str(x.value) for x in at.warning] + [str(x.value) for x in at.error] + [c.value for c in at.code]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    return "\n".join(parts)


IDENTITY = """
import streamlit as st
from coach.ui.identity import current_candidate, identity_sidebar
who = current_candidate()
if who is None:
    st.stop()
identity_sidebar()
st.markdown(f"CANDIDATE {who.id} {who.display_name}")
"""


def test_first_visit_asks_for_a_name_says_local_mode_and_creates_the_candidate(journey: Journey) -> None:
    at = page(IDENTITY)
    assert not at.exception
    assert "Local mode" in texts(at) and "CANDIDATE" not in texts(at)
    field = next(t for t in at.text_input if t.label == "Your display name")
    field.input("   ")
    at = next(b for b in at.button if b.label == "Continue").click().run()
    assert "Type a display name" in texts(at) and "CANDIDATE" not in texts(at)
    next(t for t in at.text_input if t.label == "Your display name").input("Grace\x07 Hopper")
    at = next(b for b in at.button if b.label == "Continue").click().run()
    assert "CANDIDATE" in texts(at) and "Grace Hopper" in texts(at)
    key = at.session_state[CANDIDATE_KEY]
    assert journey.local_candidate(key).display_name == "Grace Hopper"  # the control character was dropped
    assert "local mode" in "\n".join(m.value for m in at.sidebar.markdown)


def test_the_same_browser_key_is_the_same_candidate_rename_and_forget(journey: Journey, ada: Candidate) -> None:
    at = page(IDENTITY, ada)
    assert f"CANDIDATE {ada.id} Ada Lovelace" in texts(at)
    field = next(t for t in at.sidebar.text_input if t.label == "Display name")
    field.input("Countess Ada")
    at = next(b for b in at.sidebar.button if b.label == "Save name").click().run()
    assert f"CANDIDATE {ada.id} Countess Ada" in texts(at)
    assert journey.local_candidate(ada.identity).display_name == "Countess Ada"
    at = next(b for b in at.sidebar.button if b.label == "Forget this browser").click().run()
    assert "CANDIDATE" not in texts(at) and "Local mode" in texts(at)


AUTH = {"client_id": "coach", "client_secret": "s", "server_metadata_url": "https://id.example/.well-known/x",
        "redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "c"}


def test_oidc_signed_out_shows_sign_in_and_no_local_form(journey: Journey) -> None:
    at = AppTest.from_string(IDENTITY, default_timeout=120)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": False}
    at = at.run()
    assert not at.exception, at.exception
    assert [b.label for b in at.button] == ["Sign in"]
    assert "Local mode" not in texts(at) and "CANDIDATE" not in texts(at)


def test_oidc_signed_in_is_the_issuer_and_subject_and_can_sign_out(journey: Journey) -> None:
    at = AppTest.from_string(IDENTITY, default_timeout=120)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "sub": "user-42", "iss": "https://id.example", "name": "Grace Hopper",
               "email": "grace@example.com"}
    at = at.run()
    assert not at.exception, at.exception
    who = journey.oidc_candidate("user-42", issuer="https://id.example")
    assert f"CANDIDATE {who.id} Grace Hopper" in texts(at)
    sidebar = "\n".join(m.value for m in at.sidebar.markdown)
    assert "Grace Hopper" in sidebar and "local mode" not in sidebar
    other_issuer = journey.oidc_candidate("user-42", issuer="https://other.example")
    assert other_issuer.id != who.id  # the subject is unique only within its issuer
    at = next(b for b in at.sidebar.button if b.label == "Sign out").click().run()
    # the run stops there: the browser is on its way to the logout endpoint (tests/e2e/test_oidc_browser.py)
    assert "CANDIDATE" not in texts(at) and "_coach_candidate" not in at.session_state


def test_retake_message_counts_and_names_the_time_the_next_opens() -> None:
    now = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    some = RetakesLeft(module=MODULE, limit=3, used=1, remaining=2, next_open_at=None, window_hours=24)
    assert retakes_message(some, now).startswith("2 of 3 readiness checks left")
    opens = now + timedelta(hours=3, minutes=4, seconds=10)
    none = RetakesLeft(module=MODULE, limit=3, used=3, remaining=0, next_open_at=opens, window_hours=24)
    text = retakes_message(none, now)
    assert "None left" in text and "13:05 UTC" in text and "in 3 h 05 min" in text
    assert wait_text(now + timedelta(seconds=20), now) == "1 min"
    assert wait_text(now, now) == "less than a minute"
    tomorrow = RetakesLeft(module=MODULE, limit=3, used=3, remaining=0, next_open_at=now + timedelta(hours=20),
                           window_hours=24)
    assert "06:00 UTC on Sat 02 May" in retakes_message(tomorrow, now)


def test_retake_time_is_in_the_browsers_zone_when_known() -> None:
    now = datetime(2026, 5, 1, 21, 0, tzinfo=UTC)
    opens = now + timedelta(hours=2, minutes=30)  # 23:30 UTC is 01:30 the next day in Berlin (CEST)
    none = RetakesLeft(module=MODULE, limit=3, used=3, remaining=0, next_open_at=opens, window_hours=24)
    text = retakes_message(none, now, ZoneInfo("Europe/Berlin"))
    assert "opens at 01:30 (Europe/Berlin, 23:30 UTC) on Sat 02 May (in 2 h 30 min)" in text
    assert clock_text(opens, ZoneInfo("Etc/UTC")) == "23:30 UTC"


RETAKES = """
import streamlit as st
from coach.ui.identity import current_candidate
from coach.ui.components.retakes import retakes_notice
st.markdown(f"OPEN {retakes_notice(current_candidate(), 'model-parallelism')}")
"""


def test_the_retakes_notice_refuses_after_three_starts(journey: Journey, ada: Candidate) -> None:
    at = page(RETAKES, ada)
    assert "OPEN True" in texts(at) and "3 of 3 readiness checks left" in texts(at)
    for seed in range(3):
        journey.start_readiness(ada, MODULE, seed=seed)
    at = AppTest.from_string(RETAKES, default_timeout=120)
    at.session_state[CANDIDATE_KEY] = ada.identity
    at.context = {"timezone": "America/New_York"}
    at = at.run()
    assert "OPEN False" in texts(at) and "readiness checks left" not in texts(at)
    left = journey.retakes_left(ada, MODULE)
    assert left.next_open_at is not None
    assert clock_text(left.next_open_at, ZoneInfo("America/New_York")) in texts(at)


PROGRESS = """
from coach.ui.pages import progress
progress.render()
"""


def test_progress_shows_the_attempt_its_trend_and_link_and_hides_other_candidates(journey: Journey,
                                                                                  ada: Candidate) -> None:
    weak = sit(journey, ada, good=False, seed=1)
    strong = sit(journey, ada, good=True, seed=2)
    at = page(PROGRESS, ada)
    assert not at.exception, at.exception
    shown = texts(at)
    assert f"/results?attempt={strong}" in shown and f"/results?attempt={weak}" in shown
    assert "Suggested next" in shown and "/module?id=" in shown
    charts = at.get("plotly_chart")
    assert len(charts) == 1  # one module with readiness checks: one trend chart
    figure = charts[0].proto.spec
    assert "Overall" in figure and "Explanation quality" in figure and "ready at 80%" in figure
    best = journey.progress(ada).modules
    mp = next(m for m in best if m.module == MODULE)
    assert (f"{mp.best.overall:.0%}" if mp.best else "?") in shown
    eve = journey.local_candidate(new_local_key(), "Eve")
    other = page(PROGRESS, eve)
    assert strong not in texts(other) and weak not in texts(other) and "No graded attempts yet" in texts(other)


PROFILE = """
from coach.ui.pages import profile
profile.render()
"""


def test_profile_shows_evidence_the_concept_link_and_status(journey: Journey, ada: Candidate) -> None:
    sit(journey, ada, good=False, seed=1)
    entries = journey.misconceptions(ada)
    assert entries
    at = page(PROFILE, ada)
    assert not at.exception, at.exception
    shown = texts(at)
    first = entries[0]
    assert first.statement in shown and "Active:" in shown
    assert first.concept is not None and f"/concept?id={first.concept.id}" in shown
    evidence = first.evidence[0]
    assert f"question {evidence.question}" in shown
    assert (evidence.chose or " ".join((evidence.wrote or "").split())[:100]) in shown


def test_profile_hides_faded_entries_with_a_count(journey: Journey, ada: Candidate) -> None:
    sit(journey, ada, good=False, seed=1)
    before = {e.id for e in journey.misconceptions(ada)}
    for seed in (1, 1):  # the same draw, answered well twice: every entry it showed is tested clean twice
        sit(journey, ada, good=True, seed=seed)
    entries = journey.misconceptions(ada)
    faded = [e for e in entries if e.status == "faded"]
    assert faded and {e.id for e in entries} == before
    at = page(PROFILE, ada)
    shown = texts(at)
    assert f"{len(faded)} faded misconception" in shown
    assert all(e.statement not in shown for e in faded)


SHARED = """
import streamlit as st
from coach.ui.pages import shared
shared.render(st.session_state["token"])
"""


def test_shared_page_shows_the_headline_and_none_of_the_answers(journey: Journey, ada: Candidate) -> None:
    attempt_id = sit(journey, ada, good=True, seed=4)
    link = journey.create_share(ada, attempt_id)
    at = page(SHARED, token=link.token)
    assert not at.exception, at.exception
    shown = texts(at) + "\n".join(c.proto.spec for c in at.get("plotly_chart"))
    result = journey.result(ada, attempt_id)
    assert result is not None
    assert f"{result.card.overall:.0%}" in shown and result.card.band in shown
    assert "Ada" not in shown and "A candidate's readiness result" in shown
    attempt = result.attempt
    for item, answer in zip(attempt.items, attempt.answers, strict=True):
        assert item.stem not in shown and all(o.text not in shown for o in item.options)
        assert not answer.text or answer.text not in shown
    named = journey.create_share(ada, attempt_id, show_name=True)
    assert "Ada Lovelace's readiness result" in texts(page(SHARED, token=named.token))
    journey.revoke_share(ada, link.token)
    gone = texts(page(SHARED, token=link.token))
    assert "revoked" in gone and result.card.band not in gone
    assert "not a valid link" in texts(page(SHARED, token="nonsense"))


SHARE_CONTROLS = """
import streamlit as st
from coach.ui.identity import current_candidate
from coach.ui.components.share import share_controls
share_controls(current_candidate(), st.session_state["attempt"])
"""


def test_share_controls_create_list_and_revoke(journey: Journey, ada: Candidate) -> None:
    attempt_id = sit(journey, ada, good=True, seed=4)
    at = page(SHARE_CONTROLS, ada, attempt=attempt_id)
    assert "No share links yet" in texts(at)
    next(c for c in at.checkbox if c.label.startswith("Show my name")).check()
    at = next(b for b in at.button if b.label == "Create a share link").click().run()
    links = journey.shares(ada, attempt_id)
    assert len(links) == 1 and links[0].show_name and links[0].active
    assert any(c.value.endswith(f"/?result={links[0].token}") for c in at.code)
    at = next(b for b in at.button if b.label == "Revoke").click().run()
    assert not journey.shares(ada, attempt_id)[0].active
    assert "revoked" in texts(at)
    eve = journey.local_candidate(new_local_key(), "Eve")
    other = page(SHARE_CONTROLS, eve, attempt=attempt_id)
    assert "No such attempt for you" in texts(other)
