"""The app served under a path prefix (`server.baseUrlPath`), as behind a proxy that forwards only its prefix:
the local-mode key cookie is still set HttpOnly, through the cookie route under that prefix, and scoped to it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browse import crashes, settle, sign_in
from tests.e2e.journey_support import assert_http_only, local_key
from tests.e2e.server import streamlit_server

pytestmark = pytest.mark.e2e
BASE = "coach"


@pytest.fixture(scope="module")
def prefixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with streamlit_server(tmp_path_factory.mktemp("prefixed-server"), base_path=BASE) as url:
        yield url


def test_under_a_base_url_path_the_key_cookie_is_set_under_the_prefix_and_keeps_the_candidate(
        browser: Any, prefixed: str) -> None:
    assert prefixed.endswith(f"/{BASE}")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "cookie" in r.url else None)
    try:
        sign_in(page, prefixed, name="Prefix Candidate")
        key = local_key(context)
        assert_http_only(context, page, "coach_local_key")
        cookie = next(c for c in context.cookies() if c["name"] == "coach_local_key")
        assert cookie["path"] == f"/{BASE}", cookie
        assert posts and all(url.startswith(f"{prefixed}/api/coach/cookie") for url in posts), posts
        page.goto(f"{prefixed}/progress")  # a new session, opened with the cookie: the same candidate
        settle(page)
        assert page.get_by_text("Prefix Candidate").count(), "the reload forgot the candidate"
        assert not page.get_by_label("Your display name").count()
        assert local_key(context) == key and not crashes(page)
    finally:
        context.close()
