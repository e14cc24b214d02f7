"""Who is sitting the check, without Streamlit: local browser keys, OIDC subjects and display names.

Local mode: the browser keeps a key minted here (e.g. in a cookie or the URL); whoever holds the key is that
candidate, so it must be unguessable (`secrets.token_urlsafe`, 192 bits). OIDC mode: the identity is the
issuer and the subject claim (`st.user["iss"]`, `st.user["sub"]`), never the e-mail (it can change hands).
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from enum import StrEnum

LOCAL_KEY_BYTES = 24
_LOCAL_KEY = re.compile(r"^[A-Za-z0-9_-]{32}$")  # token_urlsafe(24) is exactly 32 characters
MAX_NAME = 80
DEFAULT_NAME = "Candidate"


class IdentityMode(StrEnum):
    LOCAL = "local"
    OIDC = "oidc"


def new_local_key() -> str:
    return secrets.token_urlsafe(LOCAL_KEY_BYTES)


def is_local_key(key: str | None) -> bool:
    """True for a key `new_local_key` could have minted (anything else is refused, not looked up)."""
    return bool(key) and _LOCAL_KEY.fullmatch(key or "") is not None


def oidc_identity(subject: str, issuer: str | None = None) -> str:
    """One string per OIDC account: `issuer|subject` (the subject alone is unique only within its issuer)."""
    subject = subject.strip()
    if not subject:
        raise ValueError("the OIDC subject claim is empty")
    return f"{issuer.strip()}|{subject}" if issuer and issuer.strip() else subject


def clean_display_name(name: str | None) -> str:
    """A name fit to show: control and format characters removed, spaces collapsed, at most 80 characters."""
    kept = "".join(ch for ch in (name or "") if unicodedata.category(ch)[0] != "C")
    kept = " ".join(kept.split())[:MAX_NAME].strip()
    return kept or DEFAULT_NAME
