"""Protocol logic on tiny synthetic data: folds, thresholds fitted on train only, metrics, refits."""

from __future__ import annotations

import numpy as np
import pytest

from coach.evals.datasets import Row
from coach.evals.metrics import (
    accuracy,
    best_threshold,
    best_two_thresholds,
    macro_f1,
    pearson,
    rmse,
    weighted_f1,
)
from coach.evals.protocols import folds_of, loao_linear_map, loao_refit, threshold_protocol
from coach.evals.runner import Graded, examples_by_question
from coach.grading.offline.calibration import fit_logistic
from coach.grading.offline.grader import Trace


def test_f1_scores_match_hand_computation() -> None:
    gold = ["a", "a", "a", "b", "b", "c"]
    pred = ["a", "a", "b", "b", "c", "c"]
    # a: tp2 fp0 fn1 -> 0.8; b: tp1 fp1 fn1 -> 0.5; c: tp1 fp1 fn0 -> 2/3
    assert macro_f1(gold, pred) == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)
    assert weighted_f1(gold, pred) == pytest.approx((3 * 0.8 + 2 * 0.5 + 1 * 2 / 3) / 6)
    assert accuracy(gold, pred) == pytest.approx(4 / 6)


def test_pearson_and_rmse() -> None:
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert pearson([1, 1, 1], [1, 2, 3]) == 0.0
    assert rmse([0, 0], [3, 4]) == pytest.approx(np.sqrt(12.5))


def test_best_threshold_separates_a_separable_training_set() -> None:
    scores = np.array([0.1, 0.2, 0.3, 0.6, 0.7, 0.9])
    pos = np.array([False, False, False, True, True, True])
    cut = best_threshold(scores, pos)
    assert 0.3 < cut <= 0.6


def test_the_threshold_comes_from_train_only() -> None:
    rng = np.random.default_rng(0)
    train = rng.uniform(size=200)
    train_labels = ["correct" if s > 0.4 else "incorrect" for s in train]
    test = rng.uniform(size=50)
    gold_a = ["correct" if s > 0.8 else "incorrect" for s in test]
    gold_b = ["incorrect"] * 50
    cut_a, res_a = threshold_protocol(train, train_labels, {"UA": (test, gold_a)})
    cut_b, res_b = threshold_protocol(train, train_labels, {"UA": (test, gold_b)})
    assert cut_a == cut_b  # test labels cannot move the cut
    assert 0.35 < cut_a < 0.45
    assert res_a["UA"]["accuracy"] != res_b["UA"]["accuracy"]
    assert res_a["UA"]["n"] == 50


def test_two_thresholds_recover_three_bands() -> None:
    s = np.linspace(0, 1, 90)
    y = np.array([0] * 30 + [1] * 30 + [2] * 30)
    lo, hi = best_two_thresholds(s, y)
    assert 0.28 < lo < 0.4 and 0.62 < hi < 0.72


def test_folds_are_the_groups_in_natural_order() -> None:
    assert folds_of(["10", "2", "1", "2", "12"]) == ["1", "2", "10", "12"]


def test_leave_one_group_out_never_sees_the_test_fold() -> None:
    rng = np.random.default_rng(1)
    groups = [str(g) for g in np.repeat(np.arange(1, 5), 25)]
    scores = rng.uniform(size=100)
    raw = np.clip(5 * scores + rng.normal(0, 0.5, 100), 0, 5)
    base = loao_linear_map(scores, raw, groups)
    changed = raw.copy()
    changed[np.array(groups) == "3"] = 0.0  # corrupt fold 3's gold grades
    again = loao_linear_map(scores, changed, groups)
    in3 = np.array(groups) == "3"
    assert np.allclose(base[in3], again[in3])  # fold 3 predicted without its own grades
    assert not np.allclose(base[~in3], again[~in3])  # the other folds did train on fold 3
    assert base.min() >= 0 and base.max() <= 5


def _trace(x: float) -> Trace:
    return Trace(features={"x": x}, model=0.0, factor=1.0, cap=1.0, credit=0.0, rubric=False)


def test_refit_per_fold_is_fitted_on_training_folds_only() -> None:
    rng = np.random.default_rng(2)
    xs = rng.uniform(size=60)
    groups = [str(g) for g in np.repeat([1, 2, 3], 20)]
    rows = [Row("t", "all", g, "q", "Q", "R", "a", gold=float(x > 0.5)) for x, g in zip(xs, groups, strict=True)]
    graded = Graded(rows, np.zeros(60), [_trace(x) for x in xs])
    direct, _mapped = loao_refit(graded, groups, ["x"])
    assert pearson(direct, xs) > 0.9  # a monotone model of x
    flipped = [Row(r.dataset, r.split, r.group, r.qkey, r.question, r.reference, r.answer,
                   gold=1 - r.gold if r.group == "1" else r.gold) for r in rows]
    direct2, _ = loao_refit(Graded(flipped, np.zeros(60), graded.traces), groups, ["x"])
    in1 = np.array(groups) == "1"
    assert np.allclose(direct[in1], direct2[in1])


def test_trace_combine_applies_contradiction_and_cap() -> None:
    t = Trace(features={}, model=0.9, factor=0.5, cap=0.3, credit=0.0, rubric=False)
    assert t.combine(0.9) == pytest.approx(0.3)
    t = Trace(features={}, model=0.9, factor=0.5, cap=1.0, credit=0.0, rubric=False)
    assert t.combine(0.9) == pytest.approx(0.45)


def test_logistic_fit_orders_by_the_informative_feature() -> None:
    rng = np.random.default_rng(3)
    rows = [{"good": float(v), "noise": float(n)} for v, n in zip(rng.uniform(size=300), rng.uniform(size=300),
                                                                    strict=True)]
    y = [1.0 if r["good"] + rng.normal(0, 0.1) > 0.5 else 0.0 for r in rows]
    m = fit_logistic(rows, y, ["good", "noise"])
    assert m.coef[0] > 3 * abs(m.coef[1])
    assert m.predict({"good": 0.9, "noise": 0.5}) > 0.8 > 0.2 > m.predict({"good": 0.1, "noise": 0.5})


def test_examples_are_grouped_by_question() -> None:
    rows = [Row("s", "train", "c", "q1", "Q1", "R", "a1", gold=1.0), Row("s", "train", "c", "q1", "Q1", "R", "a2",
                                                                        gold=0.0),
            Row("s", "train", "c", "q2", "Q2", "R", "", gold=1.0)]
    ex = examples_by_question(rows)
    assert [e.answer for e in ex["q1"]] == ["a1", "a2"]
    assert "q2" not in ex  # empty answers are no examples


def test_leave_one_question_out_cuts_ignore_the_held_out_question() -> None:
    from coach.evals.protocols import logo_two_thresholds

    rng = np.random.default_rng(1)
    scores = rng.uniform(size=120)
    labels = np.digitize(scores, [0.3, 0.7])  # 0/1/2, separable at 0.3 and 0.7
    groups = np.array(["0"] * 80 + ["1"] * 20 + ["2"] * 20)
    out = logo_two_thresholds(scores, labels, list(groups))
    assert (out == labels).mean() > 0.9
    flipped = np.where(groups == "0", 2 - labels, labels)  # the big question's grades reversed
    assert best_two_thresholds(scores, flipped) != best_two_thresholds(scores, labels)  # a leak would show
    again = logo_two_thresholds(scores, flipped, list(groups))
    held = groups == "0"
    assert (again[held] == out[held]).all()  # its own grades cannot move its cuts
