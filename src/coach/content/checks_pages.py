"""Concept-page versions: which items were written against a page that has moved on since. Pure.

An item records `concept_version`, the version of its concept page it was written (or last reviewed) against.
A stale stamp fails `coach bank check`: the page may now teach something the item contradicts, and a candidate
sent to read it would be misled; the fix is one command after a review (`coach author stamp`). A missing stamp
is reported but does not fail: it makes no claim, and the bank predates versions (see docs/authoring.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from coach.content.bank import Bank, Problem
from coach.content.schema import Item, Status


@dataclass(frozen=True)
class PageChange:
    """An item whose concept page is not the version it was stamped with (`stamped` None: never stamped)."""

    item_id: str
    page_id: str
    stamped: str | None
    current: str
    path: str

    @property
    def message(self) -> str:
        if self.stamped is None:
            return f"no concept_version stamp: review against page {self.page_id} ({self.current}), then stamp"
        return (
            f"needs review: page {self.page_id} changed ({self.stamped} -> {self.current}) since item "
            f"{self.item_id} was written; `coach author diff --item {self.item_id}` shows how, "
            f"`coach author stamp --item {self.item_id}` records the review"
        )

    def problem(self) -> Problem:
        return Problem(self.path, self.item_id, self.message)


def page_changes(bank: Bank, *, include_unstamped: bool = False) -> list[PageChange]:
    """Items whose page moved on (and, when asked, items with no stamp), in bank order."""
    found = []
    for item in bank.items.values():
        change = page_change(bank, item)
        if change is not None and (change.stamped is not None or include_unstamped):
            found.append(change)
    return found


def page_change(bank: Bank, item: Item) -> PageChange | None:
    page = bank.concepts.get(item.concept)
    if page is None or item.concept_version == page.version:
        return None  # a missing page is check_bank's own problem
    return PageChange(item.id, page.id, item.concept_version, page.version, bank.sources.get("item" + item.id, "?"))


def check_page_versions(bank: Bank) -> list[Problem]:
    """The blocking half, called from `check_bank`: stamped items whose page changed."""
    return [c.problem() for c in page_changes(bank)]


def unstamped(bank: Bank) -> list[PageChange]:
    """Published items without a stamp: `coach bank check` lists them as warnings."""
    return [
        c for c in page_changes(bank, include_unstamped=True)
        if c.stamped is None and bank.items[c.item_id].status == Status.PUBLISHED
    ]
