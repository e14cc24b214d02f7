"""The `coach bank` contract other tools depend on."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from coach.cli import app
from tests.conftest import FACTS, ROOT
from tests.content.test_loader import MCQ, write_tree

runner = CliRunner()


def test_bank_check_passes_on_the_project() -> None:
    result = runner.invoke(app, ["bank", "check", "--root", str(ROOT), "--facts", str(FACTS)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok: ")


def test_bank_check_names_file_and_id_and_exits_non_zero(tmp_path: Path) -> None:
    write_tree(tmp_path, MCQ.replace("difficulty: easy", "difficulty: trivial"))
    result = runner.invoke(app, ["bank", "check", "--root", str(tmp_path)])
    assert result.exit_code == 1
    first = result.output.splitlines()[0]
    assert first.startswith("questions/demo/topic.yaml [demo-q1]: ") and "difficulty" in first


def test_bank_stats_json_shape() -> None:
    result = runner.invoke(app, ["bank", "stats", "--json", "--root", str(ROOT)])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert set(stats) == {"modules", "concepts"} and stats["concepts"] >= 8
    ids = [m["id"] for m in stats["modules"]]
    assert ids == ["inference-fundamentals", "model-parallelism", "distributed-inference", "multi-gpu-serving"]
    for m in stats["modules"]:
        assert set(m) == {"id", "title", "items", "by_difficulty", "by_type"}
        assert set(m["by_difficulty"]) == {"easy", "medium", "hard"} and set(m["by_type"]) == {"mcq", "short"}
        assert m["items"] >= 30 and m["by_difficulty"]["easy"] >= 10 and m["by_difficulty"]["medium"] >= 12
        assert m["by_difficulty"]["hard"] >= 8 and m["by_type"]["short"] >= 0.3 * m["items"]


def test_bank_stats_on_a_broken_tree_is_a_clear_error(tmp_path: Path) -> None:
    write_tree(tmp_path, MCQ.replace("type: mcq", "type: essay"))
    result = runner.invoke(app, ["bank", "stats", "--json", "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "demo-q1" in result.output


def test_bank_probe_rejects_bad_arguments_before_loading_the_model() -> None:
    result = runner.invoke(app, ["bank", "probe", "--stand-ins", "guesses", "--root", str(ROOT)])
    assert result.exit_code == 2 and "'phrasings' or 'statement'" in result.output
    result = runner.invoke(app, ["bank", "probe", "--module", "no-such-module", "--root", str(ROOT)])
    assert result.exit_code == 2 and "unknown module 'no-such-module'" in result.output


def test_bank_probe_json_contract(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The JSON shape, with the model swapped for a scripted grader (the real one runs in tests/evals)."""
    import coach.service.grading as service_grading
    from tests.evals.test_bank_probe import CONTRACT, ScriptedGrader

    monkeypatch.setattr(service_grading, "offline_grader", lambda *a, **k: ScriptedGrader())
    result = runner.invoke(app, ["bank", "probe", "--json", "--module", "model-parallelism", "--root", str(ROOT),
                                 "--stand-ins", "statement", "--details"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    (module,) = out["modules"]
    assert set(module) == CONTRACT and module["id"] == "model-parallelism"
    assert module["model_answers"] > 0 and module["model_answers_strong"] == 1.0  # scripted: models pass
    assert {f["kind"] for f in out["failing"]} <= {"statement"}
    table = runner.invoke(app, ["bank", "probe", "--module", "model-parallelism", "--root", str(ROOT)])
    assert table.exit_code == 0 and table.output.splitlines()[0].split()[:3] == ["module", "models", "strong"]
