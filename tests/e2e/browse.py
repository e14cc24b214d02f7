"""Small helpers to drive the Streamlit app in Playwright: wait for a run to finish, answer a question."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
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


# What the main area shows of a sitting: "Question N of M" with its Submit button, the review with a Next
# button, the results, or the message that an answer is missing. Read in one pass of the DOM, so a page that
# is half replaced by the next run is never taken for either.
_SITTING_STATE = """([after, review]) => {
    const main = document.querySelector("[data-testid='stMain']");
    if (!main) return false;
    const text = main.innerText;
    const buttons = [...main.querySelectorAll('button')].map(b => b.innerText);
    if (text.includes('Your result')) return 'results';
    if (review && buttons.some(t => t.includes('Next question') || t.includes('See my results'))) return 'next';
    if (text.includes('Choose one of the options')) return 'invalid';
    const label = text.match(/Question (\\d+) of \\d+/);
    if (label && Number(label[1]) !== after && buttons.some(t => t.includes('Submit answer'))) {
        return 'question ' + label[1];
    }
    return false;
}"""


def sitting_state(page: Any, after: int = 0, review: bool = True, timeout_s: float = 240.0) -> str:
    """Wait for a question page other than question `after` ('question N'), the review ('next', unless `review`
    is False: just after its Next button was clicked), the results ('results') or the missing-answer message
    ('invalid'). On a loaded machine the previous page stays on screen while the next run starts: a click on
    its widgets (the set-up page's radio, the last question's text area) is lost when the new page replaces
    them, so nothing is answered before its own page is there."""
    handle = page.wait_for_function(_SITTING_STATE, arg=[after, review], timeout=timeout_s * 1000, polling=50)
    return str(handle.json_value())


def answer_current(page: Any, text: str = ANSWER, choose: int = 0) -> str:
    """Answer the question on screen (MCQ: option `choose`; short: `text`), click Submit, and wait until the
    page has moved on (the next question, the review or the results); returns 'mcq' or 'short'."""
    state = sitting_state(page)
    assert state.startswith("question "), f"no question to answer: {state}"
    number = int(state.split()[1])
    area = page.locator("[data-testid='stMain'] textarea")
    # the label and the Submit button can be on screen a moment before the answer widget: wait for one of them
    page.locator(f"[data-testid='stMain'] textarea, {RADIO}").first.wait_for(timeout=120_000)
    if area.count():
        area.first.fill(text)
        area.first.press("Control+Enter")  # commit the text area before clicking
        kind = "short"
    else:
        page.locator(RADIO).nth(choose).click()
        kind = "mcq"
    page.wait_for_timeout(300)
    page.locator(SUBMIT).click()
    moved = sitting_state(page, after=number)
    assert moved != "invalid", f"question {number}: the app says an answer is missing (a lost click)"
    settle(page)
    return kind


def answer_until_results(page: Any, text: str = ANSWER) -> None:
    """Answer every question left (and click through each review) until the results are on screen."""
    for _ in range(60):
        state = sitting_state(page)
        if state == "results":
            settle(page)
            return
        if state == "next":
            shown = page.get_by_text(re.compile(r"Question \d+ of \d+"))
            number = question_number(page) if shown.count() else 0
            page.locator(NEXT).first.click()
            sitting_state(page, after=number, review=False)  # the next question (or the results) is on screen
            continue
        assert state.startswith("question "), f"stuck: {state}"
        answer_current(page, text)
    raise AssertionError("never reached the results")


def question_number(page: Any) -> int:
    """The N of "Question N of M" on screen."""
    found = page.get_by_text(re.compile(r"Question \d+ of \d+")).first.inner_text()
    match = re.search(r"Question (\d+) of", found)
    assert match, found
    return int(match.group(1))


# -- crawling: every button and link of a page ----------------------------------------------------------
CLICKABLE = (
    "[data-testid='stMain'] [data-testid='stButton'] button, [data-testid='stMain'] [data-testid='stPageLink'] a, "
    "[data-testid='stSidebar'] [data-testid='stPageLink'] a, "
    "[data-testid='stSidebar'] [data-testid='stButton'] button, "
    "[data-testid='stMain'] [data-testid='stFormSubmitButton'] button"
)
# clicked last on a page: each changes what the page shows next (the attempt is gone, a new one starts, the
# user is signed out, the draft leaves the review queue)
LAST = ("Abandon", "Start over", "Start", "Resume", "Revoke", "Sign out", "Leave", "Forget", "Approve", "approve",
        "Reject", "Reviewed")


def open_expanders(page: Any) -> None:
    """Open every expander, so the links inside (e.g. a review's "Study" link) can be clicked too."""
    closed = page.locator("[data-testid='stMain'] details:not([open]) > summary")
    for _ in range(closed.count()):
        closed.first.click()
        page.wait_for_timeout(50)


def load_fresh(page: Any, url: str) -> None:
    """A fresh load of `url` (a new Streamlit session), with every expander open."""
    page.goto(url)
    settle(page)
    open_expanders(page)


def _order(page: Any) -> list[tuple[int, str, str | None]]:
    """(index, label, href) of every button and link, the ones that change the page's state last."""
    found = page.locator(CLICKABLE)
    items = [(i, " ".join(found.nth(i).inner_text().split()), found.nth(i).get_attribute("href"))
             for i in range(found.count())
             if found.nth(i).is_visible() and found.nth(i).is_enabled()]  # not in a closed popover, not disabled
    return sorted(items, key=lambda it: any(w in it[1] for w in LAST))


def crawl(page: Any, url: str, seen: set[str], load: Callable[[Any, str], None] = load_fresh,
          clicked: list[str] | None = None) -> tuple[int, list[str]]:
    """Click every button and link on the page at `url`, each after a fresh `load` (a link whose target was
    already followed from another page is not followed again); returns (clicks, problems). The label of each
    click is added to `clicked`."""
    load(page, url)
    problems = [f"{url} on load: {c}" for c in crashes(page)]
    order = _order(page)
    expected = page.locator(CLICKABLE).count()
    clicks = 0
    for index, label, href in order:
        if href is not None and href in seen:
            continue
        load(page, url)
        found = page.locator(CLICKABLE)
        if found.count() != expected or " ".join(found.nth(index).inner_text().split()) != label:
            continue  # the page changed since (e.g. the attempt was abandoned by an earlier click)
        found.nth(index).click()
        clicks += 1
        if clicked is not None:
            clicked.append(label)
        if href is not None:
            seen.add(href)
        settle(page)
        page.wait_for_timeout(300)
        settle(page)
        problems += [f"{url} → {label!r}: {c}" for c in crashes(page)]
    return clicks, problems
