"""`coach train cross-encoder` on a tiny subset: it trains with the library's trainer, writes an adapter the
scorer loads, records its figures, and is reproducible under its seed."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file

from coach.providers.cross_encoder import CrossEncoderScorer, adapter_meta
from coach.providers.cross_encoder_train import TrainConfig, train_cross_encoder

PAIRS = [
    ("the first matrix is split by columns", "Megatron splits the up projection by columns", 0),
    ("the first matrix is split by rows", "Megatron splits the up projection by columns", 2),
    ("the bulb lights", "Megatron splits the up projection by columns", 3),
    ("decode reads every weight per token", "decode is memory-bound", 0),
    ("decode is limited by FLOPs", "decode is memory-bound", 2),
    ("it depends", "decode is memory-bound", 1),
] * 4

TINY = TrainConfig(seed=5, max_steps=2, batch_size=4, max_length=32, validation_share=0.2, threads=1)


def test_tiny_training_writes_a_loadable_reproducible_adapter(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    meta = train_cross_encoder(PAIRS, a, TINY, data={"source": "test"}, version="t1")
    train_cross_encoder(PAIRS, b, TINY, version="t1")
    assert meta["figures"]["steps"] == 2 and meta["pairs"]["validation"] == 5
    assert adapter_meta(a)["version"] == "t1" and adapter_meta(a)["data"] == {"source": "test"}
    libraries = adapter_meta(a)["libraries"]  # what a bitwise rerun needs
    assert libraries["torch"] == importlib.metadata.version("torch") and libraries["peft"]
    wa, wb = load_file(str(a / "adapter_model.safetensors")), load_file(str(b / "adapter_model.safetensors"))
    assert wa.keys() == wb.keys() and all(np.array_equal(wa[k], wb[k]) for k in wa)
    assert any("classifier" in k for k in wa) and any("lora" in k for k in wa)
    scores = CrossEncoderScorer(a).score_pairs([PAIRS[0][:2]])
    assert scores.shape == (1, 4)
