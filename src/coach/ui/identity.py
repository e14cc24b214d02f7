"""Who is sitting the check: Streamlit's OIDC login when `[auth]` is configured, else local mode (one
candidate per browser, a display name they choose, the key kept in a cookie so closing the browser loses
nothing). Pages call `current_candidate()` and `st.stop()` on None; `identity_sidebar()` shows who it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from coach.errors import StoreUnavailable
from coach.service.identity import MAX_NAME, is_local_key, new_local_key, oidc_identity
from coach.service.journey import Candidate
from coach.ui.cookies import read_cookie, write_cookie
from coach.ui.services import journey
from coach.ui.state import CANDIDATE_KEY

COOKIE = "coach_local_key"
COOKIE_MAX_AGE_S = 400 * 24 * 3600  # the longest Chromium keeps a cookie
_KEY = CANDIDATE_KEY  # this session's local key (tests may seed it to skip the name form)
_CANDIDATE = "_coach_candidate"  # the Candidate record, cached for the session
_FORGOTTEN = "_coach_forgot_browser"  # ignore the (stale) cookie this session was opened with
LOCAL_MODE_NOTE = (
    "**Local mode**: no sign-in is configured on this server, so this browser is your identity. "
    "A cookie keeps your attempts with you when you close the browser and come back; another browser, "
    "a private window or clearing cookies starts a new candidate."
)


# -- mode -------------------------------------------------------------------------------------------------
def _auth_section() -> Mapping[str, Any] | None:
    try:
        section = st.secrets.get("auth")
    except Exception:  # no secrets file at all: local mode
        return None
    return section if isinstance(section, Mapping) and section else None


def oidc_configured() -> bool:
    return _auth_section() is not None


def _providers(section: Mapping[str, Any]) -> list[str | None]:
    """`[auth]` with a client_id is the default provider; `[auth.<name>]` tables are named ones."""
    named: list[str | None] = [k for k, v in section.items() if isinstance(v, Mapping)]
    return [None] if "client_id" in section or not named else named


# -- the cookie -------------------------------------------------------------------------------------------
def _write_cookie(value: str | None) -> None:
    write_cookie(COOKIE, value, COOKIE_MAX_AGE_S)


def _cookie_key() -> str | None:
    if st.session_state.get(_FORGOTTEN):
        return None
    value = read_cookie(COOKIE)
    return value if value is not None and is_local_key(value) else None


# -- the candidate ----------------------------------------------------------------------------------------
def current_candidate() -> Candidate | None:
    """The signed-in or local candidate; None after rendering the login button or the name form."""
    try:
        return _oidc_candidate() if oidc_configured() else _local_candidate()
    except StoreUnavailable as exc:
        st.error(str(exc))
        return None


def sign_in_buttons() -> None:
    """One button per configured OIDC provider; a click sends the browser to the provider's login."""
    for provider in _providers(_auth_section() or {}):
        label = "Sign in" if provider is None else f"Sign in with {provider}"
        if st.button(label, key=f"coach-login-{provider or 'default'}", type="primary"):
            st.login(provider)


def _oidc_candidate() -> Candidate | None:
    if not st.user.is_logged_in:
        st.session_state.pop(_CANDIDATE, None)
        st.subheader("Sign in")
        st.write("Sign in to keep your readiness checks, progress and share links with your account.")
        sign_in_buttons()
        return None
    sub, iss = str(st.user.get("sub") or ""), st.user.get("iss")
    issuer = str(iss) if iss else None
    cached = st.session_state.get(_CANDIDATE)
    if isinstance(cached, Candidate) and cached.mode == "oidc" and cached.identity == oidc_identity(sub, issuer):
        return cached
    name = st.user.get("name") or st.user.get("email")
    found = journey().oidc_candidate(sub, str(name) if name else None, issuer=issuer)
    st.session_state[_CANDIDATE] = found
    return found


def _local_candidate() -> Candidate | None:
    key = st.session_state.get(_KEY)
    if key is None and (from_cookie := _cookie_key()) is not None:
        key = st.session_state[_KEY] = from_cookie
    if key is not None:
        cached = st.session_state.get(_CANDIDATE)
        if not (isinstance(cached, Candidate) and cached.identity == key):
            cached = st.session_state[_CANDIDATE] = journey().local_candidate(key)
        # once a session: sets it HttpOnly where an older page wrote it from script, and the 400 days run
        # from the last visit, not the first
        _write_cookie(key)
        return cached
    if st.session_state.get(_FORGOTTEN):
        _write_cookie(None)
    _name_form()
    return None


def _name_form() -> None:
    st.subheader("Welcome")
    st.info(LOCAL_MODE_NOTE)
    with st.form("coach-choose-name"):
        name = st.text_input("Your display name", max_chars=MAX_NAME, placeholder="e.g. Ada")
        chosen = st.form_submit_button("Continue", type="primary")
    if not chosen:
        return None
    if not name.strip():
        st.error("Type a display name (any name you like; it is only shown to you, and on share links you opt in).")
        return None
    key = new_local_key()
    candidate = journey().local_candidate(key, name)
    st.session_state[_KEY] = key
    st.session_state[_CANDIDATE] = candidate
    st.session_state.pop(_FORGOTTEN, None)
    st.rerun()  # redraw with the candidate everywhere (the sidebar ran before this form); that run sets the cookie


# -- sidebar ----------------------------------------------------------------------------------------------
def _known_candidate() -> Candidate | None:
    """The candidate this session already names (cached, the cookie's or the signed-in one), rendering nothing."""
    cached = st.session_state.get(_CANDIDATE)
    if isinstance(cached, Candidate):
        return cached
    try:
        if oidc_configured():
            return _oidc_candidate() if st.user.is_logged_in else None
        key = st.session_state.get(_KEY) or _cookie_key()
        if key is None:
            return None
        found = st.session_state[_CANDIDATE] = journey().local_candidate(key)
        st.session_state[_KEY] = key
        return found
    except StoreUnavailable:
        return None  # the page itself says the database is down


def identity_sidebar() -> None:
    """Who is signed in, the local-mode notice, rename, and sign out / forget this browser."""
    candidate = _known_candidate()
    if candidate is None:
        return
    with st.sidebar:
        local = candidate.mode == "local"
        st.markdown(f"Signed in as **{candidate.display_name}**" + (" · local mode" if local else ""))
        if local:
            st.caption("Local mode: this browser is your identity (kept in a cookie).")
        with st.popover("Rename"), st.form("coach-rename"):
            new_name = st.text_input("Display name", value=candidate.display_name, max_chars=MAX_NAME)
            if st.form_submit_button("Save name"):
                _rename(candidate, new_name)
        if local:
            if st.button("Forget this browser", key="coach-forget",
                         help="Start again as a new candidate here; your attempts stay on the server, "
                              "but this browser no longer opens them."):
                _forget_browser()
        elif st.button("Sign out", key="coach-logout"):
            st.session_state.pop(_CANDIDATE, None)
            # st.logout sends the browser to Streamlit's logout endpoint, which deletes the login cookie (and
            # follows the provider's logout). Stop, not rerun: a rerun dropped that redirect, and the next load
            # was signed in again (the browser test found it)
            st.logout()
            st.stop()


def _rename(candidate: Candidate, new_name: str) -> None:
    if not new_name.strip():
        st.error("A display name cannot be empty.")
        return
    try:
        st.session_state[_CANDIDATE] = journey().rename(candidate, new_name)
    except StoreUnavailable as exc:
        st.error(str(exc))
        return
    st.rerun()


def _forget_browser() -> None:
    for k in (_KEY, _CANDIDATE):
        st.session_state.pop(k, None)
    st.session_state[_FORGOTTEN] = True
    st.rerun()
