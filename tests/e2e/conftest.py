"""One real `streamlit run` per test module, one Chromium per session, a fresh browser context per test."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.server import ROOT, streamlit_server

CHROMIUM = os.environ.get("COACH_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "tests" / "e2e" / "artifacts"  # gitignored: screenshots of results pages
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(tmp_path_factory.mktemp("browser-server")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_candidate_page(browser: Any, server: str) -> Any:
    """A fresh context (its own cookies: a new candidate, signed in with a display name) and its page."""
    from tests.e2e.browse import sign_in

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    sign_in(page, server)
    return page


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    found = new_candidate_page(browser, server)
    yield found
    found.context.close()


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
