"""Server-level hooks for `st.App`: what starts once, when the server starts, before any browser connects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from coach.ui.cookie_route import cookie_routes

SCRIPT = str(Path(__file__).with_name("entry") / "session.py")
ROUTES = cookie_routes()  # HttpOnly cookies set by one-time grants (`cookie_grants.py`)


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """Start loading the embedding model in a background thread as the server starts, so neither the first
    page nor the first grade waits for all of it."""
    from coach.ui import services

    services.warm_up()
    yield
