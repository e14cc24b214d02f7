"""How many readiness checks are left in the rolling window, and when the next one opens."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import streamlit as st

from coach.errors import StoreUnavailable
from coach.service.journey import Candidate
from coach.service.views import RetakesLeft
from coach.ui.services import journey


def wait_text(until: datetime, now: datetime) -> str:
    """'2 h 05 min', '12 min', 'less than a minute' until `until`."""
    seconds = (_aware(until) - _aware(now)).total_seconds()
    minutes = math.ceil(seconds / 60) if seconds > 0 else 0
    if minutes < 1:
        return "less than a minute"
    hours, mins = divmod(minutes, 60)
    return f"{hours} h {mins:02d} min" if hours else f"{mins} min"


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def clock_text(at: datetime) -> str:
    """HH:MM UTC, rounded up to the minute so a candidate who comes back then finds it open (the server
    cannot know the browser's time zone without JavaScript)."""
    return _ceil_minute(at).strftime("%H:%M UTC")


def _ceil_minute(at: datetime) -> datetime:
    at = _aware(at).astimezone(UTC)
    floor = at.replace(second=0, microsecond=0)
    return floor if floor == at else floor + timedelta(minutes=1)


def retakes_message(left: RetakesLeft, now: datetime) -> str:
    window = f"{left.window_hours:g} hours"
    if left.remaining > 0:
        unit = "readiness check" if left.limit == 1 else "readiness checks"
        return f"{left.remaining} of {left.limit} {unit} left in the last {window} for this module."
    assert left.next_open_at is not None
    when = _aware(left.next_open_at)
    opens = _ceil_minute(when)
    day = "" if opens.date() == _aware(now).astimezone(UTC).date() else f" on {opens:%a %d %b}"
    return (
        f"None left: you have started {left.used} of {left.limit} readiness checks in the last {window}. "
        f"The next opens at {clock_text(when)}{day} (in {wait_text(when, now)}). Practice tests are unlimited."
    )


def retakes_notice(candidate: Candidate, module: str, now: datetime | None = None) -> bool:
    """Show the retake allowance; False when no readiness check can be started now (or the store is down)."""
    now = now or datetime.now(UTC)
    try:
        left = journey().retakes_left(candidate, module, now=now)
    except StoreUnavailable as exc:
        st.error(str(exc))
        return False
    if left.remaining > 0:
        st.info(retakes_message(left, now))
        return True
    st.warning(retakes_message(left, now))
    return False
