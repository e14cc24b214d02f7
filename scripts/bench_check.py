"""Benchmark: wall time to grade a whole 10-question readiness check offline, as the results page does.

    python scripts/bench_check.py [--runs 5] [--cross | --no-check] [--ahead] [--paraphrases]

Each run draws a seeded readiness check from the real bank (the modules in turn), answers each MCQ at random
and each short item with the first two sentences of its model answer, then grades it with a fresh grader: the
models are loaded and warm, but no answer, target, pair or per-text result is cached. `--ahead` first encodes
the short items' targets, as the app's grade-ahead does while the candidate answers. By default the two shipped
cross-encoders check contradiction candidates, as the app grades; `--cross` reads every criterion with the first;
`--no-check` grades with the bi-encoder alone. `--paraphrases` answers each short item with a colleague's
paraphrase from `devsets/paraphrases.yaml` instead: the model answer's own sentences are right texts the check
weighs a span against, so they send it no candidate to read. Prints JSON: each run's seconds, the median, and
the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from coach.config import get_settings
from coach.content.loader import load_bank
from coach.evals.bench import clear_model_caches, clear_text_caches
from coach.evals.devsets import DEFAULT_DIR, load
from coach.evals.sample_check import answered_check
from coach.grading.attempt import grade_attempt, target_for
from coach.grading.offline.grader import EmbeddingGrader
from coach.providers.registry import default_embedder
from coach.service.grading import settings_scorers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cross", action="store_true", help="read with the shipped cross-encoder")
    parser.add_argument("--no-check", action="store_true", help="no cross-encoder at all: the bi-encoder alone")
    parser.add_argument("--ahead", action="store_true", help="encode the targets first, as the grade-ahead does")
    parser.add_argument("--paraphrases", action="store_true", help="answer short items with the dev paraphrases")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    bank = load_bank(get_settings().content_dir)
    embedder = default_embedder()
    pair_scorer, checker = settings_scorers(cross=args.cross, check=not args.no_check)  # as the app builds them
    scorer = pair_scorer or checker
    embedder.embed(["warm up"])
    load_before = os.getloadavg()[0]
    seconds = []
    answers = {r["item"]: r["answer"] for r in load(DEFAULT_DIR, "paraphrases")} if args.paraphrases else None
    for seed in range(7, 7 + args.runs):
        attempt = answered_check(bank, sorted(bank.modules)[seed % len(bank.modules)], seed, answers)
        clear_model_caches(embedder, scorer)  # cold: no vector, score or per-text work is cached
        clear_text_caches()
        grader = EmbeddingGrader(embedder, pair_scorer=pair_scorer, checker=checker)
        if args.ahead:
            for item in attempt.items:
                if item.type == "short":
                    grader.context(target_for(bank, item))
        t0 = time.perf_counter()
        grade_attempt(attempt, bank, grader)
        seconds.append(round(time.perf_counter() - t0, 3))
    print(json.dumps({"runs": seconds, "median_s": statistics.median(seconds), "cross": args.cross,
                      "check": not args.cross and not args.no_check, "ahead": args.ahead,
                      "paraphrases": args.paraphrases,
                      "load_before": round(load_before, 2),
                      "load_after": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
