"""A concept page of its own, at /concept?id=… (the "Read next" links and every review point here)."""

from __future__ import annotations

import streamlit as st

from coach.ui import nav, services


def render() -> None:
    bank = services.bank()
    concept_id = st.query_params.get("id", "")
    page = bank.concepts.get(concept_id)
    if page is None:
        st.title("Concepts")
        if concept_id:
            st.warning(f"There is no concept page {concept_id!r}. Choose one below.")
        for cid, c in sorted(bank.concepts.items(), key=lambda kv: kv[1].title):
            nav.link("concept", c.title, ":material/article:", id=cid)
        return
    st.title(page.title)
    st.caption(page.summary)
    st.markdown(page.body)
    module = bank.modules.get(page.module)
    if module is not None:
        st.divider()
        nav.link("module", f"Module: {module.title}", ":material/menu_book:", id=module.id)
