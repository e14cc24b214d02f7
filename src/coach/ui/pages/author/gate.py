"""The author role gate every author page calls first: it returns who the author is, or renders a refusal.

Under OIDC (`st.user` logged in) the account's email or subject must be a configured author; in local mode the
author token (`COACH_AUTHOR_TOKEN`) is asked for and compared in constant time (`coach.authoring.auth`). After it
matched, the session and a cookie keep a signed pass, never the token, so a reload or a reconnect does not ask
again until the pass expires, the token changes or the author leaves the studio. With no author configured the
studio says how to enable it.
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from coach.authoring.auth import PASS_TTL_S, AuthorPolicy, author_access, check_pass, issue_pass
from coach.ui import services
from coach.ui.cookies import read_cookie, write_cookie
from coach.ui.identity import oidc_configured, sign_in_buttons

PASS_KEY = "author-pass"  # this session's pass (tests may seed one with issue_pass)
PASS_COOKIE = "coach_author_pass"
_LEFT = "_coach_author_left"  # ignore the (stale) pass cookie this session was opened with
REFUSAL = "The authoring studio is for authors."


def policy() -> AuthorPolicy:
    s = services.settings()
    return AuthorPolicy.of(s.author_email_list, s.author_subject_list, s.author_token)


def _oidc_user() -> tuple[str | None, str | None]:
    """(email, subject) of the logged-in OIDC user, or (None, None) in local mode."""
    try:
        user: Any = st.user
        if not user.get("is_logged_in", False):
            return None, None
        return user.get("email"), user.get("sub")
    except Exception:  # no auth configured: some Streamlit versions raise here
        return None, None


def require_author(page_title: str) -> str | None:
    """The author's name for the review log, or None after rendering why the page is not shown."""
    rules = policy()
    if not (rules.emails or rules.subjects or rules.token):
        st.title(page_title)
        st.warning(f"{REFUSAL} No author is configured, so the studio is closed.")
        st.markdown(
            "To enable it, set **`COACH_AUTHOR_TOKEN`** (local mode: authors type the token here) or, with an "
            "OIDC login configured, **`COACH_AUTHOR_EMAILS`** / **`COACH_AUTHOR_SUBJECTS`** (comma-separated)."
        )
        return None
    email, subject = _oidc_user()
    if email or subject:
        access = author_access(rules, email=email, subject=subject)
        if access.allowed:
            return str(email or subject)
        st.title(page_title)
        st.error(f"{REFUSAL} {access.reason}")
        return None
    author = _kept_author(rules.token)
    if author is not None:
        return author
    st.title(page_title)
    st.error(f"{REFUSAL} You are not signed in as an author.")
    if oidc_configured():
        sign_in_buttons()
    if not rules.token:
        st.info("Authors sign in with their account (OIDC); this coach has no author token for local mode.")
        return None
    with st.form("author-gate"):
        token = st.text_input("Author token", type="password", key="author-token-input")
        name = st.text_input("Your name (for the review log)", key="author-name-input")
        entered = st.form_submit_button("Enter the studio")
    if entered:
        access = author_access(rules, token=token)
        if access.allowed:
            st.session_state[PASS_KEY] = issue_pass(token, name.strip() or "local author", time.time())
            st.session_state.pop(_LEFT, None)
            st.rerun()  # the next run shows the page and writes the cookie
        st.error(access.reason)
    return None


def _kept_author(token: str | None) -> str | None:
    """The author named by this session's pass or, after a reload, by the browser's (writing the cookie when it
    differs); None when neither is a valid pass."""
    now = time.time()
    kept = st.session_state.get(PASS_KEY)
    cookie = None if st.session_state.get(_LEFT) else read_cookie(PASS_COOKIE)
    if (name := check_pass(token, kept, now)) is None and (name := check_pass(token, cookie, now)) is not None:
        kept = st.session_state[PASS_KEY] = cookie  # a reload or reconnect: the browser kept the pass
    if name is None:
        st.session_state.pop(PASS_KEY, None)  # expired, or the configured token changed: ask again
        if cookie is not None or st.session_state.get(_LEFT):
            write_cookie(PASS_COOKIE, None, 0)
        return None
    if cookie != kept:
        write_cookie(PASS_COOKIE, kept, PASS_TTL_S)
    if st.sidebar.button("Leave the studio", key="author-leave", help="Sign out of the authoring studio"):
        st.session_state.pop(PASS_KEY, None)
        st.session_state[_LEFT] = True
        st.rerun()
    return name
