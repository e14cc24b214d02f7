"""One database per URL: the engine, short read and write transactions, and one error for an outage.

SQLite (the default, a file under the state folder) runs in WAL mode with a busy timeout, and every write
transaction starts with BEGIN IMMEDIATE, so two writers queue instead of failing on a lock upgrade.
PostgreSQL (`postgresql+psycopg://...`) gets a pinged pool fit for several app instances on one database.
The schema is migrated to head when a Database is first opened (see `coach.store.migrate`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from coach.errors import StoreUnavailable

SQLITE_BUSY_MS = 30_000
_WRITE = "coach_write"

OUTAGE_MESSAGE = (
    "The database is not reachable right now, so nothing was saved. What you entered is kept on this page; "
    "it will be saved when the database is back."
)


def mask_url(url: str) -> str:
    """The URL with any password replaced by ***, fit for logs and `coach db status`."""
    return make_url(url).render_as_string(hide_password=True)


def _is_outage(exc: BaseException) -> bool:
    if isinstance(exc, OperationalError | InterfaceError | PoolTimeout):
        return True
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def _set_wal(cursor: Any) -> None:
    """Switch the file to WAL. SQLite answers "database is locked" at once, without its busy handler, while another
    process holds the lock this needs (several processes opening a new file together): wait and retry, for as
    long as the busy timeout allows."""
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        from pathlib import Path

        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url, connect_args={"timeout": SQLITE_BUSY_MS / 1000, "check_same_thread": False}, pool_pre_ping=True
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cursor = dbapi_connection.cursor()
        _set_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")

    return engine


def make_engine(url: str) -> Engine:
    if make_url(url).get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    return create_engine(
        url,
        pool_pre_ping=True,  # a connection dropped by a database restart is replaced, not handed out
        pool_size=5,
        max_overflow=10,
        pool_timeout=10,
        pool_recycle=1800,
        connect_args={"connect_timeout": 5},
    )


class Database:
    """Engine and transactions for one URL. Use `read()` and `write()`; both raise StoreUnavailable on an outage."""

    def __init__(self, url: str, *, migrate: bool = True) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.dialect = self.engine.dialect.name
        self._reads = sessionmaker(self.engine, expire_on_commit=False)
        self._writes = sessionmaker(self.engine.execution_options(**{_WRITE: True}), expire_on_commit=False)
        if migrate:
            from coach.store.migrate import ensure_migrated

            with self.translate_outage():
                ensure_migrated(self.engine)

    @property
    def masked_url(self) -> str:
        return mask_url(self.url)

    @staticmethod
    @contextmanager
    def translate_outage() -> Iterator[None]:
        try:
            yield
        except DBAPIError as exc:
            if _is_outage(exc):
                raise StoreUnavailable(OUTAGE_MESSAGE) from exc
            raise
        except PoolTimeout as exc:
            raise StoreUnavailable(OUTAGE_MESSAGE) from exc

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self.translate_outage(), self._reads() as session:
            yield session  # closing the session ends its transaction

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One short transaction: committed when the block ends, rolled back on any error."""
        with self.translate_outage(), self._writes.begin() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


_open: dict[str, Database] = {}
_open_lock = threading.Lock()


def open_database(url: str) -> Database:
    """The process-wide Database for `url` (created, and migrated to head, on first use)."""
    with _open_lock:
        db = _open.get(url)
        if db is None:
            db = _open[url] = Database(url)
        return db


def close_all() -> None:
    with _open_lock:
        for db in _open.values():
            db.dispose()
        _open.clear()
