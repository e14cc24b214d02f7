"""Graded examples of the same question as anchors (k-NN style, as in PrairieLearn or c-rater).

An answer close to answers a human graded high is likely good, and close to low-graded ones likely poor.
Only the examples given explicitly with the target are used, never the other answers being graded.
"""

from __future__ import annotations

import numpy as np

from coach.grading.offline.alignment import QUESTION_DEMOTE, piece_weights
from coach.grading.offline.encoding import Encoded
from coach.grading.offline.lexical import content_set

K = 5
TEMPERATURE = 0.05  # softmax temperature on cosine similarity for the weighted vote


def example_weights(ex: Encoded, q_stems: frozenset[str]) -> np.ndarray:
    return piece_weights(ex, q_stems, QUESTION_DEMOTE) if ex.has_tokens else np.zeros(0)


def token_f1(ans: Encoded, ex: Encoded, w_a: np.ndarray, w_e: np.ndarray) -> float:
    """BERTScore-style F1 of the answer against one example: each word-piece's best cosine on the other side,
    weighted by content (`example_weights`, for both sides). A right answer often says what right answers of the
    same question say in the same words, where a sentence vector blurs one changed word."""
    if not (ans.has_tokens and ex.has_tokens) or w_a.sum() <= 0 or w_e.sum() <= 0:
        return float(ans.sent @ ex.sent)
    sims = ex.align_vecs @ ans.align_vecs.T
    recall = float(w_e @ sims.max(axis=1) / w_e.sum())
    precision = float(w_a @ sims.max(axis=0) / w_a.sum())
    return 2 * recall * precision / (recall + precision) if recall + precision > 0 else 0.0


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


def _best(values: np.ndarray, among: np.ndarray) -> float:
    """The largest of `values` where `among` holds (0 where it holds nowhere)."""
    return float(values[among].max()) if among.any() else 0.0


def anchor_features(ans: Encoded, examples: list[tuple[Encoded, float]],
                    matrix: np.ndarray | None = None, stems: list[frozenset[str]] | None = None,
                    q_stems: frozenset[str] = frozenset(),
                    weights: list[np.ndarray] | None = None) -> dict[str, float]:
    """k-NN vote of the examples' scores (weights: softmax of cosine), nearest neighbour's score and closeness,
    how much closer the answer is to good examples than to poor ones, and the same by word-piece alignment.
    Empty when there are no examples."""
    if not examples:
        return {}
    scores = np.array([s for _, s in examples], dtype=float)
    sims = similarities(ans, examples, matrix, stems)
    order = np.argsort(-sims, kind="stable")[:K]
    top = sims[order]
    w = np.exp((top - top.max()) / TEMPERATURE)
    vote = float(w @ scores[order] / w.sum())
    good = scores >= 0.5
    best_good, best_poor = _best(sims, good), _best(sims, ~good)
    w_ex = weights if weights is not None else [example_weights(e, q_stems) for e, _ in examples]
    w_ans = example_weights(ans, q_stems)
    f1 = np.array([token_f1(ans, e, w_ans, w) for (e, _), w in zip(examples, w_ex, strict=True)])
    best_good_f1 = _best(f1, good)
    return {
        "knn_tok_good": best_good_f1,
        "knn_tok_margin": best_good_f1 - _best(f1, ~good),
        "knn_vote": vote,
        "knn_top_score": float(scores[order[0]]),
        "knn_top_sim": float(top[0]),
        "knn_margin": best_good - best_poor,
        "knn_mean": float(scores.mean()),
    }
