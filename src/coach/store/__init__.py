"""Persistence: SQLAlchemy 2 models, Alembic migrations and repository functions; the only layer with a database.

`open_database(url)` gives the process-wide `Database` (migrated to head on first use). The modules
`candidates`, `attempts`, `shares`, `cache` and `decisions` each take it as their first argument, run one short
transaction per call, and trade in the plain records of `coach.store.records`. The store imports neither
session nor grading: attempts' items and grades are JSON that `coach.service` converts.
"""
