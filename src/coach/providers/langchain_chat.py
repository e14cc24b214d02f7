"""The project's `ChatModel` protocol as a langchain-core chat model, so prompts and parsers compose with it.

Why an adapter rather than langchain's own OpenAI client: `OpenAIChatModel` keeps the retry policy we can see and
test (backoff, Retry-After, no retry on timeouts, JSON mode dropped for servers that reject it), and every fake
(`FakeChatModel`, the keyword and obedient judges, the fake feedback writer) keeps working unchanged. The adapter
asks for temperature 0 and JSON mode by default and passes the reply's finish reason on in `response_metadata`
(the key langchain's own OpenAI model uses), so a truncated reply can be told from a complete one.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, TypeVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.exceptions import LangChainException, OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.output_parsers import PydanticOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel, ConfigDict, ValidationError

from coach.providers.base import ChatMessage, ChatModel

_ROLES = {"system": "system", "human": "user", "ai": "assistant"}


def to_chat_messages(messages: Sequence[BaseMessage]) -> list[ChatMessage]:
    """langchain messages as the protocol's (role, content) pairs."""
    out = []
    for m in messages:
        role = _ROLES.get(m.type)
        if role is None:
            raise ValueError(f"a chat-completions call cannot carry a {m.type!r} message")
        out.append(ChatMessage(role, m.text))
    return out


class ChatModelAdapter(BaseChatModel):
    """A langchain-core `BaseChatModel` that makes one `ChatModel.complete` call per generation.

    `temperature` and `json_mode` can be overridden per call (`adapter.invoke(msgs, json_mode=False)`).
    Provider errors (`ProviderError`) propagate unchanged: the caller decides what a failure means.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: Any  # a ChatModel (a Protocol, which pydantic cannot validate)
    temperature: float = 0.0
    json_mode: bool = True
    cache: bool | None = False  # never langchain's global LLM cache: the judge and feedback keep their own

    @property
    def _llm_type(self) -> str:
        return "coach-chat-model"

    @property
    def model_name(self) -> str:
        return str(self.inner.name)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self.inner.complete(
            to_chat_messages(messages),
            temperature=float(kwargs.get("temperature", self.temperature)),
            json_mode=bool(kwargs.get("json_mode", self.json_mode)),
        )
        message = AIMessage(
            content=reply.text, response_metadata={"finish_reason": reply.finish_reason, "model_name": reply.model}
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def as_langchain(model: ChatModel | BaseChatModel) -> BaseChatModel:
    """A langchain chat model as is; a protocol `ChatModel` wrapped in the adapter."""
    return model if isinstance(model, BaseChatModel) else ChatModelAdapter(inner=model)


def model_name(model: ChatModel | BaseChatModel) -> str:
    """The name that keys caches: the protocol's `name`, or a langchain model's model name / name / type."""
    if not isinstance(model, BaseChatModel):
        return str(model.name)
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return model.name or model._llm_type


def finish_reason(message: BaseMessage) -> str | None:
    """Why the model stopped, as reported in the reply (None when the model does not say)."""
    meta = message.response_metadata or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason")
    return str(reason) if reason else None


# ------------------------------------------------------------------------------------- structured replies
T = TypeVar("T", bound=BaseModel)


class ReplyProblem(StrEnum):
    TRUNCATED = "truncated"
    NOT_JSON = "not JSON"
    SCHEMA = "off the schema"
    REFUSED = "refused"


class UnusableReply(Exception):
    """A reply that cannot be read into the schema; `problem` says why."""

    def __init__(self, problem: ReplyProblem, detail: str = "") -> None:
        super().__init__(f"{problem.value}: {detail}" if detail else problem.value)
        self.problem = problem


def read_structured(message: BaseMessage, parser: PydanticOutputParser[T]) -> T:
    """The reply parsed into the parser's pydantic model, or `UnusableReply`.

    Why `PydanticOutputParser` over the reply text and not `with_structured_output`: the latter needs tool calling
    or a provider's JSON-schema mode, which many OpenAI-compatible servers (llama.cpp, older vLLM, Ollama models)
    do not have; the parser reads plain text (bare, fenced in ```json, or followed by prose) from any model.
    A reply cut off by the token limit is refused first: the parser would otherwise close its open brackets.
    """
    if finish_reason(message) == "length":
        raise UnusableReply(ReplyProblem.TRUNCATED, "the token limit was reached")
    try:
        return parser.invoke(message)
    except OutputParserException as exc:
        problem = ReplyProblem.SCHEMA if isinstance(exc.__cause__, ValidationError) else ReplyProblem.NOT_JSON
        raise UnusableReply(problem) from exc
    except LangChainException as exc:  # a refusal block in the reply
        raise UnusableReply(ReplyProblem.REFUSED, str(exc)[:200]) from exc
