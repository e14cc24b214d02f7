"""A candidate completes a practice test and a readiness check in headless Chromium against the real server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browse import RESULT, answer_until_results, crashes, settle, wait_for_any
from tests.e2e.conftest import shot

pytestmark = pytest.mark.e2e
MODULE = "model-parallelism"


def test_practice_test_in_the_browser(server: str, page: Any) -> None:
    page.goto(f"{server}/practice?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start practice test')"])
    assert page.locator("text=LLM judge is off").count()
    page.get_by_text("at the end").click()
    settle(page)
    page.locator("button:has-text('Start practice test')").click()
    answer_until_results(page)
    page.wait_for_selector("text=Coach feedback")
    assert "/results?attempt=" in page.url
    assert page.locator("text=Template feedback").count(), "the page says which feedback this is"
    assert not crashes(page)
    shot(page, "practice-results")


def test_readiness_check_in_the_browser(server: str, page: Any) -> None:
    page.goto(f"{server}/check?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start the readiness check')"])
    page.locator("button:has-text('Start the readiness check')").click()
    answer_until_results(page)
    page.wait_for_selector("text=Explanation quality")
    assert page.locator("text=Band").count()
    assert page.locator(RESULT).count()
    # "Read next" titles are links to the concept pages
    links = page.locator("[data-testid='stMain'] a[href*='concept?id=']")
    assert links.count(), "Read next / Study links go to /concept?id="
    assert not crashes(page)
    shot(page, "readiness-results")


def test_legacy_urls_redirect_to_the_new_pages(server: str, page: Any) -> None:
    page.goto(f"{server}/?page=module&module={MODULE}")
    settle(page)
    page.wait_for_url(f"**/module?id={MODULE}")
    assert page.locator("h1:has-text('Model Parallelism')").count()
    page.goto(f"{server}/?page=concept&id=context-parallelism")
    settle(page)
    page.wait_for_url("**/concept?id=context-parallelism")
    assert not crashes(page)
