"""Browser cookies. Streamlit reads the cookies a session was opened with (`st.context.cookies`), so a cookie
written now is read from the next session on. Writing one files a one-time grant and renders a line of
JavaScript that posts the grant's token to the server's cookie route, whose answer sets the cookie HttpOnly:
the page's scripts can neither read the value nor find it in the page."""

from __future__ import annotations

import json

import streamlit as st

from coach.ui.cookie_grants import GRANTS, CookieGrant
from coach.ui.cookie_route import configured_base, cookie_url

_ISSUED = "_coach_cookie_grants"  # name -> (value, token) filed by this session


def cookie_script(token: str, base: str = "") -> str:
    """The script that redeems grant `token` at the cookie route of an app served under `base` (same origin, so
    the answer's cookie is kept)."""
    # once per page: a rerun or a page switch may mount the same element again, and a used grant is refused
    return (
        "<script>(function(){var t=" + json.dumps(token) + ",d=window.__coachCookieGrants="
        "window.__coachCookieGrants||{};if(d[t]){return;}d[t]=1;fetch(" + json.dumps(cookie_url(base)) + ","
        "{method:'POST',credentials:'same-origin',headers:{'Content-Type':'application/json'},"
        "body:JSON.stringify({grant:t,secure:location.protocol==='https:'})});})();</script>"
    )


def write_cookie(name: str, value: str | None, max_age_s: int) -> None:
    """Set (or, with None, delete) cookie `name`, once per session and value: callers may call it on every run.
    The script is rendered until the page has posted the grant; a grant that expired unposted is filed again."""
    issued: dict[str, tuple[str | None, str]] = st.session_state.setdefault(_ISSUED, {})
    status = GRANTS.status(issued[name][1]) if name in issued and issued[name][0] == value else "unknown"
    if status == "redeemed":
        return
    if status == "unknown":
        issued[name] = (value, GRANTS.issue(CookieGrant(name, value, max_age_s)))
    st.html(cookie_script(issued[name][1], configured_base()), unsafe_allow_javascript=True, width="content")


def read_cookie(name: str) -> str | None:
    """The cookie this session was opened with, or None (also with no request context, as in bare script runs)."""
    try:
        value = st.context.cookies.get(name)
    except Exception:
        return None
    return value if isinstance(value, str) and value else None
