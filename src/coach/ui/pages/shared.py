"""The public page behind a share link (`?result=<token>`): no login, the headline result only.

It renders from `SharedResult`, which holds no answers and no per-question content; the name appears only
when its owner opted in.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from coach.errors import StoreUnavailable
from coach.service.views import SharedResult
from coach.ui.services import journey

NOT_FOUND = "This share link does not open a result: it was revoked by its owner, or it is not a valid link."


def dimension_chart(shared: SharedResult) -> go.Figure:
    dims = [(d.label, v) for d, v in shared.dimensions.items()]
    fig = go.Figure(go.Bar(
        x=[round(100 * v) if v is not None else 0 for _, v in dims], y=[label for label, _ in dims],
        orientation="h", text=["not measured" if v is None else f"{v:.0%}" for _, v in dims],
        textposition="outside", cliponaxis=False, hovertemplate="%{y}: %{x}%<extra></extra>",
    ))
    fig.update_layout(
        height=300, margin={"l": 20, "r": 60, "t": 20, "b": 40}, font={"size": 14},
        xaxis={"range": [0, 100], "ticksuffix": "%", "tickfont": {"size": 13}},
        yaxis={"autorange": "reversed", "automargin": True, "tickfont": {"size": 14}},
    )
    return fig


def render(token: str) -> None:
    try:
        shared = journey().open_share(token)
    except StoreUnavailable as exc:
        st.error(str(exc))
        return
    if shared is None:
        st.title("Shared result")
        st.info(NOT_FOUND)
        return
    who = f"{shared.name}'s" if shared.name else "A candidate's"
    st.title(f"{who} readiness result")
    st.markdown(f"**{shared.module_title}** · {shared.date:%Y-%m-%d} (UTC)")
    c1, c2 = st.columns(2)
    c1.metric("Overall", f"{shared.overall:.0%}")
    c2.metric("Band", shared.band)
    st.plotly_chart(dimension_chart(shared), width="stretch", key="shared-dimensions")
    st.markdown("\n".join(f"- **{d.label}**: {'not measured' if v is None else f'{v:.0%}'}"
                          for d, v in shared.dimensions.items()))
    st.caption("Shared by its owner from the interview readiness coach. Answers and questions are never shown here.")
