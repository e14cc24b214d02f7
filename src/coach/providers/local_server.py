"""A local OpenAI-compatible chat-completions server on 127.0.0.1 with scripted failure modes.

Used by the tests, by `coach bench judge` and by scripts/judge_messy_output.py; it never listens beyond loopback.

Each request takes the next mode from `modes` (then `default`):
  ok          200, choices[0].message.content = the reply, finish_reason "stop"
  429         429 with `Retry-After: <retry_after>`
  500 / 503   that status
  401 / 404   that status
  slow        sleeps `slow_s`, then answers like ok
  malformed   200 with a body that is not JSON
  truncated   200 with half the reply and finish_reason "length"
  no_choices  200 with an empty choices list
  reject_json 400 "response_format is not supported" when the request has response_format, else ok
  drop        closes the connection without answering
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ReplyFn = Callable[[dict[str, Any]], str]


class ChatServer:
    def __init__(
        self,
        modes: Iterable[str] = (),
        *,
        default: str = "ok",
        reply: str | ReplyFn = '{"ok": true}',
        retry_after: str = "1",
        slow_s: float = 2.0,
        model: str = "local-test-model",
    ) -> None:
        self.modes: deque[str] = deque(modes)
        self.default = default
        self.reply = reply
        self.retry_after = retry_after
        self.slow_s = slow_s
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.served_modes: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="chat-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next_mode(self) -> str:
        with self._lock:
            mode = self.modes.popleft() if self.modes else self.default
            self.served_modes.append(mode)
            return mode

    def _content(self, body: dict[str, Any]) -> str:
        return self.reply(body) if callable(self.reply) else self.reply

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def _send(self, status: int, body: bytes | dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

            def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
                self._send(status, {"error": {"message": message, "type": "test_error", "code": status}}, headers)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._error(404, f"no route {self.path}")
                    return
                body = json.loads(raw or b"{}")
                with server._lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers.items()))
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    self._serve(server._next_mode(), body)
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _completion(self, content: str, finish: str = "stop") -> dict[str, Any]:
                return {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": server.model,
                    "choices": [
                        {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }

            def _serve(self, mode: str, body: dict[str, Any]) -> None:
                if mode == "ok":
                    self._send(200, self._completion(server._content(body)))
                elif mode == "429":
                    self._error(429, "rate limited", {"Retry-After": server.retry_after})
                elif mode in ("500", "502", "503", "401", "404"):
                    self._error(int(mode), f"scripted {mode}")
                elif mode == "slow":
                    time.sleep(server.slow_s)
                    self._send(200, self._completion(server._content(body)))
                elif mode == "malformed":
                    self._send(200, b'{"id": "chatcmpl-test", "choices": [ {"message": ')
                elif mode == "truncated":
                    text = server._content(body)
                    self._send(200, self._completion(text[: max(1, len(text) // 2)], "length"))
                elif mode == "no_choices":
                    self._send(
                        200,
                        {"id": "x", "object": "chat.completion", "created": 0, "model": server.model, "choices": []},
                    )
                elif mode == "reject_json":
                    if "response_format" in body:
                        self._error(400, "response_format is not supported by this server")
                    else:
                        self._send(200, self._completion(server._content(body)))
                elif mode == "drop":
                    self.close_connection = True
                    self.connection.close()
                else:  # pragma: no cover - a typo in a test
                    self._error(500, f"unknown scripted mode {mode}")

        return Handler
