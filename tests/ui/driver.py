"""Drives the app through AppTest the way a candidate would."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from coach.service.identity import new_local_key
from coach.ui.server import SCRIPT
from coach.ui.state import CANDIDATE_KEY

APP = SCRIPT  # the script each browser session runs; app.py only declares the server around it
GOOD_SHORT = (
    "Each stage must finish before the next can start, so the per-token latency is the sum of the "
    "stage times; splitting across GPUs adds capacity, not speed."
)


def open_page(page: str, module: str | None = None, browser_key: str | None = None, **params: str) -> AppTest:
    """A new browser session on a legacy `?page=` URL (redirected by the app); `browser_key` is the local
    candidate's key, as the cookie would carry it (None: a new candidate, who skips the name form)."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state[CANDIDATE_KEY] = browser_key or new_local_key()
    at.query_params["page"] = page
    if module:
        at.query_params["module"] = module
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    found = [b for b in at.button if b.label == label]
    assert found, f"no button {label!r}; have {[b.label for b in at.button]}"
    return found[0]


def answer_all(at: AppTest, choose: int = 0, text: str = GOOD_SHORT) -> AppTest:
    """Answer every question; returns the app showing the results."""
    for _ in range(60):
        assert not at.exception, at.exception
        if any(s.value == "Your result" for s in at.subheader):
            return at
        radios = [r for r in at.radio if r.label == "Choose one"]
        if any(b.label in ("Next question", "See my results") for b in at.button):
            label = "Next question" if any(b.label == "Next question" for b in at.button) else "See my results"
            at = button(at, label).click().run()
            continue
        if radios:
            radios[0].set_value(radios[0].options[choose])
        else:
            areas = [t for t in at.text_area if t.label.startswith("Your answer")]
            assert areas, "neither an MCQ nor a short answer is shown"
            areas[0].input(text)
        at = button(at, "Submit answer").click().run()
    raise AssertionError("the attempt never reached the results")
