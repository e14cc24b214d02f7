"""Long-lived resources for the UI, cached per process, and the judge status line."""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict

import streamlit as st

from coach.config import Settings, get_settings
from coach.content.bank import Bank
from coach.content.loader import load_bank
from coach.grading.attempt import JudgeReview
from coach.grading.offline.grader import EmbeddingGrader
from coach.service.journey import Journey
from coach.session.runner import Attempt
from coach.ui import background


@st.cache_resource(show_spinner="Loading the question bank…")
def bank() -> Bank:
    return load_bank(get_settings().content_dir)


def _make_grader() -> EmbeddingGrader:
    """Built once by the Journey, under its grading lock (so the warm-up thread and a grade never build two)."""
    from coach.service.grading import offline_grader

    return offline_grader()


@st.cache_resource
def _judge_review(fingerprint: str) -> JudgeReview | None:
    from coach.grading.judge.review import judge_review_from_settings

    return judge_review_from_settings(get_settings())


def judge_review() -> JudgeReview | None:
    """The judge step for the current settings (cached per endpoint, model and mode)."""
    s = get_settings()
    return _judge_review(f"{s.llm_mode}|{s.llm_base_url}|{s.llm_model}|{bool(s.llm_api_key)}")


def settings() -> Settings:
    return get_settings()


def judge_status() -> tuple[bool, str]:
    s = get_settings()
    if not s.judge_enabled:
        return False, (
            "LLM judge is off: short answers are graded by the offline embedding grader against "
            "each rubric. Set COACH_LLM_BASE_URL / COACH_LLM_API_KEY to turn it on."
        )
    if s.llm_mode == "fake":
        return True, "LLM judge: the built-in fake judge (demo mode), on top of the offline embedding grader."
    where = s.llm_base_url or "the OpenAI API"
    return True, f"LLM judge is on: {s.llm_model} at {where}, blended with the offline embedding grade."


@st.cache_resource(show_spinner=False)
def journey() -> Journey:
    """The one door to attempts, identity, history and shares (pages never touch the database)."""
    return Journey.from_settings(get_settings(), bank(), grader=_make_grader, judge=judge_review())


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Start loading the embedding model in the background, once per server process (the first page does
    not wait for it; the first grade waits only for what is left)."""
    return background.start(_warm_up_and_say, name="coach-warm-up")


def grading_message() -> str:
    """What a spinner says while an answer is graded: the first grades after a server start also wait for the
    model, and a candidate should know why this once it takes seconds."""
    if warm_up().is_alive():
        return "Grading your answer… the grading model is still loading after a server start (this happens once)."
    return "Grading your answer…"


def _warm_up_and_say() -> None:
    start = time.perf_counter()
    journey().warm_up()
    # one line in the server's log, so an operator (and the server test) can see the model is ready
    print(f"coach: the embedding model is ready ({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)


_prepared: OrderedDict[tuple[str, int], None] = OrderedDict()  # the states already prepared, newest last
_PREPARED_KEPT = 4096  # a long-running server forgets the oldest; preparing one twice costs time, not results
_prepared_lock = threading.Lock()


def prepare_in_background(attempt: Attempt) -> None:
    """Grade ahead: encode the attempt's targets and answers so far in a background thread (once per state)."""
    key = (attempt.id, len(attempt.answers))
    with _prepared_lock:
        if key in _prepared:
            return
        _prepared[key] = None
        while len(_prepared) > _PREPARED_KEPT:
            _prepared.popitem(last=False)
    background.start(lambda: journey().prepare_grading(attempt, stop=background.stopping),
                     name="coach-grade-ahead")
