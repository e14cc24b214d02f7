"""The misconception profile: what the candidate showed, with the evidence, the concept page that fixes it,
and whether it is active or fading (faded entries are hidden, with a count)."""

from __future__ import annotations

import streamlit as st

from coach.errors import StoreUnavailable
from coach.service.misconceptions import Evidence, MisconceptionEntry, MisconceptionStatus
from coach.ui.identity import current_candidate
from coach.ui.pages.progress import page_link
from coach.ui.services import journey

STATUS_TEXT = {
    MisconceptionStatus.ACTIVE: "Active: your latest attempt that tested it still showed it",
    MisconceptionStatus.FADING: "Fading: a later attempt tested it and you did not show it; once more and it fades",
}


def _quote(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def evidence_line(e: Evidence) -> str:
    what = (f"you chose “{_quote(e.chose)}”" if e.chose is not None else
            f"you wrote “{_quote(e.wrote)}”" if e.wrote else "your answer showed it")
    return (f"{e.at:%Y-%m-%d} · [attempt](/results?attempt={e.attempt_id}), question {e.question}: "
            f"*{_quote(e.stem, 200)}* — {what}")


def _entry(entry: MisconceptionEntry) -> None:
    with st.container(border=True):
        st.markdown(f"**{entry.statement}**")
        st.caption(STATUS_TEXT.get(entry.status, entry.status.value))
        if entry.correction:
            st.markdown(f"What is true instead: {entry.correction}")
        if entry.concept:
            page_link("concept", f"Read: {entry.concept.title}", id=entry.concept.id)
        shown = len(entry.evidence)
        with st.expander(f"Evidence ({shown} time{'s' if shown != 1 else ''})", expanded=shown <= 2):
            st.markdown("\n".join(f"- {evidence_line(e)}" for e in reversed(entry.evidence)))


def render() -> None:
    st.title("My misconceptions")
    candidate = current_candidate()
    if candidate is None:
        st.stop()
    try:
        entries = journey().misconceptions(candidate)
    except StoreUnavailable as exc:
        st.error(str(exc))
        return
    st.caption(
        "Misconceptions you showed: an MCQ option that carries the mistake, or a short answer that contradicted "
        "a rubric criterion. One fades once later attempts that test it stop showing it."
    )
    shown = [e for e in entries if e.status != MisconceptionStatus.FADED]
    faded = len(entries) - len(shown)
    if not entries:
        st.info("None shown yet. Your graded attempts build this profile.")
    elif not shown:
        st.success("Nothing active: every misconception you showed has faded.")
    for entry in shown:
        _entry(entry)
    if faded:
        st.caption(f"{faded} faded misconception{'s' if faded != 1 else ''} hidden (later attempts no longer show "
                   f"{'them' if faded != 1 else 'it'}).")
