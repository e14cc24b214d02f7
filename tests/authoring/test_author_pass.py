"""The local author's pass: what the browser keeps so that a reload does not ask for the token again."""

from __future__ import annotations

from coach.authoring.auth import PASS_TTL_S, check_pass, issue_pass

TOKEN = "s3cret-token"
NOW = 1_800_000_000.0


def test_a_pass_names_its_author_until_it_expires() -> None:
    value = issue_pass(TOKEN, "Grace Hopper", NOW)
    assert check_pass(TOKEN, value, NOW) == "Grace Hopper"
    assert check_pass(TOKEN, value, NOW + PASS_TTL_S - 1) == "Grace Hopper"
    assert check_pass(TOKEN, value, NOW + PASS_TTL_S) is None


def test_a_pass_never_holds_the_token_and_uses_cookie_safe_characters() -> None:
    value = issue_pass(TOKEN, "Ada; path=/ é.x", NOW)
    assert TOKEN not in value
    assert all(c.isalnum() or c in "-_." for c in value), value
    assert check_pass(TOKEN, value, NOW) == "Ada; path=/ é.x"


def test_a_new_token_revokes_every_pass() -> None:
    value = issue_pass(TOKEN, "Grace", NOW)
    assert check_pass("another token", value, NOW) is None
    assert check_pass(None, value, NOW) is None


def test_a_forged_or_damaged_pass_is_refused() -> None:
    name, expires, signature = issue_pass(TOKEN, "Grace", NOW).split(".")
    other_name = issue_pass(TOKEN, "Mallory", NOW).split(".")[0]
    later = str(int(expires) + 10 * PASS_TTL_S)
    flipped = signature[:-1] + ("0" if signature[-1] != "0" else "1")
    for forged in (f"{other_name}.{expires}.{signature}",  # someone else's name under Grace's signature
                   f"{name}.{later}.{signature}",  # a longer life
                   f"{name}.{expires}.{flipped}",  # a signature one digit off
                   f"{name}.{expires}", "", "...", "a.b.c", f"{name}.-1.{signature}", f"{name}.\u00b2.{signature}"):
        assert check_pass(TOKEN, forged, NOW) is None, forged
