"""The learning path: every module in order, with prerequisites, pool sizes and what is still coming."""

from __future__ import annotations

import streamlit as st

from coach.content.schema import ModuleStatus
from coach.ui import services
from coach.ui.router import go_to


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
                counts = bank.pool_by_difficulty(module_id)
                meta.append(f"{sum(counts.values())} questions")
            meta.append("Prerequisites: " + (", ".join(prereqs) if prereqs else "none"))
            st.caption(" · ".join(meta))
            if ready:
                c1, c2, c3 = st.columns(3)
                if c1.button("Module page", key=f"open-{module_id}"):
                    go_to("module", module_id)
                if c2.button("Readiness check", key=f"check-{module_id}"):
                    go_to("readiness", module_id)
                if c3.button("Practice test", key=f"practice-{module_id}"):
                    go_to("practice", module_id)
