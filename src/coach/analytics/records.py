"""One response to one item, as the store keeps it, and the small protocol analytics reads them through.

The store implements `ResponseSource.responses()` over its stored attempts/answers; until then
`JsonlResponseSource` reads an export (one JSON object per line with these fields) and `MemoryResponseSource`
serves tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from coach.errors import CoachError

CriterionVerdict = Literal["met", "partial", "missed", "contradicted"]


class ResponseRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    attempt_id: str
    candidate_id: str
    item_id: str
    item_version: int
    variant: str = ""  # the rendering's variant key, e.g. "model=llama-3.1-70b,tp=8"
    type: Literal["mcq", "short"]
    chosen_text: str | None = None  # MCQ: the chosen option's text (options are shuffled per attempt)
    chosen_index: int | None = None  # MCQ: its index as shown
    score: float  # 0..1
    criteria: dict[str, CriterionVerdict] = {}  # short answers: criterion id -> verdict
    attempt_total: float  # the sum of the attempt's item scores (this one included), for discrimination


class ResponseSource(Protocol):
    def responses(self, item_id: str | None = None) -> Sequence[ResponseRecord]: ...


class MemoryResponseSource:
    def __init__(self, records: Iterable[ResponseRecord]) -> None:
        self.records = list(records)

    def responses(self, item_id: str | None = None) -> list[ResponseRecord]:
        return [r for r in self.records if item_id is None or r.item_id == item_id]


class JsonlResponseSource(MemoryResponseSource):
    """Reads an export; a bad line is an error naming its line number."""

    def __init__(self, path: Path) -> None:
        records = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(ResponseRecord.model_validate(json.loads(line)))
            except (json.JSONDecodeError, ValidationError) as exc:
                raise CoachError(f"{path}:{n}: not a response record: {str(exc).splitlines()[0]}") from None
        super().__init__(records)
