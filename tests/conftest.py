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


# --- databases: every store and service test runs on SQLite and on PostgreSQL -------------------------------
POSTGRES_URL_VAR = "COACH_TEST_POSTGRES_URL"


def postgres_admin_url() -> str:
    """The PostgreSQL given by scripts/test.sh (or the developer); a skip here, a failure under CI=true."""
    import os

    url = os.environ.get(POSTGRES_URL_VAR)
    if not url:
        message = f"{POSTGRES_URL_VAR} is not set: run the suite with scripts/test.sh, which starts PostgreSQL 15"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return url


@pytest.fixture
def fresh_postgres_url() -> object:
    """A new, empty database on the test PostgreSQL server, dropped afterwards."""
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = make_url(postgres_admin_url())
    name = f"coach_t_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield admin.set(database=name).render_as_string(hide_password=False)
    from coach.store.db import close_all

    close_all()
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):  # type: ignore[no-untyped-def]
    """A fresh, empty database URL on each backend in turn."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'coach.db'}"
        from coach.store.db import close_all

        close_all()
    else:
        yield request.getfixturevalue("fresh_postgres_url")


@pytest.fixture
def database(db_url):  # type: ignore[no-untyped-def]
    """A migrated Database on each backend in turn."""
    from coach.store.db import Database

    db = Database(db_url)
    yield db
    db.dispose()
@pytest.fixture(scope="session")
def check_scorer(pair_scorer):  # type: ignore[no-untyped-def]
    """The contradiction check as the app builds it: the two shipped adapters, which must agree."""
    from coach.grading.offline.consensus import Consensus
    from coach.providers.cross_encoder import SECOND_ADAPTER_FOLDER, CrossEncoderScorer, shipped_adapter

    return Consensus([pair_scorer, CrossEncoderScorer(shipped_adapter(SECOND_ADAPTER_FOLDER))])


@pytest.fixture(scope="session")
def checked_grader(embedder, check_scorer):  # type: ignore[no-untyped-def]
    """The offline grader as the app builds it: the cross-encoders check contradiction candidates only."""
    from coach.grading.offline.grader import EmbeddingGrader
    return EmbeddingGrader(embedder, checker=check_scorer)


@pytest.fixture(scope="session")
def cross_grader(embedder, pair_scorer):  # type: ignore[no-untyped-def]
    """The offline grader with the cross-encoder (COACH_CROSS_ENCODER=1)."""
    from coach.grading.offline.grader import EmbeddingGrader
    return EmbeddingGrader(embedder, pair_scorer=pair_scorer)
