"""Judge outcomes cached by (target fingerprint, answer hash, model, prompt version)."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

from coach.grading.judge.prompt import PROMPT_VERSION
from coach.grading.judge.verdict import JudgeOutcome
from coach.grading.target import GradingTarget


@dataclass(frozen=True)
class JudgeCacheKey:
    target: str  # target key (item@version) plus a fingerprint of the rubric text
    answer_sha256: str
    model: str
    prompt_version: str = PROMPT_VERSION

    def as_string(self) -> str:
        return f"{self.prompt_version}|{self.model}|{self.target}|{self.answer_sha256}"


class JudgeCache(Protocol):
    def get(self, key: JudgeCacheKey) -> JudgeOutcome | None: ...

    def put(self, key: JudgeCacheKey, outcome: JudgeOutcome) -> None: ...


class LRUJudgeCache:
    """In-process LRU; a database-backed cache can replace it behind `JudgeCache`."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._data: OrderedDict[JudgeCacheKey, JudgeOutcome] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: JudgeCacheKey) -> JudgeOutcome | None:
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: JudgeCacheKey, outcome: JudgeOutcome) -> None:
        with self._lock:
            self._data[key] = outcome
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


def answer_sha256(answer: str) -> str:
    return hashlib.sha256(answer.encode("utf-8")).hexdigest()


def target_fingerprint(target: GradingTarget) -> str:
    """The target key plus a hash of what the judge sees of the rubric, so an edited rubric never hits old grades."""
    blob = json.dumps(
        [target.question, target.reference, [(c.id, c.description, c.weight, c.phrasings[:3]) for c in target.criteria]]
    )
    return f"{target.key}#{hashlib.sha256(blob.encode('utf-8')).hexdigest()[:12]}"
