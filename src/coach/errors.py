"""Errors the coach raises on purpose; each carries a message fit to show a user."""

from __future__ import annotations

from datetime import datetime


class CoachError(Exception):
    """Base class for every expected failure."""


class ContentError(CoachError):
    """A content file is invalid. `where` names the file and, when known, the record id."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class ProviderError(CoachError):
    """A model provider (embedder or chat model) failed or is misconfigured."""


class AnswerError(CoachError):
    """A candidate's answer cannot be accepted as given (for example, too long)."""


class SessionError(CoachError):
    """An attempt was driven in an order its state machine does not allow."""


class StoreUnavailable(CoachError):
    """The database cannot be reached (down, restarting, locked too long). Nothing was written; retry later."""


class RetakeLimitReached(CoachError):
    """No readiness check may start now: the candidate used every start in the rolling window."""

    def __init__(self, module: str, limit: int, next_open_at: datetime, window_hours: float = 24.0) -> None:
        super().__init__(
            f"You have used all {limit} readiness checks for this module in the last {window_hours:g} hours. "
            f"The next one opens at {next_open_at:%Y-%m-%d %H:%M} UTC."
        )
        self.module = module
        self.limit = limit
        self.remaining = 0
        self.next_open_at = next_open_at


class AttemptNotFound(CoachError):
    """No attempt with that id belongs to this candidate (another's attempt is reported the same way)."""
