"""Author-page test helpers: a private copy of the content, and the app's caches cleared around each test."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT.parent / "shared" / "reference" / "domain-facts.md"
TOKEN = "author-secret-0451"


def copy_content(dest: Path) -> Path:
    """questions/, rubrics/ and concepts/ under dest/repo, and the fact sheet beside it as `coach bank check`
    finds it (dest/shared/reference)."""
    repo = dest / "repo"
    for part in ("questions", "rubrics", "concepts"):
        shutil.copytree(ROOT / part, repo / part)
    if FACTS.exists():
        (dest / "shared" / "reference").mkdir(parents=True)
        shutil.copy(FACTS, dest / "shared" / "reference" / FACTS.name)
    return repo


def clear_app_caches() -> None:
    from coach.config import get_settings
    from coach.ui import services

    get_settings.cache_clear()
    services.bank.clear()
    services.journey.clear()
