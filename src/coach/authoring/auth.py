"""Who may author. Pure: the caller passes who the user is, what the settings allow and the time.

Under OIDC an author is a configured email or subject; in local mode (no login) the user must present the
author token (`COACH_AUTHOR_TOKEN`), compared in constant time. Everyone else, candidates included, is refused.
A local author who presented the token gets a pass (`issue_pass`) that the browser keeps, so a reload does not
ask again: it names the author and its expiry, signed with a key derived from the token, so it never holds the
token and a new token revokes every pass.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
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


PASS_TTL_S = 12 * 3600  # an author's working day; then the token is asked again
MAX_PASS_NAME = 80


def _pass_signature(token: str, name_b64: str, expires: int) -> str:
    key = hmac.new(token.encode(), b"coach-author-pass", hashlib.sha256).digest()
    return hmac.new(key, f"{name_b64}.{expires}".encode(), hashlib.sha256).hexdigest()


def issue_pass(token: str, name: str, now: float, ttl_s: int = PASS_TTL_S) -> str:
    """A pass for the author `name` until now + ttl_s, signed with the author token (cookie-safe characters)."""
    name_b64 = base64.urlsafe_b64encode(name[:MAX_PASS_NAME].encode()).decode().rstrip("=")
    expires = int(now) + ttl_s
    return f"{name_b64}.{expires}.{_pass_signature(token, name_b64, expires)}"


def check_pass(token: str | None, value: str | None, now: float) -> str | None:
    """The author's name when `value` is a pass signed with `token` and not expired; None otherwise."""
    if not token or not value:
        return None
    parts = value.split(".")
    if len(parts) != 3 or not (parts[1].isascii() and parts[1].isdigit()):  # "²".isdigit(), but int("²") fails
        return None
    name_b64, expires, signature = parts[0], int(parts[1]), parts[2]
    if not hmac.compare_digest(signature.encode(), _pass_signature(token, name_b64, expires).encode()):
        return None
    if expires <= now:
        return None
    try:
        return base64.urlsafe_b64decode(name_b64 + "=" * (-len(name_b64) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
