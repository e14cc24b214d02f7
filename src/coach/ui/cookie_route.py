"""The server route that turns a one-time grant (`cookie_grants.py`) into an HttpOnly `Set-Cookie`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coach.ui.cookie_grants import GRANTS, GrantBook

COOKIE_PATH = "/api/coach/cookie"  # Streamlit leaves /api/... to the app; its own routes live under /_stcore/
MAX_BODY = 1024


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


def cookie_endpoint(book: GrantBook = GRANTS) -> Callable[[Request], Awaitable[Response]]:
    """POST {"grant": token, "secure": bool} → 204 with the granted cookie set (HttpOnly, SameSite=Lax, path /;
    Secure when the page was served over https), or deleted; 400/403 with a reason otherwise."""

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
            response.delete_cookie(grant.name, path="/", secure=secure, httponly=True, samesite="lax")
        else:
            response.set_cookie(grant.name, grant.value, max_age=grant.max_age_s, path="/", secure=secure,
                                httponly=True, samesite="lax")
        return response

    return set_cookie


def cookie_routes(book: GrantBook = GRANTS) -> list[Route]:
    return [Route(COOKIE_PATH, cookie_endpoint(book), methods=["POST"])]
