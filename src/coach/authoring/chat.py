"""The chat model authoring asks: the providers' langchain adapter over the configured OpenAI-compatible endpoint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from coach.providers.langchain_chat import as_langchain, model_name

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from coach.config import Settings

__all__ = ["chat_model_from_settings", "model_name"]


def chat_model_from_settings(settings: Settings) -> BaseChatModel | None:
    """The authoring chat model the settings ask for, or None (no endpoint, or the LLM is off/fake)."""
    from coach.providers.registry import chat_model_from_settings as provider_from_settings

    provider = provider_from_settings(settings)
    return None if provider is None else as_langchain(provider)
