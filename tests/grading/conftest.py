"""Fixtures for the offline grader tests: the real embedder (loaded once) and a grader on shipped params."""

from __future__ import annotations

import pytest

from coach.grading.embedding import EmbeddingGrader


@pytest.fixture(scope="session")
def embedder(st_embedder):  # type: ignore[no-untyped-def]
    """The real all-MiniLM-L6-v2 (the session fixture of tests/conftest.py)."""
    return st_embedder


@pytest.fixture(scope="session")
def grader(embedder) -> EmbeddingGrader:  # type: ignore[no-untyped-def]
    return EmbeddingGrader(embedder)
