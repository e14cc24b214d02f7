"""Offline short-answer grading: rubric criteria matched against answer sentences by embeddings.

First version: per criterion, the best cosine between any answer sentence and any phrasing decides
met / partial / missed; a misconception stated in the answer contradicts its criteria.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coach.grading.score import VERDICT_CREDIT, CriterionResult, Flag, Score, Verdict
from coach.grading.target import GradingTarget
from coach.grading.text import sentences
from coach.providers.base import Embedder


@dataclass(frozen=True)
class GraderParams:
    met: float = 0.62
    partial: float = 0.48
    misconception: float = 0.72


class EmbeddingGrader:
    def __init__(self, embedder: Embedder, params: GraderParams | None = None) -> None:
        self.embedder = embedder
        self.params = params or GraderParams()

    def grade_many(self, rows: list[tuple[str, GradingTarget]]) -> list[Score]:
        return [self.grade(answer, target) for answer, target in rows]

    def grade(self, answer: str, target: GradingTarget) -> Score:
        spans = sentences(answer)
        if not spans:
            return Score(value=0.0, source="embedding", flags=(Flag.EMPTY,), notes=("No answer was given.",))
        span_vecs = self.embedder.embed(spans)
        results: list[CriterionResult] = []
        mis_hits: dict[str, tuple[float, str]] = {}
        for mis in target.misconceptions:
            sims = span_vecs @ self.embedder.embed(list(mis.phrasings)).T
            i, j = np.unravel_index(int(np.argmax(sims)), sims.shape)
            if sims[i, j] >= self.params.misconception:
                mis_hits[mis.id] = (float(sims[i, j]), spans[i])
        for c in target.criteria:
            sims = span_vecs @ self.embedder.embed(list(c.phrasings)).T
            i, _ = np.unravel_index(int(np.argmax(sims)), sims.shape)
            best = float(sims.max())
            hit = next((m for m in c.misconceptions if m in mis_hits), None)
            if hit:
                verdict, evidence = Verdict.CONTRADICTED, mis_hits[hit][1]
            elif best >= self.params.met:
                verdict, evidence = Verdict.MET, spans[i]
            elif best >= self.params.partial:
                verdict, evidence = Verdict.PARTIAL, spans[i]
            else:
                verdict, evidence = Verdict.MISSED, None
            results.append(CriterionResult(
                criterion_id=c.id, description=c.description, weight=c.weight, dimension=c.dimension,
                verdict=verdict, similarity=best, evidence=evidence, misconception_id=hit,
            ))
        value = sum(r.weight * VERDICT_CREDIT[r.verdict] for r in results)
        flags = (Flag.MISCONCEPTION,) if mis_hits else ()
        return Score(value=min(1.0, max(0.0, value)), source="embedding", criteria=tuple(results), flags=flags)
