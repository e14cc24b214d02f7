"""`coach author`: page-version stamps and diffs, distractor and draft generation, the review queue."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:

    from coach.content.bank import Bank

author_app = typer.Typer(no_args_is_help=True, help="Authoring: stamps, page diffs, distractors, drafts, review")


def _content_root(root: Path | None) -> Path:
    from coach.config import get_settings

    return root or get_settings().content_dir


def _load(root: Path) -> Bank:
    from coach.content.loader import BankLoadError, load_bank

    try:
        return load_bank(root)
    except BankLoadError as exc:
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        raise typer.Exit(1) from None


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    return typer.Exit(1)


@author_app.command("stamp")
def stamp_cmd(
    item: list[str] = typer.Option([], "--item", help="Item id (repeatable)"),
    concept: str | None = typer.Option(None, "--concept", help="Stamp every item of this concept page"),
    every: bool = typer.Option(False, "--all", help="Stamp every item in the bank"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Record that items were reviewed against their concept page as it is now (sets `concept_version`)."""
    from coach.authoring.stamp import items_to_stamp, stamp
    from coach.errors import ContentError

    if not (item or concept or every):
        raise _fail("name --item, --concept or --all")
    base = _content_root(root)
    bank = _load(base)
    try:
        stamped = stamp(bank, base, items_to_stamp(bank, items=item, concept=concept, every=every))
    except ContentError as exc:
        raise _fail(str(exc)) from None
    for s in stamped:
        typer.echo(f"{s.path} [{s.item_id}]: concept_version {s.old or '(none)'} -> {s.new}")
    typer.echo(f"stamped {len(stamped)} item(s)")


@author_app.command("diff")
def diff_cmd(
    item: str = typer.Option(..., "--item", help="Item id"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Show how the item's concept page changed since the version the item was stamped with (from git)."""
    from coach.authoring.stamp import review_page
    from coach.content.page_history import GitPageHistory
    from coach.errors import ContentError

    base = _content_root(root)
    bank = _load(base)
    try:
        review = review_page(bank, item, GitPageHistory(base))
    except ContentError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"{review.item_id}: page {review.page_id} stamped {review.stamped or '(none)'}, now {review.current}")
    typer.echo(review.note)
    if review.diff:
        sys.stdout.write(review.diff)
    if review.diff is None and review.stamped is not None:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.add_typer(author_app, name="author")
