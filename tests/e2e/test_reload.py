"""Reloads land where the candidate was: a check in progress, a finished result, a concept page, a module page;
and another browser (another candidate) cannot open someone's attempt by its URL."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.browse import (
    RESULT,
    answer_current,
    answer_until_results,
    crashes,
    question_number,
    settle,
    wait_for_any,
)
from tests.e2e.conftest import new_candidate_page, shot

pytestmark = pytest.mark.e2e
MODULE = "model-parallelism"


def _stem(page: Any) -> str:
    return str(page.locator("[data-testid='stMain'] h4").first.inner_text())


def test_a_check_in_progress_survives_a_reload_and_going_elsewhere(server: str, page: Any, browser: Any) -> None:
    page.goto(f"{server}/check?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start the readiness check')"])
    page.locator("button:has-text('Start the readiness check')").click()
    answer_current(page)
    answer_current(page)
    assert question_number(page) == 3
    stem, url = _stem(page), page.url
    assert "attempt=" in url
    page.reload()
    settle(page)
    assert question_number(page) == 3 and _stem(page) == stem, "the reload lands on the same question"
    page.locator("[data-testid='stSidebar'] a:has-text('Learning path')").click()
    settle(page)
    page.goto(f"{server}/check?module={MODULE}")  # the module's check, no attempt in the URL
    wait_for_any(page, ["button:has-text('Resume at question 3')"])
    page.locator("button:has-text('Resume at question 3')").click()
    settle(page)
    assert question_number(page) == 3 and _stem(page) == stem
    # the answers given are kept: finish and see all three counted
    answer_until_results(page)
    assert re.search(r"10\s*/\s*10", page.locator("[data-testid='stMetric']").nth(2).inner_text())
    stranger = new_candidate_page(browser, server)
    stranger.goto(page.url)
    settle(stranger)
    assert stranger.locator("text=Attempt not found").count(), "another candidate sees 'not found'"
    assert not stranger.locator(RESULT).count()
    stranger.context.close()


def test_a_finished_result_survives_a_reload(server: str, page: Any) -> None:
    page.goto(f"{server}/practice?module={MODULE}")
    wait_for_any(page, ["button:has-text('Start practice test')"])
    page.get_by_label("Questions").fill("2")
    page.get_by_label("Questions").press("Enter")
    settle(page)
    page.locator("button:has-text('Start practice test')").click()
    answer_until_results(page)
    url = page.url
    overall = page.locator("[data-testid='stMetric']").first.inner_text()
    page.reload()
    wait_for_any(page, [RESULT])
    assert page.url == url
    assert page.locator("[data-testid='stMetric']").first.inner_text() == overall
    assert not crashes(page)
    shot(page, "practice-results-after-reload")


@pytest.mark.parametrize(("path", "title"), [
    ("/concept?id=context-parallelism", "h1"),
    (f"/module?id={MODULE}", "h1:has-text('Model Parallelism')"),
])
def test_concept_and_module_pages_survive_a_reload(server: str, page: Any, path: str, title: str) -> None:
    page.goto(server + path)
    settle(page)
    heading = page.locator(title).first.inner_text()
    page.reload()
    settle(page)
    assert page.url.endswith(path)
    assert page.locator(title).first.inner_text() == heading
    assert not crashes(page)
