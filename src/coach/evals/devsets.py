"""The domain dev sets under `devsets/` (see devsets/README.md), graded against the bank's rubrics.

Six sets, written by hand for this purpose and read by nothing that trains or fits (a test checks that none of
their texts is a training pair):
- misconceptions held out of the catalogue: two statements per attached misconception, in a candidate's voice;
  each should be marked contradicted on every criterion the misconception is attached to (target >= 80%), and
  score below the rubric's "partial" level;
- paraphrases: a colleague's answers written from the question alone; each should score strong;
- flipped claims reusing the reference's words: each should score below "partial";
- gaming answers (keyword lists, question copy, injection, off-topic, padding, vague, hedges, term sentences):
  each should score low;
- denials: two right statements per attached misconception that deny it (one with a negation, one stating the
  correction plainly); none should be marked as stating the misconception it denies (`denials`);
- numeric swaps: for each criterion that expects two or more figures, an answer with every figure in its place
  (its criterion should not be contradicted) and one with two figures in each other's places (it should be).
Every model answer of the bank should still score strong, and no sentence of a model answer or of a paraphrase,
graded alone, should be marked contradicted (`sentence_precision`, `paraphrase_sentences`), and no paraphrase or
gaming answer should be told it holds a misconception (`misconceptions_named`): neither states one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import yaml

from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import Rubric, ShortItem
from coach.grading.attempt import target_for
from coach.grading.score import Score, Verdict
from coach.grading.target import GradingTarget
from coach.grading.text import sentences

DEFAULT_DIR = Path(__file__).resolve().parents[3] / "devsets"
CONTRADICTED_TARGET = 0.8
DENIAL_FORMS = ("negated", "corrected")


class Grader(Protocol):
    def grade_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[Score]: ...


def load(folder: Path, name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((folder / f"{name}.yaml").read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{folder / name}.yaml: expected a list of records")
    return data


def texts(folder: Path = DEFAULT_DIR) -> list[str]:
    """Every answer text of the dev sets (for the no-overlap test)."""
    out = [s for r in load(folder, "misconceptions_heldout") for s in r["statements"]]
    for name in ("paraphrases", "flipped", "gaming", "numeric_swaps"):
        out += [r["answer"] for r in load(folder, name)]
    out += [r[form] for r in load(folder, "denials") for form in DENIAL_FORMS]
    return out


def level(rubric: Rubric, label: str, default: float) -> float:
    return next((lv.min_score for lv in rubric.levels if lv.label == label), default)


def _targets(bank: Bank) -> dict[str, tuple[GradingTarget, Rubric]]:
    out = {}
    for item in bank.items.values():
        if isinstance(item, ShortItem) and item.rubric in bank.rubrics:
            r = render(item)
            rubric = bank.rubrics[item.rubric]
            out[item.id] = (target_for(bank, r), rubric)  # as the app grades it: with its numeric checks
    return out


def _mean(xs: Sequence[float]) -> float:
    return round(float(np.mean(xs)), 4) if xs else float("nan")


def evaluate(grader: Grader, bank: Bank, folder: Path = DEFAULT_DIR) -> dict[str, Any]:
    targets = _targets(bank)
    model = [(t.reference, t) for t, _ in targets.values()]
    model_scores = grader.grade_many(model)
    weak_models = sorted(t.key for (_, t), s in zip(model, model_scores, strict=True)
                         if s.value < level(targets_rubric(targets, t), "strong", 0.8))
    out: dict[str, Any] = {"model_answers": {"n": len(model), "mean": _mean([s.value for s in model_scores]),
                                             "not_strong": weak_models}}
    # misconceptions held out of the catalogue, on every criterion they are attached to
    rows, expect = [], []
    by_mis = {r["misconception"]: r["statements"] for r in load(folder, "misconceptions_heldout")}
    for item_id, (target, rubric) in sorted(targets.items()):
        for c in rubric.criteria:
            for mid in c.misconceptions:
                for s in by_mis.get(mid, []):
                    rows.append((s, target))
                    expect.append((c.id, level(rubric, "partial", 0.45), item_id, mid))
    scores = grader.grade_many(rows)
    hit = [next(r.verdict for r in s.criteria if r.criterion_id == cid) == Verdict.CONTRADICTED
           for s, (cid, _, _, _) in zip(scores, expect, strict=True)]
    below = [s.value < partial for s, (_, partial, _, _) in zip(scores, expect, strict=True)]
    out["misconceptions_heldout"] = {
        "n": len(rows), "contradicted_on_criterion": _mean([float(h) for h in hit]),
        "below_partial": _mean([float(b) for b in below]), "mean_score": _mean([s.value for s in scores]),
        "target": CONTRADICTED_TARGET,
        "missed": sorted({f"{e[2]}/{e[0]}/{e[3]}" for e, h in zip(expect, hit, strict=True) if not h}),
    }
    out["model_answer_sentences"] = sentence_precision(grader, targets)
    out["paraphrase_sentences"] = paraphrase_sentences(
        grader, targets, [r for r in load(folder, "paraphrases") if r["item"] in targets])
    for name, want in (("paraphrases", "strong"), ("flipped", "partial"), ("gaming", "partial")):
        recs = [r for r in load(folder, name) if r["item"] in targets]
        graded = grader.grade_many([(r["answer"], targets[r["item"]][0]) for r in recs])
        cuts = [level(targets[r["item"]][1], want, 0.8 if want == "strong" else 0.45) for r in recs]
        ok = [s.value >= c if want == "strong" else s.value < c for s, c in zip(graded, cuts, strict=True)]
        block: dict[str, Any] = {"n": len(recs), "mean_score": _mean([s.value for s in graded]),
                                 ("share_strong" if want == "strong" else "share_below_partial"):
                                     _mean([float(x) for x in ok])}
        if name == "flipped":
            block["share_with_a_contradicted_criterion"] = _mean(
                [float(any(c.verdict == Verdict.CONTRADICTED for c in s.criteria)) for s in graded])
        if name in ("paraphrases", "gaming"):  # neither states a misconception: naming one invents it
            block.update(misconceptions_named(recs, graded))
        if name == "gaming":
            block["by_kind"] = {k: _mean([s.value for s, r in zip(graded, recs, strict=True) if r["kind"] == k])
                                for k in sorted({r["kind"] for r in recs})}
        out[name] = block
    out["denials"] = denials(grader, targets, load(folder, "denials"))
    out["numeric_swaps"] = numeric_swaps(grader, targets, [r for r in load(folder, "numeric_swaps")
                                                           if r["item"] in targets])
    return out


def numeric_swaps(grader: Grader, targets: dict[str, tuple[GradingTarget, Rubric]],
                  recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Figures in their places and in each other's: for each kind (`right`, `swapped`), the share whose criterion is
    marked contradicted (the right ones should have none, the swapped ones all) and the items that miss."""
    graded = grader.grade_many([(r["answer"], targets[r["item"]][0]) for r in recs])
    out: dict[str, Any] = {}
    for kind, want in (("right", False), ("swapped", True)):
        hits = [(r["item"], any(c.criterion_id == r["criterion"] and c.verdict == Verdict.CONTRADICTED
                                for c in s.criteria))
                for r, s in zip(recs, graded, strict=True) if r["kind"] == kind]
        out[kind] = {"n": len(hits), "contradicted_on_criterion": _mean([float(h) for _, h in hits]),
                     "misses": sorted(item for item, h in hits if h != want)}
    return out


def misconceptions_named(recs: Sequence[dict[str, Any]], graded: Sequence[Score]) -> dict[str, Any]:
    """The share of answers with a misconception named on some criterion, and which (item/criterion/misconception):
    for answers that state none, each is feedback telling the candidate to unlearn a claim they did not make."""
    named = [f"{r['item']}/{c.criterion_id}/{c.misconception_id}" for r, s in zip(recs, graded, strict=True)
             for c in s.criteria if c.misconception_id]
    return {"share_naming_a_misconception": _mean([float(any(c.misconception_id for c in s.criteria))
                                                   for s in graded]),
            "named": sorted(named)}


def denials(grader: Grader, targets: dict[str, tuple[GradingTarget, Rubric]],
            recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Precision of a named misconception: each right statement that denies a misconception, graded alone against
    every item whose rubric attaches it. Naming the misconception it denies tells the candidate to unlearn what
    they denied (the worst feedback); any other criterion marked contradicted is reported beside it."""
    out: dict[str, Any] = {}
    for form in DENIAL_FORMS:
        rows, named = [], []
        for r in recs:
            for item_id, (target, rubric) in sorted(targets.items()):
                if any(r["misconception"] in c.misconceptions for c in rubric.criteria):
                    rows.append((r[form], target))
                    named.append((item_id, r["misconception"]))
        scores = grader.grade_many(rows)
        names = [any(c.misconception_id == mid for c in s.criteria) for s, (_, mid) in zip(scores, named,
                                                                                            strict=True)]
        out[form] = {
            "n": len(rows), "names_the_denied_misconception": _mean([float(x) for x in names]),
            "with_a_contradicted_criterion": _mean(
                [float(any(c.verdict == Verdict.CONTRADICTED for c in s.criteria)) for s in scores]),
            "named": sorted(f"{item}/{mid}" for (item, mid), x in zip(named, names, strict=True) if x),
        }
    return out


def sentence_precision(grader: Grader, targets: dict[str, tuple[GradingTarget, Rubric]]) -> dict[str, Any]:
    """Precision of "contradicted": each sentence of each model answer (of 5 words or more), graded alone, states
    nothing wrong, so any criterion it marks contradicted is a misconception the feedback would invent. The
    grader compares a span with the model answer's sentences before it reads a misconception, so this measures
    little beyond that; `paraphrase_sentences` is the figure that counts."""
    rows = [(s, t) for t, _ in targets.values() for s in sentences(t.reference) if len(s.split()) >= 5]
    return _precision(grader, rows)


def paraphrase_sentences(grader: Grader, targets: dict[str, tuple[GradingTarget, Rubric]],
                         recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Precision of "contradicted" on right sentences in other words than the reference's: each sentence of each
    colleague's paraphrase (of 5 words or more), graded alone."""
    rows = [(s, targets[r["item"]][0]) for r in recs for s in sentences(r["answer"]) if len(s.split()) >= 5]
    return _precision(grader, rows)


def _precision(grader: Grader, rows: Sequence[tuple[str, GradingTarget]]) -> dict[str, Any]:
    scores = grader.grade_many(rows)
    wrong = [f"{t.key}/{c.criterion_id}" for (_, t), sc in zip(rows, scores, strict=True) for c in sc.criteria
             if c.verdict == Verdict.CONTRADICTED]
    hit = [any(c.verdict == Verdict.CONTRADICTED for c in sc.criteria) for sc in scores]
    return {"n": len(rows), "share_with_a_contradicted_criterion": _mean([float(h) for h in hit]),
            "contradicted": sorted(wrong)}


def targets_rubric(targets: dict[str, tuple[GradingTarget, Rubric]], target: GradingTarget) -> Rubric:
    return next(r for t, r in targets.values() if t.key == target.key)
