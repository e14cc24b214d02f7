"""Which cross-encoder role the settings give the offline grader: the check by default, the full reading when
COACH_CROSS_ENCODER is on (it includes the check), neither when both are off; arguments override."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coach.config import get_settings
from coach.service.grading import scorer_modes


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_the_check_is_the_default(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("COACH_CROSS_ENCODER", raising=False)
    monkeypatch.delenv("COACH_CONTRADICTION_CHECK", raising=False)
    assert scorer_modes() == (False, True)


def test_the_full_reading_replaces_the_check(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COACH_CROSS_ENCODER", "1")
    assert scorer_modes() == (True, False)
    assert scorer_modes(cross=False) == (False, True)


def test_both_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COACH_CONTRADICTION_CHECK", "0")
    monkeypatch.delenv("COACH_CROSS_ENCODER", raising=False)
    assert scorer_modes() == (False, False)
    assert scorer_modes(check=True) == (False, True)
