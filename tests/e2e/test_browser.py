"""A candidate completes a practice test and a readiness check in headless Chromium against the real server."""

from __future__ import annotations

import re
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


def _letters(text: str, n: int = 40) -> str:
    """The first `n` letters of a stem: variant numbers and markdown differ between pages, the words do not."""
    return "".join(ch for ch in text.lower() if ch.isalpha())[:n]


def test_module_samples_never_come_up_in_a_full_practice_test(server: str, page: Any) -> None:
    page.goto(f"{server}/module?id={MODULE}")
    page.wait_for_selector("text=Try a sample question")
    settle(page)
    stems = page.evaluate("""() => [...document.querySelectorAll("[data-testid='stCaptionContainer']")]
        .filter(c => /^Sample \\d/.test(c.innerText))
        .map(c => c.closest("[data-testid='stVerticalBlock']").querySelector("strong").innerText)""")
    samples = {_letters(s) for s in stems if s.strip()}
    assert len(samples) == 2, stems

    page.goto(f"{server}/practice?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start practice test')"])
    caption = page.get_by_text(re.compile(r"\d+ match this difficulty")).first.inner_text()
    available = int(re.search(r"(\d+) match this difficulty", caption).group(1))  # type: ignore[union-attr]
    page.get_by_label("Questions").fill(str(available))
    page.get_by_label("Questions").press("Enter")
    settle(page)
    page.get_by_text("at the end").click()
    settle(page)
    page.locator("button:has-text('Start practice test')").click()
    answer_until_results(page)
    page.wait_for_selector("text=Coach feedback")
    labels = page.locator("[data-testid='stExpander'] summary")
    asked = [labels.nth(i).inner_text() for i in range(labels.count())]
    graded = [a for a in asked if re.search(r"Q\d+ ·", a)]
    assert len(graded) == available, asked  # the whole pool was asked, so a sample in it would show below
    shown = {_letters(a.split("%", 1)[1]) for a in graded}  # the label: icon, Q1 · level · score% — stem
    assert not samples & shown, "a sample from the module page came up as a graded question"
    assert not crashes(page)
