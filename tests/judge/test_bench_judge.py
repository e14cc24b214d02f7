"""`coach bench judge`: the judge calls of a readiness check overlap, every short answer is judged, order is kept.

No duration is asserted (the machine's speed is not the test's business): the bench prints the ratio.
"""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from coach.cli import app
from coach.cli_llm import bench_judge
from coach.content.bank import Bank
from coach.grading.judge.llm import LLMJudge
from coach.grading.offline.grader import EmbeddingGrader


@pytest.fixture(scope="module")
def figures(bank: Bank, grader: EmbeddingGrader) -> dict[str, Any]:
    return bench_judge(bank, grader, module="model-parallelism", seed=3, delay_s=0.3, max_concurrency=4)


def test_the_judge_calls_of_a_check_overlap(figures: dict[str, Any]) -> None:
    assert figures["questions"] == 10 and figures["short_answers"] >= 2
    assert figures["max_in_flight"] > 1  # concurrent, not one after another
    assert figures["max_in_flight"] <= figures["max_concurrency"]
    assert figures["judge_calls"] == figures["judged"] == figures["short_answers"]  # every short answer judged
    assert figures["order_kept"] is True
    assert figures["slowest_call_s"] >= 0.3 and figures["ratio"] is not None


def test_the_order_check_catches_grades_given_to_the_wrong_answer(
    bank: Bank, grader: EmbeddingGrader, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = LLMJudge.judge_many
    monkeypatch.setattr(LLMJudge, "judge_many", lambda self, rows: list(reversed(honest(self, rows))))
    shuffled = bench_judge(bank, grader, module="model-parallelism", seed=3, delay_s=0.0, max_concurrency=4)
    assert shuffled["order_kept"] is False


def test_one_call_at_a_time_never_overlaps(bank: Bank, grader: EmbeddingGrader) -> None:
    serial = bench_judge(bank, grader, module="model-parallelism", seed=3, delay_s=0.05, max_concurrency=1)
    assert serial["max_in_flight"] == 1 and serial["judged"] == serial["short_answers"]


def test_the_command_is_registered() -> None:
    result = CliRunner().invoke(app, ["bench", "judge", "--help"])
    assert result.exit_code == 0 and "--delay" in result.output and "--json" in result.output
