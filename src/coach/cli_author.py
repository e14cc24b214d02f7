"""`coach author`: page-version stamps and diffs, distractor and draft generation, the review queue."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from coach.content.bank import Bank

author_app = typer.Typer(
    rich_markup_mode=None, no_args_is_help=True, help="Authoring: stamps, page diffs, distractors, drafts, review"
)


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


def authoring_chat_model(offline: bool) -> Any:  # a langchain BaseChatModel or None (cli may not import it)
    """The one place the CLI builds its chat model (swap for the providers' langchain adapter when it lands)."""
    if offline:
        return None
    from coach.authoring.chat import chat_model_from_settings
    from coach.config import get_settings

    return chat_model_from_settings(get_settings())


@author_app.command("distractors")
def distractors_cmd(
    item: str = typer.Option(..., "--item", help="MCQ item id"),
    n: int = typer.Option(5, "--n", min=1, max=20, help="How many candidates"),
    offline: bool = typer.Option(False, "--offline", help="Never call an LLM, even when one is configured"),
    as_json: bool = typer.Option(False, "--json", help="Print the JSON list (the contract)"),
    rejected: bool = typer.Option(False, "--rejected", help="Also show rejected candidates and why (text mode)"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Valid candidate distractors, best first: JSON records {text, misconception, why_wrong, plausibility, source}."""
    from coach.authoring.distractors import suggest_distractors
    from coach.errors import ContentError
    from coach.providers.registry import default_embedder

    bank = _load(_content_root(root))
    try:
        found = suggest_distractors(bank, item, default_embedder(), chat=authoring_chat_model(offline), n=n)
    except ContentError as exc:
        raise _fail(str(exc)) from None
    for note in found.notes:
        typer.echo(f"note: {note}", err=True)
    best = found.best(n)
    if as_json:
        typer.echo(json.dumps([a.public() for a in best], indent=2, ensure_ascii=False))
        return
    for rank, a in enumerate(best, 1):
        typer.echo(f"{rank}. [{a.plausibility:.2f} {a.candidate.source.value}] {a.candidate.text}")
        typer.echo(f"   why wrong: {a.candidate.why_wrong}")
        typer.echo(f"   ranked by: {a.explain()}")
    if rejected:
        for a in found.rejected:
            typer.echo(f"rejected [{a.candidate.source.value}] {a.candidate.text}: {'; '.join(a.reasons)}")


@author_app.command("draft")
def draft_cmd(
    concept: str = typer.Option(..., "--concept", help="Concept page id"),
    kind: str = typer.Option("mcq", "--type", help="mcq | short"),
    difficulty: str = typer.Option("medium", "--difficulty", help="easy | medium | hard"),
    dimension: list[str] = typer.Option([], "--dimension", help="Dimension to measure (repeatable)"),
    offline: bool = typer.Option(False, "--offline", help="Never call an LLM, even when one is configured"),
    seed: int = typer.Option(0, help="Which of the page's misconceptions the offline draft starts from"),
    out: Path | None = typer.Option(None, "-o", "--out", help="Item file to write (default: the module's drafts/)"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Write a draft item (status: draft, with provenance) from a concept page; a short item gets its rubric."""
    from pydantic import ValidationError

    from coach.authoring.drafts import Target, generate_draft
    from coach.authoring.queue import write_draft
    from coach.errors import ContentError
    from coach.providers.registry import default_embedder

    if kind not in ("mcq", "short"):
        raise _fail("--type is mcq or short")
    base = _content_root(root)
    bank = _load(base)
    try:
        target = Target.model_validate(
            {"type": kind, "difficulty": difficulty, "dimensions": tuple(dimension) or ("conceptual",)}
        )
        draft = generate_draft(bank, concept, target, default_embedder(), chat=authoring_chat_model(offline),
                               seed=seed)
        written = write_draft(base, draft, out)
    except (ContentError, ValidationError, ValueError) as exc:
        raise _fail(str(exc)) from None
    for note in draft.notes:
        typer.echo(f"note: {note}", err=True)
    for path in written:
        typer.echo(f"wrote {path}")


def register(app: typer.Typer) -> None:
    app.add_typer(author_app, name="author")
