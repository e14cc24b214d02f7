"""The chat model authoring asks: a langchain-core BaseChatModel over the project's own ChatModel provider.

The one small function the lead swaps for the providers' adapter (the llm engineer is adding one) is
`chat_model_from_settings`; everything else in authoring takes any BaseChatModel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from coach.providers.base import ChatMessage, ChatModel

if TYPE_CHECKING:
    from coach.config import Settings

_ROLES = {"system": "system", "human": "user", "ai": "assistant"}


class ProviderChatModel(BaseChatModel):
    """Sends langchain messages through a coach `ChatModel` (OpenAI-compatible, JSON mode, temperature 0)."""

    provider: Any  # a coach.providers.base.ChatModel; Any because pydantic cannot validate a Protocol
    temperature: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "coach-provider"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:
        sent = [ChatMessage(_ROLES.get(m.type, "user"), str(m.content)) for m in messages]
        reply = self.provider.complete(sent, temperature=self.temperature, json_mode=True)
        message = AIMessage(content=reply.text, response_metadata={"finish_reason": reply.finish_reason,
                                                                   "model": reply.model})
        return ChatResult(generations=[ChatGeneration(message=message)])


def wrap(provider: ChatModel) -> ProviderChatModel:
    return ProviderChatModel(provider=provider)


def chat_model_from_settings(settings: Settings) -> BaseChatModel | None:
    """The authoring chat model the settings ask for, or None (no endpoint, or the LLM is off/fake)."""
    from coach.providers.registry import chat_model_from_settings as provider_from_settings

    provider = provider_from_settings(settings)
    return None if provider is None else wrap(provider)


def model_name(chat: BaseChatModel) -> str:
    provider = getattr(chat, "provider", None)
    return str(getattr(provider, "name", None) or getattr(chat, "model_name", None) or chat._llm_type)
