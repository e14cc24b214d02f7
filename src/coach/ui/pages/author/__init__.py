"""The authoring studio's pages, for the app's navigation: (render function, title, url_path).

Every page calls the author gate first (`gate.require_author`), so a candidate who opens an author URL sees a
refusal, not the page.
"""

from __future__ import annotations

from collections.abc import Callable

from coach.ui.pages.author import analysis, export, generate, review

PAGES: list[tuple[Callable[[], None], str, str]] = [
    (review.render_page, "Review queue", "author"),
    (generate.render_page, "Generate", "author-generate"),
    (analysis.render_page, "Item analysis", "author-analysis"),
    (export.render_page, "Export", "author-export"),
]
