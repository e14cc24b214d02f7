"""Disk caches in front of the embedder and the cross-encoder, for repeated evaluation runs (one pickle per cache
folder and model).

Caching cannot change a grade: `embed_full` gives a text the same vectors whatever it is encoded with, and the
cross-encoder scores a pair the same whatever it is batched with.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from coach.providers.base import Matrix


def _save(store: dict[str, Any], file: Path, dirty: bool) -> bool:
    """Write the store atomically when it changed; returns the new dirty state (False)."""
    if dirty:
        tmp = file.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump(store, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(file)
    return False


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    def __init__(self, inner: Any, folder: Path) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "embedder")
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        layout = getattr(inner, "full_layout", "")  # token vectors from another batch layout differ slightly
        self.file = folder / f"{self.name}.full{'-' + layout if layout else ''}.pkl"
        self.store: dict[str, Any] = {}
        if self.file.exists():
            with self.file.open("rb") as f:
                self.store = pickle.load(f)
        self.dirty = False

    def embed(self, texts: Sequence[str]) -> Matrix:
        return self.inner.embed(texts)

    def embed_full(self, texts: Sequence[str]) -> list[Any]:
        missing = [t for t in dict.fromkeys(texts) if _key(t) not in self.store]
        if missing:
            for t, enc in zip(missing, self.inner.embed_full(missing), strict=True):
                self.store[_key(t)] = enc
            self.dirty = True
        return [self.store[_key(t)] for t in texts]

    def save(self) -> None:
        self.dirty = _save(self.store, self.file, self.dirty)


class CachedPairScorer:
    """The cross-encoder's pair scores kept on disk, per adapter version (its `name`)."""

    def __init__(self, inner: Any, folder: Path) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "pair-scorer")
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / f"{self.name}.pairs.pkl"
        self.store: dict[str, np.ndarray] = {}
        if self.file.exists():
            with self.file.open("rb") as f:
                self.store = pickle.load(f)
        self.dirty = False

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        keys = [_key(a + "\x00" + b) for a, b in pairs]
        missing = {k: p for k, p in zip(keys, pairs, strict=True) if k not in self.store}
        if missing:
            for k, row in zip(missing, self.inner.score_pairs(list(missing.values())), strict=True):
                self.store[k] = row
            self.dirty = True
        if not keys:
            return self.inner.score_pairs([])
        return np.stack([self.store[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        self.dirty = _save(self.store, self.file, self.dirty)
