"""Visit every page (with a module, an attempt in progress and a finished one), click every button and link on
each, and fail on any Streamlit exception element or crash message. One fresh page load per click.

The issue this answers: the main buttons crashed (StreamlitWidgetAlreadyInstantiatedError) while every test
passed, because nothing clicked them. Run against the old router (COACH_E2E_APP_ROOT=<checkout of b7c226c>,
COACH_CRAWL_LEGACY=1) this test fails on the learning path's first button.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.browse import answer_current, answer_until_results, crashes, settle, wait_for_any

pytestmark = pytest.mark.e2e
MODULE = "model-parallelism"
CONCEPT = "context-parallelism"
CLICKABLE = (
    "[data-testid='stMain'] [data-testid='stButton'] button, [data-testid='stMain'] [data-testid='stPageLink'] a, "
    "[data-testid='stSidebar'] [data-testid='stPageLink'] a, "
    "[data-testid='stSidebar'] [data-testid='stButton'] button, "
    "[data-testid='stMain'] [data-testid='stFormSubmitButton'] button"
)
# clicked last on a page: each changes what the page shows next (the attempt is gone, a new one starts)
LAST = ("Abandon", "Start over", "Start", "Resume", "Revoke", "Sign out", "Forget")


def _open_expanders(page: Any) -> None:
    """Open every expander, so the links inside (e.g. a review's "Study" link) can be clicked too."""
    closed = page.locator("[data-testid='stMain'] details:not([open]) > summary")
    for _ in range(closed.count()):
        closed.first.click()
        page.wait_for_timeout(50)


def _load(page: Any, url: str) -> None:
    page.goto(url)
    settle(page)
    _open_expanders(page)


def _order(page: Any) -> list[tuple[int, str, str | None]]:
    """(index, label, href) of every button and link, the ones that change the page's state last."""
    found = page.locator(CLICKABLE)
    items = [(i, " ".join(found.nth(i).inner_text().split()), found.nth(i).get_attribute("href"))
             for i in range(found.count()) if found.nth(i).is_visible()]  # not the ones inside a closed popover
    return sorted(items, key=lambda it: any(w in it[1] for w in LAST))


def _crawl(page: Any, url: str, seen: set[str]) -> tuple[int, list[str]]:
    """Click every button and link on the page at `url`, each after a fresh load (a link whose target was
    already followed from another page is not followed again); returns (clicks, problems)."""
    _load(page, url)
    problems = [f"{url} on load: {c}" for c in crashes(page)]
    order = _order(page)
    expected = page.locator(CLICKABLE).count()
    clicks = 0
    for index, label, href in order:
        if href is not None and href in seen:
            continue
        _load(page, url)
        found = page.locator(CLICKABLE)
        if found.count() != expected or " ".join(found.nth(index).inner_text().split()) != label:
            continue  # the page changed since (e.g. the attempt was abandoned by an earlier click)
        found.nth(index).click()
        clicks += 1
        if href is not None:
            seen.add(href)
        settle(page)
        page.wait_for_timeout(300)
        settle(page)
        problems += [f"{url} → {label!r}: {c}" for c in crashes(page)]
    return clicks, problems


def _urls(server: str, page: Any) -> list[str]:
    if os.environ.get("COACH_CRAWL_LEGACY"):  # the old router's pages, to show this test fails there
        return [f"{server}/?page={p}&module={MODULE}" for p in ("home", "module", "readiness", "practice")]
    # an attempt in progress (2 answers) and a finished one, for this browser's candidate
    page.goto(f"{server}/check?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start the readiness check')"])
    page.locator("button:has-text('Start the readiness check')").click()
    answer_current(page)
    answer_current(page)
    running = page.url
    page.goto(f"{server}/practice?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start practice test')"])
    page.get_by_label("Questions").fill("2")
    page.get_by_label("Questions").press("Enter")
    settle(page)
    page.get_by_text("at the end").click()
    settle(page)
    page.locator("button:has-text('Start practice test')").click()
    answer_until_results(page)
    finished = page.url
    assert "/results?attempt=" in finished
    return [
        f"{server}/", f"{server}/module?id={MODULE}", f"{server}/module", f"{server}/concept?id={CONCEPT}",
        f"{server}/concept", f"{server}/practice?module={MODULE}", f"{server}/results", finished,
        f"{server}/progress", f"{server}/misconceptions", f"{server}/check?module={MODULE}", running,
    ]


@pytest.mark.timeout(2400)  # about a hundred fresh page loads and clicks: minutes on a loaded 2-core machine
def test_every_button_and_link_on_every_page(server: str, page: Any) -> None:
    urls = _urls(server, page)
    total, problems, seen = 0, [], set[str]()
    for url in urls:
        clicks, found = _crawl(page, url, seen)
        total += clicks
        problems += found
    assert not problems, "\n".join(problems)
    assert total >= 20, f"only {total} clicks: the crawler found too few buttons and links"
