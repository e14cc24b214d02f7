"""`coach export moodle-xml|gift -o FILE` and `coach import csv FILE`."""

from __future__ import annotations

from pathlib import Path

import typer

export_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Export published items (Moodle XML, GIFT)")
import_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Import items as drafts")


def _bank(root: Path | None):  # type: ignore[no-untyped-def]
    from coach.cli_author import _content_root, _load

    base = _content_root(root)
    return base, _load(base)


@export_app.command("moodle-xml")
def moodle_cmd(out: Path = typer.Option(..., "-o", "--out"), root: Path | None = typer.Option(None)) -> None:
    """Every published item as Moodle XML (validated before it is written)."""
    from coach.authoring.moodle import export_moodle, validate_moodle

    _, bank = _bank(root)
    text = export_moodle(bank)
    problems = validate_moodle(text)
    if problems:
        for p in problems:
            typer.echo(p, err=True)
        raise typer.Exit(1)
    out.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {out}")


@export_app.command("gift")
def gift_cmd(out: Path = typer.Option(..., "-o", "--out"), root: Path | None = typer.Option(None)) -> None:
    """Every published item in GIFT."""
    from coach.authoring.gift import export_gift

    _, bank = _bank(root)
    out.write_text(export_gift(bank), encoding="utf-8")
    typer.echo(f"wrote {out}")


@import_app.command("csv")
def csv_cmd(file: Path, root: Path | None = typer.Option(None)) -> None:
    """MCQs from a CSV into draft files; nothing is written if any line has an error."""
    from coach.authoring.csv_import import read_csv
    from coach.authoring.queue import write_draft

    base, bank = _bank(root)
    drafts, errors = read_csv(file.read_text(encoding="utf-8"), bank)
    if errors:
        for e in errors:
            typer.echo(f"{file}: {e}", err=True)
        raise typer.Exit(1)
    for d in drafts:
        for path in write_draft(base, d):
            typer.echo(f"wrote {path}")


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
    app.add_typer(import_app, name="import")
