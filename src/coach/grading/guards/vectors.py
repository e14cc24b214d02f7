"""Vectors for the anti-gaming guards without another forward pass of the model.

The guards compare the answer, its sentences and its clauses with the target's texts. Encoding each sentence
and clause on its own cost several forward passes per answer (grading ran at about an eighth of the raw
embedding speed). Here the answer's parts are mean-pooled from the contextual piece vectors of the answer's one
forward pass, and the target's texts come from the encoder's cache (encoded once per target). A clause on
either side is pooled from the pieces of its own text whose words it contains.

What a text maps to depends only on the answer and the target, never on what else was graded before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from coach.grading.guards.lexical import stem
from coach.grading.guards.negation_words import phrase_matches
from coach.grading.offline.encoding import Encoded, Encoder, pieces_in, pooled
from coach.grading.text import sentences
from coach.providers.base import Embedder, Matrix

_WORD = re.compile(r"[a-z0-9]+")


@runtime_checkable
class GuardVectors(Protocol):
    def embed(self, texts: Sequence[str]) -> Matrix:
        """Unit vectors of whole texts: the answer, its sentences, the target's texts."""
        ...

    def words(self, source: str, text: str) -> np.ndarray:
        """A unit vector for `text`, a clause cut (and normalised) from `source`."""
        ...


class StandaloneVectors:
    """Every text encoded on its own: for embedders without token vectors (fakes, other providers)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def embed(self, texts: Sequence[str]) -> Matrix:
        return self.embedder.embed(texts)

    def words(self, source: str, text: str) -> np.ndarray:
        return np.asarray(self.embedder.embed([text])[0], dtype=np.float32)


class PooledVectors:
    """The answer's parts pooled from its own token vectors; the target's texts from the encoder."""

    def __init__(self, encoder: Encoder, answer: Encoded, target_vecs: Mapping[str, np.ndarray]) -> None:
        self.encoder = encoder
        self.answer = answer
        self.target_vecs = target_vecs

    def embed(self, texts: Sequence[str]) -> Matrix:
        dim = self.answer.sent.shape[0]
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        return np.stack([self._one(t) for t in texts]).astype(np.float32)

    def words(self, source: str, text: str) -> np.ndarray:
        enc, idx = self._source(source)
        wanted = {stem(w) for w in _WORD.findall(text.lower())}
        if enc.has_tokens:
            hits = [i for i in idx if enc.content[i] and {stem(w) for w in _WORD.findall(enc.words[i])} & wanted]
            for start, end, words in phrase_matches(enc.text):  # "one after another" became "sequentially"
                if {stem(w) for w in _WORD.findall(words)} & wanted:
                    inside = set(pieces_in(enc, start, end)) & set(idx)
                    hits.extend(i for i in sorted(inside) if enc.alpha[i])
            hits = sorted(set(hits))
            vec = pooled(enc, hits) if hits else pooled(enc, idx)
            if vec is not None:
                return vec
        return self._one(source)

    def _one(self, text: str) -> np.ndarray:
        if text in (self.answer.text, self.answer.text.strip()):
            return self.answer.sent
        hit = self.target_vecs.get(text)
        if hit is not None:
            return hit
        if not self.answer.has_tokens:
            return self.encoder.encode_one(text).sent
        idx = self._ranges(text)
        vec = pooled(self.answer, idx) if idx is not None else None
        if vec is None:  # not cut from the answer: pool the answer's pieces sharing its words
            vec = self.words(self.answer.text, text)
        return vec

    def _source(self, source: str) -> tuple[Encoded, list[int]]:
        """The encoding a clause's source text belongs to, and the pieces of that text within it."""
        if source in self.target_vecs or not self.answer.has_tokens:
            enc = self.encoder.encode_one(source)
            return enc, list(range(len(enc.pieces)))
        idx = self._ranges(source)
        return self.answer, idx if idx else list(range(len(self.answer.pieces)))

    def _ranges(self, text: str) -> list[int] | None:
        """Pieces of the answer covered by `text` when it is made of the answer's sentences (None if not)."""
        idx: list[int] = []
        cursor = 0
        for part in sentences(text) or [text.strip()]:
            start = self.answer.text.find(part, cursor)
            if start < 0:
                start = self.answer.text.find(part)
            if start < 0:
                return None
            idx.extend(pieces_in(self.answer, start, start + len(part)))
            cursor = start + len(part)
        return sorted(set(idx))
