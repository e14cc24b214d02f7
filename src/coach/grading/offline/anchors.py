"""Graded examples of the same question as anchors (k-NN style, as in PrairieLearn or c-rater).

An answer close to answers a human graded high is likely good, and close to low-graded ones likely poor.
Only the examples given explicitly with the target are used, never the other answers being graded.
"""

from __future__ import annotations

import numpy as np

from coach.grading.offline.encoding import Encoded
from coach.grading.offline.lexical import content_set

K = 5
TEMPERATURE = 0.05  # softmax temperature on cosine similarity for the weighted vote


def similarities(ans: Encoded, examples: list[tuple[Encoded, float]], matrix: np.ndarray | None = None,
                 stems: list[frozenset[str]] | None = None) -> np.ndarray:
    """Closeness of the answer to each example: the mean of sentence cosine and content-word overlap (Jaccard),
    so short answers that differ in one key word are told apart."""
    vecs = matrix if matrix is not None else np.stack([e.sent for e, _ in examples])
    cos = vecs @ ans.sent
    ex_stems = stems if stems is not None else [content_set(e.text) for e, _ in examples]
    mine = content_set(ans.text)
    jac = np.array([len(mine & s) / len(mine | s) if mine | s else 1.0 for s in ex_stems])
    return np.asarray(0.5 * cos + 0.5 * jac)


def anchor_features(ans: Encoded, examples: list[tuple[Encoded, float]],
                    matrix: np.ndarray | None = None, stems: list[frozenset[str]] | None = None) -> dict[str, float]:
    """k-NN vote of the examples' scores (weights: softmax of cosine), nearest neighbour's score and closeness,
    and how much closer the answer is to good examples than to poor ones. Empty when there are no examples."""
    if not examples:
        return {}
    scores = np.array([s for _, s in examples], dtype=float)
    sims = similarities(ans, examples, matrix, stems)
    order = np.argsort(-sims, kind="stable")[:K]
    top = sims[order]
    w = np.exp((top - top.max()) / TEMPERATURE)
    vote = float(w @ scores[order] / w.sum())
    good, poor = sims[scores >= 0.5], sims[scores < 0.5]
    best_good = float(good.max()) if good.size else 0.0
    best_poor = float(poor.max()) if poor.size else 0.0
    return {
        "knn_vote": vote,
        "knn_top_score": float(scores[order[0]]),
        "knn_top_sim": float(top[0]),
        "knn_margin": best_good - best_poor,
        "knn_mean": float(scores.mean()),
    }
