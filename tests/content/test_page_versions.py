"""Concept-page versions: the stamp, the failing check when a page moves on, the diff from git, and drafts."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coach.authoring.stamp import items_to_stamp, review_page, stamp
from coach.cli import app
from coach.content.checks import check_bank
from coach.content.checks_pages import page_changes, unstamped
from coach.content.loader import load_bank, load_bank_collecting
from coach.content.page_history import GitPageHistory, MemoryPageHistory
from coach.content.schema import page_version
from coach.session.assembly import assemble_practice, assemble_readiness
from tests.content.test_loader import MCQ, PAGE, write_tree

runner = CliRunner()
STAMP_LINE = f"    concept_version: {page_version('Body text.')}\n"
UNSTAMPED = MCQ.replace(STAMP_LINE, "")


def test_the_loader_fixture_is_stamped_with_its_page() -> None:
    assert STAMP_LINE in MCQ and UNSTAMPED != MCQ


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def committed_tree(root: Path) -> Path:
    write_tree(root, UNSTAMPED)
    git(root, "init", "-q")
    git(root, "-c", "user.email=a@b", "-c", "user.name=a", "add", ".")
    git(root, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "first")
    return root


def commit(root: Path, message: str) -> None:
    git(root, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", message)


def test_the_version_ignores_line_wrapping_but_not_wording() -> None:
    body = "Ring all-reduce sends\n2(p-1)/p of the data.\n\nThen it stops."
    assert page_version(body) == page_version("Ring all-reduce sends 2(p-1)/p of the data.\nThen it stops.")
    assert page_version(body) != page_version(body.replace("sends", "receives"))
    assert len(page_version(body)) == 12


def test_a_version_in_front_matter_is_refused(tmp_path: Path) -> None:
    write_tree(tmp_path, page=PAGE.replace("summary: A page.", "summary: A page.\nversion: 3"))
    _, problems = load_bank_collecting(tmp_path)
    assert any(p.record == "demo-page" and "version" in p.message for p in problems)


def test_stamp_check_diff_flow_on_a_git_tree(tmp_path: Path) -> None:
    root = committed_tree(tmp_path)
    bank = load_bank(root)
    assert [c.item_id for c in unstamped(bank)] == ["demo-q1"]  # reported, not failing
    assert check_bank(bank, enforce_counts=False) == []

    result = runner.invoke(app, ["author", "stamp", "--item", "demo-q1", "--root", str(root)])
    assert result.exit_code == 0, result.output
    text = (root / "questions/demo/topic.yaml").read_text()
    assert STAMP_LINE in text
    assert text.index("concept: demo-page") < text.index("concept_version:")  # beside the link it qualifies
    commit(root, "stamp")
    assert unstamped(load_bank(root)) == []

    page = root / "concepts/demo-page.md"
    page.write_text(page.read_text().replace("Body text.", "Body text, corrected."))
    commit(root, "page moves on")
    bank = load_bank(root)
    (problem,) = check_bank(bank, enforce_counts=False)
    assert problem.record == "demo-q1" and problem.path == "questions/demo/topic.yaml"
    assert problem.message.startswith("needs review: page demo-page changed")
    checked = runner.invoke(app, ["bank", "check", "--root", str(root)])
    assert checked.exit_code == 1 and "needs review" in checked.output

    review = review_page(bank, "demo-q1", GitPageHistory(root))
    assert review.diff is not None
    assert "-Body text." in review.diff and "+Body text, corrected." in review.diff
    shown = runner.invoke(app, ["author", "diff", "--item", "demo-q1", "--root", str(root)])
    assert shown.exit_code == 0 and "+Body text, corrected." in shown.output

    stamp(bank, root, items_to_stamp(bank, concept="demo-page"))
    assert check_bank(load_bank(root), enforce_counts=False) == []


def test_a_version_missing_from_history_is_said_plainly(tmp_path: Path) -> None:
    write_tree(tmp_path, MCQ.replace(STAMP_LINE, "    concept_version: 0123456789ab\n"))
    bank = load_bank(tmp_path)
    review = review_page(bank, "demo-q1", GitPageHistory(tmp_path))  # not a git checkout at all
    assert review.diff is None and "not in the history" in review.note
    assert review_page(bank, "demo-q1", MemoryPageHistory({"demo-page": ["Body text."]})).diff is None
    result = runner.invoke(app, ["author", "diff", "--item", "demo-q1", "--root", str(tmp_path)])
    assert result.exit_code == 1 and "shallow clone" in result.output


def test_stamping_an_unknown_item_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path)
    result = runner.invoke(app, ["author", "stamp", "--item", "nope", "--root", str(tmp_path)])
    assert result.exit_code == 1 and "unknown item" in result.output


DRAFT = MCQ.replace("id: demo-q1", "id: demo-draft").replace("difficulty: easy", "difficulty: easy\n    status: draft")


def test_drafts_load_from_drafts_folder_and_never_reach_a_candidate(tmp_path: Path) -> None:
    write_tree(tmp_path)
    drafts = tmp_path / "questions/demo/drafts"
    drafts.mkdir()
    (drafts / "demo-draft.yaml").write_text("items:" + DRAFT.replace("Which GPU", "Which one GPU"))
    bank = load_bank(tmp_path)
    assert bank.items["demo-draft"].status == "draft" and bank.items["demo-draft"].module == "demo"
    assert [i.id for i in bank.published("demo")] == ["demo-q1"]
    for seed in range(5):
        assert [r.id for r in assemble_practice(bank, "demo", None, 5, random.Random(seed))] == ["demo-q1"]
        assert [r.id for r in assemble_readiness(bank, "demo", random.Random(seed))] == ["demo-q1"]


def test_a_published_item_under_drafts_is_refused(tmp_path: Path) -> None:
    write_tree(tmp_path)
    (tmp_path / "questions/demo/drafts").mkdir()
    (tmp_path / "questions/demo/drafts/x.yaml").write_text("items:" + MCQ.replace("demo-q1", "demo-x"))
    _, problems = load_bank_collecting(tmp_path)
    assert any(p.record == "demo-x" and "drafts/" in p.message for p in problems)


@pytest.mark.parametrize("status", ["draft", "review"])
def test_page_changes_cover_drafts_too(tmp_path: Path, status: str) -> None:
    stale = MCQ.replace(STAMP_LINE, "    concept_version: 0123456789ab\n")
    write_tree(tmp_path, stale.replace("difficulty: easy", f"difficulty: easy\n    status: {status}"))
    assert [c.item_id for c in page_changes(load_bank(tmp_path))] == ["demo-q1"]
