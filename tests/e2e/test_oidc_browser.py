"""Sign-in with a real OpenID Connect provider in headless Chromium: a local provider (oidc-provider-mock, on
127.0.0.1) stands in for the hosted one, and Streamlit's own `st.login` talks to it through the real server,
as a deployment configured with `[auth]` does. A candidate signs in, stays signed in across a reload and signs
out; a configured author opens the studio with no token; another account is refused."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browse import wait_for_any
from tests.e2e.conftest import shot
from tests.e2e.server import free_port, streamlit_server
from tests.ui.author_support import copy_content

pytestmark = pytest.mark.e2e
AUTHOR = ("ada", "ada@example.com", "Ada Lovelace")
CANDIDATE = ("bob", "bob@example.com", "Bob Candidate")


@pytest.fixture(scope="module")
def oidc_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from oidc_provider_mock import User, run_server_in_thread

    base = tmp_path_factory.mktemp("oidc")
    content = copy_content(base / "content")
    state = base / "state"
    state.mkdir()
    users = [User(sub=sub, claims={"email": email, "name": name}) for sub, email, name in (AUTHOR, CANDIDATE)]
    with run_server_in_thread(user_claims=users) as provider:
        port = free_port()
        secrets_file = base / "secrets.toml"
        secrets_file.write_text(
            "[auth]\n"
            f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
            f'cookie_secret = "{secrets.token_hex(16)}"\n'
            'client_id = "coach-e2e"\n'
            'client_secret = "coach-e2e-secret"\n'
            f'server_metadata_url = "http://127.0.0.1:{provider.server_port}/.well-known/openid-configuration"\n'
        )
        env = {"COACH_CONTENT_DIR": str(content), "COACH_AUTHOR_EMAILS": AUTHOR[1]}
        with streamlit_server(state, env, ("--secrets.files", str(secrets_file)), port=port) as url:
            yield url


def _signed_in(browser: Any, url: str, who: tuple[str, str, str]) -> tuple[Any, Any]:
    """A new browser (context, page) signed in as the provider's user `who`: open My progress, click Sign in,
    pick the user on the provider's own authorization page, and wait for the coach to name them."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{url}/progress")
    wait_for_any(page, ["[data-testid='stMain'] button:has-text('Sign in')"], timeout_s=180)
    page.locator("[data-testid='stMain'] button:has-text('Sign in')").click()
    page.wait_for_selector("text=Authorize Client", timeout=60_000)
    page.locator(f"button[name='sub'][value='{who[0]}']").click()
    wait_for_any(page, [f"text=Signed in as {who[2]}"], timeout_s=180)
    return context, page


def test_a_candidate_signs_in_with_the_provider_stays_signed_in_and_signs_out(oidc_app: str, browser: Any) -> None:
    url = oidc_app
    context, page = _signed_in(browser, url, CANDIDATE)
    assert not page.locator("text=local mode").count()
    page.reload()  # the login lives in Streamlit's auth cookie, not in the session
    wait_for_any(page, [f"text=Signed in as {CANDIDATE[2]}"], timeout_s=180)
    shot(page, "oidc-signed-in")

    page.goto(f"{url}/author")  # a signed-in account that is no author
    wait_for_any(page, ["text=This account is not an author"], timeout_s=180)
    assert not page.get_by_label("Author token").count()

    page.locator("[data-testid='stSidebar']").get_by_role("button", name="Sign out").click()
    # Streamlit deletes its login cookie and follows the provider's logout: the mock asks to end the session
    page.wait_for_selector("button:has-text('End session')", timeout=60_000)
    page.locator("button:has-text('End session')").click()
    page.wait_for_load_state()
    page.goto(f"{url}/progress")  # a fresh load: signed out for good, not only in the old session
    wait_for_any(page, ["[data-testid='stMain'] button:has-text('Sign in')"], timeout_s=180)
    page.goto(f"{url}/author")  # the studio offers the same sign-in
    wait_for_any(page, ["[data-testid='stMain'] button:has-text('Sign in')"], timeout_s=180)
    assert not page.locator(f"text=Signed in as {CANDIDATE[2]}").count()
    context.close()


def test_a_configured_author_opens_the_studio_with_no_token(oidc_app: str, browser: Any) -> None:
    url = oidc_app
    context, page = _signed_in(browser, url, AUTHOR)
    page.goto(f"{url}/author")
    wait_for_any(page, [f"text=Signed in as {AUTHOR[1]}. Content files"], timeout_s=180)
    assert not page.get_by_label("Author token").count()
    shot(page, "oidc-author")
    context.close()
