"""What the author pages share: the content root, the fact sheet, the embedder, the chat model, and the refresh
that lets candidates see a newly published item."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from coach.content.bank import Bank
from coach.providers.base import Embedder
from coach.ui import services

FACTS = Path("../shared/reference/domain-facts.md")


def content_root() -> Path:
    return Path(services.settings().content_dir)


def facts_text() -> str | None:
    """The fact sheet beside the content, as `coach bank check` reads it (absent: literals are not verified)."""
    path = content_root() / FACTS
    return path.read_text(encoding="utf-8") if path.exists() else None


def bank() -> Bank:
    return services.bank()


def embedder() -> Embedder:
    return services.journey().grader().embedder  # the model the grader loaded: one copy per process


def chat_model(use_llm: bool) -> Any:
    """The authoring chat model when one is configured and wanted, else None (offline)."""
    if not use_llm:
        return None
    from coach.authoring.chat import chat_model_from_settings

    return chat_model_from_settings(services.settings())


def llm_configured() -> bool:
    s = services.settings()
    return s.llm_mode != "off" and bool(s.llm_api_key or s.llm_base_url)


def refresh_bank() -> None:
    """Content files changed: reload the bank, and hand it to the journey, so candidates see the change at once
    (the journey keeps its loaded grader and its database)."""
    services.bank.clear()
    services.journey().use_bank(services.bank())
