"""Small helpers to drive the Streamlit app in Playwright: wait for a run to finish, answer a question."""

from __future__ import annotations

import contextlib
import re
from typing import Any

EXCEPTION = "[data-testid='stException']"
RADIO = "[data-testid='stMain'] [data-testid='stRadioOption']"
SUBMIT = "button:has-text('Submit answer')"
NEXT = "button:has-text('Next question'), button:has-text('See my results')"
RESULT = "text=Your result"
ANSWER = (
    "Each pipeline stage waits for the previous one, so the latency of one token is the sum of the stage "
    "times; tensor parallelism splits every layer so GPUs work at the same moment."
)
# an st.error that reports a crash rather than a message meant for the candidate
CRASH_TEXT = re.compile(r"Traceback|\b[A-Z]\w*(Error|Exception)\b")


def sign_in(page: Any, server: str, name: str = "Grace Hopper") -> None:
    """Choose a display name in the local-mode form (once per browser context: the cookie keeps it)."""
    page.goto(f"{server}/results")
    field = page.get_by_label("Your display name")
    field.wait_for(timeout=120_000)
    field.fill(name)
    page.get_by_role("button", name="Continue").click()
    page.locator("[data-testid='stMain'] h1").first.wait_for(timeout=120_000)
    settle(page)


def settle(page: Any, timeout_s: float = 180.0) -> None:
    """Wait until Streamlit has finished the current run (its status widget shows while a script runs)."""
    page.wait_for_timeout(300)
    # every page has a title: before it shows, the first run has not even begun to render (a page without
    # one is judged by the checks that follow)
    with contextlib.suppress(Exception):
        page.locator("[data-testid='stMain'] h1").first.wait_for(timeout=30_000)
    for _ in range(int(timeout_s / 0.1)):
        if not page.locator("[data-testid='stStatusWidget']").count() and page.locator(
            "[data-testid='stMain']"
        ).count():
            page.wait_for_timeout(150)
            if not page.locator("[data-testid='stStatusWidget']").count():
                return
        page.wait_for_timeout(100)
    raise AssertionError("the app kept running")


def wait_for_any(page: Any, selectors: list[str], timeout_s: float = 120.0) -> str:
    settle(page)
    for _ in range(int(timeout_s / 0.1)):
        for sel in selectors:
            if page.locator(sel).count():
                return sel
        page.wait_for_timeout(100)
    raise AssertionError(f"none of {selectors} appeared")


def crashes(page: Any) -> list[str]:
    """Streamlit exception elements, and error boxes that carry an exception's name."""
    found = [page.locator(EXCEPTION).nth(i).inner_text()[:400] for i in range(page.locator(EXCEPTION).count())]
    errors = page.locator("[data-testid='stAlertContentError']")
    for i in range(errors.count()):
        text = errors.nth(i).inner_text()
        if CRASH_TEXT.search(text):
            found.append(text[:400])
    return found


def answer_current(page: Any, text: str = ANSWER) -> str:
    """Answer the question on screen (first option, or `text`), click Submit; returns which widget it was."""
    widget = wait_for_any(page, ["textarea", RADIO])
    if widget == "textarea":
        area = page.locator("textarea").first
        area.fill(text)
        area.press("Control+Enter")  # commit the text area before clicking
        page.wait_for_timeout(300)
    else:
        page.locator(RADIO).first.click()
        page.wait_for_timeout(300)
    page.locator(SUBMIT).click()
    settle(page)
    return widget


def answer_until_results(page: Any, text: str = ANSWER) -> None:
    for _ in range(60):
        found = wait_for_any(page, [RESULT, NEXT, SUBMIT])
        if found == RESULT:
            settle(page)
            return
        if found == NEXT:
            page.locator(NEXT).first.click()
            settle(page)
            continue
        answer_current(page, text)
    raise AssertionError("never reached the results")


def question_number(page: Any) -> int:
    """The N of "Question N of M" on screen."""
    found = page.get_by_text(re.compile(r"Question \d+ of \d+")).first.inner_text()
    match = re.search(r"Question (\d+) of", found)
    assert match, found
    return int(match.group(1))
