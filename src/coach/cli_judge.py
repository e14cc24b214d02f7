"""`coach calibrate combine`: refit the judge/embedding blend from human-labelled grades.

The lead wires it with `register(app)`; `register_calibrate(group)` attaches the command to an existing
`calibrate` group instead.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import typer

REQUIRED = ("embedding_score", "judge_score", "human_score")


def read_labelled_csv(path: Path, human_max: float = 1.0) -> list[tuple[float, float, float]]:
    """Rows (embedding_score, judge_score, human_score / human_max); names the line of any bad value."""
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing column(s) {', '.join(missing)} (need {', '.join(REQUIRED)})")
        rows: list[tuple[float, float, float]] = []
        for line, rec in enumerate(reader, start=2):
            try:
                e, j, h = (float(rec[c]) for c in REQUIRED)
            except (TypeError, ValueError):
                raise ValueError(f"{path}:{line}: not a number in {', '.join(REQUIRED)}") from None
            rows.append((e, j, h / human_max))
    return rows


def calibrate_combine(
    data: Path = typer.Option(
        ..., "--data", exists=True, dir_okay=False, help="CSV: embedding_score,judge_score,human_score"
    ),
    human_max: float = typer.Option(1.0, help="Full marks on the human scale (e.g. 5 for 0-5 scores)"),
    max_flag_rate: float = typer.Option(0.15, help="At most this share of answers flagged low-confidence"),
    params: Path | None = typer.Option(None, help="Params file to start from and to write (default: packaged)"),
    write: bool = typer.Option(False, "--write", help="Write the fitted params back to the params file"),
) -> None:
    """Fit the blend weight and disagreement threshold of the judge/embedding combination."""
    from coach.evals.fit_combine import fit_combine_params
    from coach.grading.combine import PARAMS_RESOURCE, load_combine_params

    try:
        rows = read_labelled_csv(data, human_max)
        base = load_combine_params(params)
        fitted, report = fit_combine_params(rows, base, max_flag_rate=max_flag_rate, source=data.name)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    for line in report.lines():
        typer.echo(line)
    text = json.dumps(fitted.model_dump(), indent=2) + "\n"
    if write:
        target = params or Path(__file__).resolve().parent / "data" / PARAMS_RESOURCE
        target.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {target}")
    else:
        typer.echo(text, nl=False)


def register_calibrate(group: typer.Typer) -> None:
    group.command("combine")(calibrate_combine)


def register(app: typer.Typer) -> None:
    """Add `calibrate combine` to the `coach` app."""
    group = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Fit grading parameters on labelled data")
    register_calibrate(group)
    app.add_typer(group, name="calibrate")
