"""One question of a running attempt: the prompt, the answer box with its warnings, Submit / Skip, the reveal.

Answers go to the Journey in the buttons' callbacks (written before any grading); the answer widgets are never
written to, so what the candidate typed stays in the box whatever the outcome.
"""

from __future__ import annotations

import re
import unicodedata

import streamlit as st

from coach.errors import AnswerError, CoachError, StoreUnavailable
from coach.service.journey import Candidate, Journey
from coach.session.runner import Attempt, Reveal
from coach.ui import services, state
from coach.ui.components.review import show_item_review

DIFFICULTY_BADGE = {"easy": ":green[easy]", "medium": ":orange[medium]", "hard": ":red[hard]"}
_WORD = re.compile(r"\w+")


def answer_key(attempt: Attempt) -> str:
    return f"answer-{attempt.id}-{attempt.position}"


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ")[0] if name else None


def text_warnings(text: str, limit: int) -> list[str]:
    """What to tell the candidate about the text in the box before they submit (nothing is changed in it)."""
    notes = []
    size = len(text.strip())
    if size > limit:
        notes.append(f"Your answer is {size:,} characters, {size - limit:,} over the {limit:,} limit: cut at least "
                     f"{size - limit:,} characters before you submit. Your text stays in the box.")
    controls = sum(1 for ch in text if ch not in "\t\n\r" and unicodedata.category(ch) in {"Cc", "Cn", "Cs"})
    if controls:
        notes.append(f"Your answer contains {controls} control or binary character(s) (pasted from a file?); "
                     "they will be removed when you submit.")
    mixed = [w for w in _WORD.findall(text) if len({s for s in map(_script, w) if s}) > 1]
    if mixed:
        notes.append("Some words mix alphabets (for example “" + mixed[0] + "”): look-alike letters from another "
                     "script are read as what they imitate, and grading treats them with suspicion. Retype them.")
    return notes


def _record(candidate: Candidate, attempt: Attempt, skip: bool) -> None:
    """Submit / Skip callback: write the answer, or keep it in the session when the database is down."""
    key = answer_key(attempt)
    raw = st.session_state.get(key)
    choice: int | None = None
    text: str | None = None
    item = attempt.items[attempt.position]
    if not skip and item.type == "mcq":
        labels = option_labels(attempt)
        choice = labels.index(raw) if raw in labels else None
    elif not skip:
        text = raw or ""
    try:
        services.journey().record_answer(candidate, attempt.id, choice=choice, text=text, skip=skip,
                                         index=attempt.position)
    except AnswerError as exc:
        state.flash(attempt.id, "error", str(exc))
    except StoreUnavailable as exc:
        state.keep_pending(Journey.pending(attempt, choice=choice, text=text, skip=skip))
        state.flash(attempt.id, "error", f"{exc} Your answer is kept in this tab and will be saved when the "
                                         "database is back.")
    except CoachError as exc:
        state.flash(attempt.id, "error", str(exc))


def _next(candidate: Candidate, attempt: Attempt) -> None:
    try:
        services.journey().advance(candidate, attempt.id)
    except CoachError as exc:
        state.flash(attempt.id, "error", str(exc))


def option_labels(attempt: Attempt) -> list[str]:
    item = attempt.items[attempt.position]
    return [f"{chr(65 + i)}. {o.text}" for i, o in enumerate(item.options)]


def show_question(candidate: Candidate, attempt: Attempt) -> None:
    item = attempt.current
    assert item is not None
    bank = services.bank()
    n = len(attempt.items)
    st.progress(attempt.position / n, text=f"Question {attempt.position + 1} of {n}")
    st.caption(
        f"{DIFFICULTY_BADGE[item.difficulty.value]} · {'multiple choice' if item.type == 'mcq' else 'short answer'}"
        f" · measures {', '.join(d.label.lower() for d in item.dimensions)}"
    )
    st.markdown(f"#### {item.stem}")
    answered = attempt.answer_for(attempt.position)
    if attempt.reveal == Reveal.EACH and answered is not None:
        with st.spinner(services.grading_message()):
            score = services.journey().grade_answer(candidate, attempt.id, attempt.position)
        show_item_review(item, answered, score, bank)
        last = attempt.position + 1 >= n
        st.button("See my results" if last else "Next question", type="primary", key=f"next-{answer_key(attempt)}",
                  on_click=_next, args=(candidate, attempt))
        return
    key = answer_key(attempt)
    if item.type == "mcq":
        st.radio("Choose one", option_labels(attempt), index=None, key=key)
    else:
        limit = services.settings().max_answer_chars
        text = st.text_area(f"Your answer (aim for under {item.max_words} words)", key=key, height=180,
                            placeholder="Explain your reasoning as you would at a whiteboard.")
        size = len((text or "").strip())
        st.caption(f"{size:,} / {limit:,} characters" + (" — over the limit" if size > limit else ""))
        for note in text_warnings(text or "", limit):
            st.warning(note)
    state.show_flash(attempt.id)
    left, right = st.columns([1, 1])
    left.button("Submit answer", type="primary", key=f"submit-{key}", on_click=_record,
                args=(candidate, attempt, False))
    right.button("Skip", key=f"skip-{key}", on_click=_record, args=(candidate, attempt, True))
