"""Errors the coach raises on purpose; each carries a message fit to show a user."""


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
