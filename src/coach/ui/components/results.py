"""The result of an attempt: overall score and band, a radar of dimensions, feedback and a per-question review."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from coach.content.bank import Bank
from coach.feedback.coach import CoachFeedback, questions
from coach.grading.dimensions import ScoreCard
from coach.ui import nav
from coach.ui.components.review import show_item_review


def feedback_source(feedback: CoachFeedback) -> str:
    """Which feedback the candidate is reading, and why it is the template when it is."""
    if feedback.source == "llm":
        return f"Written by the AI coach ({feedback.model or 'LLM'}) from your graded answers."
    if feedback.fallback_reason:
        return (f"Template feedback: the AI coach could not write it ({feedback.fallback_reason}), so this is "
                "written from templates from your graded answers.")
    return ("Template feedback, written from your graded answers: no AI coach endpoint is configured "
            "(set COACH_LLM_BASE_URL / COACH_LLM_API_KEY to turn it on).")


def _two_lines(label: str) -> str:
    """A long axis label broken at the space nearest its middle (plotly does not wrap polar labels)."""
    if len(label) <= 14 or " " not in label:
        return label
    spaces = [i for i, ch in enumerate(label) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(label) / 2))
    return f"{label[:cut]}<br>{label[cut + 1:]}"


def radar(card: ScoreCard) -> go.Figure:
    dims = [d for d in card.dimensions]
    labels = [_two_lines(d.dimension.label) for d in dims]
    values = [round(100 * (d.value or 0.0)) for d in dims]
    fig = go.Figure(
        go.Scatterpolar(
            r=[*values, values[0]],
            theta=[*labels, labels[0]],
            fill="toself",
            name="You",
            hovertemplate="%{theta}: %{r}%<extra></extra>",
        )
    )
    fig.update_layout(
        polar={"radialaxis": {"range": [0, 100], "ticksuffix": "%"}},
        showlegend=False,
        height=380,
        margin={"l": 110, "r": 110, "t": 50, "b": 50},  # room for the axis labels: none may be clipped
    )
    return fig


def show_results(card: ScoreCard, feedback: CoachFeedback, bank: Bank) -> None:
    st.subheader("Your result")
    c1, c2, c3 = st.columns(3)
    c1.metric("Overall", f"{card.overall:.0%}")
    c2.metric("Band", card.band)
    answered = sum(1 for r in card.results if r.answer is not None and not r.answer.skipped)
    c3.metric("Answered", f"{answered} / {len(card.results)}")
    left, right = st.columns([1, 1])
    with left:
        st.plotly_chart(radar(card), width="stretch")
    with right:
        for d in card.dimensions:
            shown = "not measured" if d.value is None else f"{d.value:.0%}"
            st.markdown(f"**{d.dimension.label}**: {shown}" + (f" ({questions(len(d.items))})" if d.items else ""))
    st.subheader("Coach feedback")
    st.caption(feedback_source(feedback))
    st.write(feedback.summary)
    if feedback.strengths:
        st.markdown("**Strengths**\n" + "\n".join(f"- {s}" for s in feedback.strengths))
    if feedback.gaps:
        st.markdown("**Gaps**\n" + "\n".join(f"- {g}" for g in feedback.gaps))
    if feedback.misconceptions:
        st.markdown("**Misconceptions to unlearn**\n" + "\n".join(f"- {m}" for m in feedback.misconceptions))
    if feedback.study:
        st.markdown("**Read next**")
        for s in feedback.study:
            if s.concept in bank.concepts:
                nav.link("concept", s.title, ":material/article:", id=s.concept)
                st.caption(s.reason)
            else:
                st.markdown(f"- **{s.title}** — {s.reason}")
    if feedback.notes:
        st.markdown("**On your answers**")
        for n in feedback.notes:
            st.markdown(f"- Q{n.question}: “{n.quote}” — {n.note}")
    st.info(feedback.next_step)
    st.subheader("Question by question")
    for r in card.results:
        icon = (":material/check_circle:" if r.score.value >= 0.999
                else (":material/adjust:" if r.score.value > 0 else ":material/cancel:"))
        with st.expander(
            f"{icon} Q{r.index + 1} · {r.item.difficulty.value} · {r.score.value:.0%} — {r.item.stem[:90]}"
        ):
            show_item_review(r.item, r.answer, r.score, bank)
