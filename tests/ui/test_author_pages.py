"""The authoring studio in AppTest: the author gate, and the review queue's approve / edit / reject actions
on a private copy of the content (files) with the decisions in the store."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from coach.authoring.auth import PASS_TTL_S, issue_pass
from coach.authoring.drafts import Target, offline_draft
from coach.authoring.queue import write_draft
from coach.content.loader import load_bank
from coach.content.schema import Status
from coach.ui.pages.author.gate import PASS_KEY
from tests.ui.author_support import TOKEN, clear_app_caches, copy_content

SCRIPT = str(Path(__file__).with_name("author_app.py"))
PAGE = "tp-column-row-splits"


@pytest.fixture
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = copy_content(tmp_path / "content")
    monkeypatch.setenv("COACH_CONTENT_DIR", str(root))
    monkeypatch.setenv("COACH_AUTHOR_TOKEN", TOKEN)
    clear_app_caches()
    yield root
    clear_app_caches()


@pytest.fixture
def draft_id(content: Path, embedder) -> str:  # type: ignore[no-untyped-def]
    bank = load_bank(content)
    draft = offline_draft(bank, PAGE, Target(), embedder)
    write_draft(content, draft)
    clear_app_caches()
    return draft.item.id


def open_author(page: str = "author", *, token: str | None = TOKEN) -> AppTest:
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    at.query_params["p"] = page
    if token is not None:
        at.session_state[PASS_KEY] = issue_pass(token, "Ada", time.time())
    return at.run()


def texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "error", "warning", "info", "success", "title", "caption")
             for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    found = [b for b in at.button if b.label == label]
    assert found, f"no button {label!r}; have {[b.label for b in at.button]}"
    return found[0]


# -- the gate -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", ["author", "author-generate", "author-analysis", "author-export"])
def test_a_candidate_without_the_token_is_refused_on_every_author_page(content: Path, page: str) -> None:
    at = open_author(page, token=None)
    assert not at.exception
    assert "The authoring studio is for authors." in texts(at)
    assert [t.label for t in at.text_input][:1] == ["Author token"]
    assert [b.label for b in at.button] == ["Enter the studio"]  # nothing of the page itself
    assert not at.selectbox and not at.dataframe and not at.text_area


def test_a_wrong_token_is_refused_and_the_right_one_opens_the_studio(content: Path) -> None:
    at = open_author(token=None)
    at.text_input(key="author-token-input").input("guess")
    at = at.button[0].click().run()
    assert "That author token is wrong." in texts(at)
    assert PASS_KEY not in at.session_state
    at.text_input(key="author-token-input").input(TOKEN)
    at.text_input(key="author-name-input").input("Grace")
    at = at.button[0].click().run()
    assert not at.exception
    assert at.title[0].value == "Review queue"
    assert "Signed in as Grace" in texts(at)


def test_a_stale_token_in_the_session_is_asked_again(content: Path) -> None:
    at = open_author(token="an old token")  # a pass signed with the token the coach had before
    assert "The authoring studio is for authors." in texts(at)
    assert PASS_KEY not in at.session_state


def test_an_expired_pass_is_asked_again(content: Path) -> None:
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    at.query_params["p"] = "author"
    at.session_state[PASS_KEY] = issue_pass(TOKEN, "Ada", time.time() - PASS_TTL_S - 1)
    at = at.run()
    assert "The authoring studio is for authors." in texts(at)


def test_an_author_who_leaves_the_studio_is_asked_for_the_token_again(content: Path) -> None:
    at = open_author()
    assert at.title[0].value == "Review queue" and "Signed in as Ada" in texts(at)
    at = at.sidebar.button(key="author-leave").click().run()
    assert not at.exception
    assert "The authoring studio is for authors." in texts(at)
    assert PASS_KEY not in at.session_state
    assert [b.label for b in at.button] == ["Enter the studio"]


def test_with_no_author_configured_the_studio_says_how_to_enable_it(content: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COACH_AUTHOR_TOKEN")
    clear_app_caches()
    at = open_author(token=None)
    assert "COACH_AUTHOR_TOKEN" in texts(at) and "No author is configured" in texts(at)
    assert not at.text_input


# -- the queue ----------------------------------------------------------------------------------------------
def _decisions(root: Path) -> list[tuple[str, str, str]]:
    from coach.ui import services

    return [(d.item_id, d.action, d.author) for d in services.journey().decision_log().list_decisions()]


def test_approve_publishes_the_draft_with_a_new_version_and_refreshes_the_bank(content: Path,
                                                                               draft_id: str) -> None:
    at = open_author()
    assert not at.exception
    assert draft_id in at.selectbox(key="author-review-pick").value.item_id
    assert "The bank checks pass" in texts(at)
    at = button(at, "Approve and publish").click().run()
    assert not at.exception
    assert f"published {draft_id} v2" in texts(at)
    target = content / "questions" / "model-parallelism" / f"{PAGE}.yaml"
    written = {i["id"]: i for i in yaml.safe_load(target.read_text())["items"]}
    assert written[draft_id]["status"] == "published" and written[draft_id]["version"] == 2
    assert not list((content / "questions" / "model-parallelism" / "drafts").glob("*.yaml"))
    assert (draft_id, "approve", "Ada") in _decisions(content)
    from coach.ui import services

    assert services.bank().items[draft_id].status == Status.PUBLISHED  # the cache was refreshed
    assert services.journey().bank.items[draft_id].status == Status.PUBLISHED
    assert draft_id in {i.id for i in services.bank().published("model-parallelism")}


def test_a_draft_that_fails_the_checks_cannot_be_approved_and_the_page_says_why(content: Path,
                                                                                draft_id: str) -> None:
    path = content / "questions" / "model-parallelism" / "drafts" / f"{draft_id}.yaml"
    text = path.read_text()
    stem = yaml.safe_load(text)["items"][0]["stem"]
    path.write_text(text.replace(stem, stem + " It costs 123 GB."))
    at = open_author()
    assert "cannot be approved" in texts(at)
    assert button(at, "Approve and publish").disabled
    assert "123" in texts(at)
    assert path.exists()


def test_edit_and_approve_validates_the_yaml_and_publishes_the_edit(content: Path, draft_id: str) -> None:
    at = open_author()
    area = at.text_area(key=f"author-edit-{draft_id}")
    at = area.input("items: [: not yaml").run()
    at = button(at, "Validate and approve the edit").click().run()
    assert "The edit is not valid" in texts(at) and "not valid YAML" in texts(at)
    original = (content / "questions" / "model-parallelism" / "drafts" / f"{draft_id}.yaml").read_text()
    stem = yaml.safe_load(original)["items"][0]["stem"]
    edited = original.replace(stem, "Which of these statements about tensor-parallel splits holds?")
    at = at.text_area(key=f"author-edit-{draft_id}").input(edited).run()
    at = button(at, "Validate and approve the edit").click().run()
    assert not at.exception
    assert f"published {draft_id} v2" in texts(at)
    from coach.ui import services

    assert services.bank().items[draft_id].stem.startswith("Which of these statements about tensor-parallel")
    assert (draft_id, "edit_approve", "Ada") in _decisions(content)


def test_reject_needs_a_reason_then_removes_the_draft_and_logs_it(content: Path, draft_id: str) -> None:
    path = content / "questions" / "model-parallelism" / "drafts" / f"{draft_id}.yaml"
    at = open_author()
    at = button(at, "Reject the draft").click().run()
    assert "a rejection needs a reason" in texts(at) and path.exists()
    at.text_input(key=f"author-reject-reason-{draft_id}").input("the distractors overlap")
    at = button(at, "Reject the draft").click().run()
    assert f"rejected {draft_id}: the distractors overlap" in texts(at)
    assert not path.exists()
    assert (draft_id, "reject", "Ada") in _decisions(content)
    from coach.ui import services

    assert draft_id not in services.bank().items


# -- generate, analysis, export -----------------------------------------------------------------------------
def test_generate_ranks_new_distractors_and_writes_a_draft_into_the_queue(content: Path) -> None:
    at = AppTest.from_file(SCRIPT, default_timeout=300)
    at.query_params["p"] = "author-generate"
    at.query_params["concept"] = PAGE
    at.session_state[PASS_KEY] = issue_pass(TOKEN, "Ada", time.time())
    at = at.run()
    assert not at.exception
    assert at.selectbox(key="author-gen-page").value == PAGE
    at = button(at, "Generate distractors").click().run()
    assert not at.exception
    assert "Ran the offline generator" in texts(at)
    shown = [c.value for c in at.caption if c.value.startswith("plausibility ")]
    scores = [float(v.split()[1]) for v in shown]
    assert len(scores) >= 3 and scores == sorted(scores, reverse=True)
    assert all("source " in v and "misconception " in v for v in shown)
    assert sum(c.value.startswith("Ranked by: source") or "source" in c.value for c in at.caption
               if c.value.startswith("Ranked by:")) == len(scores)
    assert sum(m.value.startswith("Why wrong:") for m in at.markdown) == len(scores)
    assert at.expander and at.expander[0].label.startswith("Rejected candidates (")
    at = button(at, "Generate draft").click().run()
    assert not at.exception
    drafts = list((content / "questions" / "model-parallelism" / "drafts").glob("*.yaml"))
    assert len(drafts) == 1 and "status: draft" in drafts[0].read_text()
    assert "It waits in the review queue" in texts(at)
    from coach.ui import services

    assert services.bank().items[drafts[0].stem].status == Status.DRAFT  # the queue sees it without a restart


def test_item_analysis_says_when_there_are_no_attempts_then_shows_stored_ones(content: Path) -> None:
    at = open_author("author-analysis")
    assert not at.exception
    assert "No graded attempts yet" in texts(at)
    from coach.service.identity import new_local_key
    from coach.ui import services

    journey = services.journey()
    for n in range(3):
        who = journey.local_candidate(new_local_key())  # three candidates
        attempt = journey.start_practice(who, "model-parallelism", count=2, seed=n)
        while attempt.state.value == "in_progress":
            item = attempt.items[attempt.position]
            attempt = (journey.record_answer(who, attempt.id, choice=n % 4, advance=True) if item.type == "mcq"
                       else journey.record_answer(who, attempt.id, text="Stages run one after another.",
                                                  advance=True))
        journey.submit_and_grade(who, attempt.id)
    at = open_author("author-analysis")
    assert not at.exception
    frame = at.dataframe[0].value
    assert frame["responses"].sum() == 6
    assert frame["flags"].str.contains("too few responses to say").all()
    assert at.get("plotly_chart")  # the option (or criterion) rates of the chosen item


def test_export_offers_both_formats_and_a_bad_csv_names_its_lines(content: Path) -> None:
    at = open_author("author-export")
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Download Moodle XML", "Download GIFT"]
    assert any(u.proto.label == "CSV file" for u in at.get("file_uploader"))  # AppTest cannot upload a file
