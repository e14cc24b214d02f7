"""Attempts as JSON files under a folder, so a browser reload can pick an attempt back up by its id."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from coach.session.runner import Attempt

_ID = re.compile(r"^[a-f0-9]{12}$")


class AttemptFiles:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def save(self, attempt: Attempt) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f"{attempt.id}.json.tmp"
        tmp.write_text(attempt.model_dump_json(), encoding="utf-8")
        tmp.replace(self.folder / f"{attempt.id}.json")  # atomic: a crash never leaves half a file

    def load(self, attempt_id: str) -> Attempt | None:
        if not _ID.match(attempt_id):
            return None
        path = self.folder / f"{attempt_id}.json"
        try:
            return Attempt.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValidationError):
            return None
