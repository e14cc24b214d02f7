"""How many readiness checks are left in the rolling window, and when the next one opens."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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


def browser_zone() -> ZoneInfo | None:
    """The browser's time zone (`st.context.timezone`), None when unknown or not a zone name."""
    try:
        name = st.context.timezone
    except Exception:
        return None
    if not isinstance(name, str) or not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def clock_text(at: datetime, zone: ZoneInfo | None = None) -> str:
    """HH:MM in the browser's zone (else UTC), rounded up to the minute so a candidate who comes back then
    finds it open."""
    opens = _ceil_minute(at)
    local = opens.astimezone(zone or UTC)
    if zone is None or not local.utcoffset():
        return opens.strftime("%H:%M UTC")
    return f"{local:%H:%M} ({zone.key}, {opens:%H:%M} UTC)"


def _ceil_minute(at: datetime) -> datetime:
    at = _aware(at).astimezone(UTC)
    floor = at.replace(second=0, microsecond=0)
    return floor if floor == at else floor + timedelta(minutes=1)


def retakes_message(left: RetakesLeft, now: datetime, zone: ZoneInfo | None = None) -> str:
    window = f"{left.window_hours:g} hours"
    if left.remaining > 0:
        unit = "readiness check" if left.limit == 1 else "readiness checks"
        return f"{left.remaining} of {left.limit} {unit} left in the last {window} for this module."
    assert left.next_open_at is not None
    when = _aware(left.next_open_at)
    tz = zone or UTC
    opens = _ceil_minute(when).astimezone(tz)
    day = "" if opens.date() == _aware(now).astimezone(tz).date() else f" on {opens:%a %d %b}"
    return (
        f"None left: you have started {left.used} of {left.limit} readiness checks in the last {window}. "
        f"The next opens at {clock_text(when, zone)}{day} (in {wait_text(when, now)}). Practice tests are unlimited."
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
    st.warning(retakes_message(left, now, browser_zone()))
    return False
