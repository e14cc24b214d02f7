"""Alembic environment: always run from code (coach.store.migrate) with a connection handed in."""

from __future__ import annotations

from alembic import context

from coach.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `coach db upgrade` (coach.store.migrate), which passes a connection")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
