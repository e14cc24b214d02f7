"""`coach train cross-encoder`: build the training pairs (public training splits + the bank) and fit the adapter.

Register with `register(app)` from coach.cli. Seeded and reproducible; see docs/cross-encoder-data-card.md for
what it reads and README.md for how long it takes.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

train_app = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help="Train the grader's models")


@train_app.command("cross-encoder")
def train_cross_encoder_command(
    out: Path = typer.Option(..., "--out", help="Folder to write the adapter and cross_encoder.json into"),
    semeval_path: Path = typer.Option(..., "--semeval", help="SemEval-2013 2-way folder (train split used)"),
    saf_path: Path = typer.Option(..., "--saf", help="SAF folder (v1 training split used)"),
    content_dir: Path | None = typer.Option(None, "--content", help="Bank root (default: the configured one)"),
    per_dataset: int = typer.Option(900, "--per-dataset", help="Public answers per corpus (Beetle, SciEntsBank, SAF)"),
    limit: int = typer.Option(0, "--limit", help="Use only the first N pairs after shuffling (0: all)"),
    seed: int = typer.Option(13, "--seed"),
    epochs: float = typer.Option(2.0, "--epochs"),
    max_steps: int = typer.Option(-1, "--max-steps", help="Stop after this many steps (-1: the epochs decide)"),
    threads: int = typer.Option(1, "--threads", help="torch threads (0: torch's default)"),
    version: str = typer.Option("", "--version", help="Adapter version to record (default: today's date)"),
    irrelevant: int = typer.Option(1500, "--irrelevant", help="Shuffled unrelated pairs to add (labelled irrelevant)"),
    lora_layers: str = typer.Option("0,1,2,3,4,5", "--lora-layers", help="Encoder layers to adapt, comma-separated"),
    lora_r: int = typer.Option(16, "--lora-r", help="LoRA rank (alpha is twice the rank)"),
    learning_rate: float = typer.Option(1e-3, "--learning-rate"),
    balance: bool = typer.Option(True, "--balance/--no-balance", help="Weight the loss by inverse label frequency"),
) -> None:
    """Fit the cross-encoder's LoRA adapter and head on training pairs; write them with their figures.

    The defaults are the shipped adapter's settings (version 3, trained with `--threads 2 --version 3` at commit
    9a96bba: today's bank gives other pairs, and today's libraries other weights; docs/cross-encoder-data-card.md)."""
    from coach.config import get_settings
    from coach.content.loader import load_bank
    from coach.evals.datasets import read_saf, read_semeval
    from coach.evals.xenc_pairs import training_pairs
    from coach.providers.cross_encoder_train import TrainConfig, train_cross_encoder

    bank = load_bank(content_dir or get_settings().content_dir)
    public = [r for r in read_semeval(semeval_path) if r.split == "train"]
    public += [r for r in read_saf(saf_path) if r.split == "training"]
    pairs, counts = training_pairs(public, bank, per_dataset, seed, irrelevant=irrelevant)
    if limit > 0:
        pairs = pairs[:limit]
    data = {"sources": ["SemEval-2013 2-way train (SciEntsBank, Beetle), half-A questions",
                        "SAF v1 training, half-A questions", "bank pairs (questions/, rubrics/, misconceptions)",
                        "shuffled pairs of the above sharing at most 2 content words (irrelevant)"],
            "per_dataset": per_dataset, "limit": limit, "counts": counts, "used": len(pairs)}
    layers = tuple(int(x) for x in lora_layers.split(",") if x.strip())
    config = TrainConfig(seed=seed, epochs=epochs, max_steps=max_steps, threads=threads, lora_layers=layers,
                         lora_r=lora_r, lora_alpha=2 * lora_r, learning_rate=learning_rate, balance=balance)
    meta = train_cross_encoder(pairs, out, config, data=data, version=version,
                               say=lambda m: typer.echo(m, err=True))
    typer.echo(json.dumps({"out": str(out), "figures": meta["figures"], "pairs": meta["pairs"]}, indent=2))


def register(app: typer.Typer) -> None:
    app.add_typer(train_app, name="train")
