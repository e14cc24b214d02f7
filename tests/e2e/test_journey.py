"""Issue 17's browser proofs, in headless Chromium against a real `streamlit run`:

- close the browser (a persistent profile, relaunched) and the attempt is in My progress;
- a share link opened in a fresh context shows the result and none of the answers (nor the name unless opted in);
- a 4th readiness check in 24 h is refused with the time the next opens;
- another candidate's `?attempt=` does not open;
- SIGKILL the server mid-check, restart it on the same database: the attempt resumes with every submitted answer;
- stop PostgreSQL while the candidate answers: a clear message, the typed answer kept, written once it is back;
- the local-mode key cookie is HttpOnly, also where an older page had written it from script.

Screenshots of the results and progress pages go to tests/e2e/artifacts/ (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from coach.config import PROJECT_ROOT
from coach.content.loader import load_bank
from coach.service.journey import Candidate, Journey
from coach.session.runner import Attempt
from coach.store.db import Database
from coach.ui.components.retakes import clock_text
from tests.e2e.journey_support import (
    ANSWER,
    MODULE,
    RESULTS,
    SUBMIT,
    AppServer,
    answer_current,
    answer_until_results,
    assert_http_only,
    launch_profile,
    local_key,
    main_text,
    open_page,
    question_number,
    screenshot,
    seed_local_key,
    settle,
    start_check,
    wait_for_any,
)

pytestmark = pytest.mark.e2e
NAME = "Ada Lovelace"


def _no_grading() -> Any:
    raise AssertionError("the test's Journey only reads; the server grades")


def service(url: str) -> Journey:
    """The test's own door to the database the server uses (to read back what the browser did)."""
    return Journey(Database(url), load_bank(PROJECT_ROOT), _no_grading)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    app = AppServer(tmp_path_factory.mktemp("journey-server"))
    app.start()
    yield app
    app.stop()


@pytest.fixture(scope="module")
def journey(server: AppServer) -> Iterator[Journey]:
    j = service(f"sqlite:///{server.state_dir / 'coach.db'}")
    yield j
    j.db.dispose()


@dataclass
class Sat:
    profile: Path
    attempt_id: str
    candidate: Candidate


@pytest.fixture(scope="module")
def ada_sat_a_check(browser: Any, server: AppServer, journey: Journey,
                    tmp_path_factory: pytest.TempPathFactory) -> Sat:
    """Ada sits a whole readiness check in her own browser profile, then closes the browser."""
    profile = tmp_path_factory.mktemp("ada-profile")
    own = launch_profile(browser, profile)
    try:
        page = own.new_page()
        start_check(page, server.url)
        answer_until_results(page)
        assert "attempt=" in page.url, page.url
        attempt_id = page.url.split("attempt=", 1)[1].split("&", 1)[0]
        screenshot(page, "results.png")
        candidate = journey.local_candidate(local_key(own))
    finally:
        own.close()
    assert candidate.display_name == NAME
    assert journey.result(candidate, attempt_id) is not None  # graded and stored
    return Sat(profile, attempt_id, candidate)


def test_closing_the_browser_keeps_the_attempt_in_my_progress(browser: Any, server: AppServer, journey: Journey,
                                                              ada_sat_a_check: Sat) -> None:
    own = launch_profile(browser, ada_sat_a_check.profile)  # the same profile, a new browser process
    try:
        page = own.new_page()
        page.goto(f"{server.url}/progress")
        wait_for_any(page, ["text=My progress"])
        wait_for_any(page, [f"a[href*='attempt={ada_sat_a_check.attempt_id}']", "text=Your display name"])
        assert not page.locator("text=Your display name").count(), "the browser came back as a new candidate"
        text = main_text(page)
        assert journey.bank.modules[MODULE].title in text
        assert page.locator(f"a[href*='attempt={ada_sat_a_check.attempt_id}']").count() >= 1
        wait_for_any(page, ["[data-testid='stPlotlyChart'] .main-svg"])  # the dimension trend, drawn
        assert NAME in str(page.locator("[data-testid='stSidebar']").inner_text())
        screenshot(page, "progress.png")
    finally:
        own.close()


def _share_link(page: Any, previous: str | None = None) -> str:
    """Click 'Create a share link' and read the new link from the code box it shows first."""
    page.locator("button:has-text('Create a share link')").click()
    code = "[data-testid='stCode']:has-text('?result=')"
    for _ in range(240):
        wait_for_any(page, [code])
        link = str(page.locator(code).first.inner_text().strip().splitlines()[0].strip())
        if link != previous:
            return link
        page.wait_for_timeout(250)
    raise AssertionError("no new share link appeared")


def _forbidden(journey: Journey, who: Candidate, attempt_id: str) -> list[str]:
    """Everything of the attempt that a share link must never show: answers, stems, options."""
    attempt = journey.open_attempt(who, attempt_id)
    texts = [ANSWER]
    for item, answer in zip(attempt.items, attempt.answers, strict=False):
        texts.append(item.stem)
        texts.extend(o.text for o in item.options)
        if answer.text:
            texts.append(answer.text)
    return [t for t in texts if len(t) >= 12]  # short option texts ("8", "FP16") would match by accident


def test_a_share_link_opens_in_a_fresh_context_without_the_answers_or_the_name(
        browser: Any, server: AppServer, journey: Journey, ada_sat_a_check: Sat) -> None:
    sat = ada_sat_a_check
    owner = launch_profile(browser, sat.profile)
    try:
        page = owner.new_page()
        page.goto(f"{server.url}/results?attempt={sat.attempt_id}")
        wait_for_any(page, ["button:has-text('Create a share link')"])
        anonymous = _share_link(page)
        assert "?result=" in anonymous and anonymous.startswith("http")
        page.get_by_text("Show my name").click()
        named = _share_link(page, previous=anonymous)
        assert named != anonymous
        result = journey.result(sat.candidate, sat.attempt_id)
        assert result is not None
        forbidden = _forbidden(journey, sat.candidate, sat.attempt_id)

        fresh = browser.new_context()  # no cookie, no login: someone the link was sent to
        shared = fresh.new_page()
        shared.goto(anonymous)
        wait_for_any(shared, ["text=readiness result"])
        wait_for_any(shared, ["[data-testid='stMetric']"])
        settle(shared)
        screenshot(shared, "shared.png")
        source = shared.content()
        assert f"{result.card.overall:.0%}" in main_text(shared) and result.card.band in main_text(shared)
        assert NAME not in source and "Your display name" not in source
        leaked = [t for t in forbidden if t in source]
        assert not leaked, f"the shared page holds answer or question text: {leaked[:3]}"

        shared.goto(named)
        wait_for_any(shared, [f"text={NAME}'s readiness result"])
        assert not [t for t in forbidden if t in shared.content()]

        token = anonymous.split("?result=", 1)[1]
        assert journey.revoke_share(sat.candidate, token)
        shared.goto(anonymous)
        wait_for_any(shared, ["text=does not open a result"])
        assert result.card.band not in main_text(shared)
        fresh.close()
    finally:
        owner.close()


def test_a_fourth_check_in_24_hours_is_refused_with_the_time_the_next_opens(
        browser: Any, server: AppServer, journey: Journey, ada_sat_a_check: Sat) -> None:
    who = ada_sat_a_check.candidate
    for seed in (11, 12):  # two more starts (abandoned unfinished: a start still counts)
        journey.abandon(who, journey.start_readiness(who, MODULE, seed=seed).id)
    left = journey.retakes_left(who, MODULE)
    assert left.remaining == 0 and left.next_open_at is not None
    own = launch_profile(browser, ada_sat_a_check.profile, timezone_id="Asia/Tokyo")  # UTC+9, no DST
    try:
        page = own.new_page()
        open_page(page, f"{server.url}/check?module={MODULE}", ["text=None left"])
        text = main_text(page)
        assert f"The next opens at {clock_text(left.next_open_at, ZoneInfo('Asia/Tokyo'))}" in text, text
        assert " h " in text and "min)" in text  # "(in 23 h 58 min)"
        assert not page.locator("button:has-text('Start the readiness check')").count()
        screenshot(page, "retakes-refused.png")
    finally:
        own.close()
    assert len([a for a in journey.history(who, MODULE) if a.kind == "readiness"]) == 1  # abandoned ones hidden


def test_another_candidates_attempt_does_not_open(browser: Any, server: AppServer, journey: Journey,
                                                 ada_sat_a_check: Sat) -> None:
    sat = ada_sat_a_check
    context = browser.new_context()
    try:
        page = context.new_page()
        for url in (f"{server.url}/results?attempt={sat.attempt_id}", f"{server.url}/check?attempt={sat.attempt_id}"):
            found = open_page(page, url, ["text=Attempt not found", RESULTS, SUBMIT], name="Eve")
            assert found == "text=Attempt not found", f"{url} opened Ada's attempt for Eve"
            source = page.content()
            assert ANSWER not in source and NAME not in source
            assert not page.locator("button:has-text('Create a share link')").count()
        eve = journey.local_candidate(local_key(context))
        assert eve.id != sat.candidate.id and eve.display_name == "Eve"
        page.goto(f"{server.url}/progress")
        wait_for_any(page, ["text=No graded attempts yet"])
        assert sat.attempt_id not in page.content()
    finally:
        context.close()


def _answers(journey: Journey, who: Candidate, attempt_id: str) -> Attempt:
    return journey.open_attempt(who, attempt_id)


def test_sigkill_mid_check_then_restart_resumes_with_every_submitted_answer(
        browser: Any, tmp_path: Path) -> None:
    app = AppServer(tmp_path)
    app.start()
    j = service(f"sqlite:///{tmp_path / 'coach.db'}")
    own = launch_profile(browser, tmp_path / "profile")
    try:
        page = own.new_page()
        start_check(page, app.url)
        attempt_id = page.url.split("attempt=", 1)[1].split("&", 1)[0]
        for n in range(1, 5):
            wait_for_any(page, [SUBMIT])
            assert question_number(page) == n
            answer_current(page, text=f"{ANSWER} (answer {n})", choose=n % 2)
        wait_for_any(page, [SUBMIT])
        assert question_number(page) == 5
        who = j.local_candidate(local_key(own))
        before = _answers(j, who, attempt_id)
        assert before.position == 4 and len(before.answers) == 4
        app.kill()
        restart_s = app.start()
        page.goto(f"{app.url}/check?attempt={attempt_id}")
        wait_for_any(page, [SUBMIT])
        # the button can be drawn before the question's heading: read the number once the heading is there
        wait_for_any(page, ["text=/Question \\d+ of \\d+/"])
        assert question_number(page) == 5, main_text(page)[:500]
        after = _answers(j, who, attempt_id)
        assert after.answers == before.answers and after.position == 4
        for n, answer in enumerate(after.answers, start=1):
            if answer.text is not None:
                assert answer.text == f"{ANSWER} (answer {n})"
        page.goto(f"{app.url}/check?module={MODULE}")
        wait_for_any(page, ["button:has-text('Resume at question 5')"])
        print(f"restart to healthy: {restart_s:.1f}s")
    finally:
        own.close()
        app.stop()
        j.db.dispose()


def test_a_database_outage_keeps_the_typed_answer_and_writes_it_when_back(browser: Any, tmp_path: Path) -> None:
    from tests.support.postgres import PostgresServer, available

    if not available():
        pytest.fail("PostgreSQL 15 binaries not found (/usr/lib/postgresql/15/bin): install postgresql-15")
    pg = PostgresServer()
    pg.init()
    app = AppServer(tmp_path, {"COACH_DATABASE_URL": pg.url})
    j: Journey | None = None
    context = browser.new_context()
    try:
        app.start()
        j = service(pg.url)
        page = context.new_page()
        start_check(page, app.url)
        attempt_id = page.url.split("attempt=", 1)[1].split("&", 1)[0]
        for _ in range(10):  # MCQs until a short answer is on screen
            if wait_for_any(page, ["[data-testid='stMain'] textarea", "[data-testid='stRadioOption']"]) != \
                    "[data-testid='stRadioOption']":
                break
            answer_current(page)
            wait_for_any(page, [SUBMIT])
        index = (question_number(page) or 0) - 1
        assert index >= 0
        typed = f"{ANSWER} Typed while the database was down."
        pg.stop()
        area = page.locator("[data-testid='stMain'] textarea").first
        area.fill(typed)
        area.press("Control+Enter")
        page.wait_for_timeout(400)
        page.locator(SUBMIT).click()
        wait_for_any(page, ["text=database is not reachable"])
        screenshot(page, "outage.png")
        assert not page.locator("[data-testid='stException']").count(), (
            "the page raised StoreUnavailable instead of keeping the answer: "
            + main_text(page).split("Traceback", 1)[-1][-600:])
        kept = page.locator("textarea").all()
        assert any(a.input_value() == typed for a in kept), "the typed answer is not kept on the page"
        pg.start()
        page.locator("button:has-text('Try again')").click()
        wait_for_any(page, [f"text=Your answer to question {index + 1} is saved"])
        who = j.local_candidate(local_key(context))
        attempt = j.open_attempt(who, attempt_id)
        written = [a for a in attempt.answers if a.index == index]
        assert len(written) == 1 and written[0].text == typed
        assert attempt.position == index + 1
    finally:
        context.close()
        app.stop()
        if j is not None:
            j.db.dispose()
        pg.destroy()


def test_forget_this_browser_starts_a_new_candidate_that_also_survives_a_restart(
        browser: Any, server: AppServer, journey: Journey, tmp_path: Path) -> None:
    own = launch_profile(browser, tmp_path / "profile")
    try:
        page = own.new_page()
        open_page(page, f"{server.url}/progress", ["text=No graded attempts yet"], name="First Name")
        first = local_key(own)
        assert_http_only(own, page, "coach_local_key")
        settle(page)
        page.locator("[data-testid='stSidebar']").get_by_role("button", name="Forget this browser").first.click()
        wait_for_any(page, ["text=Your display name"])  # the same page asks again (and clears the cookie)
        page.get_by_label("Your display name").fill("Second Name")
        page.get_by_role("button", name="Continue").click()
        wait_for_any(page, ["[data-testid='stSidebar'] >> text=Second Name"])
        second = local_key(own, previous=first)
        assert_http_only(own, page, "coach_local_key")
    finally:
        own.close()
    assert first != second
    own = launch_profile(browser, tmp_path / "profile")
    try:
        page = own.new_page()
        page.goto(f"{server.url}/progress")
        wait_for_any(page, ["[data-testid='stSidebar'] >> text=Second Name"])
        assert local_key(own) == second
    finally:
        own.close()
    assert journey.local_candidate(first).display_name == "First Name"  # the old one is kept, just not opened


def test_a_key_cookie_written_by_an_older_page_script_is_rewritten_http_only_with_the_same_key(
        browser: Any, server: AppServer, journey: Journey) -> None:
    context = browser.new_context()
    try:
        key = seed_local_key(context, server.url)  # as pages before HttpOnly wrote it: readable by scripts
        assert not next(c for c in context.cookies() if c["name"] == "coach_local_key")["httpOnly"]
        page = context.new_page()
        open_page(page, f"{server.url}/progress", ["text=No graded attempts yet"])
        for _ in range(80):
            found = [c for c in context.cookies() if c["name"] == "coach_local_key"]
            if found and found[0]["httpOnly"]:
                break
            page.wait_for_timeout(250)
        assert_http_only(context, page, "coach_local_key")
        assert local_key(context) == key  # the same candidate, not a new one
        page.reload()
        wait_for_any(page, ["text=No graded attempts yet"])
        assert local_key(context) == key
        assert journey.local_candidate(key).identity == key
    finally:
        context.close()
