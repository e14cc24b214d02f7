"""`coach grade`, `coach eval`, `coach bench grading` and `coach calibrate grader`.

Register with `register(app)` from coach.cli. Output formats are a contract: `coach grade` writes
id,score,confidence,flags (score in [0, 1], flags joined by ';'); `--json` prints one JSON object.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from coach.errors import CoachError
from coach.grading.offline.auto_rubric import auto_target
from coach.grading.score import Score
from coach.grading.target import GradedExample, GradingTarget

eval_app = typer.Typer(
    rich_markup_mode=None, no_args_is_help=True, help="Run a published evaluation protocol on a dataset"
)
bench_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Throughput benchmarks")
calibrate_app = typer.Typer(
    rich_markup_mode=None, no_args_is_help=True, help="Fit the grader's parameters on training data"
)

INPUT_COLUMNS = ("id", "question", "reference_answer", "answer")
EXAMPLE_COLUMNS = ("question", "answer", "score")
CHUNK = 256  # rows encoded per batched pass


class InputError(CoachError):
    """A CSV given to `coach grade` is malformed; the message names the file, row and column."""


def _embedder() -> Any:
    from coach.providers.st_embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def read_input(path: Path) -> list[dict[str, str]]:
    """Rows of an input CSV, checked: every required column present, ids non-empty and unique."""
    rows = _read_csv(path, INPUT_COLUMNS)
    seen: dict[str, int] = {}
    for n, r in enumerate(rows, start=2):
        rid = (r.get("id") or "").strip()
        if not rid:
            raise InputError(f"{path}: row {n}: empty id")
        if rid in seen:
            raise InputError(f"{path}: row {n}: id {rid!r} repeats row {seen[rid]}")
        seen[rid] = n
        if not (r.get("question") or "").strip():
            raise InputError(f"{path}: row {n} (id {rid}): empty question")
        if not (r.get("reference_answer") or "").strip():
            raise InputError(f"{path}: row {n} (id {rid}): empty reference_answer")
    return rows


def read_examples(path: Path) -> dict[str, list[GradedExample]]:
    """Graded examples keyed by normalised question text. `score` is in [0, 1], or out of `max_score`."""
    out: dict[str, list[GradedExample]] = {}
    for n, r in enumerate(_read_csv(path, EXAMPLE_COLUMNS), start=2):
        raw = (r.get("score") or "").strip()
        top_raw = (r.get("max_score") or "").strip()
        try:
            score = float(raw)
            top = float(top_raw) if top_raw else 1.0
        except ValueError:
            raise InputError(f"{path}: row {n}: score {raw!r} (max_score {top_raw!r}) is not a number") from None
        if top <= 0 or not 0.0 <= score <= top:
            raise InputError(f"{path}: row {n}: score {raw} is outside [0, {top:g}]"
                             + ("" if top_raw else " (add a max_score column for other scales)"))
        if not (r.get("question") or "").strip():
            raise InputError(f"{path}: row {n}: empty question")
        if (r.get("answer") or "").strip():
            out.setdefault(_norm(r["question"]), []).append(GradedExample(answer=r["answer"], score=score / top))
    return out


def _read_csv(path: Path, required: Sequence[str]) -> list[dict[str, str]]:
    if not path.exists():
        raise InputError(f"{path}: no such file")
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            header = [h.strip() for h in (reader.fieldnames or [])]
            missing = [c for c in required if c not in header]
            if missing:
                raise InputError(f"{path}: missing column(s) {', '.join(missing)} (found: {', '.join(header)})")
            reader.fieldnames = header
            rows = []
            for n, r in enumerate(reader, start=2):
                if None in r:
                    raise InputError(f"{path}: row {n}: more fields than columns")
                short = [c for c in required if r.get(c) is None]
                if short:  # "1,q,r" is not "1,q,r,": a missing field is a broken row, not an empty answer
                    raise InputError(f"{path}: row {n}: fewer fields than columns (no {', '.join(short)})")
                rows.append({k: v if v is not None else "" for k, v in r.items()})
            return rows
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except csv.Error as exc:
        raise InputError(f"{path}: malformed CSV: {exc}") from None


def grade_row(grader: Any, answer: str, target: GradingTarget, judge: Any = None) -> Score:
    """Grade one answer offline, then, when a judge is given, let it review and combine (bounded)."""
    from coach.grading.combine import grade_with_judge

    score: Score = grader.grade(answer, target)
    return grade_with_judge([(answer, target, score)], judge)[0]  # with no judge, still screened for injection


def grade_command(
    input_csv: Path = typer.Argument(..., help="CSV with columns id,question,reference_answer,answer"),
    output: Path = typer.Option(..., "-o", "--output", help="Where to write id,score,confidence,flags"),
    no_llm: bool = typer.Option(False, "--no-llm", help="Grade offline only, even when a judge is configured"),
    examples: Path | None = typer.Option(
        None, "--examples", help="Graded answers as anchors: a CSV with columns question,answer,score (score in "
        "[0, 1], or add a max_score column); matched to the input by question text"),
) -> None:
    """Grade short answers against reference answers; each row is graded on its own."""
    from coach.grading.offline.grader import EmbeddingGrader

    try:
        rows = read_input(input_csv)
        anchors = read_examples(examples) if examples else {}
    except InputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    judge = None if no_llm else _judge()
    # targets built from a reference have no misconceptions, so the check would read no pair: not loaded
    grader = EmbeddingGrader(_embedder(), pair_scorer=_scorers(None, check=False)[0])
    targets: dict[tuple[str, str], GradingTarget] = {}
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", encoding="utf-8", newline="") as f, \
            typer.progressbar(length=len(rows), label="Grading", file=sys.stderr) as bar:
        out = csv.writer(f)
        out.writerow(["id", "score", "confidence", "flags"])
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start : start + CHUNK]
            pairs = []
            for r in chunk:
                key = (r["question"], r["reference_answer"])
                if key not in targets:
                    targets[key] = auto_target(r["question"], r["reference_answer"],
                                               examples=anchors.get(_norm(r["question"]), ()))
                pairs.append((r["answer"], targets[key]))
            grader.prepare(pairs)  # batched forward passes; each row is still graded on its own
            for r, (answer, target) in zip(chunk, pairs, strict=True):
                score = grade_row(grader, answer, target, judge)
                out.writerow([r["id"], f"{score.value:.4f}", f"{score.confidence:.4f}",
                              ";".join(str(fl) for fl in score.flags)])
                bar.update(1)
    typer.echo(f"graded {len(rows)} answer(s) -> {output}", err=True)


def _judge() -> Any:
    """The judge the settings configure (COACH_LLM_*), or None when it is off."""
    from coach.config import get_settings
    from coach.grading.judge.llm import LLMJudge

    return LLMJudge.from_settings(get_settings())


def _print(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    for line in _flatten(result):
        typer.echo(line)


def _flatten(d: Any, prefix: str = "") -> list[str]:
    if isinstance(d, dict):
        return [line for k, v in d.items() for line in _flatten(v, f"{prefix}{k}.")]
    if isinstance(d, list) and d and isinstance(d[0], dict):
        return [line for i, v in enumerate(d) for line in _flatten(v, f"{prefix}{i}.")]
    return [f"{prefix[:-1]}: {d}"]


def _scorers(cross: bool | None, check: bool | None = None) -> tuple[Any, Any]:
    """(pair_scorer, checker) as the app builds them (service.grading), with a note when one is asked for and no
    adapter is installed."""
    from coach.service.grading import scorer_modes, settings_scorers

    scorer, checker = settings_scorers(cross, check)
    if scorer is None and checker is None and any(scorer_modes(cross, check)):
        typer.echo("note: no cross-encoder adapter is installed; criteria are judged by the bi-encoder alone", err=True)
    return scorer, checker


def _grader(cache_dir: Path | None, guards: bool = True, cross: bool | None = None,
            read_whole: bool | None = None, check: bool | None = None) -> Any:
    """The offline grader as the app builds it (service.grading), with the evals' encoding cache."""
    from coach.grading.offline.grader import EmbeddingGrader

    emb, (scorer, checker) = _embedder(), _scorers(cross, check)
    if cache_dir is not None:
        from coach.evals.cache import CachedEmbedder, CachedPairScorer

        emb = CachedEmbedder(emb, cache_dir)
        scorer = CachedPairScorer(scorer, cache_dir) if scorer is not None else None
        checker = CachedPairScorer(checker, cache_dir) if checker is not None else None
    return EmbeddingGrader(emb, use_guards=guards, context_cache=4096, pair_scorer=scorer, read_whole=read_whole,
                           checker=checker)


def _save_cache(grader: Any) -> None:
    for part in (grader.embedder, grader.pair_scorer, grader.checker):
        save = getattr(part, "save", None)
        if callable(save):
            save()


DATA_OPT = typer.Option(..., "--data", help="Dataset folder (or its tidy CSV)")
CACHE_OPT = typer.Option(None, "--cache-dir", help="Keep encodings here between runs (speed only)")
JSON_OPT = typer.Option(False, "--json", help="Print JSON")
GUARDS_OPT = typer.Option(True, "--guards/--no-guards", help="Apply the anti-gaming guards (default: on)")
CROSS_OPT = typer.Option(None, "--cross/--no-cross",
                         help="Read answers with the cross-encoder (default: COACH_CROSS_ENCODER, off)")
CHECK_OPT = typer.Option(None, "--check/--no-check",
                         help="Without --cross, the cross-encoder checks contradiction candidates "
                              "(default: COACH_CONTRADICTION_CHECK, on)")


@eval_app.command("mohler")
def eval_mohler(data: Path = DATA_OPT, as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
                guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """Mohler 2011: zero-shot Pearson and 12-fold leave-one-assignment-out RMSE."""
    from coach.evals.datasets import read_mohler
    from coach.evals.protocols import mohler

    _run(lambda g: mohler(g, read_mohler(data)), cache_dir, guards, as_json, cross)


@eval_app.command("semeval")
def eval_semeval(data: Path = DATA_OPT, as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
                 corpus: str = typer.Option("both", help="sciEntsBank, beetle or both"),
                 guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """SemEval-2013 Task 7 2-way: UA/UQ/UD, threshold fitted on train, with and without examples."""
    from coach.evals.datasets import read_semeval
    from coach.evals.protocols import semeval

    names = ["sciEntsBank", "beetle"] if corpus == "both" else [corpus]
    _run(lambda g: {n: semeval(g, read_semeval(data, n), n) for n in names}, cache_dir, guards, as_json, cross)


@eval_app.command("saf")
def eval_saf(data: Path = DATA_OPT, as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
             guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """SAF v1 (English): score Pearson/RMSE and 3-way label F1 (thresholds fitted on training)."""
    from coach.evals.datasets import read_saf
    from coach.evals.protocols import saf

    _run(lambda g: saf(g, read_saf(data)), cache_dir, guards, as_json, cross)


@eval_app.command("saf-new")
def eval_saf_new(data: Path = DATA_OPT, as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
                 guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """SAF v2 questions absent from v1 (a dev set): as digiklausur, on the 3-way label."""
    from coach.evals.datasets import read_saf_new
    from coach.evals.protocols import saf_new

    _run(lambda g: saf_new(g, read_saf_new(data)), cache_dir, guards, as_json, cross)


@eval_app.command("digiklausur")
def eval_digiklausur(data: Path = DATA_OPT, as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
                     references: Path | None = typer.Option(
                         None, "--references", help="CSV question_id,reference_answer (default: the packaged one)"),
                     guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """DigiKlausur NN exam: zero-shot Pearson; RMSE and 3-way grade fitted leave-one-question-out."""
    from coach.evals.datasets import read_digiklausur
    from coach.evals.protocols import digiklausur

    _run(lambda g: digiklausur(g, read_digiklausur(data, references)), cache_dir, guards, as_json, cross)


def _run(fn: Any, cache_dir: Path | None, guards: bool, as_json: bool, cross: bool | None = None,
         check: bool | None = None) -> None:
    from coach.evals.datasets import DatasetError

    grader = _grader(cache_dir, guards, cross, check=check)
    try:
        result = fn(grader)
    except DatasetError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    finally:
        _save_cache(grader)
    result["params"] = {k: grader.params.meta.get(k) for k in ("created", "fitted_on")}
    _print(result, as_json)


@bench_app.command("grading")
def bench_grading(data: Path = DATA_OPT, as_json: bool = JSON_OPT,
                  limit: int = typer.Option(0, help="Use only the first N answers (0: all)"),
                  repeats: int = typer.Option(3, help="Timings per side, interleaved; the best is kept"),
                  guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT) -> None:
    """Answers/s of offline grading vs the raw forward passes it needs (both models), and their ratio."""
    from coach.evals.bench import bench

    rows = _bench_rows(data)
    if limit:
        rows = rows[:limit]
    scorer = _scorers(cross, check=False)[0]
    _print(bench(_embedder, rows, repeats=repeats, use_guards=guards,
                 make_scorer=(lambda: scorer) if scorer is not None else None), as_json)


def _bench_rows(data: Path) -> list[Any]:
    from coach.evals.datasets import Row, read_mohler, read_saf, read_semeval

    if data.is_file() and data.suffix == ".csv" and "tidy" not in data.name and "semeval" not in data.name:
        try:
            rows = read_input(data)
        except InputError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        return [Row(dataset="csv", split="all", group="", qkey=r["question"] + "\x00" + r["reference_answer"],
                    question=r["question"], reference=r["reference_answer"], answer=r["answer"], gold=0.0)
                for r in rows]
    name = str(data).lower()
    if "mohler" in name:
        return read_mohler(data)
    if "semeval" in name:
        return read_semeval(data)
    if "saf" in name:
        return read_saf(data)
    typer.echo(f"error: {data}: not a known dataset folder (mohler, semeval, saf) or an input CSV", err=True)
    raise typer.Exit(2)


@calibrate_app.command("grader")
def calibrate_grader(
    semeval_path: Path = typer.Option(..., "--semeval", help="SemEval-2013 2-way dataset folder"),
    saf_path: Path | None = typer.Option(None, "--saf", help="SAF dataset folder (training split used)"),
    mohler_path: Path | None = typer.Option(None, "--mohler", help="Mohler folder: evaluated zero-shot only"),
    output: Path | None = typer.Option(None, "-o", "--output",
                                       help="Params file (default: the shipped one of the path)"),
    cache_dir: Path | None = CACHE_OPT,
    guards: bool = typer.Option(False, "--guards/--no-guards",
                                help="Apply the guards while fitting (they only cap scores; default: off)"),
    cross: bool | None = CROSS_OPT,
) -> None:
    """Fit the grader's models on training splits only and write the versioned params JSON (with the
    cross-encoder: its features too, on half-B questions, into grader_params_cross.json)."""
    from coach.evals.fit_grader import calibrate
    from coach.grading.offline.calibration import shipped_params_path

    grader = _grader(cache_dir, guards, cross, read_whole=True)  # the fit may weight the whole-answer readings
    target = output or shipped_params_path(cross=grader.pair_scorer is not None)
    try:
        params = calibrate(grader, semeval_path, saf_path, mohler_path, progress=_stderr_progress)
    finally:
        _save_cache(grader)
    params.save(target)
    typer.echo(f"wrote {target}")
    _print(dict(params.meta.get("figures", {})), False)


def _stderr_progress(msg: str) -> None:
    typer.echo(msg, err=True)


def register(app: typer.Typer) -> None:
    """Add grade / eval / bench / calibrate to the main `coach` app."""
    app.command("grade")(grade_command)
    app.add_typer(eval_app, name="eval")
    app.add_typer(bench_app, name="bench")
    app.add_typer(calibrate_app, name="calibrate")
