"""Protocols the rest of the coach depends on; concrete providers live beside this file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]
# One text as the grader sees it (`embed_full`): word-pieces (no [CLS]/[SEP]), their character spans in the text,
# L2-normalised contextual token vectors, the L2-normalised mean-pooled sentence vector, and the token vectors
# used for soft alignment.
FullEncoding = tuple[list[str], list[tuple[int, int]], Matrix, np.ndarray, Matrix]


@runtime_checkable
class Embedder(Protocol):
    """Sentence embeddings, L2-normalised, one row per text."""

    name: str

    def embed(self, texts: Sequence[str]) -> Matrix: ...


@runtime_checkable
class TokenEmbedder(Protocol):
    """Contextual token embeddings (L2-normalised rows) for token-level alignment."""

    name: str

    def embed_tokens(self, texts: Sequence[str]) -> list[tuple[list[str], Matrix]]: ...


# What a pair scorer judges of (candidate text, reference or criterion text): one probability per label, in this order.
PAIR_LABELS = ("correct", "partial", "contradicts", "irrelevant")


@runtime_checkable
class PairScorer(Protocol):
    """Reads two texts together (a cross-encoder) and judges the first against the second.

    `score_pairs` returns one row per pair: probabilities over `PAIR_LABELS` summing to 1. A pair's row depends
    on that pair alone, never on the other pairs of the call."""

    name: str

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix: ...


@dataclass(frozen=True)
class ChatMessage:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class ChatReply:
    text: str
    model: str
    finish_reason: str | None = None  # "length" means the reply was truncated


@runtime_checkable
class ChatModel(Protocol):
    """One chat-completions call. Implementations raise ProviderError on any failure."""

    name: str

    def complete(self, messages: Sequence[ChatMessage], *, temperature: float = 0.0,
                 json_mode: bool = True) -> ChatReply: ...
