"""Record that items were reviewed against the current version of their concept page, and show what changed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from coach.content.bank import Bank
from coach.content.checks_pages import page_change
from coach.content.page_history import PageHistory, page_diff
from coach.content.writer import set_item_fields
from coach.errors import ContentError


@dataclass(frozen=True)
class Stamp:
    item_id: str
    page_id: str
    old: str | None
    new: str
    path: str


def items_to_stamp(
    bank: Bank, *, items: Sequence[str] = (), concept: str | None = None, every: bool = False
) -> list[str]:
    """The item ids named by ids, by concept page, or all of them; unknown names are an error."""
    unknown = [i for i in items if i not in bank.items]
    if unknown:
        raise ContentError("stamp", f"unknown item(s): {', '.join(unknown)}")
    if concept is not None and concept not in bank.concepts:
        raise ContentError("stamp", f"unknown concept page {concept!r}")
    chosen = list(items)
    chosen += [i.id for i in bank.items.values() if (every or i.concept == concept) and i.id not in chosen]
    return chosen


def stamp(bank: Bank, root: Path, item_ids: list[str]) -> list[Stamp]:
    """Write the current page version into each item's `concept_version` (items already current are skipped)."""
    done = []
    for item_id in item_ids:
        item = bank.items[item_id]
        change = page_change(bank, item)
        if change is None:
            continue
        set_item_fields(root / change.path, item_id, {"concept_version": change.current})
        done.append(Stamp(item_id, change.page_id, change.stamped, change.current, change.path))
    return done


@dataclass(frozen=True)
class PageReview:
    """What an author reads before stamping: the item's stamp, the page now, and the diff when it can be found."""

    item_id: str
    page_id: str
    stamped: str | None
    current: str
    diff: str | None
    note: str


def review_page(bank: Bank, item_id: str, history: PageHistory) -> PageReview:
    item = bank.items.get(item_id)
    if item is None:
        raise ContentError("diff", f"unknown item {item_id!r}")
    page = bank.concepts.get(item.concept)
    if page is None:
        raise ContentError("diff", f"item {item_id} links to missing page {item.concept!r}")
    stamped = item.concept_version
    if stamped == page.version:
        return PageReview(item_id, page.id, stamped, page.version, "", "the page has not changed since the stamp")
    if stamped is None:
        return PageReview(item_id, page.id, None, page.version, None,
                          "the item has no stamp, so there is nothing to diff against: review it against the page")
    old = history.body_at(page.id, stamped)
    if old is None:
        return PageReview(item_id, page.id, stamped, page.version, None,
                          f"version {stamped} of {page.id} is not in the history (never committed, or a shallow clone)")
    diff = page_diff(page.id, old, stamped, page.body, page.version)
    return PageReview(item_id, page.id, stamped, page.version, diff, f"page {page.id} changed since the stamp")
