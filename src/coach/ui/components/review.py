"""Show how one answer fared: the candidate's answer, the key or rubric outcome, the explanation, the concept."""

from __future__ import annotations

import streamlit as st

from coach.content.bank import Bank
from coach.content.render import RenderedItem
from coach.grading.score import Score, Verdict
from coach.session.runner import Answer

# Material icons ship with Streamlit; emoji need a font the browser may lack
VERDICT_ICON = {
    Verdict.MET: ":green[:material/check_circle:]",
    Verdict.PARTIAL: ":orange[:material/adjust:]",
    Verdict.MISSED: ":gray[:material/radio_button_unchecked:]",
    Verdict.CONTRADICTED: ":red[:material/cancel:]",
}


def concept_link(bank: Bank, concept_id: str) -> None:
    page = bank.concepts.get(concept_id)
    if page is None:
        return
    from coach.ui import nav

    nav.link("concept", f"Study: {page.title}", ":material/article:", id=concept_id)


def show_item_review(item: RenderedItem, answer: Answer | None, score: Score, bank: Bank) -> None:
    if item.type == "mcq":
        key = item.key_index
        chosen = None if answer is None or answer.skipped else answer.choice
        for i, opt in enumerate(item.options):
            mark = "✓" if i == key else ("✗" if i == chosen else "·")
            you = " ← your answer" if i == chosen else ""
            st.markdown(f"{mark} **{chr(65 + i)}.** {opt.text}{you}")
        if chosen is None:
            st.warning("Skipped.")
        elif chosen == key:
            st.success("Correct.")
        else:
            st.error("Not quite.")
    else:
        text = None if answer is None or answer.skipped else answer.text
        st.markdown("**Your answer**")
        st.info(text or "(no answer)")
        st.markdown(f"**Score: {score.value:.0%}**" + ("" if not score.unscored else " (unscored)"))
        for c in score.criteria:
            line = f"{VERDICT_ICON[c.verdict]} **{c.verdict.value}** · {c.description}"
            if c.evidence and c.verdict != Verdict.MISSED:
                line += f"  \n  ↳ from your answer: “{c.evidence}”"
            st.markdown(line)
        for note in score.notes:
            st.caption(note)
        if score.flags:
            st.caption("Flags: " + ", ".join(f.value.replace("_", " ") for f in score.flags))
        with st.expander("Model answer"):
            st.write(item.model_answer or "")
    st.markdown(f"**Why:** {item.explanation}")
    concept_link(bank, item.concept)
