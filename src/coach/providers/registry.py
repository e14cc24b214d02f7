"""Build providers from Settings. The one place that decides which chat model and embedder the app uses."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from coach.providers.base import ChatModel

if TYPE_CHECKING:
    from coach.config import Settings
    from coach.providers.cross_encoder import CrossEncoderScorer
    from coach.providers.st_embedder import SentenceTransformerEmbedder

_embedder: SentenceTransformerEmbedder | None = None
_pair_scorer: CrossEncoderScorer | None = None
_second_scorer: CrossEncoderScorer | None = None
_embedder_lock = threading.Lock()


def chat_model_from_settings(settings: Settings) -> ChatModel | None:
    """An OpenAI-compatible client for `llm_base_url` (OpenAI itself when only a key is set), or None when no
    endpoint is configured or the LLM is off. ("fake" mode is the grading layer's business: no endpoint here.)"""
    if not settings.judge_enabled or settings.llm_mode == "fake":
        return None
    from coach.providers.openai_chat import OpenAIChatModel

    return OpenAIChatModel(
        api_key=settings.llm_api_key,
        base_url=settings.llm_base_url,
        model=settings.llm_model,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def default_embedder() -> SentenceTransformerEmbedder:
    """The process-wide embedder, loaded on first use (the model takes seconds to load)."""
    global _embedder
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                from coach.providers.st_embedder import SentenceTransformerEmbedder

                _embedder = SentenceTransformerEmbedder()
    return _embedder


def default_pair_scorer() -> CrossEncoderScorer | None:
    """The process-wide cross-encoder with the adapter in COACH_CROSS_ENCODER_ADAPTER, else the shipped one, or
    None when no adapter is there (the grader then judges criteria by the bi-encoder alone)."""
    global _pair_scorer
    if _pair_scorer is None:
        with _embedder_lock:
            if _pair_scorer is None:
                from coach.config import get_settings
                from coach.providers.cross_encoder import CrossEncoderScorer, shipped_adapter

                folder = get_settings().cross_encoder_adapter or shipped_adapter()
                if not (folder / "adapter_config.json").exists():
                    return None
                _pair_scorer = CrossEncoderScorer(folder)
    return _pair_scorer


def check_scorers() -> list[CrossEncoderScorer]:
    """The cross-encoders the contradiction check asks: the process-wide one and, unless
    COACH_CROSS_ENCODER_ADAPTER names a single adapter, the second shipped adapter; empty when none is installed."""
    global _second_scorer
    first = default_pair_scorer()
    if first is None:
        return []
    from coach.config import get_settings

    if get_settings().cross_encoder_adapter is not None:
        return [first]
    with _embedder_lock:
        if _second_scorer is None:
            from coach.providers.cross_encoder import SECOND_ADAPTER_FOLDER, CrossEncoderScorer, shipped_adapter

            second = shipped_adapter(SECOND_ADAPTER_FOLDER)
            if not (second / "adapter_config.json").exists():
                return [first]
            _second_scorer = CrossEncoderScorer(second)
    return [first, _second_scorer]
