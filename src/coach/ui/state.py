"""The few session_state keys the pages share, in one place (never a key a widget owns after it exists)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from coach.service.views import PendingAnswer
from coach.session.runner import Attempt

CANDIDATE_KEY = "coach:local-key"
PENDING = "coach:pending"  # answers the database could not take yet, by attempt id
SEEN = "coach:seen"  # the last copy of each attempt this tab read, to keep answering through a database outage
FLASH = "coach:flash"  # one message for the next run (set by a button callback), by attempt id or page


def pending(attempt_id: str) -> PendingAnswer | None:
    found: PendingAnswer | None = st.session_state.get(PENDING, {}).get(attempt_id)
    return found


def keep_pending(answer: PendingAnswer) -> None:
    st.session_state.setdefault(PENDING, {})[answer.attempt_id] = answer


def drop_pending(attempt_id: str) -> None:
    st.session_state.get(PENDING, {}).pop(attempt_id, None)


def flash(where: str, kind: str, message: str) -> None:
    """Keep a message for the next run of the page (`kind` is error / warning / info / success)."""
    st.session_state.setdefault(FLASH, {})[where] = (kind, message)


def show_flash(where: str) -> None:
    kind, message = st.session_state.get(FLASH, {}).pop(where, (None, None))
    if kind:
        show: Any = getattr(st, kind)
        show(message)


def remember(attempt: Attempt) -> None:
    st.session_state.setdefault(SEEN, {})[attempt.id] = attempt


def last_seen(attempt_id: str) -> Attempt | None:
    found: Attempt | None = st.session_state.get(SEEN, {}).get(attempt_id)
    return found
