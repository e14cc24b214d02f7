"""An attempt named by `?attempt=`: opened through the Journey (the database), resumed, answered, abandoned.

Nothing about an attempt lives only in the browser session but an answer the database could not take yet
(kept as a PendingAnswer and written on a later run).
"""

from __future__ import annotations

from typing import NoReturn

import streamlit as st

from coach.errors import AttemptNotFound, CoachError, StoreUnavailable
from coach.service.journey import Candidate
from coach.session.runner import Attempt, AttemptKind, AttemptState
from coach.ui import nav, services, state
from coach.ui.components.question import show_question


def open_from_url(candidate: Candidate, kind: AttemptKind) -> Attempt | None:
    """The attempt `?attempt=` names, if it is this candidate's and of this kind; else a plain message, None."""
    attempt_id = st.query_params.get("attempt")
    if not attempt_id:
        return None
    try:
        attempt = services.journey().open_attempt(candidate, attempt_id)
    except AttemptNotFound as exc:
        st.warning(f"Attempt not found. {exc}")
        return None
    except StoreUnavailable as exc:
        seen = state.last_seen(attempt_id)
        if seen is None or state.pending(attempt_id) is not None:
            _database_down(exc, attempt_id)
        # the question on screen stays answerable: its answer is kept in this tab until the database is back
        st.warning("The database is not reachable right now. You can go on answering: what you submit is kept "
                   "in this tab and saved when the database is back.")
        return seen
    state.remember(attempt)
    if attempt.kind != kind:
        nav.go("check" if attempt.kind == AttemptKind.READINESS else "practice", module=attempt.module,
               attempt=attempt.id)
    return attempt


def _database_down(exc: StoreUnavailable, attempt_id: str) -> NoReturn:
    """The database cannot even open the attempt: say so, show what is kept in this tab, offer a retry."""
    kept = state.pending(attempt_id)
    if kept is None:
        st.error("The database is not reachable right now. The answers you submitted before are safe in it; "
                 "try again in a moment.")
    else:
        st.error(str(exc))
        if kept.text:
            st.text_area(f"Your kept answer to question {kept.index + 1}", kept.text, disabled=True,
                         key=f"kept-{attempt_id}-{kept.index}")
        else:
            st.caption(f"Your answer to question {kept.index + 1} is kept in this tab.")
    st.button("Try again", key=f"retry-{attempt_id}")
    st.stop()


def _flush(candidate: Candidate, attempt: Attempt) -> Attempt:
    """Write the answer kept while the database was down, if there is one and it is back."""
    kept = state.pending(attempt.id)
    if kept is None:
        return attempt
    try:
        attempt = services.journey().flush_pending(candidate, kept)
    except StoreUnavailable as exc:
        _database_down(exc, attempt.id)
    except CoachError as exc:
        st.error(f"Your kept answer to question {kept.index + 1} could not be saved: {exc}")
    state.drop_pending(attempt.id)
    st.success(f"Your answer to question {kept.index + 1} is saved.")
    return attempt


def _abandon(candidate: Candidate, attempt: Attempt) -> None:
    try:
        services.journey().abandon(candidate, attempt.id)
    except CoachError as exc:
        state.flash(attempt.id, "error", str(exc))
        return
    st.query_params.pop("attempt", None)


def run_attempt(candidate: Candidate, attempt: Attempt) -> None:
    """Show the question the candidate is on; once every question is answered, go to the results page."""
    attempt = _flush(candidate, attempt)
    if attempt.state != AttemptState.IN_PROGRESS:
        nav.go("results", attempt=attempt.id)
    services.prepare_in_background(attempt)  # grade ahead: Submit finds the targets and answers encoded
    show_question(candidate, attempt)
    st.divider()
    st.button("Abandon this attempt", key=f"abandon-{attempt.id}", on_click=_abandon, args=(candidate, attempt),
              help="Closes it ungraded. A readiness check you abandon still counts against today's limit.")


def _resume(attempt_id: str) -> None:
    st.query_params["attempt"] = attempt_id


def offer_resume(candidate: Candidate, open_attempt: Attempt) -> None:
    """An unfinished attempt of this module: resume it at its question, or start over (abandons it)."""
    n = len(open_attempt.items)
    st.info(f"You have an unfinished attempt: {open_attempt.answered} of {n} answered, started "
            f"{open_attempt.started:%Y-%m-%d %H:%M} UTC.")
    c1, c2 = st.columns(2)
    c1.button(f"Resume at question {min(open_attempt.position + 1, n)}", type="primary",
              key=f"resume-{open_attempt.id}", on_click=_resume, args=(open_attempt.id,))
    c2.button("Start over", key=f"over-{open_attempt.id}", on_click=_abandon, args=(candidate, open_attempt),
              help="Abandons the unfinished attempt (ungraded) so you can start a new one.")
