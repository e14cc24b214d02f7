"""The schema comes from Alembic: created on first use, at head, identical to the models, safe to race."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from coach.store.db import Database, _set_wal, mask_url
from coach.store.migrate import head_revision, status
from coach.store.models import Base


def test_first_use_migrates_to_head_and_matches_the_models(database: Database) -> None:
    assert status(database.engine).up_to_date and status(database.engine).current == head_revision()
    tables = set(inspect(database.engine).get_table_names())
    assert {"candidates", "attempts", "answers", "share_links", "kv_cache", "review_decisions"} <= tables
    with database.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []


def test_an_unmigrated_database_reports_no_revision(db_url: str) -> None:
    db = Database(db_url, migrate=False)
    assert status(db.engine).current is None and not status(db.engine).up_to_date
    db.dispose()


def _open(url: str) -> str | None:
    db = Database(url)
    current = status(db.engine).current
    db.dispose()
    return current


def test_several_processes_starting_at_once_migrate_once(db_url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        revisions = pool.map(_open, [db_url] * 4)
    assert revisions == [head_revision()] * 4


def test_the_password_is_masked() -> None:
    masked = mask_url("postgresql+psycopg://coach:s3cret@db.example:5432/coach")
    assert "s3cret" not in masked and masked.startswith("postgresql+psycopg://coach:***@db.example")


class _LockedCursor:
    """A cursor whose WAL switch is refused as locked `locked` times, as SQLite does while another process holds
    the lock (without its busy handler)."""

    def __init__(self, locked: int, message: str = "database is locked") -> None:
        self.locked, self.message, self.calls = locked, message, 0

    def execute(self, sql: str) -> None:
        self.calls += 1
        if self.calls <= self.locked:
            raise sqlite3.OperationalError(self.message)


def test_switching_to_wal_waits_while_another_process_holds_the_lock() -> None:
    cursor = _LockedCursor(locked=3)
    _set_wal(cursor)
    assert cursor.calls == 4
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        _set_wal(_LockedCursor(locked=1, message="disk I/O error"))  # only a lock is waited out
