"""`coach db upgrade`, `coach db status` and `coach bench journey`.

Register with `register(app, bench_app)` from coach.cli. SQLAlchemy loads only when a command runs.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from coach.config import get_settings

db_app = typer.Typer(
    rich_markup_mode=None, no_args_is_help=True, help="The database: migrate it and see where it stands"
)


def _status_lines(db: object) -> dict[str, object]:
    from coach.store.db import Database
    from coach.store.migrate import status

    assert isinstance(db, Database)
    with db.translate_outage():
        st = status(db.engine)
    return {"url": db.masked_url, "current": st.current, "head": st.head, "up_to_date": st.up_to_date}


def _with_database(action: Callable[[Any], None]) -> dict[str, object]:
    """Run `action(db)` on the configured database (unmigrated), then report its status; exit 2 if unreachable."""
    from coach.errors import StoreUnavailable
    from coach.store.db import Database

    db = Database(get_settings().db_url, migrate=False)
    try:
        with db.translate_outage():
            action(db)
        return _status_lines(db)
    except StoreUnavailable:
        typer.echo(f"error: the database at {db.masked_url} is not reachable", err=True)
        raise typer.Exit(2) from None
    finally:
        db.dispose()


def _echo(info: dict[str, object], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(info, indent=2))
        return
    for key in ("url", "current", "head"):
        typer.echo(f"{key + ':':<9}{info[key] if info[key] is not None else '(none)'}")
    typer.echo("up to date" if info["up_to_date"] else "behind: run `coach db upgrade`")


@db_app.command("status")
def db_status(as_json: bool = typer.Option(False, "--json", help="Print JSON")) -> None:
    """Current and head revision of the database (COACH_DATABASE_URL or the SQLite file); exit 1 when behind."""
    info = _with_database(lambda db: None)
    _echo(info, as_json)
    if not info["up_to_date"]:
        raise typer.Exit(1)


@db_app.command("upgrade")
def db_upgrade(revision: str = typer.Argument("head", help="Target revision")) -> None:
    """Migrate the database to head (safe while app instances run; the app also does this on first use)."""
    from coach.store.migrate import upgrade

    info = _with_database(lambda db: upgrade(db.engine, revision))
    _echo(info, False)


def bench_journey(
    sessions: int = typer.Option(50, "--sessions", min=1, help="Concurrent candidates"),
    seed: int = typer.Option(0, help="Seeds every candidate's choices"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object"),
) -> None:
    """Concurrent candidates through the service (start, answer, submit, grade offline); rows counted after.
    Uses COACH_DATABASE_URL, or a fresh SQLite file removed afterwards."""
    from coach.content.loader import load_bank
    from coach.evals.journey_bench import run_journey_bench
    from coach.grading.offline.grader import EmbeddingGrader
    from coach.providers.registry import default_embedder
    from coach.store.db import Database

    settings = get_settings()
    scratch = None if settings.database_url else Path(tempfile.mkdtemp(prefix="coach-bench-"))
    url = settings.database_url or f"sqlite:///{scratch}/bench.db"
    try:
        db = Database(url)
        result = run_journey_bench(db, load_bank(settings.content_dir), EmbeddingGrader(default_embedder()),
                                   sessions, seed)
        result["database"] = db.masked_url if scratch is None else "fresh SQLite file"
        db.dispose()
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if as_json:
        typer.echo(json.dumps(result))
        return
    for key, value in result.items():
        typer.echo(f"{key:<20}{value}")


def register(app: typer.Typer, bench_app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
    bench_app.command("journey")(bench_journey)
