"""The learning path: every module in order, with prerequisites, pool sizes and what is still coming."""

from __future__ import annotations

import streamlit as st

from coach.content.schema import ModuleStatus
from coach.session.assembly import pool
from coach.ui import nav, services


def render() -> None:
    bank = services.bank()
    st.title("Interview readiness coach")
    st.write(
        "Practise for AI-inference systems interviews: parallelism, disaggregation, collectives and "
        "rack-scale NVLink. Take a 10-question readiness check or a configurable practice test; every "
        "answer is graded with reasoning and a concept page to study."
    )
    st.subheader(f"Learning path · {bank.path.title}")
    for step, module_id in enumerate(bank.path.modules, start=1):
        module = bank.modules[module_id]
        ready = module.status == ModuleStatus.READY and bool(bank.published(module_id))
        prereqs = [bank.modules[p].title for p in bank.prerequisites(module_id)]
        with st.container(border=True):
            st.markdown(f"**{step}. {module.title}**" + ("" if ready else "  · _coming soon_"))
            st.caption(module.summary)
            meta = [f"Level: {module.level}", f"~{module.study_hours:g} h study"]
            if ready:
                meta.append(f"{len(pool(bank, module_id))} questions")
            meta.append("Prerequisites: " + (", ".join(prereqs) if prereqs else "none"))
            st.caption(" · ".join(meta))
            if ready:
                c1, c2, c3 = st.columns(3)
                with c1:
                    nav.link("module", "Module page", ":material/menu_book:", id=module_id)
                with c2:
                    nav.link("check", "Readiness check", ":material/fact_check:", module=module_id)
                with c3:
                    nav.link("practice", "Practice test", ":material/fitness_center:", module=module_id)
