"""The real server starts from `streamlit run app.py`, reports healthy, serves the page, and loads the model
before any browser connects."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.server import streamlit_server, wait_model_ready

pytestmark = pytest.mark.e2e


def test_the_model_loads_when_the_server_starts(tmp_path: Path) -> None:
    # no request but the health check: the st.App lifespan, not a first page view, starts the loading
    with streamlit_server(tmp_path):
        wait_model_ready(tmp_path / "server.log")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(tmp_path_factory.mktemp("server")) as url:
        yield url


def test_health_and_page(server: str) -> None:
    with urllib.request.urlopen(f"{server}/_stcore/health", timeout=5) as r:
        assert r.read().decode().strip() == "ok"
    with urllib.request.urlopen(f"{server}/?page=home", timeout=5) as r:
        html = r.read().decode()
    assert r.status == 200
    assert '<div id="root">' in html or 'id="root"' in html
