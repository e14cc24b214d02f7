"""A chat model that needs no network: scripted replies for tests (and the deterministic fake judges in
`coach.grading.judge.fakes` are built on the same protocol).

`FakeChatModel` replies from a list or a function of the messages; counts calls and calls in flight, can raise,
can be slow.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from coach.errors import ProviderError
from coach.providers.base import ChatMessage, ChatReply

FakeReply = str | ChatReply | BaseException
Script = Sequence[FakeReply] | Callable[[Sequence[ChatMessage]], FakeReply]


class FakeChatModel:
    """A ChatModel that plays a script. Exceptions in the script are raised (script ProviderError for failures)."""

    def __init__(
        self,
        script: Script,
        *,
        name: str = "fake-chat",
        delay_s: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        cycle: bool = False,
    ) -> None:
        self.name = name
        self.script = script
        self.delay_s = delay_s
        self.cycle = cycle
        self._sleep = sleep
        self._lock = threading.Lock()
        self.calls = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests: list[list[ChatMessage]] = []
        self.temperatures: list[float] = []
        self.json_modes: list[bool] = []

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, json_mode: bool = True
    ) -> ChatReply:
        with self._lock:
            index = self.calls
            self.calls += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.requests.append(list(messages))
            self.temperatures.append(temperature)
            self.json_modes.append(json_mode)
        try:
            if self.delay_s > 0:
                self._sleep(self.delay_s)
            reply = self._next(index, messages)
            if isinstance(reply, BaseException):
                raise reply
            if isinstance(reply, ChatReply):
                return reply
            return ChatReply(text=reply, model=self.name, finish_reason="stop")
        finally:
            with self._lock:
                self.in_flight -= 1

    def _next(self, index: int, messages: Sequence[ChatMessage]) -> FakeReply:
        if callable(self.script):
            return self.script(messages)
        if not self.script:
            raise ProviderError("the fake chat model has no scripted replies")
        if index >= len(self.script) and not self.cycle:
            raise ProviderError(f"the fake chat model ran out of scripted replies after {len(self.script)} call(s)")
        return self.script[index % len(self.script)]
