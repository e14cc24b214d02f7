"""`coach analytics items`: per-item statistics from stored attempts.

`_source()` builds the ResponseSource: the database (`COACH_DATABASE_URL`, or the default SQLite file), or a
JSON-lines export given with `--from`.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

analytics_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Item analysis from stored attempts")


def _source(path: Path | None):  # type: ignore[no-untyped-def]
    from coach.analytics.records import JsonlResponseSource

    if path is not None:
        return JsonlResponseSource(path)
    from coach.analytics.store_source import StoreResponseSource
    from coach.config import get_settings
    from coach.store.db import open_database

    return StoreResponseSource(open_database(get_settings().db_url))


@analytics_app.command("items")
def items_cmd(
    source: Path | None = typer.Option(
        None, "--from", help="JSON-lines export of response records (default: the database)"
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON"),
    min_responses: int = typer.Option(30, help="Responses an item needs before it is judged"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Facility, discrimination, option and criterion rates, and flags, per item."""
    from coach.analytics.items import MIN_RESPONSES
    from coach.analytics.report import items_report
    from coach.config import get_settings
    from coach.content.loader import BankLoadError, load_bank
    from coach.errors import CoachError

    try:
        records = _source(source)
    except CoachError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from None
    try:
        bank = load_bank(root or get_settings().content_dir)
    except BankLoadError:
        bank = None
    stats = items_report(records, bank, min_responses=min_responses)
    if as_json:
        typer.echo(json.dumps({"min_responses": min_responses or MIN_RESPONSES,
                               "items": [s.model_dump() for s in stats]}, indent=2))
        return
    for s in stats:
        pb = "-" if s.point_biserial is None else f"{s.point_biserial:+.2f}"
        typer.echo(f"{s.item_id:<36} n={s.responses:<5} facility {s.facility:.2f}  r_pb {pb}  {'; '.join(s.flags)}")


def register(app: typer.Typer) -> None:
    app.add_typer(analytics_app, name="analytics")
