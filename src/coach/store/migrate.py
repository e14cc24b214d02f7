"""Alembic, driven from code: migrate to head on first use, and report current vs head for operators.

Several processes may start at once on one database: on PostgreSQL the upgrade runs under a transaction-level
advisory lock, on a SQLite file under an exclusive lock on a file beside it, and each re-checks the revision
once it holds the lock, so exactly one of them migrates.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, func, select

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_PG_LOCK_KEY = 0x0C0AC4DB  # any fixed 64-bit number, the same in every process


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    database = engine.url.database
    if not database or database == ":memory:":
        yield
        return
    lock_path = Path(database).with_name(Path(database).name + ".migrate.lock")
    with lock_path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate to `revision` (default head), safe when other processes try the same at the same time."""
    cfg = alembic_config()
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(select(func.pg_advisory_xact_lock(_PG_LOCK_KEY)))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        return
    with _file_lock(engine), engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        conn.commit()


def ensure_migrated(engine: Engine) -> None:
    """Upgrade to head unless already there (the cheap check runs first, without any lock)."""
    with engine.connect() as conn:
        if current_revision(conn) == head_revision():
            return
    upgrade(engine)


@dataclass(frozen=True)
class Status:
    current: str | None
    head: str | None

    @property
    def up_to_date(self) -> bool:
        return self.current == self.head


def status(engine: Engine) -> Status:
    with engine.connect() as conn:
        return Status(current=current_revision(conn), head=head_revision())
