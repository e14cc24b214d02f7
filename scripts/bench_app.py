"""Benchmark: time from `streamlit run` to the first rendered page, and time to grade one readiness check.

Usage: python scripts/bench_app.py [--module model-parallelism] [--runs 5]
Prints JSON. Needs Debian's Chromium at /usr/bin/chromium for the first-page figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.server import streamlit_server  # noqa: E402


def first_page_seconds(state: Path) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    with streamlit_server(state) as url:
        healthy = time.monotonic() - start
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector("text=Learning path · AI Inference", timeout=120_000)
            rendered = time.monotonic() - start
            browser.close()
    return {"health_s": round(healthy, 2), "first_page_s": round(rendered, 2)}


def grading_seconds(module: str, runs: int) -> dict[str, float]:
    from coach.config import get_settings
    from coach.content.loader import load_bank
    from coach.grading.attempt import grade_attempt
    from coach.grading.offline.grader import EmbeddingGrader
    from coach.providers.st_embedder import SentenceTransformerEmbedder
    from coach.session.assembly import assemble_readiness
    from coach.session.runner import AttemptKind, advance, record, start

    bank = load_bank(get_settings().content_dir)
    t0 = time.monotonic()
    from coach.providers.cross_encoder import CrossEncoderScorer

    scorer = CrossEncoderScorer() if get_settings().cross_encoder else None  # COACH_CROSS_ENCODER, as the app
    grader = EmbeddingGrader(SentenceTransformerEmbedder(), pair_scorer=scorer)
    load_s = time.monotonic() - t0
    times = []
    for seed in range(runs):
        items = assemble_readiness(bank, module, random.Random(seed))
        attempt = start(AttemptKind.READINESS, module, items, seed)
        for item in items:
            if item.type == "mcq":
                attempt = advance(record(attempt, choice=0))
            else:
                attempt = advance(record(attempt, text=item.model_answer or "x"))
        t = time.monotonic()
        grade_attempt(attempt, bank, grader)
        times.append(time.monotonic() - t)
    return {
        "model_load_s": round(load_s, 2),
        "grade_check_median_s": round(statistics.median(times), 3),
        "grade_check_max_s": round(max(times), 3),
        "runs": runs,
        "shorts_per_check": sum(i.type == "short" for i in items),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--module", default="model-parallelism")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = {
            "startup": first_page_seconds(Path(tmp)),
            "grading": grading_seconds(args.module, args.runs),
            "cpus": os.cpu_count(),
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
