"""Offline distractors for every MCQ, as `coach author distractors --offline --n 5 --item ID --json` prints them
(the same library call, one model load for the whole bank): the distribution of valid candidates per item and
every record, for the authoring note. Usage: python scripts/distractor_report.py [-o report.json]"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import time
from pathlib import Path

from coach.authoring.distractors import suggest_distractors
from coach.config import get_settings
from coach.content.loader import load_bank
from coach.content.schema import McqItem
from coach.providers.registry import default_embedder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", "--out", type=Path, default=None)
    parser.add_argument("--n", type=int, default=5)
    args = parser.parse_args()
    bank = load_bank(get_settings().content_dir)
    embedder = default_embedder()
    start = time.perf_counter()
    report: dict[str, list[dict[str, object]]] = {}
    for item in (i for i in bank.items.values() if isinstance(i, McqItem)):
        found = suggest_distractors(bank, item.id, embedder, n=args.n)
        report[item.id] = [a.public() for a in found.best(args.n)]
    counts = [len(v) for v in report.values()]
    sources = collections.Counter(str(r["source"]) for v in report.values() for r in v)
    print(f"{len(counts)} MCQs, {time.perf_counter() - start:.1f} s")
    print(f"valid candidates (top {args.n}) per item: min {min(counts)}, median {statistics.median(counts)}, "
          f"distribution {dict(sorted(collections.Counter(counts).items()))}")
    print(f"sources of the offered candidates: {dict(sources.most_common())}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
