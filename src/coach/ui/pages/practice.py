"""Practice test at /practice?module=…(&attempt=…): module, difficulty, count and reveal mode; unlimited."""

from __future__ import annotations

import random

import streamlit as st

from coach.content.schema import Difficulty
from coach.errors import CoachError
from coach.service.journey import Candidate
from coach.session.assembly import assemble_practice, estimate_minutes, pool
from coach.session.runner import AttemptKind, Reveal
from coach.ui import nav, services, state
from coach.ui.components.attempt_flow import offer_resume, open_from_url, run_attempt

KIND = AttemptKind.PRACTICE
DIFFICULTIES = {"any": None, "easy": Difficulty.EASY, "medium": Difficulty.MEDIUM, "hard": Difficulty.HARD}
REVEALS = {"after each question": Reveal.EACH, "at the end": Reveal.END}


def _start(candidate: Candidate, module: str, difficulty: str, count: int, reveal: str) -> None:
    try:
        attempt = services.journey().start_practice(candidate, module, count=count,
                                                    difficulty=DIFFICULTIES[difficulty], reveal=REVEALS[reveal])
    except CoachError as exc:
        state.flash("practice", "error", str(exc))
        return
    st.query_params["attempt"] = attempt.id


def _count(asked: int, available: int, difficulty: str) -> int:
    """The number of questions the test will have (0: none can start), saying so when it is not what was asked."""
    if asked < 1:
        st.error("Choose at least one question.")
        return 0
    if asked > available:
        which = "" if difficulty == "any" else f"{difficulty} "
        st.warning(f"Only {available} {which}questions match this topic, so the test will have {available}.")
        return available
    return asked


def render() -> None:
    bank = services.bank()
    candidate = nav.candidate()
    st.title("Practice test")
    attempt = open_from_url(candidate, KIND)
    if attempt is not None:
        st.caption(f"{bank.modules[attempt.module].title} · difficulty {attempt.difficulty or 'any'} · answers "
                   f"revealed {'after each question' if attempt.reveal == Reveal.EACH else 'at the end'}")
        run_attempt(candidate, attempt)
        return
    module_id = nav.module_picker("Topic")
    whole = pool(bank, module_id)
    difficulty = st.segmented_control("Difficulty", list(DIFFICULTIES), default="any", key="practice-diff") or "any"
    available = len(pool(bank, module_id, DIFFICULTIES[difficulty]))
    if not available:
        st.warning(f"No {difficulty} questions in this module yet: choose another difficulty.")
        return
    # No bounds on the widget: Streamlit shows an out-of-range entry only as a red field, keeps the last valid
    # count and starts with that. Here the candidate reads what happens to the number they typed.
    asked = int(st.number_input("Questions", value=min(10, available), step=1,
                                key=f"practice-count-{module_id}-{difficulty}"))
    count = _count(asked, available, difficulty)
    reveal = st.radio("Reveal answers", list(REVEALS), horizontal=True, key="practice-reveal")
    by = {d: sum(1 for i in whole if i.difficulty == d) for d in Difficulty}
    st.caption(f"Pool: {by[Difficulty.EASY]} easy, {by[Difficulty.MEDIUM]} medium, {by[Difficulty.HARD]} hard · "
               f"{available} match this difficulty")
    if count:
        preview = assemble_practice(bank, module_id, DIFFICULTIES[difficulty], count, random.Random(0))
        st.info(f"{count} questions · about {estimate_minutes(preview)} min")
    state.show_flash("practice")
    unfinished = services.journey().current_open_attempt(candidate, module_id, KIND)
    if unfinished is not None:
        offer_resume(candidate, unfinished)
    st.button("Start practice test", type="primary", on_click=_start, disabled=not count,
              args=(candidate, module_id, difficulty, count, reveal))
