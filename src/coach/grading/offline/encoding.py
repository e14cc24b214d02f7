"""Texts as the offline grader sees them: word-pieces with contextual vectors, words, sentences, a sentence vector.

One forward pass per text gives everything (see `SentenceTransformerEmbedder.embed_full`). Embedders that only
offer `embed` (fakes, other providers) still work: token-level signals then fall back to sentence vectors.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

import numpy as np

from coach.grading.offline.lexical import NEGATIONS, STOPWORDS, stem, tokens
from coach.grading.text import sentences
from coach.providers.base import Embedder, FullEncoding, Matrix


@runtime_checkable
class FullEmbedder(Protocol):
    def embed_full(self, texts: Sequence[str]) -> list[FullEncoding]: ...


@dataclass(frozen=True)
class Encoded:
    """One text: word-pieces (vectors L2-normalised), the word each piece belongs to, and its sentences."""

    text: str
    sent: np.ndarray  # sentence vector, L2-normalised
    pieces: list[str]
    vecs: Matrix  # (n_pieces, dim)
    words: list[str]  # the whole lower-cased word each piece belongs to
    stems: list[str]
    content: np.ndarray  # bool per piece: part of a content word (not a stopword, not punctuation)
    alpha: np.ndarray  # bool per piece: part of a word (not punctuation)
    spans: list[str] = field(default_factory=list)  # the sentences of the text
    span_vecs: Matrix = field(default_factory=lambda: np.zeros((0, 1), dtype=np.float32))
    offsets: list[tuple[int, int]] = field(default_factory=list)  # each piece's character span in `text`
    align: Matrix | None = None  # piece vectors for soft alignment, when the embedder gives its own
    # each sentence's vector encoded on its own (`Encoder.with_alone`): a misconception is stated by a sentence,
    # read both on its own and in context (`criteria.claim_views`)
    alone: Matrix | None = None

    @property
    def align_vecs(self) -> Matrix:
        return self.vecs if self.align is None else self.align

    @property
    def n_words(self) -> int:
        return len(_word_starts(self)) if self.pieces else len(tokens(self.text))

    @property
    def has_tokens(self) -> bool:
        return len(self.pieces) > 0


def _word_starts(enc: Encoded) -> list[int]:
    return [i for i, p in enumerate(enc.pieces) if not p.startswith("##") and enc.alpha[i]]


def _words_of(text: str, pieces: list[str], offsets: list[tuple[int, int]]) -> list[str]:
    """The whole word each piece is part of: consecutive pieces glued by '##' form one word."""
    groups: list[list[int]] = []
    for i, p in enumerate(pieces):
        if p.startswith("##") and groups:
            groups[-1].append(i)
        else:
            groups.append([i])
    out = [""] * len(pieces)
    for g in groups:
        word = text[offsets[g[0]][0]: offsets[g[-1]][1]].lower()
        for i in g:
            out[i] = word
    return out


def pooled(enc: Encoded, idx: Sequence[int]) -> np.ndarray | None:
    """The L2-normalised mean of some of a text's piece vectors (None when there are none)."""
    if not len(idx):
        return None
    v = enc.vecs[list(idx)].mean(axis=0)
    return (v / max(float(np.linalg.norm(v)), 1e-9)).astype(np.float32)


def pieces_in(enc: Encoded, start: int, end: int) -> list[int]:
    """Indices of the pieces lying inside the character range [start, end) of the text."""
    return [i for i, (a, b) in enumerate(enc.offsets) if a >= start and b <= end and b > a]


def _sentence_ranges(text: str, offsets: list[tuple[int, int]]) -> list[tuple[str, list[int]]]:
    out: list[tuple[str, list[int]]] = []
    cursor = 0
    for s in sentences(text):
        start = text.find(s, cursor)
        if start < 0:
            start = cursor
        end = start + len(s)
        cursor = end
        idx = [i for i, (a, b) in enumerate(offsets) if a >= start and b <= end and b > a]
        out.append((s, idx))
    return out


def build(text: str, full: FullEncoding) -> Encoded:
    pieces, offsets, vecs, sent, align = full
    words = _words_of(text, pieces, offsets)
    alpha = np.array([any(ch.isalnum() for ch in w) for w in words], dtype=bool)
    content = np.array([a and w not in STOPWORDS and (len(w) > 1 or w.isdigit()) for w, a in zip(words, alpha,
                                                                                                    strict=True)],
                       dtype=bool)
    content |= np.array([w in NEGATIONS for w in words], dtype=bool)
    ranges = _sentence_ranges(text, offsets)
    if len(ranges) <= 1:
        spans = [r[0] for r in ranges] or ([text.strip()] if text.strip() else [])
        span_vecs = sent[None, :] if spans else np.zeros((0, sent.shape[0]), dtype=np.float32)
    else:
        spans, rows = [], []
        for s, idx in ranges:
            if not idx:
                continue
            v = vecs[idx].mean(axis=0)
            spans.append(s)
            rows.append(v / max(float(np.linalg.norm(v)), 1e-9))
        span_vecs = np.stack(rows).astype(np.float32) if rows else sent[None, :]
        if not rows:
            spans = [text.strip()]
    return Encoded(text=text, sent=sent, pieces=pieces, vecs=vecs, words=words, stems=[stem(w) for w in words],
                   content=content, alpha=alpha, spans=spans, span_vecs=span_vecs, offsets=list(offsets),
                   align=align)


class Encoder:
    """Encodes texts with whatever the embedder offers, caching results by text (a text's encoding is fixed)."""

    def __init__(self, embedder: Embedder | Any, cache_size: int = 4096) -> None:
        self.embedder = embedder
        self._cache: OrderedDict[str, Encoded] = OrderedDict()
        self._cache_size = cache_size

    def encode(self, texts: Sequence[str]) -> list[Encoded]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for t, enc in zip(missing, self._encode(missing), strict=True):
                self._cache[t] = enc
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        found: dict[str, Encoded] = {}
        for t in texts:
            hit = self._cache.get(t)
            if hit is None:  # evicted meanwhile (batch larger than the cache)
                hit = self._encode([t])[0]
            found[t] = hit
        return [found[t] for t in texts]

    def encode_one(self, text: str) -> Encoded:
        return self.encode([text])[0]

    def with_alone(self, enc: Encoded, rows: Sequence[int] | None = None) -> Encoded:
        """`enc` with its sentences' vectors each encoded on its own (`Encoded.alone`): those at `rows` (None: all),
        the others kept as pooled in context. A text of one sentence is already its own sentence."""
        if len(enc.spans) <= 1 or enc.span_vecs.shape[0] != len(enc.spans):
            return enc
        picked = list(range(len(enc.spans)) if rows is None else rows)
        alone = enc.span_vecs.copy()
        for i, e in zip(picked, self.encode([enc.spans[i] for i in picked]), strict=True):
            alone[i] = e.sent
        return replace(enc, alone=alone)

    def _encode(self, texts: list[str]) -> list[Encoded]:
        if isinstance(self.embedder, FullEmbedder):
            return [build(t, f) for t, f in zip(texts, self.embedder.embed_full(texts), strict=True)]
        return [self._sentence_only(t, v) for t, v in zip(texts, self.embedder.embed(texts), strict=True)]

    def _sentence_only(self, text: str, vec: np.ndarray) -> Encoded:
        """Fallback without token vectors: sentences embedded one by one, no word-pieces."""
        spans = sentences(text)
        span_vecs = self.embedder.embed(spans) if spans else np.zeros((0, vec.shape[0]), dtype=np.float32)
        empty = np.zeros(0, dtype=bool)
        return Encoded(text=text, sent=np.asarray(vec, dtype=np.float32), pieces=[],
                       vecs=np.zeros((0, vec.shape[0]), dtype=np.float32), words=[], stems=[], content=empty,
                       alpha=empty, spans=spans, span_vecs=np.asarray(span_vecs, dtype=np.float32))
