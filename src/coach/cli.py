"""The `coach` command. Its output formats are a contract other tools depend on."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from pydantic import BaseModel

from coach.config import get_settings

app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, add_completion=False, help="Interview readiness coach")
bank_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Validate and describe the question bank")
app.add_typer(bank_app, name="bank")

FACTS_DEFAULT = Path("../shared/reference/domain-facts.md")


def _root(root: Path | None) -> Path:
    return root or get_settings().content_dir


def facts_text(path: Path | None, root: Path) -> str | None:
    """The fact sheet beside the checkout, if present (CI and developers have it)."""
    candidate = path or (root / FACTS_DEFAULT)
    return candidate.read_text(encoding="utf-8") if candidate.exists() else None


@bank_app.command("check")
def bank_check(
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
    facts: Path | None = typer.Option(None, help="domain-facts.md to verify literal numbers against"),
    list_unstamped: bool = typer.Option(False, "--unstamped", help="List every item without a page-version stamp"),
) -> None:
    """Validate all content. Exit 0 when valid; otherwise one line per problem naming the file and the id.

    Items whose concept page changed since they were stamped fail ("needs review"); items never stamped are
    reported after the result line as warnings."""
    from coach.content.checks import check_bank
    from coach.content.checks_misconceptions import heldout_statements
    from coach.content.checks_pages import unstamped
    from coach.content.loader import load_bank_collecting

    base = _root(root)
    bank, problems = load_bank_collecting(base)
    sheet = facts_text(facts, base)
    if not problems:
        problems = check_bank(bank, sheet, heldout=heldout_statements(base))
    for problem in problems:
        typer.echo(str(problem))
    if problems:
        typer.echo(f"{len(problems)} problem(s)", err=True)
        raise typer.Exit(1)
    note = "" if sheet is not None else " (fact sheet not found: literal numbers not verified)"
    typer.echo(f"ok: {len(bank.items)} items, {len(bank.rubrics)} rubrics, {len(bank.concepts)} concepts{note}")
    missing = unstamped(bank)
    if missing:
        shown = missing if list_unstamped else missing[:5]
        typer.echo(f"warning: {len(missing)} published item(s) have no concept_version stamp "
                   "(review, then `coach author stamp`)" + ("" if list_unstamped else "; --unstamped lists them"))
        for change in shown:
            typer.echo(f"warning: {change.path} [{change.item_id}]: {change.message}")


@bank_app.command("stats")
def bank_stats(
    as_json: bool = typer.Option(False, "--json", help="Print JSON"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """Counts per module, by difficulty and by type."""
    from coach.content.loader import BankLoadError, load_bank
    from coach.content.stats import bank_stats as compute_stats

    try:
        stats = compute_stats(load_bank(_root(root)))
    except BankLoadError as exc:
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(stats, indent=2))
        return
    for m in stats["modules"]:
        d, t = m["by_difficulty"], m["by_type"]
        typer.echo(
            f"{m['id']:<26} {m['items']:>3} items  easy {d['easy']:>2} medium {d['medium']:>2} "
            f"hard {d['hard']:>2}  mcq {t['mcq']:>2} short {t['short']:>2}"
        )
    typer.echo(f"concepts: {stats['concepts']}")


@bank_app.command("probe")
def bank_probe(
    as_json: bool = typer.Option(False, "--json", help="Print JSON"),
    module: str | None = typer.Option(None, "--module", help="Only this module"),
    show_details: bool = typer.Option(False, "--details", help="List every failing case"),
    stand_ins: str | None = typer.Option(None, "--stand-ins", help="Where a misconception has no statements yet, "
                                         "grade its 'phrasings' or its catalogue 'statement' instead (reported)"),
    root: Path | None = typer.Option(None, help="Content root (default: the project)"),
) -> None:
    """The bank's grading figures per module: model answers that score strong, and attached misconception
    statements marked contradicted on their criterion, with the mean score of each (the offline grader as the
    app builds it)."""
    from coach.content.loader import load_bank
    from coach.evals.bank_probe import StandIns, details, run_probe, table
    from coach.service.grading import offline_grader

    if stand_ins not in (None, "phrasings", "statement"):
        typer.echo(f"--stand-ins takes 'phrasings' or 'statement', not {stand_ins!r}", err=True)
        raise typer.Exit(2)
    bank = load_bank(_root(root))
    if module is not None and module not in bank.modules:
        typer.echo(f"unknown module {module!r}; modules: {', '.join(sorted(bank.modules))}", err=True)
        raise typer.Exit(2)
    mode: StandIns = "phrasings" if stand_ins == "phrasings" else "statement" if stand_ins == "statement" else None
    result = run_probe(bank, offline_grader(), module, stand_ins=mode)
    if as_json:
        out = result.summary()
        if show_details:
            out["failing"] = [o.detail() for o in result.failing()]
        typer.echo(json.dumps(out, indent=2))
        return
    typer.echo(table(result))
    if show_details:
        typer.echo(details(result) or "no failing case")


@bank_app.command("schema")
def bank_schema(out: Path = typer.Option(Path("docs/schema"), help="Folder for the JSON Schema files")) -> None:
    """Export JSON Schemas of the content files, for editors that validate YAML as you type."""
    from coach.content.schema import ItemFile, LearningPath, MisconceptionFile, Module, Rubric

    out.mkdir(parents=True, exist_ok=True)
    models: dict[str, type[BaseModel]] = {"items": ItemFile, "rubric": Rubric, "module": Module, "path": LearningPath,
                        "misconceptions": MisconceptionFile}
    for name, model in models.items():
        (out / f"{name}.schema.json").write_text(json.dumps(model.model_json_schema(), indent=2) + "\n")
        typer.echo(f"wrote {out / f'{name}.schema.json'}")


def _register_subcommands() -> None:
    """Grading, evaluation, benchmark and calibration commands live in their own modules."""
    from coach import (
        cli_analytics,
        cli_author,
        cli_db,
        cli_devsets,
        cli_export,
        cli_grading,
        cli_judge,
        cli_llm,
        cli_numeric,
        cli_train,
    )

    cli_author.register(app)  # author stamp, diff, distractors, draft
    cli_analytics.register(app)  # analytics items
    cli_export.register(app)  # export moodle-xml / gift, import csv
    cli_grading.register(app)  # grade, eval, bench, calibrate grader
    cli_train.register(app)  # train cross-encoder
    assert cli_devsets.eval_app is cli_grading.eval_app  # eval devsets, eval guards
    cli_judge.register_calibrate(cli_grading.calibrate_app)  # calibrate combine
    cli_llm.register(cli_grading.bench_app)  # bench judge
    cli_db.register(app, cli_grading.bench_app)  # db upgrade|status, bench journey
    cli_numeric.register(cli_grading.eval_app)  # eval numeric


_register_subcommands()


def main() -> None:  # pragma: no cover
    app()
