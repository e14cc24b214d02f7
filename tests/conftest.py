"""Shared fixtures: the project's bank, and small hand-made content trees for loader tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from coach.content.bank import Bank
from coach.content.loader import load_bank

ROOT = Path(__file__).resolve().parents[1]
FACTS = ROOT.parent / "shared" / "reference" / "domain-facts.md"


@pytest.fixture(scope="session")
def bank() -> Bank:
    return load_bank(ROOT)


@pytest.fixture(scope="session")
def facts_text() -> str:
    if not FACTS.exists():
        pytest.skip("../shared/reference/domain-facts.md is not beside the checkout")
    return FACTS.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def st_embedder():  # type: ignore[no-untyped-def]
    """The real offline all-MiniLM-L6-v2 model."""
    from coach.providers.st_embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def embedder(st_embedder):  # type: ignore[no-untyped-def]
    """Alias used by the grading and judge tests."""
    return st_embedder


@pytest.fixture(scope="session")
def pair_scorer():  # type: ignore[no-untyped-def]
    """The real cross-encoder: the packaged MiniLM with the shipped adapter."""
    from coach.providers.cross_encoder import CrossEncoderScorer

    return CrossEncoderScorer()


@pytest.fixture(scope="session")
def grader(embedder):  # type: ignore[no-untyped-def]
    """The offline grader as the app builds it by default: shipped parameters, no cross-encoder."""
    from coach.grading.offline.grader import EmbeddingGrader

    return EmbeddingGrader(embedder)


@pytest.fixture(scope="session")
def cross_grader(embedder, pair_scorer):  # type: ignore[no-untyped-def]
    """The offline grader with the cross-encoder (COACH_CROSS_ENCODER=1)."""
    from coach.grading.offline.grader import EmbeddingGrader

    return EmbeddingGrader(embedder, pair_scorer=pair_scorer)
