"""Pages addressed by the URL (?page=…&module=…), so a link or a reload lands on the same page."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from coach.errors import ContentError

PAGES: dict[str, str] = {
    "home": "Learning path",
    "module": "Module page",
    "practice": "Practice test",
    "readiness": "Readiness check",
}


def go_to(page: str, module: str | None = None) -> None:
    st.query_params.clear()
    st.query_params["page"] = page
    if module:
        st.query_params["module"] = module
    st.session_state["nav"] = page
    st.rerun()


def current_page() -> str:
    page = st.query_params.get("page", "home")
    return page if page in PAGES else "home"


def module_choice(label: str = "Module") -> str:
    """A module picker bound to ?module=, offering only modules that can be sat."""
    from coach.ui import services

    bank = services.bank()
    ready = [m.id for m in bank.ready_modules()]
    wanted = st.query_params.get("module")
    index = ready.index(wanted) if wanted in ready else 0
    chosen: str = st.selectbox(
        label, ready, index=index, format_func=lambda m: bank.modules[m].title, key=f"module-{current_page()}"
    )
    if chosen != wanted:
        st.query_params["module"] = chosen
    return chosen


def main() -> None:
    from coach.ui import services
    from coach.ui.pages import home, module, practice, readiness

    st.set_page_config(page_title="Interview readiness coach", page_icon="🧭", layout="wide")
    renderers: dict[str, Callable[[], None]] = {
        "home": home.render,
        "module": module.render,
        "practice": practice.render,
        "readiness": readiness.render,
    }
    try:
        services.bank()
    except ContentError as exc:
        st.error("The question bank did not load. Run `coach bank check` for details.")
        st.code(str(exc))
        return
    page = current_page()
    with st.sidebar:
        st.markdown("### Readiness coach")
        chosen = st.radio("Go to", list(PAGES), index=list(PAGES).index(page), format_func=PAGES.__getitem__, key="nav")
        on, status = services.judge_status()
        (st.success if on else st.info)(status)
    if chosen != page:
        keep = st.query_params.get("module")
        st.query_params.clear()
        st.query_params["page"] = chosen
        if keep:
            st.query_params["module"] = keep
        page = chosen
    renderers[page]()
