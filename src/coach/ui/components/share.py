"""Share a graded result: create a `?result=<token>` link (the name only if the owner opts in), list, revoke."""

from __future__ import annotations

from urllib.parse import urlsplit

import streamlit as st

from coach.errors import AttemptNotFound, SessionError, StoreUnavailable
from coach.service.journey import Candidate
from coach.ui.services import journey


def app_base_url() -> str:
    """The app's address as the browser sees it ('' when unknown: links then stay relative)."""
    try:
        url = st.context.url
    except Exception:
        url = None
    if url:
        parts = urlsplit(url)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}"
    try:
        host = st.context.headers.get("Host")
    except Exception:
        host = None
    return f"http://{host}" if host else ""


def share_url(token: str, base: str | None = None) -> str:
    return f"{app_base_url() if base is None else base}/?result={token}"


def share_controls(candidate: Candidate, attempt_id: str) -> None:
    """Create, list and revoke share links for one of the candidate's graded attempts."""
    st.subheader("Share this result")
    st.caption(
        "A share link shows the module, date, band, overall score and dimension chart, to anyone who has the "
        "link, without signing in. It never shows your answers or the questions. You can revoke it at any time."
    )
    j = journey()
    try:
        graded = j.result(candidate, attempt_id)  # AttemptNotFound for anyone else's attempt
    except (AttemptNotFound, StoreUnavailable) as exc:
        st.error(str(exc))
        return
    if graded is None:
        st.caption("Only a graded result can be shared.")
        return
    with st.form(f"share-create-{attempt_id}"):
        show_name = st.checkbox(f"Show my name ({candidate.display_name}) on the shared page", value=False)
        create = st.form_submit_button("Create a share link")
    try:
        if create:
            record = j.create_share(candidate, attempt_id, show_name=show_name)
            st.session_state[f"share-new-{attempt_id}"] = record.token
        links = j.shares(candidate, attempt_id)
    except (AttemptNotFound, SessionError, StoreUnavailable) as exc:
        st.error(str(exc))
        return
    newest = st.session_state.get(f"share-new-{attempt_id}")
    if newest and any(s.token == newest and s.active for s in links):
        st.success("Link created. Copy it from the box below (the copy icon is at its top right):")
        st.code(share_url(newest), language=None)
    if not links:
        st.caption("No share links yet.")
        return
    st.markdown("**Your links to this result**")
    for link in links:
        left, right = st.columns([5, 1])
        status = "active" if link.active else f"revoked {link.revoked_at:%Y-%m-%d %H:%M} UTC"
        name = "shows your name" if link.show_name else "no name"
        with left:
            st.markdown(f"`…{link.token[-8:]}` · created {link.created_at:%Y-%m-%d %H:%M} UTC · {name} · {status}")
            if link.active and link.token != newest:
                st.code(share_url(link.token), language=None)
        if link.active and right.button("Revoke", key=f"share-revoke-{link.token}"):
            try:
                j.revoke_share(candidate, link.token)
            except StoreUnavailable as exc:
                st.error(str(exc))
                return
            st.rerun()
