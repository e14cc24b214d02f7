"""My progress: per module the latest and best readiness results, each dimension's trend, the learning path
state and the suggested next module, then every attempt with a link to its result."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from coach.errors import StoreUnavailable
from coach.service.progress import JourneyProgress, ModuleProgress
from coach.service.views import AttemptSummary
from coach.ui.identity import current_candidate
from coach.ui.services import journey
from coach.vocab import Dimension

KIND_LABEL = {"readiness": "Readiness check", "practice": "Practice test"}
STATE_LABEL = {"in_progress": "in progress", "submitted": "submitted, not graded", "graded": "graded"}
RESUME_PAGE = {"readiness": "check", "practice": "practice"}


def page_link(name: str, label: str, **params: str) -> None:
    """A same-tab link to one of the app's pages (st.page_link through coach.ui.nav); a plain markdown link
    when the navigation is not built (a page rendered on its own, as in tests)."""
    try:
        from coach.ui import nav

        nav.link(name, label, **params)
    except (ImportError, KeyError):
        query = "&".join(f"{k}={v}" for k, v in params.items())
        st.markdown(f"[{label}](/{name}{'?' + query if query else ''})")


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def trend_chart(mp: ModuleProgress, threshold: float) -> go.Figure:
    """Overall and each dimension over the module's readiness checks (x: check number and date)."""
    labels = {p.attempt_id: f"#{i + 1} · {p.at:%d %b %H:%M}" for i, p in enumerate(mp.overall_series)}
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[labels[p.attempt_id] for p in mp.overall_series], y=[round(100 * p.overall) for p in mp.overall_series],
        mode="lines+markers", name="Overall", line={"width": 4},
        hovertemplate="Overall %{y}%<extra>%{x}</extra>",
    ))
    for dim in Dimension:
        points = [p for p in mp.series.get(dim, ()) if p.attempt_id in labels]
        if not points:
            continue
        fig.add_trace(go.Scatter(
            x=[labels[p.attempt_id] for p in points], y=[round(100 * p.value) for p in points],
            mode="lines+markers", name=dim.label, line={"dash": "dot"},
            hovertemplate=f"{dim.label} %{{y}}%<extra>%{{x}}</extra>",
        ))
    fig.add_hline(y=100 * threshold, line_dash="dash", line_color="grey",
                  annotation_text=f"ready at {threshold:.0%}", annotation_position="top left")
    fig.update_layout(
        height=380, margin={"l": 50, "r": 20, "t": 30, "b": 40}, font={"size": 14},
        yaxis={"range": [0, 105], "ticksuffix": "%", "title": "score", "tickfont": {"size": 13}},
        xaxis={"type": "category", "title": "readiness check", "tickfont": {"size": 13}},
        legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0},
    )
    return fig


def _module_section(mp: ModuleProgress, threshold: float) -> None:
    state = "ready" if mp.ready else ("in progress" if mp.checks or mp.practice else "not started")
    st.markdown(f"### {mp.title} — {state}")
    c1, c2, c3 = st.columns(3)
    c1.metric("Latest check", _pct(mp.latest.overall if mp.latest else None),
              help=mp.latest.band if mp.latest else None)
    c2.metric("Best check", _pct(mp.best.overall if mp.best else None), help=mp.best.band if mp.best else None)
    c3.metric("Checks / practice tests", f"{mp.checks} / {mp.practice}")
    if mp.latest:
        page_link("results", f"Latest: {mp.latest.band}, {mp.latest.at:%Y-%m-%d %H:%M} UTC — see the result",
                  attempt=mp.latest.attempt_id)
    if mp.best and mp.best != mp.latest:
        page_link("results", f"Best: {mp.best.band}, {mp.best.at:%Y-%m-%d %H:%M} UTC — see the result",
                  attempt=mp.best.attempt_id)
    if mp.overall_series:
        st.plotly_chart(trend_chart(mp, threshold), width="stretch", key=f"trend-{mp.module}")
        last = {d: pts[-1].value for d, pts in mp.series.items() if pts}
        if last:
            st.caption("Latest check by dimension: " + " · ".join(f"{d.label} {v:.0%}" for d, v in last.items()))
    elif mp.practice:
        st.caption("Only practice tests so far; the trend shows readiness checks.")


def _path(progress: JourneyProgress) -> None:
    st.subheader("Learning path")
    st.caption(f"A module is **ready** once one of its readiness checks reaches {progress.threshold:.0%}.")
    lines = []
    for mp in progress.modules:
        nxt = mp.module == progress.suggested_next
        mark = "**ready**" if mp.ready else ("suggested next" if nxt else "not ready yet")
        lines.append(f"- {mp.title} — {mark}")
    st.markdown("\n".join(lines))
    if progress.suggested_next:
        title = next(m.title for m in progress.modules if m.module == progress.suggested_next)
        st.success(f"Suggested next: **{title}**")
        left, right = st.columns(2)
        with left:
            page_link("module", f"Open {title}", id=progress.suggested_next)
        with right:
            page_link("check", "Take its readiness check", module=progress.suggested_next)
    else:
        st.success("Every module on the path is ready.")


def attempt_link(a: AttemptSummary) -> str:
    if a.state == "graded":
        return f"[result](/results?attempt={a.id})"
    if a.state == "in_progress":
        return f"[resume](/{RESUME_PAGE.get(a.kind, 'check')}?module={a.module})"
    return f"[grade it](/results?attempt={a.id})"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def history_table(history: list[AttemptSummary]) -> str:
    rows = ["| Started (UTC) | Module | Kind | State | Answered | Overall | Band | |",
            "|---|---|---|---|---|---|---|---|"]
    for a in history:
        rows.append(
            f"| {a.started_at:%Y-%m-%d %H:%M} | {_cell(a.module_title)} | {KIND_LABEL.get(a.kind, a.kind)} | "
            f"{STATE_LABEL.get(a.state, a.state)} | {a.answered} / {a.questions} | {_pct(a.overall)} | "
            f"{a.band or '–'} | {attempt_link(a)} |"
        )
    return "\n".join(rows)


def render() -> None:
    st.title("My progress")
    candidate = current_candidate()
    if candidate is None:
        st.stop()
    j = journey()
    try:
        progress = j.progress(candidate)
        history = j.history(candidate)
    except StoreUnavailable as exc:
        st.error(str(exc))
        return
    _path(progress)
    started = [mp for mp in progress.modules if mp.checks or mp.practice]
    st.subheader("Modules")
    if not started:
        st.info("No graded attempts yet. Take a readiness check or a practice test and your results appear here.")
    for mp in started:
        _module_section(mp, progress.threshold)
    st.subheader("History")
    if history:
        st.markdown(history_table(history))
    else:
        st.caption("No attempts yet.")
