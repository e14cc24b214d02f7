"""INSERT ... ON CONFLICT DO UPDATE through SQLAlchemy's dialect constructs (PostgreSQL and SQLite)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import DeclarativeBase, Session


def upsert(session: Session, model: type[DeclarativeBase], values: dict[str, Any], keys: Sequence[str]) -> None:
    """Insert `values`, or update every non-key column of the row that has the same `keys`."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    stmt = insert(model).values(**values)
    changes = {column: stmt.excluded[column] for column in values if column not in keys}
    session.execute(stmt.on_conflict_do_update(index_elements=list(keys), set_=changes))
