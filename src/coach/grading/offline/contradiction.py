"""The cross-encoder as a check on contradiction alone, on the bi-encoder path (the default).

The bi-encoder decides what an answer covers; it cannot tell a statement from its opposite, so a span close to a
misconception's phrasing is only a candidate. The cross-encoder reads each candidate against the criterion
(`criterion_reading`: its description and phrasings together), but nothing else: a span that states an attached
misconception (`criteria.named_misconception`) without denying it (`criteria.denies_misconception`) and reads as
the opposite (`reads_as_opposite`), while none of the criterion's best spans reads as right, contradicts. The
grader holds a bi-encoder phrasing match to the same reading (`confirms`): one it reads as right is vetoed, and one
it does not read as the opposite names nothing. Few pairs are read (only criteria with a candidate), so a check
costs little more than the bi-encoder alone. Pure: the scorer is passed in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from coach.grading.offline import criteria as crit
from coach.grading.offline.calibration import Verdicts
from coach.grading.offline.cross import criterion_spans
from coach.grading.offline.encoding import Encoded
from coach.grading.offline.features import TargetContext
from coach.grading.target import CriterionSpec
from coach.providers.base import PAIR_LABELS, PairScorer

_CORRECT, _CONTRA, _IRRELEVANT = (PAIR_LABELS.index(x) for x in ("correct", "contradicts", "irrelevant"))


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
        """The pairs criterion j's check reads: its best spans against its description, then its candidates
        against each of its texts (`criterion_reading`)."""
        spec = ctx.target.criteria[j]
        return [(t, spec.description) for t in self.rights[j]] + [
            p for _, span in self.by_criterion[j] for p in reading_pairs(span, spec)]


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
    spec = ctx.target.criteria[j]
    probs = scorer.score_pairs([(t, spec.description) for t in rights])
    if float(probs[:, _CORRECT].max(initial=0.0)) >= v.xe_right:
        return None  # the model reads the point as made: one span read as wrong beside it is its doubt
    for mid, span in cands:
        reading = criterion_reading(span, spec, scorer)
        if reads_as_opposite(reading, v):
            return mid, span, f"read as stating the opposite ({float(reading[_CONTRA]):.0%})"
    return None


def reading_pairs(span: str, spec: CriterionSpec) -> list[tuple[str, str]]:
    return [(span, text) for text in (spec.description, *spec.phrasings)]


def criterion_reading(span: str, spec: CriterionSpec, scorer: PairScorer) -> np.ndarray:
    """The cross-encoder's reading of a span against a criterion: its label probabilities averaged over the
    criterion's description and phrasings, leaving out the texts it reads the span as irrelevant to (all of them
    when it reads it so against every one). A criterion's texts often make several points, and a misconception
    bears on one: "the layout does not change KV capacity" speaks to "the weights are duplicated in every
    replica", not to "a request's latency does not improve". One text read alone says less: the model reads many
    right in-domain sentences as contradicting one of them."""
    return _on_topic_mean(scorer.score_pairs(reading_pairs(span, spec)))


def _on_topic_mean(probs: np.ndarray) -> np.ndarray:
    on_topic = probs[np.argmax(probs, axis=1) != _IRRELEVANT]
    return (on_topic if len(on_topic) else probs).mean(axis=0)


def reads_as_opposite(reading: np.ndarray, v: Verdicts) -> bool:
    """Does a `criterion_reading` say "contradicts", surely (`xe_contra`) and more than "correct"?"""
    return bool(reading[_CONTRA] >= v.xe_contra and reading[_CONTRA] > reading[_CORRECT])


def confirms(span: str, spec: CriterionSpec, scorer: PairScorer, v: Verdicts) -> bool | None:
    """How the cross-encoder takes a bi-encoder phrasing match, from one read of the span against the criterion's
    texts: False when it reads the span as making the point against the description (a veto), True when it reads
    it as the opposite (`criterion_reading`), None when neither (a doubt)."""
    probs = scorer.score_pairs(reading_pairs(span, spec))
    if float(probs[0, _CORRECT]) >= v.xe_met:  # row 0: the description
        return False
    return True if reads_as_opposite(_on_topic_mean(probs), v) else None
