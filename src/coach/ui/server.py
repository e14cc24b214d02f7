"""Server-level hooks for `st.App`: what starts once, when the server starts, before any browser connects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from coach.ui.cookie_route import configured_base, cookie_routes

SCRIPT = str(Path(__file__).with_name("entry") / "session.py")
# HttpOnly cookies set by one-time grants (`cookie_grants.py`), under the app's `server.baseUrlPath`: `streamlit
# run` loads its config and flags before it imports app.py
ROUTES = cookie_routes(base=configured_base())


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """Start loading the embedding model in a background thread as the server starts, so neither the first
    page nor the first grade waits for all of it."""
    from coach.ui import services

    services.warm_up()
    yield
