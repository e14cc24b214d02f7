"""Two independently trained cross-encoders as one contradiction check: a span is read as the opposite of a
criterion only as surely as the less sure of them reads it so, and as right as surely as the surer one.

Each adapter misreads its own handful of right sentences as contradicting (retraining the same recipe moves the
dev-set figures by 1-4 points, docs/cross-encoder-data-card.md), and a misconception named on a right answer is
the worst error the check can make. Asking both to agree keeps the contradictions they share and drops the ones
only one of them makes. Used for the check alone: where a model's reading grants credit (every criterion read,
COACH_CROSS_ENCODER=1), the surer "correct" would be too generous, so that path keeps one model.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from coach.providers.base import PAIR_LABELS, Matrix, PairScorer

_CORRECT, _CONTRA = PAIR_LABELS.index("correct"), PAIR_LABELS.index("contradicts")


class Consensus:
    """`PairScorer` over several scorers: "contradicts" is their least, "correct" their most, the other labels
    their mean (so a row no longer sums to one; the check compares labels, never their sum)."""

    def __init__(self, members: Sequence[PairScorer]) -> None:
        if not members:
            raise ValueError("a consensus needs at least one scorer")
        self.members = tuple(members)
        self.name = "consensus-" + "+".join(str(getattr(m, "name", "scorer")) for m in self.members)

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> Matrix:
        readings = np.stack([np.asarray(m.score_pairs(pairs), dtype=np.float32) for m in self.members])
        out = readings.mean(axis=0)
        if len(pairs):
            out[:, _CONTRA] = readings[:, :, _CONTRA].min(axis=0)
            out[:, _CORRECT] = readings[:, :, _CORRECT].max(axis=0)
        return out.astype(np.float32)
