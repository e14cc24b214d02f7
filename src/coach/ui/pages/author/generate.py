"""Generate: new distractors for an item of a concept page, and draft items from the page into the queue.

Offline by default; with an LLM endpoint configured the author may use it, and the page says which ran.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from coach.authoring.distractors import Suggestions, suggest_distractors
from coach.authoring.drafts import Target, generate_draft
from coach.authoring.queue import write_draft
from coach.content.bank import Bank
from coach.content.checks_pages import page_changes
from coach.content.schema import McqItem, Status
from coach.content.writer import item_yaml
from coach.errors import CoachError
from coach.ui import services
from coach.ui.pages.author import common
from coach.ui.pages.author.gate import require_author
from coach.vocab import Dimension

TITLE = "Generate"
RESULT = "author-generate-distractors"
DRAFTED = "author-generate-drafted"


def _under_review(bank: Bank) -> set[str]:
    """Pages with a draft or an item whose page moved on."""
    pages = {bank.items[c.item_id].concept for c in page_changes(bank)}
    return pages | {i.concept for i in bank.items.values() if i.status != Status.PUBLISHED}


def _generator_line(use_llm: bool, notes: tuple[str, ...]) -> str:
    if not use_llm:
        return "Ran the offline generator (catalogue, wrong formulas, term swaps, sibling keys)."
    s = services.settings()
    failed = any("not used" in n for n in notes)
    return (f"Asked {s.llm_model} at {s.llm_base_url or 'the OpenAI API'}"
            + (", which failed: offline candidates only." if failed else ", plus the offline generator."))


def render_page() -> None:
    if require_author(TITLE) is None:
        return
    st.title(TITLE)
    bank = common.bank()
    review = _under_review(bank)
    pages = sorted(bank.concepts, key=lambda p: (p not in review, bank.concepts[p].module, p))
    wanted = st.query_params.get("concept")  # a link may name the page (?concept=<id>)
    page_id = st.selectbox(
        "Concept page", pages, key="author-gen-page", index=pages.index(wanted) if wanted in pages else 0,
        format_func=lambda p: f"{'under review · ' if p in review else ''}{bank.concepts[p].title} ({p})")
    if page_id is None:
        return
    page = bank.concepts[page_id]
    st.caption(f"Module {page.module} · version {page.version} · {page.summary}")
    configured = common.llm_configured()
    use_llm = st.toggle("Use the LLM endpoint", value=configured, disabled=not configured, key="author-gen-llm",
                        help=None if configured else "No endpoint: set COACH_LLM_BASE_URL / COACH_LLM_API_KEY.")
    _distractors(bank, page_id, use_llm)
    st.divider()
    _draft(bank, page_id, use_llm)


def _distractors(bank: Bank, page_id: str, use_llm: bool) -> None:
    st.subheader("New distractors for an item")
    mcqs = [i.id for i in bank.items.values() if isinstance(i, McqItem) and i.concept == page_id]
    if not mcqs:
        st.info("This page has no multiple-choice item yet: draft one below.")
        return
    c1, c2 = st.columns([3, 1])
    item_id = c1.selectbox("Item", mcqs, key="author-gen-item")
    n = c2.number_input("How many", min_value=1, max_value=10, value=5, key="author-gen-n")
    if st.button("Generate distractors", key="author-gen-distractors"):
        with st.spinner("Generating and validating candidates…"):
            found = suggest_distractors(bank, str(item_id), common.embedder(), chat=common.chat_model(use_llm),
                                        n=int(n))
        st.session_state[RESULT] = (found, use_llm, int(n))
    kept = st.session_state.get(RESULT)
    if kept is None or kept[0].item_id != item_id:
        return
    found, ran_llm, count = kept
    _show_suggestions(found, ran_llm, count)


def _show_suggestions(found: Suggestions, ran_llm: bool, n: int) -> None:
    st.info(_generator_line(ran_llm, found.notes))
    for note in found.notes:
        st.warning(note)
    best = found.best(n)
    if not best:
        st.error("No valid candidate: see the rejected ones below.")
    for k, a in enumerate(best, 1):
        c = a.candidate
        with st.container(border=True):
            st.markdown(f"**{k}. {c.text}**")
            st.caption(f"plausibility {a.plausibility:.2f} · source {c.source.value} · "
                       f"misconception {c.misconception or '(none named)'}")
            st.markdown(f"Why wrong: {c.why_wrong}")
            st.caption(f"Ranked by: {a.explain()}")
    with st.expander(f"Rejected candidates ({len(found.rejected)})"):
        st.dataframe(pd.DataFrame([{"candidate": a.candidate.text, "source": a.candidate.source.value,
                                    "why rejected": "; ".join(a.reasons)} for a in found.rejected]),
                     hide_index=True, use_container_width=True)


def _draft(bank: Bank, page_id: str, use_llm: bool) -> None:
    st.subheader("Draft an item from the page")
    c1, c2, c3 = st.columns(3)
    kind = c1.radio("Type", ["mcq", "short"], horizontal=True, key="author-draft-type")
    difficulty = c2.selectbox("Difficulty", ["easy", "medium", "hard"], index=1, key="author-draft-difficulty")
    seed = c3.number_input("Seed", min_value=0, value=0, key="author-draft-seed",
                           help="Which of the page's misconceptions the offline draft starts from")
    dims = st.multiselect("Dimensions", [d.value for d in Dimension], default=["conceptual"],
                          key="author-draft-dimensions")
    if st.button("Generate draft", type="primary", key="author-draft-go"):
        try:
            target = Target.model_validate({"type": kind, "difficulty": difficulty, "dimensions": tuple(dims)})
        except ValidationError as exc:
            st.error("The target is not valid: " + "; ".join(e["msg"] for e in exc.errors()))
            return
        try:
            with st.spinner("Drafting…"):
                draft = generate_draft(bank, page_id, target, common.embedder(), chat=common.chat_model(use_llm),
                                       seed=int(seed))
            written = write_draft(common.content_root(), draft)
        except (CoachError, ValueError) as exc:
            st.error(f"No draft: {exc}")
            return
        st.session_state[DRAFTED] = (draft.item.id, [str(p) for p in written], list(draft.notes),
                                     item_yaml(draft.item, indent=0), draft.item.provenance)
        common.refresh_bank()
        st.rerun()
    done = st.session_state.get(DRAFTED)
    if done:
        item_id, written, notes, text, prov = done
        how = f"{prov.generator}{' (' + prov.model + ')' if prov and prov.model else ''}" if prov else "?"
        st.success(f"Draft {item_id} written by the {how} generator to {', '.join(written)}. "
                   "It waits in the review queue.")
        for note in notes:
            st.warning(note)
        st.code(text, language="yaml")
