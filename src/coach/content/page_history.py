"""Old versions of concept pages, read back from git history, and the diff an author reviews.

Old page versions are not stored as snapshots: content is reviewed in git, so every version an item could have
been stamped against was committed at some point, and a snapshot folder would copy every page and could drift
from what was really merged. The cost: a shallow clone, or a version never committed, cannot be shown; the
lookup then says so instead of guessing.
"""

from __future__ import annotations

import difflib
import subprocess
from pathlib import Path
from typing import Protocol

from coach.content.schema import page_version


class PageHistory(Protocol):
    def body_at(self, page_id: str, version: str) -> str | None:
        """The page body whose version is `version`, or None when no recorded revision has it."""
        ...


class GitPageHistory:
    """Walks `git log` of concepts/<id>.md (newest first) until a revision's body has the wanted version."""

    def __init__(self, root: Path, *, max_revisions: int = 500) -> None:
        self.root = root
        self.max_revisions = max_revisions
        self._cache: dict[tuple[str, str], str | None] = {}

    def _git(self, *args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(self.root), *args], capture_output=True, text=True, check=True, timeout=30
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout

    def body_at(self, page_id: str, version: str) -> str | None:
        key = (page_id, version)
        if key not in self._cache:
            self._cache[key] = self._find(page_id, version)
        return self._cache[key]

    def _find(self, page_id: str, version: str) -> str | None:
        from coach.content.loader import split_front_matter

        prefix = self._git("rev-parse", "--show-prefix")
        if prefix is None:
            return None  # not a git checkout
        path = f"{prefix.strip()}concepts/{page_id}.md"
        revs = self._git("log", f"-n{self.max_revisions}", "--format=%H", "--", f"concepts/{page_id}.md") or ""
        for rev in revs.split():
            text = self._git("show", f"{rev}:{path}")
            if text is None:
                continue
            try:
                _, body = split_front_matter(text)
            except ValueError:
                continue
            if page_version(body) == version:
                return body
        return None


class MemoryPageHistory:
    """Page bodies kept in memory (tests, and a UI that already holds them)."""

    def __init__(self, bodies: dict[str, list[str]] | None = None) -> None:
        self.bodies = bodies or {}

    def add(self, page_id: str, body: str) -> None:
        self.bodies.setdefault(page_id, []).append(body)

    def body_at(self, page_id: str, version: str) -> str | None:
        return next((b for b in self.bodies.get(page_id, []) if page_version(b) == version), None)


def page_diff(page_id: str, old_body: str, old_version: str, new_body: str, new_version: str) -> str:
    """A unified diff of two versions of a page's body, named by their versions."""
    lines = difflib.unified_diff(
        old_body.splitlines(keepends=True),
        new_body.splitlines(keepends=True),
        fromfile=f"concepts/{page_id}.md@{old_version}",
        tofile=f"concepts/{page_id}.md@{new_version}",
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
