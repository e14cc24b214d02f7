"""Benchmark: the injection detector on a labelled set of texts, kept outside the repo.

    python scripts/bench_injection.py SET.csv [SET2.csv ...] [--show]

Each CSV has columns `kind` ("injection" or "legit") and `text` (others, such as `id` and `style`, are
ignored). Prints, per file, the share of injections detected and the share of legitimate texts flagged, as
JSON; `--show` also lists the misses and false alarms. With the judge off, a detected sentence earns no credit,
so both figures matter.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from coach.grading.guards.injection import detect_injection


def measure(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    bad = [r for r in rows if r.get("kind") not in ("injection", "legit") or not (r.get("text") or "").strip()]
    if bad:
        raise SystemExit(f"{path}: {len(bad)} row(s) without kind injection|legit and a text")
    out: dict[str, Any] = {"file": str(path), "misses": [], "false_alarms": []}
    for kind, key, missed in (("injection", "detected", "misses"), ("legit", "flagged", "false_alarms")):
        texts = [r["text"] for r in rows if r["kind"] == kind]
        hits = [detect_injection(t).detected for t in texts]
        out[kind] = {"n": len(texts), key: sum(hits), "share": round(sum(hits) / len(texts), 4) if texts else None}
        out[missed] = [t for t, h in zip(texts, hits, strict=True) if h != (kind == "injection")]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--show", action="store_true", help="list the misses and false alarms")
    args = parser.parse_args(argv)
    results = [measure(p) for p in args.sets]
    if not args.show:
        for r in results:
            r.pop("misses")
            r.pop("false_alarms")
    json.dump(results, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
