"""Results at /results?attempt=…: graded on the first visit (every answer), stored, shown again on any reload."""

from __future__ import annotations

import streamlit as st

from coach.errors import AttemptNotFound, CoachError
from coach.feedback.coach import CoachFeedback
from coach.feedback.llm import coach_feedback
from coach.service.journey import Candidate
from coach.service.views import GradedAttempt
from coach.session.runner import AttemptKind, AttemptState
from coach.ui import nav, services
from coach.ui.components.results import show_results


def _graded(candidate: Candidate, attempt_id: str) -> GradedAttempt | None:
    journey = services.journey()
    found = journey.result(candidate, attempt_id)
    if found is not None:
        return found
    attempt = journey.open_attempt(candidate, attempt_id)
    if attempt.state == AttemptState.IN_PROGRESS:
        st.info(f"This attempt is still in progress ({attempt.answered} of {len(attempt.items)} answered).")
        name = "check" if attempt.kind == AttemptKind.READINESS else "practice"
        nav.link(name, f"Continue at question {attempt.position + 1}", "▶️", module=attempt.module,
                 attempt=attempt.id)
        return None
    bar = st.progress(0.0, text="Grading…")

    def progress(done: int, total: int, message: str) -> None:
        bar.progress(min(1.0, done / max(total, 1)), text=message)

    graded = journey.submit_and_grade(candidate, attempt_id, progress)
    bar.empty()
    return graded


def _feedback(graded: GradedAttempt) -> CoachFeedback:
    with st.spinner("Writing your coach feedback…"):
        return coach_feedback(graded.card, services.bank(), graded.attempt.module, attempt_id=graded.attempt.id,
                              settings=services.settings(), cache=services.journey().cache("feedback"))


def _share(candidate: Candidate, attempt_id: str) -> None:
    found = nav._optional("coach.ui.components.share")
    if found is not None:
        found.share_controls(candidate, attempt_id)


def render() -> None:
    candidate = nav.candidate()
    attempt_id = st.query_params.get("attempt")
    if not attempt_id:
        st.title("Results")
        st.info("No attempt chosen. Finish a readiness check or a practice test to see its results here.")
        nav.link("home", "Back to the learning path", ":material/route:")
        return
    try:
        graded = _graded(candidate, attempt_id)
    except AttemptNotFound as exc:
        st.title("Results")
        st.warning(f"Attempt not found. {exc}")
        nav.link("home", "Back to the learning path", ":material/route:")
        return
    except CoachError as exc:
        st.title("Results")
        st.error(str(exc))
        return
    if graded is None:
        return
    attempt = graded.attempt
    bank = services.bank()
    kind = "Readiness check" if attempt.kind == AttemptKind.READINESS else "Practice test"
    st.title(f"{kind} results · {bank.modules[attempt.module].title}")
    show_results(graded.card, _feedback(graded), bank)
    _share(candidate, attempt.id)
    st.divider()
    name = "check" if attempt.kind == AttemptKind.READINESS else "practice"
    c1, c2 = st.columns(2)
    with c1:
        nav.link(name, f"Start another {kind.lower()}", ":material/replay:", module=attempt.module)
    with c2:
        nav.link("home", "Back to the learning path", ":material/route:")
