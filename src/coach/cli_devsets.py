"""`coach eval devsets` and `coach eval guards`: the domain dev sets, and the per-guard ablation.

Registered on `cli_grading.eval_app` by importing this module (coach.cli does).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer

from coach.cli_grading import (
    CACHE_OPT,
    CHECK_OPT,
    CROSS_OPT,
    GUARDS_OPT,
    JSON_OPT,
    _grader,
    _print,
    _run,
    _save_cache,
    eval_app,
)


@eval_app.command("devsets")
def eval_devsets(as_json: bool = JSON_OPT, cache_dir: Path | None = CACHE_OPT,
                 folder: Path | None = typer.Option(None, "--folder", help="Dev-set folder (default: devsets/)"),
                 guards: bool = GUARDS_OPT, cross: bool | None = CROSS_OPT, check: bool | None = CHECK_OPT) -> None:
    """The domain dev sets against the bank's rubrics: held-out misconceptions, paraphrases, flips, gaming."""
    from coach.config import get_settings
    from coach.content.loader import load_bank
    from coach.evals.devsets import DEFAULT_DIR, evaluate

    bank = load_bank(get_settings().content_dir)
    _run(lambda g: evaluate(g, bank, folder or DEFAULT_DIR), cache_dir, guards, as_json, cross, check)


@eval_app.command("guards")
def eval_guards(semeval_path: Path = typer.Option(..., "--semeval", help="SemEval-2013 2-way folder (train used)"),
                saf_path: Path = typer.Option(..., "--saf", help="SAF folder (v1 training used)"),
                per_dataset: int = typer.Option(400, "--per-dataset", help="Half-B training answers per dataset"),
                seed: int = typer.Option(0, "--seed"), as_json: bool = JSON_OPT,
                only: str = typer.Option("", "--only", help="Comma-separated guards to leave out one by one "
                                         "(default: every guard)"),
                cache_dir: Path | None = CACHE_OPT, cross: bool | None = CROSS_OPT) -> None:
    """Per-guard ablation on half-B training answers and the dev sets: what each guard still earns."""
    from coach.config import get_settings
    from coach.content.loader import load_bank
    from coach.evals.ablation import ablate, sample
    from coach.evals.cache import CachedEmbedder
    from coach.evals.datasets import read_saf, read_semeval
    from coach.grading.guards.assess import GUARDS
    from coach.grading.offline.grader import EmbeddingGrader

    base = _grader(cache_dir, True, cross)
    emb = base.embedder if cache_dir is not None else CachedEmbedder(base.embedder, Path(tempfile.mkdtemp()))
    rows = sample([*read_semeval(semeval_path), *read_saf(saf_path)], per_dataset, seed)
    bank = load_bank(get_settings().content_dir)
    try:
        result = ablate(lambda skip: EmbeddingGrader(emb, context_cache=4096, pair_scorer=base.pair_scorer,
                                                     checker=base.checker, skip_guards=skip), rows, bank,
                        [g for g in only.split(",") if g] or GUARDS)
    finally:
        _save_cache(base)
    _print(result, as_json)
