"""The review queue: drafts as files, decisions in the store.

Drafts live in questions/<module>/drafts/<item-id>.yaml (their rubrics in rubrics/drafts/<item-id>.yaml), so
they are reviewed in git and the loader never pools them (`Bank.published` keeps only published items).
Approval runs `check_bank` on the bank with the approved item in it; a problem the item would bring in blocks
it, and the messages say why. An approved item moves to questions/<module>/<concept>.yaml with
`status: published` and the next version; a rejected draft's file is removed (git keeps it). Every decision is
recorded through a DecisionLog, which the store implements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from coach.authoring.drafts import Draft
from coach.content.bank import Bank
from coach.content.checks import check_bank
from coach.content.checks_pages import PageChange, page_changes
from coach.content.loader import DRAFTS_DIR
from coach.content.schema import Item, Rubric, ShortItem, Status
from coach.content.writer import append_item, write_item_file, write_rubric_file


class Action(StrEnum):
    APPROVE = "approve"
    EDIT_APPROVE = "edit_approve"
    REJECT = "reject"


class DecisionRecord(Protocol):
    """One stored decision, as the store returns it (exactly these fields, read-only: records may be frozen)."""

    @property
    def id(self) -> int: ...

    @property
    def item_id(self) -> str: ...

    @property
    def draft_path(self) -> str: ...

    @property
    def action(self) -> str: ...

    @property
    def reason(self) -> str: ...

    @property
    def author(self) -> str: ...

    @property
    def at(self) -> datetime: ...

    @property
    def resulting_version(self) -> int | None: ...


class DecisionLog(Protocol):
    """Where review decisions go: the store's `DecisionStore` (its `review_decisions` table) assigns the id."""

    def record_decision(self, *, item_id: str, draft_path: str, action: Any, author: str, reason: str = "",
                        resulting_version: int | None = None, at: datetime | None = None) -> DecisionRecord: ...

    def list_decisions(self, item_id: str | None = None) -> Sequence[DecisionRecord]: ...


@dataclass(frozen=True)
class Decision:
    id: int
    item_id: str
    draft_path: str
    action: str
    reason: str
    author: str
    at: datetime
    resulting_version: int | None


class InMemoryDecisionLog:
    """The DecisionLog for tests and for a run without a database."""

    def __init__(self) -> None:
        self.decisions: list[Decision] = []

    def record_decision(self, *, item_id: str, draft_path: str, action: Any, author: str, reason: str = "",
                        resulting_version: int | None = None, at: datetime | None = None) -> Decision:
        decision = Decision(len(self.decisions) + 1, item_id, draft_path, str(action), reason, author,
                            at or datetime.now(UTC), resulting_version)
        self.decisions.append(decision)
        return decision

    def list_decisions(self, item_id: str | None = None) -> list[Decision]:
        return [d for d in self.decisions if item_id is None or d.item_id == item_id]


def draft_paths(root: Path, item: Item) -> tuple[Path, Path | None]:
    """Where a draft's item file (and a short item's rubric) live."""
    item_path = root / "questions" / (item.module or "") / DRAFTS_DIR / f"{item.id}.yaml"
    rubric = root / "rubrics" / DRAFTS_DIR / f"{item.rubric}.yaml" if isinstance(item, ShortItem) else None
    return item_path, rubric


def write_draft(root: Path, draft: Draft, out: Path | None = None) -> list[Path]:
    """Write a draft (and its rubric) as files; `out` overrides the item file's place."""
    item_path, rubric_path = draft_paths(root, draft.item)
    item_path = out or item_path
    write_item_file(item_path, [draft.item])
    written = [item_path]
    if draft.rubric is not None and rubric_path is not None:
        write_rubric_file(rubric_path, draft.rubric)
        written.append(rubric_path)
    return written


@dataclass(frozen=True)
class QueueEntry:
    item_id: str
    kind: str  # "draft" | "page changed"
    path: str
    status: str
    detail: str  # provenance, or what moved on


def queue(bank: Bank) -> list[QueueEntry]:
    """What waits for an author: drafts (and items in review), then items whose page changed."""
    entries = []
    for item in bank.items.values():
        if item.status != Status.PUBLISHED:
            p = item.provenance
            detail = (f"from {p.source_page}@{p.page_version} by {p.generator}{' (' + p.model + ')' if p.model else ''}"
                      f" on {p.created:%Y-%m-%d}") if p else "written by hand"
            entries.append(QueueEntry(item.id, "draft", bank.sources.get("item" + item.id, "?"), item.status, detail))
    changes: list[PageChange] = page_changes(bank)
    entries += [QueueEntry(c.item_id, "page changed", c.path, bank.items[c.item_id].status, c.message)
                for c in changes]
    return entries


@dataclass(frozen=True)
class ReviewOutcome:
    ok: bool
    messages: tuple[str, ...]  # what the page shows: why it was refused, or what was written
    decision: Decision | None = None
    published_path: Path | None = None


Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


def published_version(draft: Item, clock: Clock = _utc_now) -> Item:
    """The item as it will be published: status published, the next version, today's date."""
    return draft.model_copy(update={"status": Status.PUBLISHED, "version": draft.version + 1,
                                    "updated": clock().date()})


def approval_problems(bank: Bank, item_id: str, edited: Item | None = None, rubric: Rubric | None = None,
                      facts_text: str | None = None) -> list[str]:
    """Why the draft cannot be approved (empty: it can). Problems the bank already had are not its fault."""
    draft = bank.items.get(item_id)
    if draft is None:
        return [f"no draft {item_id!r}"]
    if draft.status == Status.PUBLISHED:
        return [f"{item_id} is already published"]
    if edited is not None and edited.id != item_id:
        return [f"the edit changes the id ({item_id} -> {edited.id})"]
    trial = Bank(path=bank.path, modules=bank.modules, items=dict(bank.items), rubrics=dict(bank.rubrics),
                 concepts=bank.concepts, misconceptions=bank.misconceptions, sources=dict(bank.sources))
    del trial.items[item_id]  # "before" is the bank without the draft: its own problems are not excused
    before = {str(p) for p in check_bank(trial, facts_text, enforce_counts=False) if p.record != _rubric_id(draft)}
    new = published_version(edited or draft)
    if new.module is None:
        new = new.model_copy(update={"module": draft.module})
    trial.items[item_id] = new
    if rubric is not None:
        trial.rubrics[rubric.id] = rubric
    after = check_bank(trial, facts_text, enforce_counts=False)
    return [f"{p.record or p.path}: {p.message}" for p in after if str(p) not in before]


def _rubric_id(item: Item) -> str | None:
    return item.rubric if isinstance(item, ShortItem) else None


def approve(root: Path, bank: Bank, item_id: str, *, author: str, log: DecisionLog, edited: Item | None = None,
            rubric: Rubric | None = None, reason: str | None = None, facts_text: str | None = None,
            clock: Clock = _utc_now) -> ReviewOutcome:
    """Approve (or edit and approve) a draft: checks, then the files, then the decision."""
    blocked = approval_problems(bank, item_id, edited, rubric, facts_text)
    if blocked:
        return ReviewOutcome(False, ("This draft cannot be approved:", *blocked))
    draft = bank.items[item_id]
    item = published_version(edited or draft, clock)
    draft_file = root / bank.sources["item" + item_id]
    target = root / "questions" / (draft.module or "") / f"{draft.concept}.yaml"
    append_item(target, item)
    old_rubric = bank.rubric_for(draft)
    if isinstance(item, ShortItem):
        final = rubric or old_rubric
        if final is not None:
            write_rubric_file(root / "rubrics" / f"{final.id}.yaml", final)
        if old_rubric is not None and "rubric" + old_rubric.id in bank.sources:
            source = root / bank.sources["rubric" + old_rubric.id]
            if DRAFTS_DIR in source.parts:
                source.unlink(missing_ok=True)
    draft_file.unlink(missing_ok=True)
    action = Action.EDIT_APPROVE if edited is not None else Action.APPROVE
    decision = _record(log, item_id, str(draft_file.relative_to(root)), action, reason, author, clock(), item.version)
    return ReviewOutcome(True, (f"published {item_id} v{item.version} in {target.relative_to(root)}",), decision,
                         target)


def reject(root: Path, bank: Bank, item_id: str, *, author: str, reason: str, log: DecisionLog,
           clock: Clock = _utc_now) -> ReviewOutcome:
    draft = bank.items.get(item_id)
    if draft is None or draft.status == Status.PUBLISHED:
        return ReviewOutcome(False, (f"no draft {item_id!r} to reject",))
    if not reason.strip():
        return ReviewOutcome(False, ("a rejection needs a reason",))
    draft_file = root / bank.sources["item" + item_id]
    draft_file.unlink(missing_ok=True)
    rubric = bank.rubric_for(draft)
    if rubric is not None and DRAFTS_DIR in (root / bank.sources["rubric" + rubric.id]).parts:
        (root / bank.sources["rubric" + rubric.id]).unlink(missing_ok=True)
    decision = _record(log, item_id, str(draft_file.relative_to(root)), Action.REJECT, reason.strip(), author,
                       clock(), None)
    return ReviewOutcome(True, (f"rejected {item_id}: {reason.strip()}",), decision)


def _record(log: DecisionLog, item_id: str, draft_path: str, action: Action, reason: str | None, author: str,
            at: datetime, version: int | None) -> Decision:
    stored = log.record_decision(item_id=item_id, draft_path=draft_path, action=action.value, reason=reason or "",
                                 author=author, at=at, resulting_version=version)
    return Decision(stored.id, stored.item_id, stored.draft_path, stored.action, stored.reason, stored.author,
                    stored.at, stored.resulting_version)
