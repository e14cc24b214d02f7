from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coach.config import get_settings


@pytest.fixture(autouse=True)
def isolated_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Attempt files go to a temp folder, and the judge is off unless a test turns it on."""
    monkeypatch.setenv("COACH_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("COACH_LLM_MODE", "off")
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()
