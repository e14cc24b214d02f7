"""Share links: an unguessable token (secrets.token_urlsafe(32), 256 bits) naming one graded attempt."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from coach.errors import AttemptNotFound
from coach.store.db import Database
from coach.store.models import AttemptRow, Candidate, ShareLink, utcnow
from coach.store.records import Json, ShareRecord

TOKEN_BYTES = 32


def create(db: Database, candidate_id: str, attempt_id: str, show_name: bool) -> ShareRecord:
    with db.write() as session:
        owned = session.scalar(
            select(AttemptRow.id).where(AttemptRow.id == attempt_id, AttemptRow.candidate_id == candidate_id)
        )
        if owned is None:
            raise AttemptNotFound("No such attempt for you: only your own results can be shared.")
        row = ShareLink(token=secrets.token_urlsafe(TOKEN_BYTES), attempt_id=attempt_id, show_name=show_name)
        session.add(row)
        session.flush()
        return ShareRecord.of(row)


def revoke(db: Database, candidate_id: str, token: str) -> bool:
    """Revoke one of this candidate's links; False if there is no such link of theirs."""
    with db.write() as session:
        row = session.scalars(
            select(ShareLink)
            .join(AttemptRow, AttemptRow.id == ShareLink.attempt_id)
            .where(ShareLink.token == token, AttemptRow.candidate_id == candidate_id)
        ).one_or_none()
        if row is None:
            return False
        if row.revoked_at is None:
            row.revoked_at = utcnow()
        return True


def for_attempt(db: Database, candidate_id: str, attempt_id: str) -> list[ShareRecord]:
    with db.read() as session:
        rows = session.scalars(
            select(ShareLink)
            .join(AttemptRow, AttemptRow.id == ShareLink.attempt_id)
            .where(ShareLink.attempt_id == attempt_id, AttemptRow.candidate_id == candidate_id)
            .order_by(ShareLink.created_at)
        )
        return [ShareRecord.of(r) for r in rows]


@dataclass(frozen=True)
class SharedRecord:
    """What an active link may reveal: result columns of the attempt and the owner's name if opted in."""

    module: str
    state: str
    at: datetime  # graded, else submitted, else started
    overall: float | None
    band: str | None
    dimensions: tuple[Json, ...] | None
    name: str | None


def resolve(db: Database, token: str) -> SharedRecord | None:
    """The active link's result, read column by column (answers and items are never loaded); None if unknown
    or revoked."""
    with db.read() as session:
        found = session.execute(
            select(
                AttemptRow.module, AttemptRow.state, AttemptRow.started_at, AttemptRow.submitted_at,
                AttemptRow.graded_at, AttemptRow.overall, AttemptRow.band, AttemptRow.dimensions,
                ShareLink.show_name, Candidate.display_name,
            )
            .join(AttemptRow, AttemptRow.id == ShareLink.attempt_id)
            .join(Candidate, Candidate.id == AttemptRow.candidate_id)
            .where(ShareLink.token == token, ShareLink.revoked_at.is_(None))
        ).one_or_none()
        if found is None:
            return None
        module, state, started, submitted, graded, overall, band, dims, show_name, name = found
        return SharedRecord(module=module, state=state, at=graded or submitted or started, overall=overall,
                            band=band, dimensions=tuple(dims) if dims is not None else None,
                            name=name if show_name else None)
