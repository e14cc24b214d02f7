"""Soft alignment helpers: BERTScore-style word-piece weights and sentence/span matching.

Token weights come from a fixed stoplist and from the question (words the question already says earn little
credit when an answer repeats them), never from other answers.
"""

from __future__ import annotations

import numpy as np

from coach.grading.offline.encoding import Encoded

STOP_WEIGHT = 0.1  # a stopword in a reference still counts a little ("not" is kept as content)
MATCH = 0.7  # a token cosine at or above this counts as the same idea in the hard recall
QUESTION_DEMOTE = 0.2  # weight of a word the question already contains (a reference's, an example's, an answer's)


def piece_weights(enc: Encoded, demote: frozenset[str], demote_factor: float) -> np.ndarray:
    """Weight per word-piece: content words 1, stopwords STOP_WEIGHT, punctuation 0; words whose stem is in
    `demote` (the question's words) are scaled by `demote_factor`; a word split into k pieces shares its weight."""
    n = len(enc.pieces)
    w = np.where(enc.content, 1.0, np.where(enc.alpha, STOP_WEIGHT, 0.0))
    if demote:
        w = w * np.array([demote_factor if s in demote else 1.0 for s in enc.stems])
    counts = np.ones(n)
    start = 0
    for i in range(1, n + 1):
        if i == n or not enc.pieces[i].startswith("##"):
            counts[start:i] = i - start
            start = i
    return np.asarray(w / counts, dtype=np.float64)


def span_match(phrasing_vecs: np.ndarray, ans: Encoded) -> tuple[float, int]:
    """Best cosine between any phrasing and the whole answer or any of its sentences, and the index of the
    answer sentence that matches best (the evidence)."""
    if phrasing_vecs.shape[0] == 0:
        return 0.0, 0
    whole = float(np.max(phrasing_vecs @ ans.sent))
    if ans.span_vecs.shape[0] == 0:
        return whole, 0
    sims = ans.span_vecs @ phrasing_vecs.T
    where = int(np.unravel_index(int(np.argmax(sims)), sims.shape)[0])
    return max(whole, float(sims.max())), where
