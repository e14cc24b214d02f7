"""The langchain-core adapter over the project's ChatModel, and reading structured replies with PydanticOutputParser."""

from __future__ import annotations

import json

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.output_parsers import PydanticOutputParser
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel

from coach.errors import ProviderError
from coach.providers.base import ChatMessage, ChatReply
from coach.providers.fake import FakeChatModel
from coach.providers.langchain_chat import (
    ChatModelAdapter,
    ReplyProblem,
    UnusableReply,
    as_langchain,
    finish_reason,
    model_name,
    read_structured,
    to_chat_messages,
)
from coach.providers.openai_chat import OpenAIChatModel
from tests.support.chat_server import ChatServer


class Pair(BaseModel):
    a: int
    b: str


PARSER = PydanticOutputParser(pydantic_object=Pair)


def test_the_adapter_sends_roles_and_text_and_asks_for_temperature_zero_json() -> None:
    inner = FakeChatModel([ChatReply(text='{"a": 1, "b": "x"}', model="served-name", finish_reason="stop")])
    adapter = ChatModelAdapter(inner=inner)
    reply = adapter.invoke([SystemMessage("rules"), HumanMessage("question"), AIMessage("earlier turn")])
    assert inner.requests == [
        [ChatMessage("system", "rules"), ChatMessage("user", "question"), ChatMessage("assistant", "earlier turn")]
    ]
    assert inner.temperatures == [0.0] and inner.json_modes == [True]
    assert reply.text == '{"a": 1, "b": "x"}'
    assert finish_reason(reply) == "stop" and reply.response_metadata["model_name"] == "served-name"


def test_per_call_overrides_reach_the_model() -> None:
    inner = FakeChatModel(["plain"])
    ChatModelAdapter(inner=inner).invoke("hello", temperature=0.7, json_mode=False)
    assert inner.temperatures == [0.7] and inner.json_modes == [False]
    assert inner.requests == [[ChatMessage("user", "hello")]]


def test_provider_errors_propagate_unchanged() -> None:
    adapter = ChatModelAdapter(inner=FakeChatModel([ProviderError("the endpoint is down")]))
    with pytest.raises(ProviderError, match="endpoint is down"):
        adapter.invoke("hi")


def test_a_message_kind_chat_completions_cannot_carry_is_refused() -> None:
    with pytest.raises(ValueError, match="tool"):
        to_chat_messages([ToolMessage("result", tool_call_id="1")])


def test_names_and_wrapping() -> None:
    inner = FakeChatModel(["x"], name="proto-model")
    assert model_name(inner) == "proto-model"
    wrapped = as_langchain(inner)
    assert isinstance(wrapped, ChatModelAdapter) and model_name(wrapped) == "proto-model"
    lc = FakeListChatModel(responses=["x"])
    assert as_langchain(lc) is lc and model_name(lc) == "fake-list-chat-model"
    assert model_name(FakeListChatModel(responses=["x"], name="named")) == "named"


def test_a_prompt_template_chain_over_the_real_openai_client() -> None:
    """ChatPromptTemplate | adapter(OpenAIChatModel) | parser, over HTTP to the local server."""
    prompt = ChatPromptTemplate.from_messages([("system", "Reply with JSON."), ("human", "{question}")])
    with ChatServer(["reject_json", "ok"], reply='{"a": 2, "b": "y"}') as server:
        model = OpenAIChatModel(None, server.url, "local-model", timeout_s=5, max_retries=0)
        message = (prompt | as_langchain(model)).invoke({"question": "Say {not a variable}"})
        assert read_structured(message, PARSER) == Pair(a=2, b="y")
        # the server rejected JSON mode once: the client asked again without it (its visible fallback)
        assert "response_format" in server.requests[0] and "response_format" not in server.requests[1]
        assert server.requests[1]["messages"][1] == {"role": "user", "content": "Say {not a variable}"}


# ------------------------------------------------------------------------------------------ structured replies
GOOD = json.dumps({"a": 3, "b": "z"})


@pytest.mark.parametrize(
    "text",
    [GOOD, f"```json\n{GOOD}\n```", f"Here it is:\n```\n{GOOD}\n```", f"{GOOD}\nHope that helps."],
    ids=["bare", "fenced", "prose-then-fence", "trailing-prose"],
)
def test_replies_the_parser_reads(text: str) -> None:
    assert read_structured(AIMessage(text), PARSER) == Pair(a=3, b="z")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Sure! All good.", ReplyProblem.NOT_JSON),
        ("", ReplyProblem.NOT_JSON),
        (json.dumps({"a": "three", "b": "z"}), ReplyProblem.SCHEMA),
        (json.dumps([1, 2]), ReplyProblem.SCHEMA),
        (json.dumps({"b": "z"}), ReplyProblem.SCHEMA),
    ],
)
def test_replies_the_parser_refuses(text: str, problem: ReplyProblem) -> None:
    with pytest.raises(UnusableReply) as info:
        read_structured(AIMessage(text), PARSER)
    assert info.value.problem is problem


def test_a_truncated_reply_is_refused_even_when_its_brackets_could_be_closed() -> None:
    cut = '{"a": 3, "b": "z"'  # the parser alone would repair this into a valid object
    assert PARSER.parse(cut) == Pair(a=3, b="z")
    with pytest.raises(UnusableReply) as info:
        read_structured(AIMessage(cut, response_metadata={"finish_reason": "length"}), PARSER)
    assert info.value.problem is ReplyProblem.TRUNCATED


def test_langchain_fake_models_flow_through_the_same_reader() -> None:
    listed = FakeListChatModel(responses=[GOOD])
    assert read_structured(listed.invoke("q"), PARSER).a == 3
    generic = GenericFakeChatModel(messages=iter([AIMessage(GOOD, response_metadata={"finish_reason": "length"})]))
    with pytest.raises(UnusableReply):
        read_structured(generic.invoke("q"), PARSER)
