"""Metrics of the published protocols, in plain numpy (no scikit-learn at run time)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size < 2 or a.std() == 0 or b.std() == 0:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def rmse(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(np.sqrt(np.mean((a - b) ** 2))) if a.size else 0.0


def accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    return float(np.mean([g == p for g, p in zip(gold, pred, strict=True)])) if gold else 0.0


def f1_per_class(gold: Sequence[str], pred: Sequence[str]) -> dict[str, tuple[float, int]]:
    """Per gold class: (F1, support). Classes only predicted, never gold, are left out (as scikit-learn's
    weighted average gives them no weight; for the macro average they count, see `macro_f1`)."""
    out: dict[str, tuple[float, int]] = {}
    for c in sorted(set(gold) | set(pred)):
        tp = sum(g == c and p == c for g, p in zip(gold, pred, strict=True))
        fp = sum(g != c and p == c for g, p in zip(gold, pred, strict=True))
        fn = sum(g == c and p != c for g, p in zip(gold, pred, strict=True))
        f1 = 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)
        out[c] = (f1, tp + fn)
    return out


def macro_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    per = f1_per_class(gold, pred)
    return float(np.mean([f for f, _ in per.values()])) if per else 0.0


def weighted_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    per = f1_per_class(gold, pred)
    total = sum(n for _, n in per.values())
    return float(sum(f * n for f, n in per.values()) / total) if total else 0.0


def classification(gold: Sequence[str], pred: Sequence[str]) -> dict[str, float]:
    return {"n": float(len(gold)), "accuracy": accuracy(gold, pred), "macro_f1": macro_f1(gold, pred),
            "weighted_f1": weighted_f1(gold, pred)}


def _binary_f1s(pred: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """F1 of the positive and of the negative class for each column of boolean predictions."""
    tp = (pred & y[:, None]).sum(axis=0)
    fp = (pred & ~y[:, None]).sum(axis=0)
    fn = (~pred & y[:, None]).sum(axis=0)
    tn = (~pred & ~y[:, None]).sum(axis=0)
    f_pos = np.where(tp > 0, 2 * tp / np.maximum(2 * tp + fp + fn, 1), 0.0)
    f_neg = np.where(tn > 0, 2 * tn / np.maximum(2 * tn + fn + fp, 1), 0.0)
    return f_pos, f_neg


def best_threshold(scores: Sequence[float] | np.ndarray, positive: Sequence[bool] | np.ndarray,
                   metric: str = "weighted_f1") -> float:
    """The cut on `scores` (positive when score >= cut) that maximises the metric on these training rows."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(positive, dtype=bool)
    cands = np.unique(s)
    cuts = (cands[:-1] + cands[1:]) / 2 if cands.size > 1 else cands
    if cuts.size > 2000:
        cuts = np.unique(np.quantile(s, np.linspace(0.0005, 0.9995, 2000)))
    if cuts.size == 0:
        return 0.5
    pred = s[:, None] >= cuts[None, :]
    f_pos, f_neg = _binary_f1s(pred, y)
    if metric == "weighted_f1":
        val = (f_pos * y.sum() + f_neg * (~y).sum()) / len(y)
    elif metric == "macro_f1":
        val = (f_pos + f_neg) / 2
    else:
        val = (pred == y[:, None]).mean(axis=0)
    return float(cuts[int(np.argmax(val))])


def best_two_thresholds(scores: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray,
                        grid: int = 60) -> tuple[float, float]:
    """Cuts (low, high) mapping a score to 0 / 1 / 2 that maximise macro-F1 on these training rows."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=int)
    classes = np.unique(y)
    qs = np.unique(np.quantile(s, np.linspace(0.01, 0.99, grid)))
    best, best_val = (float(qs[0]), float(qs[-1])), -1.0
    for i, lo in enumerate(qs):
        for hi in qs[i:]:
            pred = (s >= lo).astype(int) + (s >= hi).astype(int)
            f1s = []
            for c in np.union1d(classes, np.unique(pred)):
                tp = int(np.sum((pred == c) & (y == c)))
                denom = int(np.sum(pred == c)) + int(np.sum(y == c))
                f1s.append(2 * tp / denom if denom else 0.0)
            val = float(np.mean(f1s))
            if val > best_val:
                best, best_val = (float(lo), float(hi)), val
    return best
