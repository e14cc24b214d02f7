"""The cross-encoder as a check on contradiction alone, on the bi-encoder path (the default).

The bi-encoder decides what an answer covers; it cannot tell a statement from its opposite, so a span close to a
misconception's phrasing is only a candidate. The cross-encoder reads each candidate against the criterion, as
the full cross path does (`criteria.judge`), but nothing else: a span that states an attached misconception
(`criteria.named_misconception`) without denying it (`criteria.denies_misconception`) and reads as the
opposite, while none of the criterion's best spans reads as right, contradicts; a bi-encoder phrasing match it
reads as right does not. Few pairs are read (only criteria with a candidate), so a check costs little more than
the bi-encoder alone. Pure: the scorer is passed in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from coach.grading.offline import criteria as crit
from coach.grading.offline.calibration import Verdicts
from coach.grading.offline.cross import criterion_spans
from coach.grading.offline.encoding import Encoded
from coach.grading.offline.features import TargetContext
from coach.grading.target import CriterionSpec
from coach.providers.base import PAIR_LABELS, PairScorer

_CORRECT, _CONTRA = PAIR_LABELS.index("correct"), PAIR_LABELS.index("contradicts")


# (span, misconception id, context) -> does the span deny that misconception (the grader's `_denies`)
Denial = Callable[[str, str, TargetContext], bool]


def candidates(enc: Encoded, ctx: TargetContext, j: int, denies: Denial | None = None) -> list[tuple[str, str]]:
    """(misconception id, answer span) for each span that states a misconception attached to criterion j
    (and, given `denies`, does not deny it)."""
    spec = ctx.target.criteria[j]
    if not spec.misconceptions or not enc.spans:
        return []
    own = ctx.crit_own[j]
    found = ((crit.named_misconception(spec, span, enc, ctx.misconceptions, own), span) for span in enc.spans)
    return [(mid, span) for mid, span in found
            if mid is not None and (denies is None or not denies(span, mid, ctx))]


@dataclass(frozen=True)
class Candidates:
    """One answer's candidates, found once: per criterion, (misconception id, span) for each span that states one
    of its misconceptions, and the criterion's best spans, read beside them (left empty when no criterion has a
    candidate, so an answer without one costs no span search)."""

    by_criterion: tuple[tuple[tuple[str, str], ...], ...]
    rights: tuple[tuple[str, ...], ...]

    def pairs(self, ctx: TargetContext, j: int) -> list[tuple[str, str]]:
        """The pairs criterion j's check reads: its best spans, then its candidates, each against its description."""
        description = ctx.target.criteria[j].description
        return [(t, description) for t in self.rights[j]] + [(span, description) for _, span in self.by_criterion[j]]


def find(enc: Encoded, ctx: TargetContext, denies: Denial | None = None) -> Candidates:
    """The answer's candidates for every criterion (none against a target built from a reference alone)."""
    n = len(ctx.target.criteria)
    if not ctx.target.from_rubric:
        return Candidates(((),) * n, ((),) * n)
    cands = tuple(tuple(candidates(enc, ctx, j, denies)) for j in range(n))
    rights = tuple(tuple(s) for s in criterion_spans(enc, ctx)) if any(cands) else ((),) * n
    return Candidates(cands, rights)


def pairs_for(enc: Encoded, ctx: TargetContext, denies: Denial | None = None) -> list[tuple[str, str]]:
    """Every pair `check` will read for this answer (so `prepare` can score a batch in one call)."""
    found = find(enc, ctx, denies)
    return [p for j in range(len(ctx.target.criteria)) if found.by_criterion[j] for p in found.pairs(ctx, j)]


def check(found: Candidates, ctx: TargetContext, j: int, scorer: PairScorer, v: Verdicts,
          ) -> tuple[str, str, str] | None:
    """(misconception id, span, reason) when criterion j is contradicted by a span that states one of its
    misconceptions, read as the opposite while none of its best spans reads as right; else None."""
    cands, rights = found.by_criterion[j], found.rights[j]
    if not cands:
        return None
    probs = scorer.score_pairs(found.pairs(ctx, j))
    if float(probs[: len(rights), _CORRECT].max(initial=0.0)) >= v.xe_right:
        return None  # the model reads the point as made: one span read as wrong beside it is its doubt
    for (mid, span), p in zip(cands, probs[len(rights):], strict=True):
        if p[_CONTRA] >= v.xe_contra and p[_CONTRA] > p[_CORRECT]:
            return mid, span, f"read as stating the opposite ({float(p[_CONTRA]):.0%})"
    return None


def read_as_right(span: str, spec: CriterionSpec, scorer: PairScorer, v: Verdicts) -> bool:
    """Does the cross-encoder read this span as making the criterion's point (a veto on a phrasing match)?"""
    return float(scorer.score_pairs([(span, spec.description)])[0][_CORRECT]) >= v.xe_met
