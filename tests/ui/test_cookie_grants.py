"""HttpOnly cookies: a session files a one-time grant, the page posts its token, the route sets the cookie."""

from __future__ import annotations

import re

from starlette.applications import Starlette
from starlette.testclient import TestClient
from streamlit.testing.v1 import AppTest

from coach.ui.cookie_grants import GRANTS, CookieGrant, GrantBook
from coach.ui.cookie_route import cookie_routes, cookie_scope, cookie_url
from coach.ui.cookies import cookie_script


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


COOKIE_PATH = cookie_url()


def client(book: GrantBook, base: str = "") -> TestClient:
    return TestClient(Starlette(routes=cookie_routes(book, base)))


def test_a_grant_is_redeemed_once_and_not_after_it_expires() -> None:
    clock = Clock()
    book = GrantBook(ttl_s=60, clock=clock)
    first, second = book.issue(CookieGrant("k", "v1", 10)), book.issue(CookieGrant("k", "v2", 10))
    assert first != second and len(book) == 2
    assert book.status(first) == "pending"
    assert book.redeem(first) == CookieGrant("k", "v1", 10)
    assert book.redeem(first) is None and book.status(first) == "redeemed"  # used
    clock.now = 61
    assert book.status(second) == "unknown" and book.redeem(second) is None  # expired
    assert book.redeem("never-issued") is None and book.status("never-issued") == "unknown"


def test_the_book_forgets_expired_and_the_oldest_grants_past_its_capacity() -> None:
    clock = Clock()
    book = GrantBook(ttl_s=60, capacity=3, clock=clock)
    old = book.issue(CookieGrant("a", "1", 10))
    clock.now = 61
    tokens = [book.issue(CookieGrant("a", str(i), 10)) for i in range(4)]
    assert len(book) == 3  # the expired one dropped, then the oldest live one
    assert book.redeem(old) is None and book.redeem(tokens[0]) is None
    assert book.redeem(tokens[3]) == CookieGrant("a", "3", 10)


def test_the_route_sets_the_granted_cookie_http_only_and_refuses_a_replay() -> None:
    book = GrantBook()
    token = book.issue(CookieGrant("coach_local_key", "secret-key", 3600))
    with client(book) as c:
        ok = c.post(COOKIE_PATH, json={"grant": token, "secure": False})
        assert ok.status_code == 204
        header = ok.headers["set-cookie"]
        assert header.startswith("coach_local_key=secret-key;")
        attrs = {a.strip().split("=")[0].lower() for a in header.split(";")[1:]}
        assert {"httponly", "max-age", "path", "samesite"} <= attrs and "secure" not in attrs
        assert re.search(r"Max-Age=3600", header) and re.search(r"SameSite=lax", header, re.I)
        again = c.post(COOKIE_PATH, json={"grant": token})
        assert again.status_code == 403 and "set-cookie" not in again.headers


def test_the_route_deletes_a_cookie_marks_it_secure_over_https_and_explains_a_bad_body() -> None:
    book = GrantBook()
    token = book.issue(CookieGrant("coach_author_pass", None, 0))
    with client(book) as c:
        gone = c.post(COOKIE_PATH, json={"grant": token, "secure": True})
        header = gone.headers["set-cookie"]
        assert gone.status_code == 204 and header.startswith('coach_author_pass="";')
        assert "Max-Age=0" in header and "HttpOnly" in header and "Secure" in header
        bad = c.post(COOKIE_PATH, content=b"not json")
        assert bad.status_code == 400 and "grant" in bad.json()["error"]
        assert c.post(COOKIE_PATH, json={"grant": 7}).status_code == 403
        assert c.post(COOKIE_PATH, content=b"x" * 5000).status_code == 413


def test_under_a_base_url_path_the_route_and_the_cookie_live_under_the_prefix() -> None:
    assert (cookie_url(), cookie_scope()) == ("/api/coach/cookie", "/")
    assert cookie_url("coach/") == cookie_url("/coach") == "/coach/api/coach/cookie"
    assert cookie_scope("/coach/") == "/coach"
    book = GrantBook()
    token = book.issue(CookieGrant("coach_local_key", "secret-key", 3600))
    with client(book, base="coach") as c:
        assert c.post(COOKIE_PATH, json={"grant": token}).status_code == 404  # a proxy forwards only /coach/...
        ok = c.post("/coach/api/coach/cookie", json={"grant": token})
        assert ok.status_code == 204 and "Path=/coach;" in ok.headers["set-cookie"]
    assert '"/coach/api/coach/cookie"' in cookie_script(GRANTS.issue(CookieGrant("k", "v", 1)), base="coach")


def test_the_script_carries_the_token_never_the_value() -> None:
    token = GRANTS.issue(CookieGrant("coach_local_key", "the-candidates-key", 60))
    script = cookie_script(token)
    assert token in script and COOKIE_PATH in script and "the-candidates-key" not in script
    assert "document.cookie" not in script


_PAGE = '''
import streamlit as st
from coach.ui.cookies import write_cookie
write_cookie("coach_local_key", st.session_state.get("value", "key-one"), 60)
'''


def _scripts(at: AppTest) -> list[str]:
    return [str(getattr(e, "proto", e)) for e in at.main if "api/coach/cookie" in str(getattr(e, "proto", e))]


def _token_in(at: AppTest) -> str:
    bodies = _scripts(at)
    assert len(bodies) == 1, bodies
    found = re.search(r'var t=\\?"([A-Za-z0-9_-]+)\\?"', bodies[0])
    assert found, bodies[0]
    return found.group(1)


def test_a_page_that_writes_a_cookie_files_one_grant_per_value_and_shows_only_its_token() -> None:
    at = AppTest.from_string(_PAGE).run()
    first = _token_in(at)
    assert "key-one" not in str([getattr(e, "proto", e) for e in at.main])
    assert _token_in(at.run()) == first  # a rerun with the same value files no new grant
    at.session_state["value"] = "key-two"
    second = _token_in(at.run())
    assert second != first
    assert GRANTS.redeem(first) == CookieGrant("coach_local_key", "key-one", 60)
    assert GRANTS.redeem(second) == CookieGrant("coach_local_key", "key-two", 60)
    assert _scripts(at.run()) == []  # posted: the page no longer carries the script
    at.session_state["value"] = "key-one"
    assert _token_in(at.run()) not in (first, second)  # a value written before is written again as asked
