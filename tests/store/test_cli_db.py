"""`coach db status` and `coach db upgrade` on each backend, the URL's password never printed."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from coach.cli import app
from coach.config import get_settings
from coach.store.migrate import head_revision


@pytest.fixture
def url_in_env(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("COACH_DATABASE_URL", db_url)
    get_settings.cache_clear()
    yield db_url
    get_settings.cache_clear()


def test_status_says_behind_until_upgrade(url_in_env: str) -> None:
    runner = CliRunner()
    before = runner.invoke(app, ["db", "status", "--json"])
    assert before.exit_code == 1 and json.loads(before.stdout)["current"] is None
    upgraded = runner.invoke(app, ["db", "upgrade"])
    assert upgraded.exit_code == 0 and "up to date" in upgraded.stdout
    after = json.loads(runner.invoke(app, ["db", "status", "--json"]).stdout)
    assert after["current"] == after["head"] == head_revision() and after["up_to_date"]


def test_a_password_in_the_url_is_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COACH_DATABASE_URL", "postgresql+psycopg://coach:hunter2@127.0.0.1:1/none")
    get_settings.cache_clear()
    try:
        out = CliRunner().invoke(app, ["db", "status"])
    finally:
        get_settings.cache_clear()
    assert out.exit_code == 2 and "not reachable" in out.output and "hunter2" not in out.output


def test_the_default_database_is_a_file_in_the_state_folder(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("COACH_DATABASE_URL", raising=False)
    monkeypatch.setenv("COACH_STATE_DIR", str(tmp_path / "state"))
    get_settings.cache_clear()
    try:
        assert get_settings().db_url == f"sqlite:///{tmp_path / 'state' / 'coach.db'}"
        out = CliRunner().invoke(app, ["db", "upgrade"])
    finally:
        get_settings.cache_clear()
    assert out.exit_code == 0 and (tmp_path / "state" / "coach.db").is_file()
