"""The offline grader the product grades with, built from the settings: the bi-encoder, and the shipped
cross-encoder either checking contradiction candidates (COACH_CONTRADICTION_CHECK, on by default; the two shipped
adapters must agree, `Consensus`) or reading every criterion (COACH_CROSS_ENCODER, off by default; the first
adapter). Without an adapter, the bi-encoder alone."""

from __future__ import annotations

from typing import Any

from coach.config import get_settings
from coach.grading.offline.consensus import Consensus
from coach.grading.offline.grader import EmbeddingGrader
from coach.providers.base import Embedder, PairScorer


def scorer_modes(cross: bool | None = None, check: bool | None = None) -> tuple[bool, bool]:
    """(read every criterion, check contradiction candidates): the arguments, or the settings where None.
    Reading every criterion includes the check, so at most one is True."""
    settings = get_settings()
    cross = settings.cross_encoder if cross is None else cross
    check = settings.contradiction_check if check is None else check
    return cross, check and not cross


def settings_scorers(cross: bool | None = None, check: bool | None = None) -> tuple[PairScorer | None,
                                                                                    PairScorer | None]:
    """(pair_scorer, checker) for EmbeddingGrader: the cross-encoder reads everything or checks contradictions;
    (None, None) when neither is asked for or no adapter is installed."""
    from coach.providers.registry import check_scorers, default_pair_scorer

    cross, check = scorer_modes(cross, check)
    if not (cross or check):
        return None, None
    if cross:
        return default_pair_scorer(), None
    scorers = check_scorers()
    return None, (Consensus(scorers) if len(scorers) > 1 else scorers[0] if scorers else None)


def offline_grader(embedder: Embedder | None = None, **kwargs: Any) -> EmbeddingGrader:
    from coach.providers.registry import default_embedder

    pair_scorer, checker = settings_scorers()
    return EmbeddingGrader(embedder or default_embedder(), pair_scorer=pair_scorer, checker=checker, **kwargs)
