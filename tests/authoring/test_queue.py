"""A generated draft goes through review into the bank on a temporary copy of the content; decisions are logged."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coach.authoring.auth import AuthorPolicy, author_access
from coach.authoring.drafts import Target, offline_draft
from coach.authoring.queue import InMemoryDecisionLog, approval_problems, approve, queue, reject, write_draft
from coach.cli import app
from coach.content.checks import check_bank
from coach.content.loader import load_bank
from tests.conftest import ROOT

runner = CliRunner()
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    for folder in ("questions", "rubrics", "concepts"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


@pytest.mark.parametrize("kind", ["mcq", "short"])
def test_draft_to_published(tree: Path, embedder, kind: str) -> None:  # type: ignore[no-untyped-def]
    bank = load_bank(tree)
    draft = offline_draft(bank, "tp-column-row-splits", Target(type=kind), embedder, now=NOW)
    paths = write_draft(tree, draft)
    assert paths[0] == tree / "questions/model-parallelism/drafts" / f"{draft.item.id}.yaml"
    bank = load_bank(tree)
    item = bank.items[draft.item.id]
    assert item.status == "draft" and item.provenance is not None and item.provenance.created == NOW
    assert item.concept_version == bank.concepts["tp-column-row-splits"].version
    assert draft.item.id not in {i.id for i in bank.published("model-parallelism")}
    assert [e.item_id for e in queue(bank) if e.kind == "draft"] == [draft.item.id]
    assert approval_problems(bank, draft.item.id) == []

    log = InMemoryDecisionLog()
    outcome = approve(tree, bank, draft.item.id, author="ann@example.com", log=log, clock=lambda: NOW)
    assert outcome.ok, outcome.messages
    bank = load_bank(tree)
    published = bank.items[draft.item.id]
    assert published.status == "published" and published.version == 2
    assert bank.sources["item" + draft.item.id] == "questions/model-parallelism/tp-column-row-splits.yaml"
    assert draft.item.id in {i.id for i in bank.published("model-parallelism")}
    assert not paths[0].exists() and check_bank(bank, enforce_counts=False) == []
    (decision,) = log.list_decisions(draft.item.id)
    assert (decision.action, decision.author, decision.at, decision.resulting_version) == (
        "approve", "ann@example.com", NOW, 2)
    assert decision.draft_path == f"questions/model-parallelism/drafts/{draft.item.id}.yaml"


def test_a_failing_draft_cannot_be_approved_and_says_why(tree: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    bank = load_bank(tree)
    draft = offline_draft(bank, "tp-column-row-splits", Target(), embedder, now=NOW)
    broken = draft.item.model_copy(update={"explanation": "Too short to derive anything."})
    write_draft(tree, type(draft)(broken))
    bank = load_bank(tree)
    log = InMemoryDecisionLog()
    outcome = approve(tree, bank, broken.id, author="ann", log=log)
    assert not outcome.ok and any("explanation has under 25 words" in m for m in outcome.messages)
    assert log.list_decisions() == [] and bank.items[broken.id].status == "draft"
    fixed = broken.model_copy(update={"explanation": draft.item.explanation})
    edited = approve(tree, bank, broken.id, author="ann", log=log, edited=fixed, reason="restored the derivation")
    assert edited.ok and log.list_decisions()[0].action == "edit_approve"


def test_reject_needs_a_reason_and_removes_the_draft(tree: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    bank = load_bank(tree)
    draft = offline_draft(bank, "pipeline-bubble", Target(type="short"), embedder, now=NOW)
    item_file, rubric_file = write_draft(tree, draft)
    bank = load_bank(tree)
    log = InMemoryDecisionLog()
    assert not reject(tree, bank, draft.item.id, author="ann", reason=" ", log=log).ok
    done = reject(tree, bank, draft.item.id, author="ann", reason="repeats an existing item", log=log,
                  clock=lambda: NOW)
    assert done.ok and not item_file.exists() and not rubric_file.exists()
    assert [(d.action, d.reason, d.resulting_version) for d in log.list_decisions()] == [
        ("reject", "repeats an existing item", None)]
    assert draft.item.id not in load_bank(tree).items


def test_cli_draft_writes_a_loadable_draft(tree: Path) -> None:
    out = tree / "questions/model-parallelism/drafts/x.yaml"
    result = runner.invoke(app, ["author", "draft", "--concept", "pipeline-bubble", "--type", "mcq", "--difficulty",
                                 "hard", "--offline", "--root", str(tree), "-o", str(out)])
    assert result.exit_code == 0, result.output
    bank = load_bank(tree)
    (draft,) = [i for i in bank.items.values() if i.status == "draft"]
    assert draft.difficulty == "hard" and draft.concept == "pipeline-bubble"
    bad = runner.invoke(app, ["author", "draft", "--concept", "pipeline-bubble", "--difficulty", "trivial",
                              "--offline", "--root", str(tree)])
    assert bad.exit_code == 1 and "difficulty" in bad.output


def test_author_role() -> None:
    policy = AuthorPolicy.of(emails=["Ann@Example.com"], subjects=["sub-1"], token="s3cret")
    assert author_access(policy, email="ann@example.com").allowed
    assert author_access(policy, subject="sub-1").allowed
    assert author_access(policy, token="s3cret").allowed
    refused = author_access(policy, email="candidate@example.com")
    assert not refused.allowed and "not an author" in refused.reason
    assert not author_access(policy, token="guess").allowed
    assert not author_access(policy).allowed
    assert not author_access(AuthorPolicy.of(), token="").allowed  # no token configured: nothing matches
