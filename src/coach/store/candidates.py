"""Candidates: one row per identity (an OIDC subject, or a local browser key) and mode."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from coach.store.db import Database
from coach.store.models import Candidate
from coach.store.records import CandidateRecord


def get_or_create(db: Database, mode: str, identity: str, display_name: str) -> CandidateRecord:
    """The candidate with this identity, created with `display_name` on first sight (races resolve to one row)."""
    found = find(db, mode, identity)
    if found is not None:
        return found
    try:
        with db.write() as session:
            row = Candidate(id=uuid.uuid4().hex, mode=mode, identity=identity, display_name=display_name)
            session.add(row)
            session.flush()
            return CandidateRecord.of(row)
    except IntegrityError:  # another request created it first
        again = find(db, mode, identity)
        assert again is not None
        return again


def find(db: Database, mode: str, identity: str) -> CandidateRecord | None:
    with db.read() as session:
        row = session.scalars(select(Candidate).where(Candidate.mode == mode, Candidate.identity == identity))
        found = row.one_or_none()
        return None if found is None else CandidateRecord.of(found)


def get(db: Database, candidate_id: str) -> CandidateRecord | None:
    with db.read() as session:
        row = session.get(Candidate, candidate_id)
        return None if row is None else CandidateRecord.of(row)


def rename(db: Database, candidate_id: str, display_name: str) -> CandidateRecord:
    with db.write() as session:
        row = session.get(Candidate, candidate_id)
        if row is None:
            raise LookupError(f"unknown candidate {candidate_id!r}")
        row.display_name = display_name
        return CandidateRecord.of(row)
