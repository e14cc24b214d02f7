"""Item analysis from stored attempts: facility, discrimination, option and criterion rates, flags, charts."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from coach.analytics.items import MIN_RESPONSES, ItemStats
from coach.analytics.report import items_report
from coach.errors import CoachError
from coach.ui import services
from coach.ui.pages.author import common
from coach.ui.pages.author.gate import require_author

TITLE = "Item analysis"


def _table(stats: list[ItemStats]) -> pd.DataFrame:
    return pd.DataFrame([{
        "item": s.item_id, "type": s.type, "responses": s.responses,
        "facility": None if s.facility is None else round(s.facility, 3),
        "point-biserial": None if s.point_biserial is None else round(s.point_biserial, 3),
        "upper-lower 27%": None if s.upper_lower is None else round(s.upper_lower, 3),
        "flags": "; ".join(s.flags)} for s in stats])


def render_page() -> None:
    if require_author(TITLE) is None:
        return
    st.title(TITLE)
    bank = common.bank()
    modules = ["(all)", *bank.modules]
    c1, c2 = st.columns([2, 1])
    module = c1.selectbox("Module", modules, key="author-analysis-module")
    need = c2.number_input("Responses needed to judge", min_value=1, value=MIN_RESPONSES,
                           key="author-analysis-min")
    try:
        source = services.journey().responses(None if module == "(all)" else str(module))
        stats = items_report(source, bank, min_responses=int(need))
    except CoachError as exc:
        st.error(f"The stored attempts could not be read: {exc}")
        return
    if not stats:
        st.info("No graded attempts yet: item statistics appear once candidates finish readiness checks "
                "or practice tests.")
        return
    total = sum(s.responses for s in stats)
    st.caption(f"{len(stats)} items with responses · {total} graded answers. Discrimination uses the rest "
               "score (the attempt's total without the item).")
    frame = _table(stats)
    st.dataframe(frame, hide_index=True, use_container_width=True)
    judged = frame.dropna(subset=["point-biserial"])
    if not judged.empty:
        judged = judged.assign(flagged=judged["flags"].ne(""))
        fig = px.scatter(judged, x="facility", y="point-biserial", size="responses", color="flagged",
                         hover_name="item", title="Facility against discrimination",
                         color_discrete_map={True: "#d62728", False: "#1f77b4"})
        fig.add_hline(y=0, line_dash="dot")
        st.plotly_chart(fig, use_container_width=True)
    chosen = st.selectbox("Item", [s.item_id for s in stats], key="author-analysis-item")
    item = next(s for s in stats if s.item_id == chosen)
    for flag in item.flags:
        st.warning(flag)
    if item.options:
        rates = pd.DataFrame({"option": list(item.options), "share": list(item.options.values())})
        st.plotly_chart(px.bar(rates, x="share", y="option", orientation="h", title="Option choice rates",
                               range_x=[0, 1]), use_container_width=True)
    if item.criteria:
        rows = [{"criterion": c, "verdict": v, "share": share}
                for c, verdicts in item.criteria.items() for v, share in verdicts.items()]
        st.plotly_chart(px.bar(pd.DataFrame(rows), x="share", y="criterion", color="verdict", orientation="h",
                               title="Rubric criteria: met / partial / missed / contradicted"),
                        use_container_width=True)
