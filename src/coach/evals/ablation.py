"""The per-guard ablation: what each anti-gaming guard still earns once the cross-encoder reads the answers.

Each configuration (all guards, each guard left out, none) grades the same rows: a seeded sample of the half-B
training answers of SemEval-2013 and SAF v1 (never a test split, never Mohler; half A trained the
cross-encoder), where a guard should cost nothing (Pearson against gold, and the share of fully correct answers
it flags: false alarms), and the domain dev sets, where it should catch gaming. A guard that neither lowers the
gaming and flipped-claim scores nor is needed elsewhere does not earn its keep.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from coach.content.bank import Bank
from coach.evals import devsets
from coach.evals.datasets import Row
from coach.evals.metrics import pearson
from coach.evals.runner import grade_rows
from coach.evals.xenc_pairs import in_half_a
from coach.grading.guards.assess import GUARDS
from coach.grading.offline.grader import EmbeddingGrader

MakeGrader = Callable[[frozenset[str]], EmbeddingGrader]


def sample(rows: Sequence[Row], per_dataset: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    out = []
    for name in ("semeval", "saf"):
        pool = [r for r in rows if r.dataset == name and r.split in ("train", "training") and not in_half_a(r.qkey)]
        rng.shuffle(pool)
        out += pool[:per_dataset]
    return out


def _config(grader: EmbeddingGrader, rows: Sequence[Row], bank: Bank) -> dict[str, Any]:
    g = grade_rows(grader, rows)
    out: dict[str, Any] = {}
    for name in ("semeval", "saf"):
        mask = np.array([r.dataset == name for r in rows])
        if mask.any():
            sub = g.subset(mask)
            right = sub.gold >= 0.999
            flagged = [t.cap < 1.0 or t.scale < 1.0 for t in sub.traces]
            out[name] = {"pearson": round(pearson(sub.scores, sub.gold), 4),
                         "false_alarms_on_correct": round(float(np.mean(np.array(flagged)[right])), 4)}
    dev = devsets.evaluate(grader, bank)
    out["dev"] = {"gaming_mean": dev["gaming"]["mean_score"], "flipped_mean": dev["flipped"]["mean_score"],
                  "paraphrase_mean": dev["paraphrases"]["mean_score"],
                  "heldout_contradicted": dev["misconceptions_heldout"]["contradicted_on_criterion"],
                  "model_answers_mean": dev["model_answers"]["mean"], "gaming_by_kind": dev["gaming"]["by_kind"],
                  # precision: right text read as a misconception
                  "paraphrase_sentences_contradicted":
                      dev["paraphrase_sentences"]["share_with_a_contradicted_criterion"],
                  "denials_named": {form: dev["denials"][form]["names_the_denied_misconception"]
                                    for form in devsets.DENIAL_FORMS}}
    return out


def ablate(make: MakeGrader, rows: Sequence[Row], bank: Bank, guards: Sequence[str] = GUARDS) -> dict[str, Any]:
    """All guards, then each of `guards` left out, then none of them."""
    configs: dict[str, frozenset[str]] = {"all": frozenset()}
    configs.update({f"without_{g}": frozenset({g}) for g in guards})
    configs["none"] = frozenset(GUARDS)
    return {"rows": len(rows), **{name: _config(make(skip), rows, bank) for name, skip in configs.items()}}
