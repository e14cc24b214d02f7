"""Start the real Streamlit server on a free port, the way a newcomer runs it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODEL_READY = "coach: the embedding model is ready"  # the server log's line (coach.ui.services.warm_up)
# Another checkout's app to run instead (e.g. an old commit, to show that a browser test fails on it).
APP_ROOT = Path(os.environ.get("COACH_E2E_APP_ROOT", ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, timeout: float = 120.0) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read().decode().strip() == "ok":
                    return time.monotonic() - start
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not become healthy within {timeout:.0f}s")


def wait_model_ready(log: Path, timeout_s: float = 300.0) -> None:
    """Wait until the server's log says its warm-up (which starts with the server) has loaded the model."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if log.exists() and MODEL_READY in log.read_text(encoding="utf-8", errors="replace"):
            return
        time.sleep(0.25)
    tail = log.read_text(encoding="utf-8", errors="replace")[-2000:] if log.exists() else "(no log)"
    raise AssertionError(f"the server never said its model was ready; its log:\n{tail}")


@contextmanager
def streamlit_server(state_dir: Path, extra_env: dict[str, str] | None = None, extra_args: tuple[str, ...] = (),
                     port: int | None = None, base_path: str = "") -> Iterator[str]:
    """The server's URL while it runs (the app's, under `base_path` when given: `server.baseUrlPath`);
    `extra_args` go to `streamlit run` (e.g. `--secrets.files`), and `port` is chosen ahead by a caller that must
    name it first (an OIDC redirect URI)."""
    port = port or free_port()
    env = {
        **os.environ,
        "COACH_STATE_DIR": str(state_dir),
        "COACH_LLM_MODE": "off",
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        **(extra_env or {}),
    }
    log = open(state_dir / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(APP_ROOT / "app.py"),
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
            *(("--server.baseUrlPath", base_path) if base_path else ()),
            *extra_args,
        ],
        cwd=APP_ROOT,
        env=env if APP_ROOT == ROOT else {**env, "PYTHONPATH": str(APP_ROOT / "src")},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    (state_dir / "server.pid").write_text(str(proc.pid))  # for a stack dump of a stalled server (scripts/bench_app.py)
    url = f"http://127.0.0.1:{port}" + (f"/{base_path.strip('/')}" if base_path else "")
    try:
        wait_healthy(url)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
