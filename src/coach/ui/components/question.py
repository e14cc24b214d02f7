"""One question of a running attempt: the prompt, the answer widget, Submit / Skip, and an optional reveal."""

from __future__ import annotations

import streamlit as st

from coach.content.bank import Bank
from coach.errors import AnswerError
from coach.grading.attempt import target_for
from coach.grading.combine import screen_offline
from coach.grading.mcq import grade_mcq
from coach.grading.score import Score
from coach.session.runner import Attempt, Reveal, advance, record
from coach.ui import services
from coach.ui.components.review import show_item_review

DIFFICULTY_BADGE = {"easy": "🟢 easy", "medium": "🟠 medium", "hard": "🔴 hard"}


def _instant_score(attempt: Attempt, bank: Bank) -> Score:
    item = attempt.items[attempt.position]
    answer = attempt.answer_for(attempt.position)
    if item.type == "mcq":
        return grade_mcq(item, None if answer is None or answer.skipped else answer.choice)
    if answer is None or answer.skipped or not answer.text:
        return Score(value=0.0, source="embedding", notes=("Skipped.",))
    return screen_offline(services.grader().grade(answer.text, target_for(bank, item)), answer.text)


def show_question(attempt: Attempt, bank: Bank, save: st.delta_generator.DeltaGenerator | None = None) -> Attempt:
    """Render the current question; return the (possibly updated) attempt."""
    item = attempt.current
    assert item is not None
    n = len(attempt.items)
    st.progress(attempt.position / n, text=f"Question {attempt.position + 1} of {n}")
    st.caption(
        f"{DIFFICULTY_BADGE[item.difficulty.value]} · {'multiple choice' if item.type == 'mcq' else 'short answer'}"
        f" · measures {', '.join(d.label.lower() for d in item.dimensions)}"
    )
    st.markdown(f"#### {item.stem}")
    key = f"{attempt.id}-{attempt.position}"
    answered = attempt.answer_for(attempt.position)
    revealing = attempt.reveal == Reveal.EACH and answered is not None

    if revealing:
        assert answered is not None
        show_item_review(item, answered, _instant_score(attempt, bank), bank)
        if st.button(
            "Next question" if attempt.position + 1 < n else "See my results", type="primary", key=f"next-{key}"
        ):
            return advance(attempt)
        return attempt

    choice: int | None = None
    text: str | None = None
    if item.type == "mcq":
        labels = [f"{chr(65 + i)}. {o.text}" for i, o in enumerate(item.options)]
        picked = st.radio("Choose one", labels, index=None, key=f"mcq-{key}")
        choice = labels.index(picked) if picked is not None else None
    else:
        limit = services.settings().max_answer_chars
        text = st.text_area(
            f"Your answer (aim for under {item.max_words} words)",
            key=f"short-{key}",
            height=180,
            max_chars=None,
            placeholder="Explain your reasoning as you would at a whiteboard.",
        )
        st.caption(f"{len(text or '')} / {limit:,} characters")
    left, right = st.columns([1, 1])
    submitted = left.button("Submit answer", type="primary", key=f"submit-{key}")
    skipped = right.button("Skip", key=f"skip-{key}")
    if submitted or skipped:
        try:
            updated = record(
                attempt, choice=choice, text=text, skip=skipped, max_chars=services.settings().max_answer_chars
            )
        except AnswerError as exc:
            st.error(str(exc))
            return attempt
        return updated if attempt.reveal == Reveal.EACH else advance(updated)
    return attempt
