"""Server-level hooks for `st.App`: what starts once, when the server starts, before any browser connects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

SCRIPT = str(Path(__file__).with_name("entry") / "session.py")


@asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """Start loading the embedding model (and preparing nothing else) as the server starts, in a background
    thread, so the first page does not wait for it and the first grade waits only for what is left."""
    from coach.ui import services

    services.warm_up()
    yield
