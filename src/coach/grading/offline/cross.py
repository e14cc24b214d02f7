"""The cross-encoder's readings of an answer: the whole answer against the reference, and, for rubric criteria,
the answer spans the bi-encoder finds closest to each criterion read together with it.

A bi-encoder compares two vectors and cannot see that "split by rows, then by columns" and the reverse differ;
the cross-encoder reads both texts in one pass and says correct / partial / contradicts / irrelevant. Which pairs
are read is chosen with speed in mind: per criterion the SPANS best spans (by the answer's own sentence vectors,
no extra pass) and, when they are two, both together; automatically built criteria (the public datasets) are read
through the whole answer only. Pure: the scorer is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from coach.grading.offline.encoding import Encoded
from coach.grading.offline.features import TargetContext
from coach.providers.base import PAIR_LABELS, PairScorer

SPANS = 2  # answer spans read per rubric criterion
_CORRECT, _PARTIAL, _CONTRA, _IRRELEVANT = (PAIR_LABELS.index(x) for x in PAIR_LABELS)


@dataclass(frozen=True)
class Reading:
    """What the cross-encoder judged of one (answer span, criterion or reference) pair."""

    span: str
    probs: tuple[float, ...]  # over PAIR_LABELS

    @property
    def credit(self) -> float:
        """Expected credit: correct counts 1, partial a half."""
        return self.probs[_CORRECT] + 0.5 * self.probs[_PARTIAL]

    @property
    def contradicts(self) -> float:
        return self.probs[_CONTRA]

    @property
    def correct(self) -> float:
        return self.probs[_CORRECT]

    @property
    def label(self) -> str:
        return PAIR_LABELS[int(np.argmax(self.probs))]


@dataclass(frozen=True)
class CriterionReading:
    best: Reading  # the span read as most correct
    opposed: Reading  # the span read as most contradicting


@dataclass(frozen=True)
class CrossReading:
    whole: Reading | None  # the whole answer against the (closest) reference; None when no fitted model reads it
    criteria: tuple[CriterionReading, ...]  # per rubric criterion; empty for automatic criteria


def _reference(enc: Encoded, ctx: TargetContext) -> str:
    i = int(np.argmax(ctx.ref_sent @ enc.sent)) if ctx.ref_sent.size else 0
    return ctx.refs[i].text if ctx.refs else ctx.target.reference


def criterion_spans(enc: Encoded, ctx: TargetContext) -> list[list[str]]:
    """Per criterion, the answer texts read against it: its SPANS closest sentences, and both joined in order."""
    spans = enc.spans or [enc.text]
    vecs = enc.span_vecs if len(enc.spans) == enc.span_vecs.shape[0] and enc.spans else enc.sent[None, :]
    out = []
    for crit in ctx.crit_vecs:
        sims = (vecs @ crit.T).max(axis=1)
        top = sorted(np.argsort(-sims)[:SPANS].tolist())
        texts = [spans[i] for i in top]
        if len(top) > 1:
            texts.append(" ".join(spans[i] for i in top))
        out.append(texts)
    return out


def pairs_for(enc: Encoded, ctx: TargetContext, whole: bool = True) -> list[tuple[str, str]]:
    """Every pair `read` will score for this answer (so a batch of answers can be scored in one call). `whole`:
    the whole answer against the reference too (its features feed only a model fitted with them)."""
    pairs = [(enc.text, _reference(enc, ctx))] if whole else []
    if ctx.target.from_rubric:
        for spec, texts in zip(ctx.target.criteria, criterion_spans(enc, ctx), strict=True):
            pairs.extend((t, spec.description) for t in texts)
    return pairs


def read(enc: Encoded, ctx: TargetContext, scorer: PairScorer, whole: bool = True) -> CrossReading:
    pairs = pairs_for(enc, ctx, whole)
    probs = scorer.score_pairs(pairs)
    rows = [Reading(span=a, probs=tuple(float(x) for x in p)) for (a, _), p in zip(pairs, probs, strict=True)]
    first, rest = (rows[0], rows[1:]) if whole else (None, rows)
    criteria: list[CriterionReading] = []
    if ctx.target.from_rubric:
        start = 0
        for texts in criterion_spans(enc, ctx):
            mine = rest[start : start + len(texts)]
            start += len(texts)
            criteria.append(CriterionReading(best=max(mine, key=lambda r: r.credit),
                                             opposed=max(mine, key=lambda r: r.contradicts)))
    return CrossReading(whole=first, criteria=tuple(criteria))


def cross_features(reading: CrossReading) -> dict[str, float]:
    """The fitted model's inputs from the whole-answer reading (the same for rubric and automatic targets)."""
    w = reading.whole
    if w is None:
        return {}
    return {"xe_credit": w.credit, "xe_correct": w.correct, "xe_contra": w.contradicts,
            "xe_irrelevant": w.probs[_IRRELEVANT]}


def batch_pairs(items: Sequence[tuple[Encoded, TargetContext]], whole: bool = True) -> list[tuple[str, str]]:
    return list(dict.fromkeys(p for enc, ctx in items for p in pairs_for(enc, ctx, whole)))
