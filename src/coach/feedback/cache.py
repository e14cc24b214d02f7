"""Where written coach feedback is kept, so a reload of the results page costs no second model call.

`FeedbackCache` is the whole contract (the store exposes a database-backed adapter of exactly this shape);
`InMemoryFeedbackCache` is for tests and single-process demos. Keys say what the feedback was written from:
the attempt, a fingerprint of its graded card, the model and the prompt version.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Protocol

from coach.grading.dimensions import ScoreCard


class FeedbackCache(Protocol):
    def get(self, key: str) -> str | None: ...

    def put(self, key: str, value: str) -> None: ...


class InMemoryFeedbackCache:
    def __init__(self) -> None:
        self._data: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            return self._data.get(key)

    def put(self, key: str, value: str) -> None:
        with self._lock:
            self._data[key] = value

    def __len__(self) -> int:
        return len(self._data)


def card_fingerprint(card: ScoreCard) -> str:
    """A hash of everything graded: a regraded attempt (new verdicts, new evidence) gets new feedback."""
    return hashlib.sha256(card.model_dump_json().encode("utf-8")).hexdigest()[:16]


def feedback_key(attempt_id: str, card: ScoreCard, model: str, prompt_version: str) -> str:
    return f"{prompt_version}|{model}|{attempt_id}|{card_fingerprint(card)}"
