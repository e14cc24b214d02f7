"""Drive an attempt held in session state: question by question, then grading with progress, then results."""

from __future__ import annotations

import streamlit as st

from coach.content.bank import Bank
from coach.feedback.coach import template_feedback
from coach.grading.attempt import grade_attempt
from coach.session.runner import Attempt, AttemptState, mark_graded
from coach.ui import services
from coach.ui.components.question import show_question
from coach.ui.components.results import show_results


def attempt_key(kind: str) -> str:
    return f"attempt:{kind}"


def current_attempt(kind: str) -> Attempt | None:
    """The attempt in this browser session, or the one named in the URL after a reload."""
    attempt = st.session_state.get(attempt_key(kind))
    if attempt is None:
        wanted = st.query_params.get("attempt")
        if wanted:
            found = services.attempt_files().load(wanted)
            if found is not None and found.kind.value == kind and found.state != AttemptState.GRADED:
                st.session_state[attempt_key(kind)] = found
                st.toast("Picked up your attempt where you left it.")
                return found
            if found is None:
                st.warning("That attempt could not be found (it may have expired). Start a new one below.")
            del st.query_params["attempt"]
    return attempt


def store(kind: str, attempt: Attempt) -> None:
    st.session_state[attempt_key(kind)] = attempt
    services.attempt_files().save(attempt)  # before grading: an answer is never lost to a crash
    st.query_params["attempt"] = attempt.id


def discard(kind: str) -> None:
    st.session_state.pop(attempt_key(kind), None)
    st.session_state.pop(f"card:{kind}", None)
    if "attempt" in st.query_params:
        del st.query_params["attempt"]


def run_attempt(kind: str, attempt: Attempt, bank: Bank) -> None:
    if attempt.state == AttemptState.IN_PROGRESS:
        services.grader()  # load the model now (cached), so grading at the end does not wait for it
        updated = show_question(attempt, bank)
        if updated is not attempt:
            store(kind, updated)
            st.rerun()
        if st.button("Abandon this attempt", key=f"abandon-{attempt.id}"):
            discard(kind)
            st.rerun()
        return
    card_key = f"card:{kind}"
    if attempt.state == AttemptState.SUBMITTED or card_key not in st.session_state:
        bar = st.progress(0.0, text="Grading…")

        def progress(done: int, total: int, message: str) -> None:
            bar.progress(min(1.0, done / max(total, 1)), text=message)

        card = grade_attempt(attempt, bank, services.grader(), services.judge_review(), progress)
        bar.empty()
        st.session_state[card_key] = card
        if attempt.state == AttemptState.SUBMITTED:
            attempt = mark_graded(attempt)
            store(kind, attempt)
    card = st.session_state[card_key]
    show_results(card, template_feedback(card, bank, attempt.module), bank)
    if st.button("Start another", type="primary", key=f"again-{attempt.id}"):
        discard(kind)
        st.rerun()
