"""The cross-encoder as a check on contradiction alone, on the bi-encoder path (the default).

The bi-encoder decides what an answer covers; it cannot tell a statement from its opposite, so a span close to a
misconception's phrasing is only a candidate. The cross-encoder reads each candidate against the criterion, as
the full cross path does (`criteria.judge`), but nothing else: a span that states an attached misconception
(`criteria.named_misconception`) and reads as the opposite, while none of the criterion's best spans reads as
right, contradicts; a bi-encoder phrasing match it reads as right does not. Few pairs are read (only criteria
with a candidate), so a check costs little more than the bi-encoder alone. Pure: the scorer is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from coach.grading.offline import criteria as crit
from coach.grading.offline.calibration import Verdicts
from coach.grading.offline.cross import criterion_spans
from coach.grading.offline.encoding import Encoded
from coach.grading.offline.features import TargetContext
from coach.grading.target import CriterionSpec
from coach.providers.base import PAIR_LABELS, PairScorer

_CORRECT, _CONTRA = PAIR_LABELS.index("correct"), PAIR_LABELS.index("contradicts")


def own_vectors(ctx: TargetContext, j: int) -> np.ndarray:
    """The criterion's own texts: its phrasings and its description."""
    spec = ctx.target.criteria[j]
    return np.vstack([ctx.crit_vecs[j], ctx.text_vecs[spec.description][None, :]])


def candidates(enc: Encoded, ctx: TargetContext, j: int) -> list[tuple[str, str]]:
    """(misconception id, answer span) for each span that states a misconception attached to criterion j."""
    spec = ctx.target.criteria[j]
    if not spec.misconceptions or not enc.spans:
        return []
    own = own_vectors(ctx, j)
    found = ((crit.named_misconception(spec, span, enc, ctx.misconceptions, own), span) for span in enc.spans)
    return [(mid, span) for mid, span in found if mid is not None]


def _pairs(spec: CriterionSpec, rights: Sequence[str], cands: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(t, spec.description) for t in rights] + [(span, spec.description) for _, span in cands]


def pairs_for(enc: Encoded, ctx: TargetContext) -> list[tuple[str, str]]:
    """Every pair `check` will read for this answer (so `prepare` can score a batch in one call)."""
    if not ctx.target.from_rubric:
        return []
    out: list[tuple[str, str]] = []
    spans: list[list[str]] | None = None
    for j, spec in enumerate(ctx.target.criteria):
        cands = candidates(enc, ctx, j)
        if cands:
            spans = spans if spans is not None else criterion_spans(enc, ctx)
            out += _pairs(spec, spans[j], cands)
    return out


def check(enc: Encoded, ctx: TargetContext, j: int, scorer: PairScorer, v: Verdicts) -> tuple[str, str, str] | None:
    """(misconception id, span, reason) when criterion j is contradicted by a span that states one of its
    misconceptions, read as the opposite while none of its best spans reads as right; else None."""
    cands = candidates(enc, ctx, j)
    if not cands:
        return None
    spec, rights = ctx.target.criteria[j], criterion_spans(enc, ctx)[j]
    probs = scorer.score_pairs(_pairs(spec, rights, cands))
    if float(probs[: len(rights), _CORRECT].max(initial=0.0)) >= v.xe_right:
        return None  # the model reads the point as made: one span read as wrong beside it is its doubt
    for (mid, span), p in zip(cands, probs[len(rights):], strict=True):
        if p[_CONTRA] >= v.xe_contra and p[_CONTRA] > p[_CORRECT]:
            return mid, span, f"read as stating the opposite ({float(p[_CONTRA]):.0%})"
    return None


def read_as_right(span: str, spec: CriterionSpec, scorer: PairScorer, v: Verdicts) -> bool:
    """Does the cross-encoder read this span as making the criterion's point (a veto on a phrasing match)?"""
    return float(scorer.score_pairs([(span, spec.description)])[0][_CORRECT]) >= v.xe_met
