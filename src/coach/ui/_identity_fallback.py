"""A minimal local identity until coach.ui.identity (helper "journey") lands: one candidate per browser, by cookie.

The key lives in a cookie (read back through st.context.cookies on every new connection, so a reload or a new
tab is the same candidate); a browser without one gets a fresh key.
"""

from __future__ import annotations

import streamlit as st

from coach.service.identity import is_local_key, new_local_key
from coach.service.journey import Candidate
from coach.ui import services
from coach.ui.state import CANDIDATE_KEY

COOKIE = "coach_local_key"


def _key() -> str:
    key = st.session_state.get(CANDIDATE_KEY)
    if is_local_key(key):
        return str(key)
    cookie = st.context.cookies.get(COOKIE)
    cookie = cookie if isinstance(cookie, str) else None  # no cookies at all in AppTest
    key = str(cookie) if is_local_key(cookie) else new_local_key()
    st.session_state[CANDIDATE_KEY] = key
    if key != cookie:  # the key is URL-safe base64: nothing to escape
        st.html(
            f"<script>document.cookie = '{COOKIE}={key}; path=/; max-age=31536000; SameSite=Lax';</script>",
            unsafe_allow_javascript=True,
        )
    return key


def current_candidate() -> Candidate | None:
    return services.journey().local_candidate(_key())


def identity_sidebar() -> None:
    st.sidebar.caption("Local mode: your attempts are kept for this browser only.")
