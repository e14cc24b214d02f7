"""The server route that turns a one-time grant (`cookie_grants.py`) into an HttpOnly `Set-Cookie`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coach.ui.cookie_grants import GRANTS, GrantBook

COOKIE_ROUTE = "api/coach/cookie"  # Streamlit leaves /api/... to the app; its own routes live under /_stcore/
MAX_BODY = 1024


def _prefix(base: str) -> str:
    """`server.baseUrlPath` as a path prefix: "" for none, "/coach" for "coach/"."""
    parts = base.strip("/")
    return f"/{parts}" if parts else ""


def cookie_url(base: str = "") -> str:
    """Where the route is served: under `server.baseUrlPath`, like Streamlit's own routes, so a proxy that
    forwards only the app's prefix reaches it."""
    return f"{_prefix(base)}/{COOKIE_ROUTE}"


def cookie_scope(base: str = "") -> str:
    """The path the cookies are set for: the app's prefix, so two apps on one host keep apart ("/" without one)."""
    return _prefix(base) or "/"


def configured_base() -> str:
    """This server's `server.baseUrlPath` (read after Streamlit has loaded its config and flags)."""
    import streamlit as st

    return str(st.get_option("server.baseUrlPath") or "")


def _refuse(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _small_body(request: Request) -> bytes | None:
    """The body, read no further than MAX_BODY bytes (None past that)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return None
    return body


def cookie_endpoint(book: GrantBook = GRANTS, base: str = "") -> Callable[[Request], Awaitable[Response]]:
    """POST {"grant": token, "secure": bool} → 204 with the granted cookie set (HttpOnly, SameSite=Lax, path
    `cookie_scope(base)`; Secure when the page was served over https), or deleted; 400/403 with a reason
    otherwise."""
    path = cookie_scope(base)

    async def set_cookie(request: Request) -> Response:
        body = await _small_body(request)
        if body is None:
            return _refuse(413, "request too large")
        try:
            payload = json.loads(body)
            token, secure = payload["grant"], bool(payload.get("secure", False))
        except (ValueError, KeyError, TypeError):
            return _refuse(400, 'expected a JSON body {"grant": "<token>"}')
        grant = book.redeem(token) if isinstance(token, str) else None
        if grant is None:
            return _refuse(403, "unknown, used or expired grant")
        response = Response(status_code=204, headers={"Cache-Control": "no-store"})
        secure = secure or request.url.scheme == "https"
        if grant.value is None:
            response.delete_cookie(grant.name, path=path, secure=secure, httponly=True, samesite="lax")
        else:
            response.set_cookie(grant.name, grant.value, max_age=grant.max_age_s, path=path, secure=secure,
                                httponly=True, samesite="lax")
        return response

    return set_cookie


def cookie_routes(book: GrantBook = GRANTS, base: str = "") -> list[Route]:
    return [Route(cookie_url(base), cookie_endpoint(book, base), methods=["POST"])]
