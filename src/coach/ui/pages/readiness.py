"""Readiness check: 10 questions drawn by a blueprint that measures every dimension."""

from __future__ import annotations

import random

import streamlit as st

from coach.errors import CoachError
from coach.session.assembly import READINESS, assemble_readiness, estimate_minutes
from coach.session.runner import AttemptKind, Reveal, start
from coach.ui import services
from coach.ui.components.attempt_flow import current_attempt, run_attempt, store
from coach.ui.router import module_choice
from coach.vocab import Dimension

KIND = AttemptKind.READINESS.value


def render() -> None:
    bank = services.bank()
    st.title("Readiness check")
    attempt = current_attempt(KIND)
    if attempt is not None:
        st.caption(f"{bank.modules[attempt.module].title} · answers and feedback at the end")
        run_attempt(KIND, attempt, bank)
        return
    module_id = module_choice()
    module = bank.modules[module_id]
    st.write(
        f"{READINESS.size} questions on **{module.title}**, multiple choice and short answer, chosen so "
        "that every dimension is measured:"
    )
    st.markdown("\n".join(f"- {d.label}" for d in Dimension))
    preview = assemble_readiness(bank, module_id, random.Random(0))
    st.info(
        f"About {estimate_minutes(preview)} min · results with dimension scores and coach feedback · "
        "retakes draw new questions"
    )
    if st.button("Start the readiness check", type="primary"):
        seed = random.SystemRandom().randrange(2**31)
        try:
            items = assemble_readiness(bank, module_id, random.Random(seed))
        except CoachError as exc:
            st.error(str(exc))
            return
        store(KIND, start(AttemptKind.READINESS, module_id, items, seed, Reveal.END))
        st.rerun()
