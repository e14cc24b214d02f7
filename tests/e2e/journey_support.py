"""Helpers for the journey's browser proofs: a real `streamlit run` that can be SIGKILLed and restarted on the
same port and database, Chromium contexts (persistent profiles for "close the browser"), and a candidate who
signs in, answers questions and reaches the results the way a person clicks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.e2e.browse import ANSWER, answer_current, answer_until_results  # noqa: F401 (the journey tests use them)
from tests.e2e.server import ROOT, free_port, wait_healthy

CHROMIUM = os.environ.get("COACH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # gitignored: screenshots to look at
MODULE = "model-parallelism"


def artifact(name: str) -> str:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return str(ARTIFACTS / name)


def screenshot(page: Any, name: str) -> str:
    """The whole page (Streamlit scrolls inside its main block, so grow the viewport to its height first)."""
    height = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('[data-testid=stMain], [data-testid=stMainBlockContainer]')]"
        ".map(e => e.scrollHeight), document.body.scrollHeight)"
    )
    size = page.viewport_size or {"width": 1280, "height": 900}
    page.set_viewport_size({"width": size["width"], "height": min(int(height) + 100, 8000)})
    page.wait_for_timeout(500)
    path = artifact(name)
    page.screenshot(path=path, full_page=True)
    page.set_viewport_size(size)
    return path


class AppServer:
    """`streamlit run app.py` on a fixed port: `start()`, `kill()` (SIGKILL, no clean-up), `stop()`."""

    def __init__(self, state_dir: Path, extra_env: dict[str, str] | None = None) -> None:
        self.state_dir = state_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "COACH_STATE_DIR": str(state_dir),
            "COACH_LLM_MODE": "off",
            "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
            **(extra_env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> float:
        """Start (or restart) the server; returns the seconds until it reported healthy."""
        self.starts += 1
        log = open(self.state_dir / f"server-{self.starts}.log", "wb")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(self.port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )
        log.close()
        return wait_healthy(self.url)

    def kill(self) -> None:
        """SIGKILL the server process: no shutdown hooks, no flushing, as a crash or an OOM kill."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=15)
        self.proc = None

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in sorted(self.state_dir.glob("server-*.log")))


def launch_profile(browser: Any, profile: Path, timezone_id: str | None = None) -> Any:
    """A whole Chromium process on a persistent profile (closing it and launching again is closing the browser
    and coming back), from the same Playwright as the suite's `browser` fixture (one Playwright per thread)."""
    return browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 900},
        timezone_id=timezone_id,
    )


# -- waiting on Streamlit ---------------------------------------------------------------------------------
def settle(page: Any, timeout_s: float = 180.0) -> None:
    """Wait until Streamlit has finished the current run (its status widget shows while a script runs)."""
    page.wait_for_timeout(300)
    for _ in range(int(timeout_s / 0.25)):
        if not page.locator("[data-testid='stStatusWidget']").count():
            return
        page.wait_for_timeout(250)
    raise AssertionError("the app kept running")


def wait_for_any(page: Any, selectors: list[str], timeout_s: float = 120.0) -> str:
    settle(page)
    for _ in range(int(timeout_s / 0.25)):
        for sel in selectors:
            if page.locator(sel).count():
                return sel
        page.wait_for_timeout(250)
    raise AssertionError(f"none of {selectors} appeared on {page.url}; the page says:\n{main_text(page)[:2000]}")


def main_text(page: Any) -> str:
    found = page.locator("[data-testid='stMain']")
    return str(found.inner_text()) if found.count() else str(page.inner_text("body"))


def open_page(page: Any, url: str, expect: list[str], name: str = "Ada Lovelace") -> str:
    """Go to `url`, choosing a display name first if the local-mode form asks for one; returns what showed."""
    page.goto(url)
    found = wait_for_any(page, ["text=Your display name", *expect])
    if found == "text=Your display name":
        page.get_by_label("Your display name").fill(name)
        page.get_by_role("button", name="Continue").click()
        found = wait_for_any(page, expect)
    return found


def local_key(context: Any, previous: str | None = None, timeout_s: float = 20.0) -> str:
    """The browser's local-mode key (its cookie, which the server sets when the page posts its grant), to find
    the same candidate through the service; with `previous`, wait for a different one."""
    for _ in range(int(timeout_s / 0.25)):
        keys = [c["value"] for c in context.cookies() if c["name"] == "coach_local_key" and c["value"]]
        if keys and keys[0] != previous:
            return str(keys[0])
        time.sleep(0.25)
    raise AssertionError("the browser holds no (new) coach_local_key cookie")


def assert_http_only(context: Any, page: Any, name: str) -> None:
    """The browser holds cookie `name` HttpOnly (set by the server's answer), so the page's scripts cannot read
    it."""
    found = [c for c in context.cookies() if c["name"] == name]
    assert found and all(c["httpOnly"] for c in found), found
    assert f"{name}=" not in page.evaluate("document.cookie")


# -- answering --------------------------------------------------------------------------------------------
RESULTS = "text=Overall"
SUBMIT = "button:has-text('Submit answer')"
NEXT = "button:has-text('Next question'), button:has-text('See my results')"
RADIO = "[data-testid='stMain'] [data-testid='stRadioOption']"


def question_number(page: Any) -> int | None:
    """The 1-based number of the question on screen ('Question 4 of 10'), None if none is."""
    text = main_text(page)
    marker = text.find("Question ")
    if marker < 0:
        return None
    word = text[marker + len("Question "):].split(" ", 1)[0]
    return int(word) if word.isdigit() else None


def start_check(page: Any, server_url: str, module: str = MODULE) -> None:
    open_page(page, f"{server_url}/check?module={module}", ["button:has-text('Start the readiness check')"])
    page.locator("button:has-text('Start the readiness check')").click()
    wait_for_any(page, [SUBMIT])


def seed_local_key(context: Any, server_url: str, key: str | None = None) -> str:
    """Give a fresh context a local-mode key cookie, so the app skips the name form (the candidate is created
    with the default name): for suites that are not about identity."""
    from coach.service.identity import new_local_key

    key = key or new_local_key()
    context.add_cookies([{"name": "coach_local_key", "value": key, "url": server_url}])
    return key
