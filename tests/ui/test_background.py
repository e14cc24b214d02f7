"""Background work (warm-up, grading ahead) never aborts the process that started it when that process exits."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from coach.ui import background

# Start an attempt's grade-ahead and exit while it is encoding: with plain daemon threads torch aborted the
# process at exit (exit 134, "terminate called without an active exception"), which once turned a green
# test run red after its last test had passed.
_EXIT_WHILE_PREPARING = textwrap.dedent("""
    import time
    from coach.ui import services
    journey = services.journey()
    journey.warm_up()
    candidate = journey.local_candidate("k" * 32)
    attempt = journey.start_practice(candidate, "model-parallelism", count=20, seed=7)
    services.prepare_in_background(attempt)
    time.sleep(0.2)
""")


def test_exiting_while_an_attempt_is_prepared_in_the_background_exits_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "COACH_STATE_DIR": str(tmp_path / "state"), "COACH_LLM_MODE": "off",
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", _EXIT_WHILE_PREPARING], env=env, capture_output=True,
                          text=True, timeout=300)
    assert "terminate called" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]


def test_finish_asks_a_running_job_to_stop_and_waits_for_it() -> None:
    started, finished = threading.Event(), threading.Event()

    def job() -> None:
        started.set()
        while not background.stopping():
            threading.Event().wait(0.01)
        finished.set()

    thread = background.start(job, name="test-job")
    assert started.wait(10)
    try:
        background.finish(timeout_s=10)
        assert finished.is_set()
        assert not thread.is_alive()
    finally:
        background._stopping.clear()  # this process's other tests still start background work


def test_the_grading_spinner_says_when_the_model_is_still_loading(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from coach.ui import services

    loading = threading.Event()
    thread = threading.Thread(target=loading.wait)
    thread.start()
    try:
        monkeypatch.setattr(services, "warm_up", lambda: thread)
        assert "still loading" in services.grading_message()
    finally:
        loading.set()
        thread.join()
    assert services.grading_message() == "Grading your answer…"
