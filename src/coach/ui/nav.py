"""The app's navigation: st.navigation over st.Page, the URL as the source of truth for page, module and attempt.

Pages change only through st.page_link / st.switch_page (or a callback that sets st.query_params), so no widget's
state is ever written after the widget exists. Legacy `?page=…` URLs are redirected to the new pages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import streamlit as st

from coach.errors import ContentError

_PAGES: dict[str, Any] = {}  # name -> st.Page, rebuilt every run by `main`

# name: (title, url_path, icon); Material icons ship with Streamlit, emoji need a font the browser may lack
CORE = {
    "home": ("Learning path", "", ":material/route:"),
    "module": ("Module", "module", ":material/menu_book:"),
    "concept": ("Concept", "concept", ":material/article:"),
    "check": ("Readiness check", "check", ":material/fact_check:"),
    "practice": ("Practice test", "practice", ":material/fitness_center:"),
    "results": ("Results", "results", ":material/bar_chart:"),
}
IN_SIDEBAR = ("home", "check", "practice")
# helper "journey"'s pages, wired in when their modules exist
JOURNEY_PAGES = {
    "progress": ("coach.ui.pages.progress", "My progress", "progress", ":material/trending_up:"),
    "misconceptions": ("coach.ui.pages.profile", "Misconceptions", "misconceptions", ":material/psychology_alt:"),
}
# `?page=` of the old router -> (new page, how the old parameters map)
LEGACY = {
    "home": ("home", {}),
    "module": ("module", {"module": "id", "id": "id"}),
    "concept": ("concept", {"id": "id"}),
    "readiness": ("check", {"module": "module", "attempt": "attempt"}),
    "practice": ("practice", {"module": "module", "attempt": "attempt"}),
}


def page(name: str) -> Any:
    return _PAGES[name]


def link(name: str, label: str, icon: str | None = None, **params: str) -> None:
    """A link to one of the app's pages with its query parameters (works on a reload and in a new tab)."""
    st.page_link(page(name), label=label, icon=icon, query_params=params or None)


def go(name: str, **params: str) -> None:
    """Switch page now (not in a callback: there, set st.query_params instead)."""
    st.switch_page(page(name), query_params=params or None)


def _optional(module: str) -> Any | None:
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise  # the module exists but is broken: show that, do not hide it
        return None


def _author_pages() -> list[tuple[Callable[[], None], str, str]]:
    found = _optional("coach.ui.pages.author")
    return list(getattr(found, "PAGES", [])) if found else []


def identity() -> Any:
    from coach.ui import identity as found

    return found


def _redirect_legacy() -> None:
    old = st.query_params.get("page")
    if old is None:
        return
    target, mapping = LEGACY.get(old, ("home", {}))
    params = {new: st.query_params[k] for k, new in mapping.items() if k in st.query_params}
    go(target, **params)


def _build_pages() -> tuple[list[Any], list[tuple[str, str]]]:
    from coach.ui.pages import check, concept, home, module, practice, results

    renders: dict[str, Callable[[], None]] = {
        "home": home.render, "module": module.render, "concept": concept.render,
        "check": check.render, "practice": practice.render, "results": results.render,
    }
    pages: list[Any] = []
    sidebar: list[tuple[str, str]] = [(n, CORE[n][0]) for n in IN_SIDEBAR]
    _PAGES.clear()
    for name, (title, url, icon) in CORE.items():
        _PAGES[name] = st.Page(renders[name], title=title, url_path=url or None, icon=icon, default=name == "home")
    for name, (mod, title, url, icon) in JOURNEY_PAGES.items():
        found = _optional(mod)
        if found is not None:
            _PAGES[name] = st.Page(found.render, title=title, url_path=url, icon=icon)
            sidebar.append((name, title))
    for n, (render, title, url) in enumerate(_author_pages()):
        name = f"author:{n}"
        _PAGES[name] = st.Page(render, title=title, url_path=url, icon=":material/edit_note:")
        sidebar.append((name, title))
    pages.extend(_PAGES.values())
    return pages, sidebar


def _sidebar(links: list[tuple[str, str]]) -> None:
    from coach.ui import services

    with st.sidebar:
        st.markdown("### Readiness coach")
        for name, title in links:
            if name == "author:0":  # the studio's pages, set apart: a candidate has no use for them
                st.markdown("**Author studio**", help="For question authors: sign in with your account or the "
                            "author token.")
            st.page_link(page(name), label=title, icon=page(name).icon or None)
        identity().identity_sidebar()
        on, status = services.judge_status()
        (st.success if on else st.info)(status)


def main() -> None:
    from coach.ui import services

    st.set_page_config(page_title="Interview readiness coach", page_icon=":material/route:", layout="wide")
    services.warm_up()  # started by the server's lifespan (app.py); here too for AppTest, a no-op after
    try:
        services.bank()
    except ContentError as exc:
        st.error("The question bank did not load. Run `coach bank check` for details.")
        st.code(str(exc))
        return
    token = st.query_params.get("result")
    if token is not None:  # a shared result needs no login, whatever the page
        shared = _optional("coach.ui.pages.shared")
        if shared is None:
            st.error("Shared results are not available in this version.")
        else:
            shared.render(token)
        return
    pages, links = _build_pages()
    current = st.navigation(pages, position="hidden")
    _redirect_legacy()
    _sidebar(links)
    current.run()


def candidate() -> Any:
    """The signed-in candidate; otherwise the sign-in form is on the page and the run stops here."""
    who = identity().current_candidate()
    if who is None:
        st.stop()
    return who


def module_param(key: str = "module") -> str | None:
    """The module named in the URL, if it is one that can be sat."""
    from coach.ui import services

    wanted = st.query_params.get(key)
    ready = {m.id for m in services.bank().ready_modules()}
    return wanted if wanted in ready else None


def module_picker(label: str = "Module", key: str = "module") -> str:
    """A module picker bound to ?module= (changed in its callback, so the URL always says which one)."""
    from coach.ui import services

    bank = services.bank()
    ready = [m.id for m in bank.ready_modules()]
    current = module_param(key) or ready[0]
    widget = f"picker-{key}"

    def chosen() -> None:
        st.query_params[key] = st.session_state[widget]
        st.query_params.pop("attempt", None)

    if st.session_state.get(widget) != current:
        st.session_state.pop(widget, None)  # the URL changed under the widget (a link, a reload): follow it
    st.selectbox(label, ready, index=ready.index(current), format_func=lambda m: bank.modules[m].title,
                 key=widget, on_change=chosen)
    if st.query_params.get(key) != current:
        st.query_params[key] = current
    return current
