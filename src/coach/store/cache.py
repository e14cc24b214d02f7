"""A key-value cache in the database, shared by every app instance (LLM feedback, judge outcomes)."""

from __future__ import annotations

from sqlalchemy import select

from coach.store.db import Database
from coach.store.models import KvEntry, utcnow
from coach.store.upsert import upsert


def get_cached(db: Database, namespace: str, key: str) -> str | None:
    with db.read() as session:
        value: str | None = session.scalar(
            select(KvEntry.value).where(KvEntry.namespace == namespace, KvEntry.key == key)
        )
        return value


def put_cached(db: Database, namespace: str, key: str, value: str) -> None:
    """Store (or replace) a value; the last writer wins."""
    with db.write() as session:
        upsert(session, KvEntry, {"namespace": namespace, "key": key, "value": value, "created_at": utcnow()},
               keys=("namespace", "key"))


class KvCache:
    """One namespace of the cache with the `get(key) -> str | None` / `put(key, value)` shape callers plug in."""

    def __init__(self, db: Database, namespace: str) -> None:
        self.db = db
        self.namespace = namespace

    def get(self, key: str) -> str | None:
        return get_cached(self.db, self.namespace, key)

    def put(self, key: str, value: str) -> None:
        put_cached(self.db, self.namespace, key, value)
