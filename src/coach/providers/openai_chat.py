"""ChatModel over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp server).

The retry policy is ours, not the SDK's (its retries are switched off) so that it is visible and testable:
429, 408, 409 and 5xx responses and connection errors are retried with exponential backoff and jitter, a
Retry-After header is honoured (up to `max_retry_after_s`), and timeouts are not retried by default (a server
that did not answer in `timeout_s` is overloaded; the grade falls back to the offline grader instead of making
the candidate wait several timeouts). JSON mode is asked for with `response_format`; a server that rejects it
(400/422) is asked again without it, and remembered. Every failure ends in a ProviderError with a plain message.
"""

from __future__ import annotations

import email.utils
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from coach.errors import ProviderError
from coach.providers.base import ChatMessage, ChatReply

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class OpenAIChatModel:
    """One chat-completions call per `complete`, at temperature 0 by default."""

    def __init__(
        self,
        api_key: str | None,
        base_url: str | None,
        model: str,
        timeout_s: float = 30.0,
        max_retries: int = 3,
        *,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 20.0,
        max_retry_after_s: float = 60.0,
        retry_timeouts: bool = False,
        max_tokens: int | None = 1500,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        client: Any = None,
    ) -> None:
        self.name = model
        self.model = model
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.max_retries = max(0, max_retries)
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.retry_timeouts = retry_timeouts
        self.max_tokens = max_tokens
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self._rng_lock = threading.Lock()
        self.json_mode_supported: bool | None = None  # learnt from the server: False once it rejects JSON mode
        self.sleeps: list[float] = []  # every backoff actually taken (for tests and logs)
        if client is None:
            try:
                from openai import OpenAI
            except ImportError as exc:  # pragma: no cover - install problem
                raise ProviderError("The openai package is not installed: pip install openai") from exc
            # Local servers (Ollama, vLLM, llama.cpp) accept any key; the SDK insists on one.
            client = OpenAI(api_key=api_key or "not-needed", base_url=base_url, timeout=timeout_s, max_retries=0)
        self._client = client

    # ------------------------------------------------------------------------------------------------------
    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, json_mode: bool = True
    ) -> ChatReply:
        import openai

        payload = [{"role": m.role, "content": m.content} for m in messages]
        use_json = json_mode and self.json_mode_supported is not False
        json_fallback = False
        attempt = 0
        while True:
            try:
                response = self._create(payload, temperature, use_json)
                break
            except openai.APITimeoutError as exc:
                if not self.retry_timeouts or attempt >= self.max_retries:
                    raise ProviderError(
                        f"{self._where()} did not answer within {self.timeout_s:g} s (attempt {attempt + 1})"
                    ) from exc
                self._backoff(attempt, None, "timeout")
            except openai.APIConnectionError as exc:
                if attempt >= self.max_retries:
                    raise ProviderError(
                        f"cannot reach {self._where()} after {attempt + 1} attempt(s): {_cause(exc)}"
                    ) from exc
                self._backoff(attempt, None, "connection error")
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status in (400, 422) and use_json and not json_fallback:
                    # Many local servers do not know `response_format`: ask once more without it. If that works,
                    # remember it (the judge's parser copes with JSON in prose or fences).
                    log.info(
                        "%s rejected the request with JSON mode (HTTP %s); retrying without response_format",
                        self._where(),
                        status,
                    )
                    use_json, json_fallback = False, True
                    continue
                if status in RETRYABLE_STATUS and attempt < self.max_retries:
                    wait = _retry_after(exc.response.headers if exc.response is not None else {})
                    if wait is not None and wait > self.max_retry_after_s:
                        raise ProviderError(
                            f"{self._where()} is rate limiting (HTTP {status}) and asks to retry "
                            f"after {wait:g} s, beyond the {self.max_retry_after_s:g} s we wait"
                        ) from exc
                    self._backoff(attempt, wait, f"HTTP {status}")
                else:
                    raise ProviderError(self._status_message(status, exc, attempt)) from exc
            except openai.OpenAIError as exc:  # response validation and anything else the SDK raises
                raise ProviderError(f"{self._where()} returned an unusable response: {_cause(exc)}") from exc
            except (ValueError, TypeError) as exc:  # e.g. a body that is not JSON, depending on the SDK version
                raise ProviderError(f"{self._where()} returned a malformed response: {exc}") from exc
            attempt += 1
        if use_json and self.json_mode_supported is None:
            self.json_mode_supported = True
        elif json_fallback:
            self.json_mode_supported = False
        return self._reply(response)

    # ------------------------------------------------------------------------------------------------------
    def _create(self, payload: list[dict[str, str]], temperature: float, use_json: bool) -> Any:
        kwargs: dict[str, Any] = {"model": self.model, "messages": payload, "temperature": temperature}
        if self.max_tokens:
            kwargs["max_tokens"] = self.max_tokens
        if use_json:
            kwargs["response_format"] = {"type": "json_object"}
        return self._client.chat.completions.create(**kwargs)

    def _reply(self, response: Any) -> ChatReply:
        choices = getattr(response, "choices", None)
        if not choices:
            raise ProviderError(f"{self._where()} returned no choices (got {type(response).__name__})")
        choice = choices[0]
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        finish = getattr(choice, "finish_reason", None)
        if content is None:
            refusal = getattr(message, "refusal", None)
            raise ProviderError(
                f"{self._where()} returned an empty message"
                + (f" (refusal: {refusal})" if refusal else f" (finish_reason {finish})")
            )
        if finish == "length":
            log.warning("%s truncated its reply (finish_reason=length, %d chars)", self._where(), len(content))
        return ChatReply(
            text=str(content), model=str(getattr(response, "model", None) or self.model), finish_reason=finish
        )

    def _backoff(self, attempt: int, retry_after: float | None, why: str) -> None:
        ceiling = min(self.backoff_max_s, self.backoff_base_s * (2**attempt))
        with self._rng_lock:
            delay = ceiling / 2 + self._rng.uniform(0, ceiling / 2)  # "equal jitter": never 0, never in lockstep
        if retry_after is not None:
            delay = max(delay, retry_after)
        log.info("%s: %s; retry %d/%d in %.2f s", self._where(), why, attempt + 1, self.max_retries, delay)
        self.sleeps.append(delay)
        self._sleep(delay)

    def _where(self) -> str:
        return f"the chat model '{self.model}' at {self.base_url or 'the OpenAI API'}"

    def _status_message(self, status: int, exc: Any, attempt: int) -> str:
        detail = _cause(exc, inner_too=False)
        if status == 401:
            return f"{self._where()} refused the API key (HTTP 401): check COACH_LLM_API_KEY. {detail}"
        if status == 403:
            return f"{self._where()} denied access (HTTP 403). {detail}"
        if status == 404:
            return (
                f"{self._where()} does not know this model or path (HTTP 404): check COACH_LLM_MODEL and "
                f"COACH_LLM_BASE_URL (it usually ends in /v1). {detail}"
            )
        if status in RETRYABLE_STATUS:
            return f"{self._where()} kept failing (HTTP {status}) after {attempt + 1} attempt(s). {detail}"
        return f"{self._where()} rejected the request (HTTP {status}). {detail}"


def _cause(exc: BaseException, *, inner_too: bool = True) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    inner = exc.__cause__ or exc.__context__
    if inner_too and inner is not None and str(inner) and str(inner) not in message:
        message = f"{message} ({type(inner).__name__}: {inner})"
    return message[:500]


def _retry_after(headers: Mapping[str, str] | Any) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date); None if absent/invalid."""
    try:
        raw_ms = headers.get("retry-after-ms")
        if raw_ms is not None:
            return max(0.0, float(raw_ms) / 1000)
        raw = headers.get("retry-after")
    except AttributeError:
        return None
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())
