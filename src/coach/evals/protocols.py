"""The published evaluation protocols, run on the offline grader. Everything fitted is fitted on training data.

- Mohler 2011: Pearson of the grader's score (zero-shot: nothing fitted on Mohler) over the 2,273 published
  answers; RMSE with 12-fold leave-one-assignment-out CV, the mapping (a linear map of the score, or the
  feature model refitted) fitted on the 11 training folds only.
- SemEval-2013 Task 7 2-way (SciEntsBank: UA/UQ/UD; Beetle: UA/UQ): the decision threshold fitted on the
  corpus' train split only; accuracy, macro-F1 and weighted-F1; without examples, and with the train answers of
  the same question as graded examples (only UA questions have any).
- SAF v1 (English): score Pearson/RMSE against the normalised score; the 3-way label by two thresholds fitted
  on the training split (macro-F1); without and with examples.
- Dev sets, no published figures: DigiKlausur (our own reference answers) and the SAF v2 questions absent from
  v1 ("saf-new"): zero-shot Pearson against the 0-2 grade; RMSE by a linear map and the 3-way grade by two
  thresholds, each fitted leave-one-question-out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from coach.evals.datasets import SAF_LABELS, Row
from coach.evals.metrics import best_threshold, best_two_thresholds, classification, pearson, rmse
from coach.evals.runner import Graded, Progress, examples_by_question, grade_rows
from coach.grading.offline.calibration import Model, fit_logistic
from coach.grading.offline.grader import EmbeddingGrader

REFIT_L2 = 1.0


def refit_model(train: Graded, features: Sequence[str], target: np.ndarray | None = None) -> Model:
    """The feature model refitted on training rows (empty answers left out: they score 0 regardless)."""
    y = train.gold if target is None else target
    keep = [i for i, t in enumerate(train.traces) if t.features]
    return fit_logistic([train.traces[i].features for i in keep], y[keep], features, l2=REFIT_L2)


def _r(x: float) -> float:
    return round(float(x), 4)


# ---------------------------------------------------------------- Mohler


def folds_of(groups: Sequence[str]) -> list[str]:
    """The CV folds: one per distinct group (Mohler: the 10 assignments and 2 exams), in natural order."""
    return sorted(set(groups), key=lambda x: (0, int(x), "") if x.isdigit() else (1, 0, x))


def loao_linear_map(scores: np.ndarray, raw: np.ndarray, groups: Sequence[str], top: float = 5.0) -> np.ndarray:
    """Leave-one-group-out: each fold's grades come from a least-squares line fitted on the other folds."""
    g = np.asarray(groups)
    out = np.zeros(len(scores))
    for fold in folds_of(list(groups)):
        test, train = g == fold, g != fold
        a, b = np.polyfit(scores[train], raw[train], 1)
        out[test] = np.clip(a * scores[test] + b, 0, top)
    return out


def loao_refit(graded: Graded, groups: Sequence[str], features: Sequence[str],
               top: float = 5.0) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-group-out with the feature model refitted on the other folds: (top * model output, and that
    output mapped by a line fitted on the training folds' own predictions)."""
    g = np.asarray(groups)
    raw = graded.gold * top
    direct, mapped = np.zeros(len(g)), np.zeros(len(g))
    for fold in folds_of(list(groups)):
        test, train = g == fold, g != fold
        model = refit_model(graded.subset(train), features)
        pred_train, pred_test = graded.subset(train).refit(model), graded.subset(test).refit(model)
        direct[test] = top * pred_test
        a, b = np.polyfit(pred_train, raw[train], 1)
        mapped[test] = np.clip(a * pred_test + b, 0, top)
    return direct, mapped


def mohler(grader: EmbeddingGrader, rows: Sequence[Row], progress: Progress | None = None) -> dict[str, Any]:
    g = grade_rows(grader, rows, progress=progress)
    raw = np.array([r.raw for r in rows])
    groups = [r.group for r in rows]
    linear = loao_linear_map(g.scores, raw, groups)
    refit, refit_linear = loao_refit(g, groups, grader.params.base.features)
    baseline = _fold_mean(raw, groups)
    return {
        "dataset": "mohler2011", "answers": len(rows), "questions": len({r.qkey for r in rows}),
        "folds": len(folds_of(groups)),
        "zero_shot": {"pearson": _r(pearson(g.scores, raw)), "rmse_unmapped": _r(rmse(5 * g.scores, raw))},
        "cv_12fold": {
            "linear_map": {"rmse": _r(rmse(linear, raw)), "pearson": _r(pearson(linear, raw))},
            "refit_model": {"rmse": _r(rmse(refit, raw)), "pearson": _r(pearson(refit, raw))},
            "refit_model_linear_map": {"rmse": _r(rmse(refit_linear, raw)),
                                       "pearson": _r(pearson(refit_linear, raw))},
            "train_mean_baseline_rmse": _r(rmse(baseline, raw)),
        },
    }


def _fold_mean(raw: np.ndarray, groups: Sequence[str]) -> np.ndarray:
    g = np.asarray(groups)
    out = np.zeros(len(raw))
    for fold in folds_of(list(groups)):
        out[g == fold] = raw[g != fold].mean()
    return out


# ---------------------------------------------------------------- SemEval 2-way

SEMEVAL_TESTS = {"test-unseen-answers": "UA", "test-unseen-questions": "UQ", "test-unseen-domains": "UD"}


def _labels(scores: np.ndarray, cut: float) -> list[str]:
    return ["correct" if s >= cut else "incorrect" for s in scores]


def threshold_protocol(train_scores: np.ndarray, train_labels: Sequence[str], tests: dict[str, tuple[np.ndarray,
                       Sequence[str]]]) -> tuple[float, dict[str, dict[str, float]]]:
    """Fit the cut on the training scores only, then score each test split with it."""
    cut = best_threshold(train_scores, np.array([lab == "correct" for lab in train_labels]))
    return cut, {name: _round(classification(list(gold), _labels(s, cut))) for name, (s, gold) in tests.items()}


def semeval(grader: EmbeddingGrader, rows: Sequence[Row], corpus: str,
            progress: Progress | None = None) -> dict[str, Any]:
    rows = [r for r in rows if r.group.lower() == corpus.lower()]
    train_rows = [r for r in rows if r.split == "train"]
    tests = {SEMEVAL_TESTS[s]: [r for r in rows if r.split == s] for s in SEMEVAL_TESTS
             if any(r.split == s for r in rows)}
    train_labels = [r.label for r in train_rows]
    train = grade_rows(grader, train_rows, progress=progress)
    model = refit_model(train, grader.params.base.features)
    graded = {name: grade_rows(grader, t, progress=progress) for name, t in tests.items()}
    cut, plain = threshold_protocol(train.scores, train_labels,
                                    {n: (g.scores, [r.label for r in g.rows]) for n, g in graded.items()})
    refit_cut, refit = threshold_protocol(train.refit(model), train_labels,
                                          {n: (g.refit(model), [r.label for r in g.rows]) for n, g in graded.items()})
    examples = examples_by_question(train_rows)
    with_ex: dict[str, Any] = {}
    seen = {n: t for n, t in tests.items() if any(r.qkey in examples for r in t)}
    ex_cut = 0.0
    if seen:
        train_ex = grade_rows(grader, train_rows, examples, leave_one_out=True, progress=progress)
        ex_graded = {n: grade_rows(grader, t, examples, progress=progress) for n, t in seen.items()}
        ex_cut, with_ex = threshold_protocol(train_ex.scores, train_labels,
                                             {n: (g.scores, [r.label for r in g.rows]) for n, g in ex_graded.items()})
    for name in tests:
        with_ex.setdefault(name, "no training answers for these questions (same as no_examples)")
    return {"corpus": corpus, "train_answers": len(train_rows), "threshold": _r(cut),
            "refit_threshold": _r(refit_cut), "examples_threshold": _r(ex_cut), "no_examples": plain,
            "refit_no_examples": refit, "with_examples": with_ex}


def _round(d: dict[str, float]) -> dict[str, float]:
    return {k: (int(v) if k == "n" else _r(v)) for k, v in d.items()}


# ---------------------------------------------------------------- SAF


def _saf_labels(scores: np.ndarray, cuts: tuple[float, float]) -> list[str]:
    return [SAF_LABELS[int(s >= cuts[0]) + int(s >= cuts[1])] for s in scores]


def _saf_block(g: Graded, scores: np.ndarray, cuts: tuple[float, float],
               line: tuple[float, float] | None = None) -> dict[str, Any]:
    """Label figures by the two cuts; score Pearson and RMSE (also after a line fitted on training, if given)."""
    gold = [r.label for r in g.rows]
    out: dict[str, Any] = _round(classification(gold, _saf_labels(scores, cuts)))
    out.update(pearson=_r(pearson(scores, g.gold)), rmse=_r(rmse(scores, g.gold)))
    if line is not None:
        out["rmse_train_line"] = _r(rmse(np.clip(line[0] * scores + line[1], 0, 1), g.gold))
    return out


def _line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    a, b = np.polyfit(x, y, 1)
    return float(a), float(b)


def saf(grader: EmbeddingGrader, rows: Sequence[Row], progress: Progress | None = None) -> dict[str, Any]:
    train_rows = [r for r in rows if r.split == "training"]
    tests = {"UA": [r for r in rows if r.split == "unseen_answers"],
             "UQ": [r for r in rows if r.split == "unseen_questions"]}
    train = grade_rows(grader, train_rows, progress=progress)
    y_train = np.array([SAF_LABELS.index(r.label) for r in train_rows])
    cuts = best_two_thresholds(train.scores, y_train)
    model = refit_model(train, grader.params.base.features)
    refit_cuts = best_two_thresholds(train.refit(model), y_train)
    mean = float(train.gold.mean())
    out: dict[str, Any] = {"version": "v1", "train_answers": len(train_rows), "label_thresholds": list(map(_r, cuts)),
                           "no_examples": {}, "refit_no_examples": {}, "with_examples": {}, "train_mean_rmse": {}}
    for name, test_rows in tests.items():
        g = grade_rows(grader, test_rows, progress=progress)
        out["no_examples"][name] = _saf_block(g, g.scores, cuts, _line(train.scores, train.gold))
        out["refit_no_examples"][name] = _saf_block(g, g.refit(model), refit_cuts)
        out["train_mean_rmse"][name] = _r(rmse(np.full(len(test_rows), mean), g.gold))
    examples = examples_by_question(train_rows)
    train_ex = grade_rows(grader, train_rows, examples, leave_one_out=True, progress=progress)
    ex_cuts = best_two_thresholds(train_ex.scores, y_train)
    g = grade_rows(grader, tests["UA"], examples, progress=progress)
    out["with_examples"]["UA"] = _saf_block(g, g.scores, ex_cuts, _line(train_ex.scores, train_ex.gold))
    out["with_examples"]["UQ"] = "no training answers for these questions (same as no_examples)"
    return out


# ---------------------------------------------------------------- dev sets: DigiKlausur, SAF v2 new questions


def logo_two_thresholds(scores: np.ndarray, labels: np.ndarray, groups: Sequence[str]) -> np.ndarray:
    """Leave-one-group-out 3-way labels (0/1/2): each fold is cut by thresholds fitted on the other folds."""
    g = np.asarray(groups)
    out = np.zeros(len(scores), dtype=int)
    for fold in folds_of(list(groups)):
        test, train = g == fold, g != fold
        low, high = best_two_thresholds(scores[train], labels[train])
        out[test] = (scores[test] >= low).astype(int) + (scores[test] >= high).astype(int)
    return out


def digiklausur(grader: EmbeddingGrader, rows: Sequence[Row], progress: Progress | None = None) -> dict[str, Any]:
    return {"dataset": "digiklausur_nn_exam",
            "references": "ours, written blind to the answers (coach/data/digiklausur_references.csv)",
            **per_question(grader, rows, progress)}


def saf_new(grader: EmbeddingGrader, rows: Sequence[Row], progress: Progress | None = None) -> dict[str, Any]:
    return {"dataset": "saf_v2_questions_absent_from_v1", "grade": "3-way label (0, 1, 2); score scaled to [0, 1]",
            **per_question(grader, rows, progress)}


def per_question(grader: EmbeddingGrader, rows: Sequence[Row], progress: Progress | None = None) -> dict[str, Any]:
    """Zero-shot Pearson against the 0/1/2 grade (`raw`) and the scaled score (`gold`); RMSE of a linear map and
    the 3-way grade by two thresholds, each fitted leave-one-question-out."""
    g = grade_rows(grader, rows, progress=progress)
    raw, gold = np.array([r.raw for r in rows]), np.array([r.gold for r in rows])
    groups = [r.qkey for r in rows]
    linear = loao_linear_map(g.scores, raw, groups, top=2.0)
    labels = logo_two_thresholds(g.scores, raw.astype(int), groups)
    per_q = [pearson(g.scores[np.asarray(groups) == q], raw[np.asarray(groups) == q]) for q in folds_of(groups)]
    return {
        "answers": len(rows), "questions": len(set(groups)),
        "zero_shot": {"pearson": _r(pearson(g.scores, raw)), "mean_pearson_within_question": _r(float(np.mean(per_q))),
                      "pearson_score": _r(pearson(g.scores, gold))},
        "cv_leave_one_question_out": {
            "linear_map": {"rmse": _r(rmse(linear, raw)), "pearson": _r(pearson(linear, raw))},
            "train_mean_baseline_rmse": _r(rmse(_fold_mean(raw, groups), raw)),
            "grade_3way": _round(classification([str(int(x)) for x in raw], [str(x) for x in labels])),
        },
    }
