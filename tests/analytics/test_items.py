"""Item analysis on synthetic attempts whose statistics are computed independently here (numpy/scipy)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
from scipy import stats
from typer.testing import CliRunner

from coach.analytics.items import item_stats
from coach.analytics.records import MemoryResponseSource, ResponseRecord
from coach.analytics.report import items_report
from coach.cli import app

OPTIONS = ["key", "near miss", "common error", "never chosen"]


def synthetic(n: int, seed: int, discriminating: bool = True) -> list[ResponseRecord]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        ability = rng.random()
        rest = round(ability * 9 + rng.random(), 3)  # the other nine items
        p = ability if discriminating else 1 - ability
        correct = rng.random() < p
        chosen = "key" if correct else rng.choice(["near miss", "common error"])
        score = 1.0 if correct else 0.0
        out.append(ResponseRecord(attempt_id=f"a{k}", candidate_id=f"c{k}", item_id="q", item_version=1, type="mcq",
                                  chosen_text=chosen, chosen_index=OPTIONS.index(chosen), score=score,
                                  attempt_total=rest + score))
    return out


def test_statistics_match_an_independent_computation() -> None:
    records = synthetic(400, seed=3)
    got = item_stats(records, key_text="key", option_texts=OPTIONS)
    scores = np.array([r.score for r in records])
    rest = np.array([r.attempt_total - r.score for r in records])
    assert got.facility == float(scores.mean())
    assert abs(got.point_biserial - stats.pointbiserialr(scores, rest).statistic) < 1e-12  # type: ignore[operator]
    n = round(0.27 * len(records))
    order = np.argsort(rest, kind="stable")
    assert abs(got.upper_lower - (scores[order[-n:]].mean() - scores[order[:n]].mean())) < 1e-12  # type: ignore[operator]
    chosen = [r.chosen_text for r in records]
    assert got.options == {t: chosen.count(t) / len(records) for t in OPTIONS}
    assert any("never chosen" in f and "< 5%" in f for f in got.flags)
    assert got.point_biserial > 0.3  # type: ignore[operator]


def test_flags() -> None:
    bad = item_stats(synthetic(300, seed=4, discriminating=False), key_text="key", option_texts=OPTIONS)
    assert any(f.startswith("negative discrimination") for f in bad.flags)
    few = item_stats(synthetic(12, seed=5), key_text="key", option_texts=OPTIONS)
    assert few.flags == ("too few responses to say: 12 of the 30 needed",)
    easy = [r.model_copy(update={"score": 1.0, "chosen_text": "key"}) for r in synthetic(40, seed=6)]
    assert any("almost everyone" in f for f in item_stats(easy, key_text="key").flags)


def test_criterion_rates_for_short_answers() -> None:
    verdicts = ["met", "met", "partial", "missed", "contradicted"]
    records = [ResponseRecord(attempt_id=f"a{k}", candidate_id="c", item_id="s", item_version=1, type="short",
                              score=0.5, criteria={"serial": verdicts[k % 5], "why": "met"}, attempt_total=5.0)
               for k in range(50)]
    got = item_stats(records)
    assert got.criteria["serial"] == {"contradicted": 0.2, "met": 0.4, "missed": 0.2, "partial": 0.2}
    assert got.criteria["why"] == {"met": 1.0}


def test_cli_reads_a_jsonl_export(tmp_path: Path) -> None:
    export = tmp_path / "responses.jsonl"
    export.write_text("\n".join(r.model_dump_json() for r in synthetic(60, seed=7)) + "\n")
    result = CliRunner().invoke(app, ["analytics", "items", "--json", "--from", str(export)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (item,) = data["items"]
    assert item["item_id"] == "q" and item["responses"] == 60 and set(item) >= {"facility", "point_biserial",
                                                                                   "upper_lower", "options", "flags"}
    export.write_text('{"attempt_id": "a"}\n')
    bad = CliRunner().invoke(app, ["analytics", "items", "--from", str(export)])
    assert bad.exit_code == 1 and "responses.jsonl:1" in bad.output
    assert items_report(MemoryResponseSource(synthetic(5, seed=1)))[0].responses == 5
