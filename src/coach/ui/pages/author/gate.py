"""The author role gate every author page calls first: it returns who the author is, or renders a refusal.

Under OIDC (`st.user` logged in) the account's email or subject must be a configured author; in local mode the
author token (`COACH_AUTHOR_TOKEN`) is asked for, compared in constant time (`coach.authoring.auth`), and kept
in the session after it matched. With no author configured the studio says how to enable it.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from coach.authoring.auth import AuthorPolicy, author_access
from coach.ui import services

TOKEN_KEY = "author-token"
NAME_KEY = "author-name"
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
    kept = st.session_state.get(TOKEN_KEY)
    if kept is not None:
        if author_access(rules, token=kept).allowed:
            return str(st.session_state.get(NAME_KEY) or "local author")
        del st.session_state[TOKEN_KEY]  # the configured token changed: ask again
    st.title(page_title)
    st.error(f"{REFUSAL} You are not signed in as an author.")
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
            st.session_state[TOKEN_KEY] = token
            st.session_state[NAME_KEY] = name.strip() or "local author"
            st.rerun()
        st.error(access.reason)
    return None
