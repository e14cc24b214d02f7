"""`coach eval numeric`: the numeric check's figure on the bank (see coach.evals.numeric)."""

from __future__ import annotations

from pathlib import Path

import typer


def eval_numeric(
    as_json: bool = typer.Option(False, "--json", help="Print JSON"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
    details: bool = typer.Option(False, "--details", help="Also list every miss and what was not probed"),
) -> None:
    """Wrong-formula numbers in the model answers marked contradicted, right numbers in other units still met,
    and the model answers' scores, with the numeric check on and off."""
    from coach.cli import _root
    from coach.cli_grading import _embedder, _print
    from coach.content.loader import load_bank
    from coach.evals.numeric import numeric_figure
    from coach.grading.offline.grader import EmbeddingGrader

    bank = load_bank(_root(root))
    embedder = _embedder()
    result = numeric_figure(bank, EmbeddingGrader(embedder), EmbeddingGrader(embedder, check_numbers=False))
    if not details:
        result["not_probed"] = len(result["not_probed"])
        result["misconception_coverage"]["without"] = len(result["misconception_coverage"]["without"])
        for part, key in (("wrong_values", "not_contradicted"), ("wrong_values", "misconception_not_named"),
                          ("slips", "other"), ("right_value_rewrites", "not_met"), ("model_answers", "changed")):
            result[part][key] = len(result[part][key])
    _print(result, as_json)


def register(eval_app: typer.Typer) -> None:
    eval_app.command("numeric")(eval_numeric)
