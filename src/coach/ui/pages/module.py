"""A module page: what it tests, keywords, level, study time, prerequisites, two free samples and an FAQ."""

from __future__ import annotations

import random

import streamlit as st

from coach.content.bank import Bank
from coach.content.schema import Difficulty
from coach.session.assembly import READINESS, pool, present
from coach.ui import nav, services
from coach.ui.components.review import concept_link


def faq(bank: Bank, module_id: str) -> list[tuple[str, str]]:
    module = bank.modules[module_id]
    prereqs = [bank.modules[p].title for p in bank.prerequisites(module_id)]
    return [
        (f"What does the {module.title} check cover?", module.summary),
        (
            "How many questions, and how long does it take?",
            f"{READINESS.size} questions, a mix of multiple choice and short answer; about 10–15 minutes.",
        ),
        (
            "How is it scored?",
            "Multiple choice is marked exactly. Short answers are graded against a rubric, criterion by criterion. "
            "You get an overall score and band, and a score for each dimension: conceptual understanding, "
            "trade-off reasoning, quantitative/applied knowledge and explanation quality.",
        ),
        ("Can I retake it?", "Yes, up to 3 times a day per module; each retake draws new questions and numbers."),
        ("What should I know first?", ", ".join(prereqs) if prereqs else "Nothing: this is the first module."),
        ("How long should I study?", f"Most engineers spend about {module.study_hours:g} hours on this module."),
    ]


def _sample(bank: Bank, item_id: str, n: int) -> None:
    item = present(bank.items[item_id], random.Random(n))
    with st.container(border=True):
        st.caption(f"Sample {n} · {item.difficulty.value}")
        st.markdown(f"**{item.stem}**")
        labels = [f"{chr(65 + i)}. {o.text}" for i, o in enumerate(item.options)]
        picked = st.radio("Your choice", labels, index=None, key=f"sample-{item_id}")
        if picked is not None:
            if labels.index(picked) == item.key_index:
                st.success("Correct.")
            else:
                st.error(f"Not quite. The answer is {labels[item.key_index or 0]}")
            st.markdown(f"**Why:** {item.explanation}")
            concept_link(bank, item.concept)


def render() -> None:
    bank = services.bank()
    module_id = nav.module_param("id")
    if module_id is None:
        st.title("Modules")
        if st.query_params.get("id"):
            st.warning(f"There is no module {st.query_params['id']!r} to open. Choose one below.")
        for m in bank.ready_modules():
            nav.link("module", m.title, ":material/menu_book:", id=m.id)
        return
    module = bank.modules[module_id]
    st.title(module.title)
    st.write(module.summary)
    counts = dict.fromkeys(Difficulty, 0)
    for item in pool(bank, module_id):
        counts[item.difficulty] += 1
    st.caption(
        f"Level: {module.level} · ~{module.study_hours:g} h study · pool: "
        + ", ".join(f"{n} {d.value}" for d, n in counts.items())
    )
    if module.keywords:
        st.markdown(" ".join(f"`{k}`" for k in module.keywords))
    prereqs = [bank.modules[p].title for p in bank.prerequisites(module_id)]
    st.markdown(
        "**Learning path:** "
        + " → ".join(
            f"**{bank.modules[m].title}**" if m == module_id else bank.modules[m].title for m in bank.path.modules
        )
    )
    st.markdown("**Prerequisites:** " + (", ".join(prereqs) if prereqs else "none"))
    if module.tests:
        st.subheader("What this module tests")
        st.markdown("\n".join(f"- {t}" for t in module.tests))
    c1, c2 = st.columns(2)
    with c1:
        nav.link("check", "Take the readiness check", ":material/fact_check:", module=module_id)
    with c2:
        nav.link("practice", "Configure a practice test", ":material/fitness_center:", module=module_id)
    if module.samples:
        st.subheader("Try a sample question")
        st.caption("Samples are for practice only: they never come up in this module's checks or practice tests.")
        for n, item_id in enumerate(module.samples, start=1):
            _sample(bank, item_id, n)
    st.subheader("Frequently asked questions")
    for q, a in faq(bank, module_id):
        with st.expander(q):
            st.write(a)
