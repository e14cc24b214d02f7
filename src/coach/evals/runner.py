"""Grade dataset rows with the offline grader, each row on its own, keeping each row's trace for refits."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from coach.evals.datasets import Row
from coach.grading.offline.auto_rubric import auto_target
from coach.grading.offline.calibration import Model
from coach.grading.offline.grader import EmbeddingGrader, Trace
from coach.grading.target import GradedExample, GradingTarget

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Graded:
    rows: list[Row]
    scores: np.ndarray  # the grader's final score in [0, 1]
    traces: list[Trace]

    @property
    def gold(self) -> np.ndarray:
        return np.array([r.gold for r in self.rows])

    def refit(self, model: Model) -> np.ndarray:
        """Scores had the grader used `model` (the guards' caps and contradictions still apply)."""
        return np.array([t.combine(model.predict(t.features)) if t.features else t.combine(0.0)
                         for t in self.traces])

    def subset(self, mask: Sequence[bool] | np.ndarray) -> Graded:
        idx = np.flatnonzero(np.asarray(mask))
        return Graded([self.rows[i] for i in idx], self.scores[idx], [self.traces[i] for i in idx])


def examples_by_question(rows: Sequence[Row]) -> dict[str, list[GradedExample]]:
    out: dict[str, list[GradedExample]] = defaultdict(list)
    for r in rows:
        if r.answer.strip():
            out[r.qkey].append(GradedExample(answer=r.answer, score=r.gold))
    return dict(out)


def grade_rows(grader: EmbeddingGrader, rows: Sequence[Row],
               examples: dict[str, list[GradedExample]] | None = None, leave_one_out: bool = False,
               progress: Progress | None = None) -> Graded:
    """Grade every row against an automatic rubric built from its question and reference(s).

    With `examples`, the row's question's examples ride along as anchors; `leave_one_out` drops the row's own
    answer from them (for grading the training split that supplied the examples)."""
    targets: dict[str, GradingTarget] = {}
    scores, traces = [], []
    batch = 256
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        pairs = []
        for r in chunk:
            ex = (examples or {}).get(r.qkey, [])
            if leave_one_out and ex:
                own = next((i for i, e in enumerate(ex) if e.answer == r.answer), None)
                ex = [e for i, e in enumerate(ex) if i != own]
                target = auto_target(r.question, r.reference, r.extra_refs, ex)
            else:
                key = r.qkey + ("+ex" if ex else "")
                if key not in targets:
                    targets[key] = auto_target(r.question, r.reference, r.extra_refs, ex)
                target = targets[key]
            pairs.append((r.answer, target))
        grader.prepare(pairs)
        for k, (answer, target) in enumerate(pairs):
            score, trace = grader.grade_detailed(answer, target)
            scores.append(score.value)
            traces.append(trace)
            if progress:
                progress(start + k + 1, len(rows))
    return Graded(list(rows), np.array(scores), traces)
