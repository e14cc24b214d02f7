"""Benchmark the app the way a candidate meets it: real `streamlit run`, real Chromium, clicks timed to what shows.

Usage: python scripts/bench_app.py [--module model-parallelism] [--runs 5] [--busy 2] [--questions 6]

Each run starts a fresh server (fresh state folder) and times, from the moment `streamlit run` is launched:
the first rendered page, the server log's "model is ready" line and the first graded answer on screen; then,
in a practice test revealing each answer, click-to-feedback (Submit clicked -> the graded review visible) for
short answers and MCQs; then a readiness check's last Submit -> its results visible. Before each Submit the
bench waits `--think` seconds (default 3), as a candidate reading and typing would: the app grades ahead in
that time, which is the point of grading ahead.
Prints one JSON object: min / median / max of each figure over the runs, the load before and after
(`os.getloadavg`), and how many busy loops ran (`--busy N` starts N `python -c 'while 1: pass'` processes for
the whole benchmark). Needs Debian's Chromium at /usr/bin/chromium. A failed run leaves its screenshots, the
server's log and (with py-spy installed) the server's thread stacks in tests/e2e/artifacts/bench-failure-*.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.browse import NEXT, RADIO, RESULT, SUBMIT, settle, sign_in, sitting_state, wait_for_any  # noqa: E402
from tests.e2e.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.server import MODEL_READY, streamlit_server  # noqa: E402

SHORT = ("Each pipeline stage waits for the previous one, so one token's latency is the sum of the stage times; "
         "tensor parallelism splits every layer so all GPUs work on the token at the same moment.")


def _answer(page: Any, think: float) -> tuple[str, float]:
    """Answer the question on screen and time Submit -> its outcome visible (the review, the next question or
    the results). Returns (kind, seconds). Call it only once `sitting_state` has found that question's
    own page: on a loaded machine the previous page stays on screen while the next run starts, and a click on
    its widgets (the practice set-up's "Reveal answers" radio, the last question's text area) is lost when the
    new page replaces them; two runs once waited out their 300 s that way, after a click on the set-up radio."""
    widget = wait_for_any(page, ["textarea", RADIO])
    if widget == "textarea":
        area = page.locator("textarea").first
        area.fill(SHORT)
        area.press("Control+Enter")
    else:
        page.locator(RADIO).first.click()
    settle(page)
    page.wait_for_timeout(think * 1000)  # a candidate reads and writes before Submit
    before = page.locator("[data-testid='stMain'] h4").first.inner_text()
    t0 = time.perf_counter()
    page.locator(SUBMIT).click()
    page.wait_for_function(
        """([next, before]) => {
            const main = document.querySelector("[data-testid='stMain']");
            if (!main) return false;
            const buttons = [...main.querySelectorAll('button')].map(b => b.innerText);
            if (buttons.some(t => t.includes('Next question') || t.includes('See my results'))) return true;
            if (main.innerText.includes('Your result')) return true;
            const h4 = main.querySelector('h4');
            return h4 && h4.innerText !== before;
        }""",
        arg=[NEXT, before], timeout=300_000, polling=20,
    )  # (a failure leaves its evidence in tests/e2e/artifacts/: see keep_evidence)
    return ("short" if widget == "textarea" else "mcq"), time.perf_counter() - t0


def one_run(module: str, questions: int, think: float, browser: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"short_click_to_feedback_s": [], "mcq_click_to_feedback_s": []}
    with tempfile.TemporaryDirectory() as tmp:
        launched = time.perf_counter()
        ready = threading.Thread(target=_watch_model_ready, args=(Path(tmp) / "server.log", launched, out),
                                 daemon=True)
        ready.start()
        with streamlit_server(Path(tmp)) as url:
            try:
                _sit(out, url, module, questions, think, browser, launched)
            except Exception:
                keep_evidence(Path(tmp), url, browser)  # while the server is still up
                raise
            ready.join(timeout=300)
    return out


def _watch_model_ready(log: Path, launched: float, out: dict[str, Any]) -> None:
    """Record when the server's log says the embedding model is ready (it loads in the background from start)."""
    while time.perf_counter() - launched < 300:
        if log.exists() and MODEL_READY in log.read_text(errors="replace"):
            out["run_to_model_ready_s"] = time.perf_counter() - launched
            return
        time.sleep(0.1)


def _sit(out: dict[str, Any], url: str, module: str, questions: int, think: float, browser: Any,
         launched: float) -> None:
    """The timed path of one run: first page, a practice test revealing each answer, then a readiness check."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("text=Learning path ·", timeout=300_000)
    out["run_to_first_page_s"] = time.perf_counter() - launched
    sign_in(page, url)
    page.goto(f"{url}/practice?module={module}")
    wait_for_any(page, ["button:has-text('Start practice test')"])
    page.get_by_label("Questions").fill(str(questions))
    page.get_by_label("Questions").press("Enter")
    settle(page)
    page.locator("button:has-text('Start practice test')").click()
    for n in range(questions):
        state = sitting_state(page, after=n, review=False, timeout_s=300)
        if state != f"question {n + 1}":
            raise AssertionError(f"expected question {n + 1}, found {state}")
        kind, seconds = _answer(page, think)
        if n == 0:
            out["run_to_first_graded_answer_s"] = time.perf_counter() - launched
        out[f"{kind}_click_to_feedback_s"].append(seconds)
        settle(page)
        page.locator(NEXT).first.click()
        settle(page)
    wait_for_any(page, [RESULT])
    page.goto(f"{url}/check?module={module}")
    wait_for_any(page, ["button:has-text('Start the readiness check')"])
    page.locator("button:has-text('Start the readiness check')").click()
    last = 0.0
    for number in range(1, 41):
        state = sitting_state(page, after=number - 1, review=False, timeout_s=300)
        if state == "results":
            break
        if state != f"question {number}":
            raise AssertionError(f"expected question {number}, found {state}")
        _kind, last = _answer(page, think)
    page.wait_for_selector(RESULT, timeout=300_000)
    out["last_submit_to_results_s"] = last
    context.close()


def keep_evidence(state_dir: Path, url: str, browser: Any) -> None:
    """What a failed run leaves in tests/e2e/artifacts/: each page's screenshot, the server's log, whether the
    server still answers its health check, and (with py-spy installed) every thread's stack of the server."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for n, page in enumerate(pg for context in browser.contexts for pg in context.pages):
        page.screenshot(path=str(ARTIFACTS / f"bench-failure-{n}.png"), full_page=True)
    notes = []
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as r:
            notes.append(f"health: {r.status} {r.read().decode().strip()}")
    except OSError as exc:
        notes.append(f"health: no answer ({exc})")
    pid = (state_dir / "server.pid").read_text().strip()
    notes.append(f"server pid {pid}: {'alive' if Path(f'/proc/{pid}').exists() else 'gone'}")
    if shutil.which("py-spy") and Path(f"/proc/{pid}").exists():
        dump = subprocess.run(["py-spy", "dump", "--pid", pid, "--locals"], capture_output=True, text=True,
                              timeout=60)
        notes.append(dump.stdout + dump.stderr)
    (ARTIFACTS / "bench-failure-server.txt").write_text("\n".join(notes))
    shutil.copy(state_dir / "server.log", ARTIFACTS / "bench-failure-server.log")
    print(f"bench_app: the failed run's evidence is in {ARTIFACTS}/bench-failure-*", file=sys.stderr)


def summary(values: list[float]) -> dict[str, float | int]:
    return {"min": round(min(values), 3), "median": round(statistics.median(values), 3),
            "max": round(max(values), 3), "n": len(values)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--module", default="model-parallelism")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--busy", type=int, default=0, help="busy loops to run meanwhile (a loaded machine)")
    parser.add_argument("--questions", type=int, default=6, help="practice questions per run (reveal each)")
    parser.add_argument("--think", type=float, default=3.0,
                        help="seconds a candidate spends on a question before Submit (the app grades ahead meanwhile)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    runs: list[dict[str, Any]] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                runs.append(one_run(args.module, args.questions, args.think, browser))
                print(json.dumps({"run": len(runs), **runs[-1]}), file=sys.stderr)
            browser.close()
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    keys = ["run_to_first_page_s", "run_to_model_ready_s", "run_to_first_graded_answer_s", "last_submit_to_results_s"]
    out: dict[str, Any] = {}
    for k in keys:
        values = [r[k] for r in runs if k in r]
        out[k] = summary(values) if values else None
    for k in ("short_click_to_feedback_s", "mcq_click_to_feedback_s"):
        values = [v for r in runs for v in r[k]]
        out[k] = summary(values) if values else None
    out.update(runs=args.runs, busy_loops=args.busy, think_s=args.think, cpus=os.cpu_count(),
               load_before=[round(x, 2) for x in load_before], load_after=[round(x, 2) for x in os.getloadavg()])
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
