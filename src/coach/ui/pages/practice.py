"""Practice test: choose module, difficulty, count and reveal mode; see the pool and a time estimate; sit it."""

from __future__ import annotations

import random

import streamlit as st

from coach.content.schema import Difficulty
from coach.errors import CoachError
from coach.session.assembly import assemble_practice, estimate_minutes, pool
from coach.session.runner import AttemptKind, Reveal, start
from coach.ui import services
from coach.ui.components.attempt_flow import current_attempt, run_attempt, store
from coach.ui.router import module_choice

KIND = AttemptKind.PRACTICE.value
DIFFICULTIES = {"any": None, "easy": Difficulty.EASY, "medium": Difficulty.MEDIUM, "hard": Difficulty.HARD}


def render() -> None:
    bank = services.bank()
    st.title("Practice test")
    attempt = current_attempt(KIND)
    if attempt is not None:
        st.caption(
            f"{bank.modules[attempt.module].title} · difficulty {attempt.difficulty or 'any'} · "
            f"answers revealed {'after each question' if attempt.reveal == Reveal.EACH else 'at the end'}"
        )
        run_attempt(KIND, attempt, bank)
        return
    module_id = module_choice("Topic")
    counts = bank.pool_by_difficulty(module_id)
    difficulty_name = (
        st.segmented_control("Difficulty", list(DIFFICULTIES), default="any", key="practice-diff") or "any"
    )
    difficulty = DIFFICULTIES[difficulty_name]
    available = len(pool(bank, module_id, difficulty))
    count = int(
        st.number_input(
            "Questions",
            min_value=1,
            max_value=available,
            value=min(10, available),
            step=1,
            key=f"practice-count-{module_id}-{difficulty_name}",
        )
    )
    reveal = st.radio("Reveal answers", ["after each question", "at the end"], horizontal=True, key="practice-reveal")
    st.caption(
        f"Pool: {counts[Difficulty.EASY]} easy, {counts[Difficulty.MEDIUM]} medium, "
        f"{counts[Difficulty.HARD]} hard · {available} match this difficulty"
    )
    preview = assemble_practice(bank, module_id, difficulty, count, random.Random(0))
    st.info(f"{count} questions · about {estimate_minutes(preview)} min")
    if st.button("Start practice test", type="primary"):
        seed = random.SystemRandom().randrange(2**31)
        try:
            items = assemble_practice(bank, module_id, difficulty, count, random.Random(seed))
        except CoachError as exc:
            st.error(str(exc))
            return
        mode = Reveal.EACH if reveal == "after each question" else Reveal.END
        store(KIND, start(AttemptKind.PRACTICE, module_id, items, seed, mode, difficulty_name))
        st.rerun()
