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

from tests.e2e.browse import answer_current, answer_until_results, crawl, settle, wait_for_any

pytestmark = pytest.mark.e2e
MODULE = "model-parallelism"
CONCEPT = "context-parallelism"
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
        clicks, found = crawl(page, url, seen)
        total += clicks
        problems += found
    assert not problems, "\n".join(problems)
    assert total >= 20, f"only {total} clicks: the crawler found too few buttons and links"
