"""Fitting the judge/embedding blend (`coach calibrate combine`) from human-labelled grades.

`rows` are (embedding_score, judge_score, human_score), all in [0, 1]; the fitted `CombineParams` are what
`coach.grading.combine` applies at run time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from coach.evals.metrics import pearson
from coach.grading.combine import CombineParams


@dataclass(frozen=True)
class FitReport:
    n: int
    judge_weight: float
    disagreement_threshold: float
    low_confidence_factor: float
    flagged_rate: float
    mae_embedding: float
    mae_judge: float
    mae_combined: float
    pearson_embedding: float
    pearson_judge: float
    pearson_combined: float

    def lines(self) -> list[str]:
        return [
            f"rows: {self.n}",
            f"judge_weight: {self.judge_weight:.2f}",
            f"disagreement_threshold: {self.disagreement_threshold:.3f} (flags {self.flagged_rate:.1%} of answers)",
            f"low_confidence_factor: {self.low_confidence_factor:.2f}",
            f"MAE vs human  embedding {self.mae_embedding:.3f}  judge {self.mae_judge:.3f}  "
            f"combined {self.mae_combined:.3f}",
            f"Pearson r     embedding {self.pearson_embedding:.3f}  judge {self.pearson_judge:.3f}  "
            f"combined {self.pearson_combined:.3f}",
        ]


def _blend(e: float, j: float, w: float, max_lift: float) -> float:
    return min((1 - w) * e + w * j, e + max_lift)


def fit_combine_params(
    rows: Sequence[tuple[float, float, float]], base: CombineParams, *, max_flag_rate: float = 0.15, source: str = ""
) -> tuple[CombineParams, FitReport]:
    """Fit judge_weight (grid 0..1 by 0.05, least squared error against the human score, ties to the lower
    weight, with max_lift applied as at run time) and the disagreement threshold (the cut on |embedding - judge|
    whose flagged answers have the largest error relative to the rest, flagging at most `max_flag_rate`).
    `rows` are (embedding_score, judge_score, human_score), all in [0, 1]."""
    if len(rows) < 20:
        raise ValueError(f"need at least 20 labelled rows to fit, got {len(rows)}")
    e = [r[0] for r in rows]
    j = [r[1] for r in rows]
    h = [r[2] for r in rows]
    for name, col in (("embedding_score", e), ("judge_score", j), ("human_score", h)):
        bad = [v for v in col if not (0.0 <= v <= 1.0) or math.isnan(v)]
        if bad:
            raise ValueError(f"{name} must be in [0, 1]; found {bad[0]!r}")
    best_w, best_err = 0.0, math.inf
    for step in range(21):
        w = step / 20
        err = sum((_blend(a, b, w, base.max_lift) - c) ** 2 for a, b, c in zip(e, j, h, strict=True))
        if err < best_err - 1e-12:
            best_w, best_err = w, err
    pred = [_blend(a, b, best_w, base.max_lift) for a, b in zip(e, j, strict=True)]
    abs_err = [abs(p - c) for p, c in zip(pred, h, strict=True)]
    gaps = [abs(a - b) for a, b in zip(e, j, strict=True)]
    ordered = sorted(gaps)
    candidates = sorted({ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] for q in range(50, 100, 2)})
    best_t, best_ratio, best_factor = base.disagreement_threshold, -math.inf, base.low_confidence_factor
    for t in candidates:
        flagged = [err for err, g in zip(abs_err, gaps, strict=True) if g > t]
        kept = [err for err, g in zip(abs_err, gaps, strict=True) if g <= t]
        if not flagged or not kept or len(flagged) / len(rows) > max_flag_rate or t <= 0:
            continue
        mean_f, mean_k = sum(flagged) / len(flagged), sum(kept) / len(kept)
        ratio = mean_f / max(mean_k, 1e-6)
        if ratio > best_ratio:
            best_t, best_ratio = t, ratio
            best_factor = min(0.9, max(0.3, 1 / ratio)) if ratio > 0 else base.low_confidence_factor
    flagged_rate = sum(g > best_t for g in gaps) / len(rows)
    report = FitReport(
        n=len(rows),
        judge_weight=best_w,
        disagreement_threshold=best_t,
        low_confidence_factor=best_factor,
        flagged_rate=flagged_rate,
        mae_embedding=sum(abs(a - c) for a, c in zip(e, h, strict=True)) / len(rows),
        mae_judge=sum(abs(b - c) for b, c in zip(j, h, strict=True)) / len(rows),
        mae_combined=sum(abs_err) / len(rows),
        pearson_embedding=pearson(e, h),
        pearson_judge=pearson(j, h),
        pearson_combined=pearson(pred, h),
    )
    fitted = base.model_copy(
        update={
            "version": f"fit-{len(rows)}rows" + (f"-{source}" if source else ""),
            "judge_weight": best_w,
            "disagreement_threshold": max(1e-3, best_t),
            "low_confidence_factor": best_factor,
            "produced_by": f"Fitted by `coach calibrate combine` on {len(rows)} labelled answers"
            + (f" from {source}" if source else "")
            + ". support_floor, max_lift and contradicted_cap "
            "are safety bounds carried over unchanged.",
            "fitted_on": {
                "rows": len(rows),
                "source": source,
                "mae_embedding": round(report.mae_embedding, 4),
                "mae_judge": round(report.mae_judge, 4),
                "mae_combined": round(report.mae_combined, 4),
                "pearson_combined": round(report.pearson_combined, 4),
                "flagged_rate": round(flagged_rate, 4),
            },
        }
    )
    return fitted, report
