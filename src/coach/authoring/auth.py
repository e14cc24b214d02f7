"""Who may author. Pure: the caller passes who the user is and what the settings allow.

Under OIDC an author is a configured email or subject; in local mode (no login) the user must present the
author token (`COACH_AUTHOR_TOKEN`), compared in constant time. Everyone else, candidates included, is refused.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class AuthorPolicy:
    emails: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    token: str | None = None

    @classmethod
    def of(cls, emails: Iterable[str] = (), subjects: Iterable[str] = (), token: str | None = None) -> AuthorPolicy:
        return cls(frozenset(e.strip().lower() for e in emails if e.strip()),
                   frozenset(s.strip() for s in subjects if s.strip()), token or None)


@dataclass(frozen=True)
class Access:
    allowed: bool
    reason: str  # shown on a refusal; says how to get in, never what the token is


def author_access(policy: AuthorPolicy, *, email: str | None = None, subject: str | None = None,
                  token: str | None = None) -> Access:
    if email and email.strip().lower() in policy.emails:
        return Access(True, f"author {email}")
    if subject and subject in policy.subjects:
        return Access(True, f"author {subject}")
    if policy.token and token is not None and hmac.compare_digest(token.encode(), policy.token.encode()):
        return Access(True, "author token")
    if email or subject:
        return Access(False, "This account is not an author. Authors are listed in the coach's settings.")
    if policy.token:
        return Access(False, "Author pages need the author token." if token is None else "That author token is wrong.")
    return Access(False, "No author is configured (set COACH_AUTHOR_EMAILS or COACH_AUTHOR_TOKEN).")
