"""Background work the UI starts (the model warm-up, grading ahead), finished before the interpreter exits.

A daemon thread still inside torch when the process exits makes torch abort the whole process ("terminate called
without an active exception", exit 134): a server stopped mid-warm-up, or a test run ending while an attempt is
being prepared. So every job is recorded, told to stop at exit, and joined before the interpreter tears down."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable

_stopping = threading.Event()
_running: set[threading.Thread] = set()
_lock = threading.Lock()
_JOIN_TIMEOUT_S = 120.0  # a job stops at its next piece of work; the model's first load is the longest piece


def stopping() -> bool:
    """True once the process is exiting: a job checks this between pieces of work and returns early."""
    return _stopping.is_set()


def start(target: Callable[[], object], name: str) -> threading.Thread:
    """Run `target` in a background thread that the interpreter's exit waits for."""

    def run() -> None:
        try:
            target()
        finally:
            with _lock:
                _running.discard(threading.current_thread())

    # daemon, so Python does not wait at its shutdown before our atexit hook has asked the job to stop
    thread = threading.Thread(target=run, name=name, daemon=True)
    with _lock:
        _running.add(thread)
    thread.start()
    return thread


def finish(timeout_s: float = _JOIN_TIMEOUT_S) -> None:
    """Ask every job to stop and wait for them (registered with atexit; callable directly)."""
    _stopping.set()
    with _lock:
        threads = list(_running)
    for thread in threads:
        thread.join(timeout_s)


atexit.register(finish)
