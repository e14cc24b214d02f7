"""Browser cookies. Streamlit reads the cookies a session was opened with (`st.context.cookies`); writing one
needs a line of JavaScript in the page, so a cookie written now is read from the next session on."""

from __future__ import annotations

import json

import streamlit as st


def cookie_script(name: str, value: str | None, max_age_s: int) -> str:
    """The script that sets cookie `name` to `value` for `max_age_s` seconds, or deletes it (`value` None)."""
    attrs = f"path=/; SameSite=Lax; Max-Age={max_age_s if value else 0}"
    assignment = f"{name}={value or ''}; {attrs}"
    return (
        "<script>(function(){var c=" + json.dumps(assignment) + ";"
        "if(location.protocol==='https:'){c+='; Secure';}document.cookie=c;})();</script>"
    )


def write_cookie(name: str, value: str | None, max_age_s: int) -> None:
    st.html(cookie_script(name, value, max_age_s), unsafe_allow_javascript=True, width="content")


def read_cookie(name: str) -> str | None:
    """The cookie this session was opened with, or None (also with no request context, as in bare script runs)."""
    try:
        value = st.context.cookies.get(name)
    except Exception:
        return None
    return value if isinstance(value, str) and value else None
