"""The authoring studio in headless Chromium against the real server on a private copy of the content: an
author drafts an item from a concept page and approves it, and the item file says `status: published` with a
new version and is in the bank; a candidate (no token) who opens the author URL sees the refusal; an author
stays signed in across reloads until they leave the studio."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from coach.content.loader import load_bank
from coach.content.schema import Status
from tests.e2e.browse import wait_for_any as _wait_for_any
from tests.e2e.journey_support import assert_http_only
from tests.e2e.server import streamlit_server
from tests.ui.author_support import TOKEN, copy_content

pytestmark = pytest.mark.e2e
PAGE = "tp-column-row-splits"
MODULE = "model-parallelism"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    base = tmp_path_factory.mktemp("author-browser")
    content = copy_content(base / "content")
    state = base / "state"
    state.mkdir()
    with streamlit_server(state, {"COACH_CONTENT_DIR": str(content), "COACH_AUTHOR_TOKEN": TOKEN}) as url:
        yield url, content, state


def _enter_studio(page: Any, url: str, name: str, ready: str) -> None:
    """Open `url`, type the author token and `name` at the gate, and wait for `ready` on the studio page."""
    page.goto(url)
    _wait_for_any(page, ["text=Author token"])
    page.get_by_label("Author token").fill(TOKEN)
    page.get_by_label("Your name (for the review log)").fill(name)
    page.locator("button:has-text('Enter the studio')").click()
    _wait_for_any(page, [ready], timeout_s=180)


def test_a_candidate_opening_the_author_url_is_refused(studio: tuple[str, Path, Path], browser: Any) -> None:
    url, _, state = studio
    page = browser.new_page()
    page.goto(f"{url}/author")
    _wait_for_any(page, ["text=The authoring studio is for authors."])
    page.screenshot(path=str(state / "author-refused.png"), full_page=True)
    page.get_by_label("Author token").wait_for(timeout=60_000)
    assert not page.locator("button:has-text('Approve and publish')").count()
    for inside in ("Item to review", "Nothing waits for review", "Content files:"):  # the refusal only
        assert not page.locator(f"text={inside}").count(), inside
    page.close()


def test_an_author_drafts_from_a_page_and_approves_it_in_the_browser(studio: tuple[str, Path, Path],
                                                                     browser: Any) -> None:
    url, content, state = studio
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _enter_studio(page, f"{url}/author-generate?concept={PAGE}", "Browser author",
                  "button:has-text('Generate distractors')")
    page.locator("button:has-text('Generate distractors')").click()
    _wait_for_any(page, ["text=Ran the offline generator"], timeout_s=300)
    page.screenshot(path=str(state / "author-distractors.png"), full_page=True)
    page.locator("button:has-text('Generate draft')").click()
    _wait_for_any(page, ["text=It waits in the review queue"], timeout_s=300)
    page.screenshot(path=str(state / "author-generated.png"), full_page=True)
    drafts = list((content / "questions" / MODULE / "drafts").glob("*.yaml"))
    assert len(drafts) == 1
    item_id = yaml.safe_load(drafts[0].read_text())["items"][0]["id"]

    page.locator("[data-testid='stSidebar'] a:has-text('Review queue')").click()  # same session: token kept
    _wait_for_any(page, ["button:has-text('Approve and publish')"], timeout_s=180)
    assert page.locator(f"text={item_id}").count()
    assert page.locator("text=The bank checks pass").count()
    page.screenshot(path=str(state / "author-queue.png"), full_page=True)
    page.locator("button:has-text('Approve and publish')").click()
    _wait_for_any(page, [f"text=published {item_id} v2"], timeout_s=180)
    page.screenshot(path=str(state / "author-approved.png"), full_page=True)

    written = yaml.safe_load((content / "questions" / MODULE / f"{PAGE}.yaml").read_text())["items"]
    mine = next(i for i in written if i["id"] == item_id)
    assert mine["status"] == "published" and mine["version"] == 2
    assert not drafts[0].exists()
    bank = load_bank(content)
    assert bank.items[item_id].status == Status.PUBLISHED
    assert item_id in {i.id for i in bank.published(MODULE)}
    page.close()


CSV = (
    "id,module,concept,difficulty,dimensions,stem,key,distractor1,distractor2,distractor3,explanation\n"
    "mp-csv-one,model-parallelism,no-such-page,medium,conceptual,Which?,A,B,C,D,Because.\n"
    "mp-csv-two,model-parallelism,tp-column-row-splits,impossible,conceptual,Which?,A,B,C,D,Because.\n"
)


def test_a_bad_csv_upload_names_its_lines_and_writes_nothing(studio: tuple[str, Path, Path], browser: Any,
                                                             tmp_path: Path) -> None:
    url, content, state = studio
    upload = tmp_path / "items.csv"
    upload.write_text(CSV)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _enter_studio(page, f"{url}/author-export", "", "text=Download Moodle XML")
    page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(upload))
    _wait_for_any(page, ["button:has-text('Import as drafts')"], timeout_s=60)
    page.locator("button:has-text('Import as drafts')").click()
    _wait_for_any(page, ["text=nothing imported"], timeout_s=60)
    assert page.locator("text=line 2: unknown concept page 'no-such-page'").count()
    assert page.locator("text=line 3").count()
    page.screenshot(path=str(state / "author-export.png"), full_page=True)
    assert not list(content.glob("questions/*/drafts/mp-csv-*.yaml"))
    page.close()


def _pass_cookie(context: Any, page: Any, present: bool) -> str | None:
    """Wait until the browser holds the author's pass cookie (or no longer does); return its value."""
    for _ in range(300):
        found = [c["value"] for c in context.cookies() if c["name"] == "coach_author_pass"]
        if bool(found) is present:
            return found[0] if found else None
        page.wait_for_timeout(100)
    raise AssertionError(f"the pass cookie is {'missing' if present else 'still there'} after 30 s")


def test_an_author_stays_signed_in_across_reloads_until_they_leave_the_studio(studio: tuple[str, Path, Path],
                                                                             browser: Any) -> None:
    url, _, state = studio
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    _enter_studio(page, f"{url}/author-analysis", "Reloading author", "text=Responses needed to judge")
    kept = _pass_cookie(context, page, present=True)
    assert kept and TOKEN not in kept
    assert_http_only(context, page, "coach_author_pass")

    page.reload()  # a new session: the browser's pass, not the session, lets the author in
    assert _wait_for_any(page, ["text=Responses needed to judge", "text=Author token"], timeout_s=180) \
        == "text=Responses needed to judge"
    page.goto(f"{url}/author")
    _wait_for_any(page, ["text=Signed in as Reloading author"], timeout_s=180)
    page.screenshot(path=str(state / "author-reloaded.png"), full_page=True)

    other = browser.new_page()  # another browser has no pass
    other.goto(f"{url}/author")
    _wait_for_any(other, ["text=Author token"], timeout_s=180)
    other.close()

    page.locator("[data-testid='stSidebar']").get_by_role("button", name="Leave the studio").click()
    _wait_for_any(page, ["text=Author token"], timeout_s=60)
    assert _pass_cookie(context, page, present=False) is None
    page.reload()
    _wait_for_any(page, ["text=Author token"], timeout_s=180)
    page.screenshot(path=str(state / "author-left.png"), full_page=True)
    assert not page.locator("text=Signed in as Reloading author").count()
    context.close()
