"""Readiness check at /check?module=…(&attempt=…): 10 questions drawn by a blueprint that measures every dimension."""

from __future__ import annotations

import random

import streamlit as st

from coach.errors import CoachError, RetakeLimitReached
from coach.service.journey import Candidate
from coach.session.assembly import READINESS, assemble_readiness, estimate_minutes
from coach.session.runner import AttemptKind
from coach.ui import nav, services, state
from coach.ui.components.attempt_flow import offer_resume, open_from_url, run_attempt
from coach.vocab import Dimension

KIND = AttemptKind.READINESS


def _retakes_notice(candidate: Candidate, module: str) -> bool:
    """helper "journey"'s notice when it is there; else the same facts, plainly."""
    found = nav._optional("coach.ui.components.retakes")
    if found is not None:
        return bool(found.retakes_notice(candidate, module))
    left = services.journey().retakes_left(candidate, module)
    if left.remaining:
        st.caption(f"{left.remaining} of {left.limit} readiness checks left in the last {left.window_hours:g} h.")
        return True
    when = f" The next opens at {left.next_open_at:%Y-%m-%d %H:%M} UTC." if left.next_open_at else ""
    st.warning(f"You have used all {left.limit} readiness checks for this module in the last "
               f"{left.window_hours:g} hours.{when}")
    return False


def _start(candidate: Candidate, module: str) -> None:
    try:
        attempt = services.journey().start_readiness(candidate, module)
    except RetakeLimitReached as exc:
        state.flash("check", "warning", str(exc))
        return
    except CoachError as exc:
        state.flash("check", "error", str(exc))
        return
    st.query_params["attempt"] = attempt.id


def render() -> None:
    bank = services.bank()
    candidate = nav.candidate()
    st.title("Readiness check")
    attempt = open_from_url(candidate, KIND)
    if attempt is not None:
        st.caption(f"{bank.modules[attempt.module].title} · answers and feedback at the end")
        run_attempt(candidate, attempt)
        return
    module_id = nav.module_picker()
    module = bank.modules[module_id]
    st.write(f"{READINESS.size} questions on **{module.title}**, multiple choice and short answer, chosen so "
             "that every dimension is measured:")
    st.markdown("\n".join(f"- {d.label}" for d in Dimension))
    preview = assemble_readiness(bank, module_id, random.Random(0))
    st.info(f"About {estimate_minutes(preview)} min · results with dimension scores and coach feedback · "
            "retakes draw new questions")
    state.show_flash("check")
    unfinished = services.journey().current_open_attempt(candidate, module_id, KIND)
    if unfinished is not None:
        offer_resume(candidate, unfinished)
        return
    if _retakes_notice(candidate, module_id):
        st.button("Start the readiness check", type="primary", on_click=_start, args=(candidate, module_id))
    nav.link("module", f"About {module.title}", ":material/menu_book:", id=module_id)
