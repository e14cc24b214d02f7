"""The result of an attempt: overall score and band, a radar of dimensions, feedback and a per-question review."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from coach.content.bank import Bank
from coach.feedback.coach import CoachFeedback
from coach.grading.dimensions import ScoreCard
from coach.ui.components.review import show_item_review


def radar(card: ScoreCard) -> go.Figure:
    dims = [d for d in card.dimensions]
    labels = [d.dimension.label for d in dims]
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
        height=360,
        margin={"l": 60, "r": 60, "t": 30, "b": 30},
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
            st.markdown(f"**{d.dimension.label}**: {shown}" + (f" ({len(d.items)} question(s))" if d.items else ""))
    st.subheader("Coach feedback")
    if feedback.source == "template":
        st.caption("Written from templates from your graded answers.")
    st.write(feedback.summary)
    if feedback.strengths:
        st.markdown("**Strengths**\n" + "\n".join(f"- {s}" for s in feedback.strengths))
    if feedback.gaps:
        st.markdown("**Gaps**\n" + "\n".join(f"- {g}" for g in feedback.gaps))
    if feedback.misconceptions:
        st.markdown("**Misconceptions to unlearn**\n" + "\n".join(f"- {m}" for m in feedback.misconceptions))
    if feedback.study:
        st.markdown("**Read next**\n" + "\n".join(f"- **{s.title}** — {s.reason}" for s in feedback.study))
    st.info(feedback.next_step)
    st.subheader("Question by question")
    for r in card.results:
        icon = "✅" if r.score.value >= 0.999 else ("🟡" if r.score.value > 0 else "❌")
        with st.expander(
            f"{icon} Q{r.index + 1} · {r.item.difficulty.value} · {r.score.value:.0%} — {r.item.stem[:90]}"
        ):
            show_item_review(r.item, r.answer, r.score, bank)
