"""Aggregate item grades into a ScoreCard: overall score, band and one score per dimension."""

from __future__ import annotations

from collections import defaultdict

from pydantic import BaseModel, ConfigDict

from coach.content.render import RenderedItem
from coach.grading.score import VERDICT_CREDIT, Score
from coach.session.runner import Answer
from coach.vocab import Dimension

BANDS = ((0.8, "Interview-ready"), (0.6, "Nearly ready"), (0.4, "Developing"), (0.0, "Not yet ready"))


class ItemResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    index: int
    item: RenderedItem
    answer: Answer | None
    score: Score


class DimensionScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    dimension: Dimension
    value: float | None  # None when nothing in the attempt measured it
    weight: float  # how much evidence fed it (sum of contributing weights)
    items: tuple[int, ...]  # indexes of the questions that fed it
    confidence: float = 1.0


class ScoreCard(BaseModel):
    model_config = ConfigDict(frozen=True)

    overall: float
    band: str
    dimensions: tuple[DimensionScore, ...]
    results: tuple[ItemResult, ...]
    unscored: int = 0

    def dimension(self, dim: Dimension) -> DimensionScore:
        return next(d for d in self.dimensions if d.dimension == dim)


def band_for(value: float) -> str:
    return next(label for floor, label in BANDS if value >= floor)


def _contributions(result: ItemResult) -> list[tuple[Dimension, float, float]]:
    """(dimension, credit, weight) pairs: a short answer feeds each criterion's dimension; an MCQ feeds its own."""
    score = result.score
    if score.criteria:
        return [(c.dimension, VERDICT_CREDIT[c.verdict], c.weight) for c in score.criteria]
    dims = result.item.dimensions
    return [(d, score.value, 1.0 / len(dims)) for d in dims]


def score_card(results: list[ItemResult]) -> ScoreCard:
    credit: dict[Dimension, float] = defaultdict(float)
    weight: dict[Dimension, float] = defaultdict(float)
    items: dict[Dimension, list[int]] = defaultdict(list)
    confidence: dict[Dimension, list[float]] = defaultdict(list)
    graded = [r for r in results if not r.score.unscored]
    for r in graded:
        for dim, c, w in _contributions(r):
            credit[dim] += c * w
            weight[dim] += w
            if r.index not in items[dim]:
                items[dim].append(r.index)
                confidence[dim].append(r.score.confidence)
    dims = tuple(
        DimensionScore(
            dimension=d,
            value=(credit[d] / weight[d]) if weight[d] else None,
            weight=weight[d],
            items=tuple(items[d]),
            confidence=min(confidence[d]) if confidence[d] else 0.0,
        )
        for d in Dimension
    )
    overall = sum(r.score.value for r in graded) / len(graded) if graded else 0.0
    return ScoreCard(
        overall=overall,
        band=band_for(overall),
        dimensions=dims,
        results=tuple(results),
        unscored=len(results) - len(graded),
    )
