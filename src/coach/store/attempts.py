"""Attempts and their answers: one short transaction per call, always scoped to the owning candidate.

A readiness start checks the rolling limit inside the same transaction that inserts the attempt, with the
candidate's row locked (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the write transaction is BEGIN IMMEDIATE),
so two tabs racing for the last start cannot both get one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from coach.errors import AttemptNotFound, RetakeLimitReached, SessionError
from coach.store.db import Database
from coach.store.models import AnswerRow, AttemptRow, Candidate, utcnow
from coach.store.records import AnswerRecord, AttemptRecord, Json
from coach.store.upsert import upsert

OPEN_STATES = ("in_progress", "submitted")


@dataclass(frozen=True)
class StartLimit:
    """At most `limit` starts of one kind per module per candidate within `window`."""

    limit: int
    window: timedelta

    def next_open_at(self, starts: list[datetime]) -> datetime | None:
        """When the next start is allowed, given the start times inside the window (None: allowed now)."""
        if len(starts) < self.limit:
            return None
        return sorted(starts)[len(starts) - self.limit] + self.window


def _starts(session: Session, candidate_id: str, module: str, kind: str, since: datetime) -> list[datetime]:
    query = select(AttemptRow.started_at).where(
        AttemptRow.candidate_id == candidate_id,
        AttemptRow.module == module,
        AttemptRow.kind == kind,
        AttemptRow.started_at > since,
    )
    return sorted(session.scalars(query))


def recent_starts(db: Database, candidate_id: str, module: str, kind: str, since: datetime) -> list[datetime]:
    with db.read() as session:
        return _starts(session, candidate_id, module, kind, since)


def _record(session: Session, row: AttemptRow) -> AttemptRecord:
    answers = list(session.scalars(select(AnswerRow).where(AnswerRow.attempt_id == row.id)))
    return AttemptRecord.of(row, answers)


def _records(session: Session, rows: list[AttemptRow]) -> list[AttemptRecord]:
    by_attempt: dict[str, list[AnswerRow]] = {r.id: [] for r in rows}
    if rows:
        for answer in session.scalars(select(AnswerRow).where(AnswerRow.attempt_id.in_(list(by_attempt)))):
            by_attempt[answer.attempt_id].append(answer)
    return [AttemptRecord.of(r, by_attempt[r.id]) for r in rows]


def insert_attempt(
    db: Database, attempt: AttemptRecord, limit: StartLimit | None = None, now: datetime | None = None
) -> AttemptRecord:
    """Store a new attempt; with `limit`, refuse it (RetakeLimitReached) once the window is full."""
    now = now or utcnow()
    with db.write() as session:
        owner = session.scalars(select(Candidate).where(Candidate.id == attempt.candidate_id).with_for_update())
        if owner.one_or_none() is None:
            raise LookupError(f"unknown candidate {attempt.candidate_id!r}")
        if limit is not None:
            starts = _starts(session, attempt.candidate_id, attempt.module, attempt.kind, now - limit.window)
            opens = limit.next_open_at(starts)
            if opens is not None:
                raise RetakeLimitReached(attempt.module, limit.limit, opens, limit.window.total_seconds() / 3600)
        fields = {k: v for k, v in asdict(attempt).items() if k != "answers"}
        fields["items"] = list(attempt.items)
        fields["dimensions"] = list(attempt.dimensions) if attempt.dimensions is not None else None
        row = AttemptRow(**fields)
        session.add(row)
        session.flush()
        return _record(session, row)


def _owned(candidate_id: str, attempt_id: str) -> Select[AttemptRow]:
    return select(AttemptRow).where(AttemptRow.id == attempt_id, AttemptRow.candidate_id == candidate_id)


def _locked(session: Session, candidate_id: str, attempt_id: str) -> AttemptRow:
    row = session.scalars(_owned(candidate_id, attempt_id).with_for_update()).one_or_none()
    if row is None:
        raise AttemptNotFound("No such attempt for you. It may belong to someone else, or the link is wrong.")
    return row


def load_attempt(db: Database, candidate_id: str, attempt_id: str) -> AttemptRecord | None:
    """The attempt if this candidate owns it; None otherwise (another's attempt looks the same as none)."""
    with db.read() as session:
        row = session.scalars(_owned(candidate_id, attempt_id)).one_or_none()
        return None if row is None else _record(session, row)


def list_attempts(
    db: Database,
    candidate_id: str,
    *,
    module: str | None = None,
    kind: str | None = None,
    states: Iterable[str] | None = None,
) -> list[AttemptRecord]:
    """This candidate's attempts, oldest first, with their answers."""
    query = select(AttemptRow).where(AttemptRow.candidate_id == candidate_id)
    if module is not None:
        query = query.where(AttemptRow.module == module)
    if kind is not None:
        query = query.where(AttemptRow.kind == kind)
    if states is not None:
        query = query.where(AttemptRow.state.in_(list(states)))
    with db.read() as session:
        return _records(session, list(session.scalars(query.order_by(AttemptRow.started_at, AttemptRow.id))))


def graded_attempts(db: Database, *, module: str | None = None) -> list[AttemptRecord]:
    """Every candidate's graded attempts, oldest first: the authors' item analysis reads these (never a page of
    a candidate's)."""
    query = select(AttemptRow).where(AttemptRow.state == "graded")
    if module is not None:
        query = query.where(AttemptRow.module == module)
    with db.read() as session:
        return _records(session, list(session.scalars(query.order_by(AttemptRow.started_at, AttemptRow.id))))


def find_open(db: Database, candidate_id: str, module: str | None, kind: str) -> AttemptRecord | None:
    """The latest attempt of this kind (in this module, if given) not yet graded: the one to resume."""
    found = list_attempts(db, candidate_id, module=module, kind=kind, states=OPEN_STATES)
    return found[-1] if found else None


def save_answer(
    db: Database, candidate_id: str, attempt_id: str, answer: AnswerRecord, position: int, state: str
) -> AttemptRecord:
    """Write (or replace) the answer at `answer.index` and move the attempt on, in one transaction."""
    with db.write() as session:
        row = _locked(session, candidate_id, attempt_id)
        if row.state != "in_progress":
            raise SessionError("This attempt is no longer taking answers.")
        if not 0 <= answer.index < len(row.items):
            raise SessionError(f"question {answer.index + 1} is not in this attempt")
        values = {"attempt_id": attempt_id, **answer.columns()}
        upsert(session, AnswerRow, values, keys=("attempt_id", "index"))
        _move(row, position, state)
        session.flush()
        return _record(session, row)


def _move(row: AttemptRow, position: int, state: str) -> None:
    row.position = position
    if state != row.state:
        row.state = state
        if state == "submitted":
            row.submitted_at = utcnow()


def set_position(db: Database, candidate_id: str, attempt_id: str, position: int, state: str) -> AttemptRecord:
    """Move an attempt to another question (and to `submitted` after the last one)."""
    with db.write() as session:
        row = _locked(session, candidate_id, attempt_id)
        if row.state != "in_progress":
            raise SessionError("This attempt is no longer taking answers.")
        _move(row, position, state)
        session.flush()
        return _record(session, row)


def abandon(db: Database, candidate_id: str, attempt_id: str) -> None:
    """Close an unfinished attempt without grading it (a readiness start stays counted)."""
    with db.write() as session:
        row = _locked(session, candidate_id, attempt_id)
        if row.state in OPEN_STATES:
            row.state = "abandoned"


def save_grades(
    db: Database,
    candidate_id: str,
    attempt_id: str,
    grades: Mapping[int, Json],
    *,
    overall: float,
    band: str,
    dimensions: list[Json],
    graded_at: datetime | None = None,
) -> AttemptRecord:
    """Write each answer's grade and the attempt's result, and mark it graded (one transaction)."""
    graded_at = graded_at or utcnow()
    with db.write() as session:
        row = _locked(session, candidate_id, attempt_id)
        if row.state not in ("submitted", "graded"):
            raise SessionError("Only a submitted attempt can be graded.")
        for index, grade in grades.items():
            session.execute(
                update(AnswerRow)
                .where(AnswerRow.attempt_id == attempt_id, AnswerRow.index == index)
                .values(grade=grade, graded_at=graded_at)
            )
        row.state, row.graded_at, row.overall, row.band = "graded", graded_at, overall, band
        row.dimensions = dimensions
        session.flush()
        return _record(session, row)

