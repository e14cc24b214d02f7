"""Every button and link of the authoring studio's pages, clicked in headless Chromium the way the candidate
pages' crawl does it (`test_crawl.py`): one fresh load per click, past the author gate (the token is typed
when the gate asks: on the first page, and after the crawler clicks "Leave the studio"), on a private copy of
the content with three drafts in the review queue, so that approving, approving an edit and rejecting each
meet a draft. Fails on any Streamlit exception element or crash message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.e2e.browse import crawl, open_expanders, settle, wait_for_any
from tests.e2e.conftest import shot
from tests.e2e.server import streamlit_server, wait_model_ready
from tests.ui.author_support import TOKEN, copy_content

pytestmark = pytest.mark.e2e
PAGE = "tp-column-row-splits"
MODULE = "model-parallelism"
GATE = "Author token"
GATE_TEXT = f"text={GATE}"
SIGN_INS: list[str] = []  # where the token was typed (printed with the clicks): the first page, and after a leave


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    base = tmp_path_factory.mktemp("author-crawl")
    content = copy_content(base / "content")
    state = base / "state"
    state.mkdir()
    with streamlit_server(state, {"COACH_CONTENT_DIR": str(content), "COACH_AUTHOR_TOKEN": TOKEN}) as url:
        # the lost sign-in that left a screenshot while this test was written came on the first studio page
        # after a start: keep the warm-up's model load off that page
        wait_model_ready(state / "server.log", timeout_s=240)
        yield url, content


# What each studio page shows once past the gate (the gate shows none of them)
READY = {
    "/author-generate": ["text=Draft an item from the page"],
    "/author-analysis": ["text=Responses needed to judge"],
    "/author-export": ["text=Import a CSV into drafts"],
    "/author": ["text=Item to review", "text=Nothing waits for review"],
}


def signed_in(page: Any, url: str) -> None:
    """A fresh load of `url` past the author gate, with every expander open. The browser keeps the author's
    pass after the first sign-in, so the gate asks only then (or after the pass is lost); waiting for the page
    or the gate, rather than looking once, cannot mistake a page still loading for a page past the gate."""
    ready = READY[urlsplit(url).path]
    page.goto(url)
    for _ in range(3):
        if wait_for_any(page, [*ready, GATE_TEXT], timeout_s=180) != GATE_TEXT:
            break
        SIGN_INS.append(url)
        page.get_by_label(GATE).fill(TOKEN)
        page.get_by_label("Your name (for the review log)").fill("Crawling author")
        page.locator("button:has-text('Enter the studio')").click()
        page.get_by_label(GATE).wait_for(state="detached", timeout=180_000)
    else:
        raise AssertionError(f"the studio never opened at {url}")
    settle(page)  # the rest of the page (a queue entry runs the bank checks first)
    open_expanders(page)


def _draft(page: Any, url: str, seed: int) -> None:
    signed_in(page, f"{url}/author-generate?concept={PAGE}")
    seed_field = page.get_by_role("spinbutton", name="Seed")
    try:
        seed_field.wait_for(timeout=180_000)  # the first load after a start waits for the model
    except Exception:
        shot(page, f"author-crawl-draft-{seed}")  # the evidence, in tests/e2e/artifacts/
        raise
    seed_field.fill(str(seed))
    seed_field.press("Enter")
    settle(page)
    page.locator("button:has-text('Generate draft')").click()
    wait_for_any(page, ["text=It waits in the review queue"], timeout_s=300)


@pytest.mark.timeout(1800)
def test_every_button_and_link_on_every_author_page(studio: tuple[str, Path], browser: Any) -> None:
    url, content = studio
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # an author's browser, not a candidate's
    for seed in range(3):
        _draft(page, url, seed)
    drafts = sorted((content / "questions" / MODULE / "drafts").glob("*.yaml"))
    assert len(drafts) == 3
    ids = {yaml.safe_load(d.read_text())["items"][0]["id"] for d in drafts}

    total, problems, seen, clicked = 0, [], set[str](), list[str]()
    for path in (f"/author-generate?concept={PAGE}", "/author", "/author", "/author", "/author-analysis",
                 "/author-export"):  # the queue thrice: each decision takes a draft out of it
        clicks, found = crawl(page, url + path, seen, load=signed_in, clicked=clicked)
        total += clicks
        problems += found
    assert not problems, "\n".join(problems)
    assert total >= 10, f"only {total} clicks: the crawler found too few buttons and links"
    print("clicked:", clicked, "sign-ins typed:", SIGN_INS)
    page.close()
    # the queue's decisions were clicked: a draft was published, one published as edited, one rejected
    left = {yaml.safe_load(d.read_text())["items"][0]["id"] for d in
            (content / "questions" / MODULE / "drafts").glob("*.yaml")}
    assert ids - left, "no draft left the queue: the crawler never clicked a decision"
