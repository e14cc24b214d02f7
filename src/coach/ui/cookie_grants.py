"""One-time grants to set a browser cookie from the server, so the cookie can be HttpOnly.

A Streamlit session talks over a websocket, which cannot set cookies, and a cookie written by the page's
JavaScript cannot be HttpOnly. So the session files a grant here (which cookie, what value) and the page posts
the grant's random token to the server's cookie route (`cookie_route.py`), whose answer carries the
`Set-Cookie`. The value never appears in the page, and a token works once. Grants live in this process's
memory: the route and the sessions run in the same Streamlit server process.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

GRANT_TTL_S = 15 * 60  # long enough for a page that renders late; a lost grant is filed again next session
MAX_GRANTS = 10_000  # the oldest unredeemed grants go first past this


@dataclass(frozen=True)
class CookieGrant:
    name: str
    value: str | None  # None deletes the cookie
    max_age_s: int


class GrantBook:
    """Pending grants by token; thread-safe (sessions run in script threads, the route on the event loop)."""

    def __init__(self, ttl_s: float = GRANT_TTL_S, capacity: int = MAX_GRANTS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl_s, self._capacity, self._clock = ttl_s, capacity, clock
        self._pending: OrderedDict[str, tuple[float, CookieGrant]] = OrderedDict()
        self._redeemed: OrderedDict[str, float] = OrderedDict()  # token -> when it would have expired
        self._lock = threading.Lock()

    def issue(self, grant: CookieGrant) -> str:
        token = secrets.token_urlsafe(32)
        with self._lock:
            self._drop_expired()
            self._pending[token] = (self._clock() + self._ttl_s, grant)
            while len(self._pending) > self._capacity:
                self._pending.popitem(last=False)
        return token

    def redeem(self, token: str) -> CookieGrant | None:
        """The grant, once; None for an unknown, used or expired token."""
        with self._lock:
            found = self._pending.pop(token, None)
            if found is None or found[0] < self._clock():
                return None
            self._redeemed[token] = found[0]
            while len(self._redeemed) > self._capacity:
                self._redeemed.popitem(last=False)
        return found[1]

    def status(self, token: str) -> Literal["pending", "redeemed", "unknown"]:
        """Whether the page has posted the grant yet ("unknown": expired unposted, or never issued)."""
        with self._lock:
            self._drop_expired()
            if token in self._pending:
                return "pending"
            return "redeemed" if token in self._redeemed else "unknown"

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)

    def _drop_expired(self) -> None:
        now = self._clock()
        while self._pending and next(iter(self._pending.values()))[0] < now:
            self._pending.popitem(last=False)
        while self._redeemed and next(iter(self._redeemed.values())) < now:
            self._redeemed.popitem(last=False)


GRANTS = GrantBook()
