"""Shareable results: a link `?result=<token>` that shows a graded attempt's headline and nothing else.

The public view is built from the attempt's result columns only (module, date, band, overall, dimension
scores) and the owner's name when they opted in: the store's share query never reads answers or items.
"""

from __future__ import annotations

from coach.content.bank import Bank
from coach.errors import AttemptNotFound, SessionError
from coach.service import convert
from coach.service.views import SharedResult
from coach.store import attempts as store_attempts
from coach.store import shares as store_shares
from coach.store.db import Database
from coach.store.records import CandidateRecord
from coach.store.records import ShareRecord as ShareLinkInfo


def create_share(db: Database, candidate: CandidateRecord, attempt_id: str, show_name: bool) -> ShareLinkInfo:
    """A new link to one of this candidate's graded attempts (AttemptNotFound for anyone else's)."""
    record = store_attempts.load_attempt(db, candidate.id, attempt_id)
    if record is None:
        raise AttemptNotFound("No such attempt for you: only your own results can be shared.")
    if record.state != "graded":
        raise SessionError("Only a graded result can be shared.")
    return store_shares.create(db, candidate.id, attempt_id, show_name)


def revoke_share(db: Database, candidate: CandidateRecord, token: str) -> bool:
    return store_shares.revoke(db, candidate.id, token)


def shares_for(db: Database, candidate: CandidateRecord, attempt_id: str) -> list[ShareLinkInfo]:
    return store_shares.for_attempt(db, candidate.id, attempt_id)


def open_share(db: Database, bank: Bank, token: str) -> SharedResult | None:
    """The public view of an active link, or None (unknown, revoked, malformed or not graded)."""
    if not token or len(token) > 64:
        return None
    found = store_shares.resolve(db, token)
    if found is None:
        return None
    if found.state != "graded" or found.overall is None or found.band is None:
        return None
    return SharedResult(
        module=found.module,
        module_title=_title(bank, found.module),
        date=found.at,
        band=found.band,
        overall=found.overall,
        dimensions=convert.dimensions_of(found.dimensions),
        name=found.name,
    )

def _title(bank: Bank, module: str) -> str:
    return bank.modules[module].title if module in bank.modules else module
