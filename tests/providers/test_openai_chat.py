"""The real OpenAIChatModel driven against a local chat-completions server on 127.0.0.1."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from coach.errors import ProviderError
from coach.providers.base import ChatMessage, ChatModel
from coach.providers.openai_chat import OpenAIChatModel, _retry_after
from tests.support.chat_server import ChatServer

MESSAGES = [ChatMessage("system", "Reply with JSON."), ChatMessage("user", "Say hi.")]
CONTENT = '{"hello": "world"}'


def model_for(server: ChatServer, *, sleeps: list[float] | None = None, **kwargs: Any) -> OpenAIChatModel:
    options: dict[str, Any] = {"timeout_s": 5.0, "max_retries": 3}
    options.update(kwargs)
    record = sleeps if sleeps is not None else []
    return OpenAIChatModel("test-key", server.url, "local-model", sleep=record.append, rng=random.Random(7), **options)


def test_ok_request_shape_and_reply() -> None:
    with ChatServer(["ok"], reply=CONTENT) as server:
        model = model_for(server)
        assert isinstance(model, ChatModel)
        reply = model.complete(MESSAGES)
        assert reply.text == CONTENT and reply.finish_reason == "stop" and reply.model == "local-test-model"
        [body] = server.requests
        assert body["model"] == "local-model" and body["temperature"] == 0
        assert body["response_format"] == {"type": "json_object"}
        assert body["messages"] == [
            {"role": "system", "content": "Reply with JSON."},
            {"role": "user", "content": "Say hi."},
        ]
        assert {k.lower(): v for k, v in server.headers[0].items()}.get("authorization") == "Bearer test-key"
        assert model.json_mode_supported is True


def test_json_mode_can_be_off() -> None:
    with ChatServer(["ok"], reply="plain") as server:
        model_for(server).complete(MESSAGES, json_mode=False)
        assert "response_format" not in server.requests[0]


def test_429_then_ok_honours_retry_after() -> None:
    with ChatServer(["429", "ok"], reply=CONTENT, retry_after="2") as server:
        sleeps: list[float] = []
        reply = model_for(server, sleeps=sleeps).complete(MESSAGES)
        assert reply.text == CONTENT
        assert server.served_modes == ["429", "ok"]
        assert sleeps == [2.0]  # the header's 2 s, longer than the first backoff (<= 0.5 s)


def test_retry_after_beyond_the_limit_fails_fast() -> None:
    with ChatServer(["429", "ok"], retry_after="3600") as server:
        with pytest.raises(ProviderError, match="retry after 3600"):
            model_for(server, max_retry_after_s=60).complete(MESSAGES)
        assert len(server.requests) == 1


def test_500_then_ok_backs_off_with_jitter() -> None:
    with ChatServer(["500", "503", "ok"], reply=CONTENT) as server:
        sleeps: list[float] = []
        assert model_for(server, sleeps=sleeps, backoff_base_s=1.0).complete(MESSAGES).text == CONTENT
        assert len(sleeps) == 2
        assert 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0  # equal jitter around 1 s, then 2 s


def test_backoff_is_seeded() -> None:
    def run() -> list[float]:
        with ChatServer(["500", "500", "ok"]) as server:
            sleeps: list[float] = []
            model_for(server, sleeps=sleeps).complete(MESSAGES)
            return sleeps

    assert run() == run()


def test_always_500_exhausts_retries() -> None:
    with ChatServer(default="500") as server:
        sleeps: list[float] = []
        with pytest.raises(ProviderError, match=r"kept failing \(HTTP 500\) after 3 attempt"):
            model_for(server, sleeps=sleeps, max_retries=2).complete(MESSAGES)
        assert len(server.requests) == 3 and len(sleeps) == 2


def test_connection_error_is_retried_then_reported() -> None:
    with ChatServer(["drop", "ok"], reply=CONTENT) as server:
        sleeps: list[float] = []
        assert model_for(server, sleeps=sleeps).complete(MESSAGES).text == CONTENT
        assert len(sleeps) == 1
    closed = OpenAIChatModel(None, server.url, "m", timeout_s=1, max_retries=1, sleep=lambda _s: None)
    with pytest.raises(ProviderError, match="cannot reach"):
        closed.complete(MESSAGES)  # the server is gone: connection refused


def test_slow_server_times_out() -> None:
    with ChatServer(["slow"], slow_s=2.0) as server:
        started = time.monotonic()
        with pytest.raises(ProviderError, match=r"did not answer within 0.3 s"):
            model_for(server, timeout_s=0.3).complete(MESSAGES)
        assert time.monotonic() - started < 1.5
        assert len(server.requests) == 1  # timeouts are not retried by default


def test_timeouts_can_be_retried() -> None:
    with ChatServer(["slow", "ok"], reply=CONTENT, slow_s=1.0) as server:
        sleeps: list[float] = []
        assert model_for(server, sleeps=sleeps, timeout_s=0.3, retry_timeouts=True).complete(MESSAGES).text == CONTENT
        assert len(sleeps) == 1


def test_malformed_body() -> None:
    with ChatServer(["malformed"]) as server, pytest.raises(ProviderError, match=r"malformed|unusable"):
        model_for(server).complete(MESSAGES)


def test_no_choices() -> None:
    with ChatServer(["no_choices"]) as server, pytest.raises(ProviderError, match="no choices"):
        model_for(server).complete(MESSAGES)


def test_truncated_reply_is_reported() -> None:
    with ChatServer(["truncated"], reply=CONTENT) as server:
        reply = model_for(server).complete(MESSAGES)
        assert reply.finish_reason == "length" and reply.text == CONTENT[: len(CONTENT) // 2]


def test_rejected_response_format_falls_back_and_is_remembered() -> None:
    with ChatServer(default="reject_json", reply=CONTENT) as server:
        model = model_for(server)
        assert model.complete(MESSAGES).text == CONTENT
        assert ["response_format" in r for r in server.requests] == [True, False]
        assert model.json_mode_supported is False
        model.complete(MESSAGES)
        assert len(server.requests) == 3 and "response_format" not in server.requests[2]  # no second rejection


@pytest.mark.parametrize(("mode", "message"), [("401", "refused the API key"), ("404", "does not know this model")])
def test_client_errors_are_not_retried(mode: str, message: str) -> None:
    with ChatServer([mode, "ok"]) as server:
        with pytest.raises(ProviderError, match=message):
            model_for(server).complete(MESSAGES)
        assert len(server.requests) == 1


def test_retry_after_parsing() -> None:
    assert _retry_after({"retry-after": "3"}) == 3.0
    assert _retry_after({"retry-after-ms": "250"}) == 0.25
    assert _retry_after({"retry-after": "soon"}) is None
    assert _retry_after({}) is None
    later = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    wait = _retry_after({"retry-after": later})
    assert wait is not None and 25 <= wait <= 31
