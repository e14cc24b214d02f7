"""Review queue: drafts and "page changed: review" items; approve, edit and approve, or reject with a reason.

Content stays in files (the content dir from the settings); decisions go to the store through the journey's
decision log. Approval runs the checks of `coach bank check` (`approval_problems`), so a failing draft cannot
be approved and the page says why. After a change the bank is reloaded so candidates see it at once.
"""

from __future__ import annotations

import streamlit as st

from coach.authoring.queue import QueueEntry, approval_problems, approve, queue, reject
from coach.authoring.stamp import review_page, stamp
from coach.content.bank import Bank
from coach.content.page_history import GitPageHistory
from coach.content.render import render
from coach.content.schema import Item, ShortItem
from coach.errors import CoachError
from coach.ui import services
from coach.ui.pages.author import common
from coach.ui.pages.author.edits import read_edit
from coach.ui.pages.author.gate import require_author

TITLE = "Review queue"
FLASH = "author-review-flash"


def _flash(ok: bool, messages: tuple[str, ...] | list[str]) -> None:
    st.session_state[FLASH] = (ok, list(messages))


def _show_flash() -> None:
    found = st.session_state.pop(FLASH, None)
    if found:
        ok, messages = found
        (st.success if ok else st.error)("\n\n".join(messages))


def _label(e: QueueEntry) -> str:
    return f"{'draft' if e.kind == 'draft' else 'page changed: review'} · {e.item_id} ({e.status})"


def _preview(item: Item) -> None:
    shown = render(item)
    st.markdown(f"**Stem.** {shown.stem}")
    for o in shown.options:
        st.markdown(f"- {'**(key)** ' if o.correct else ''}{o.text}")
    if isinstance(item, ShortItem):
        st.markdown(f"**Model answer.** {shown.model_answer}")
    st.caption(f"Explanation: {shown.explanation}")


def render_page() -> None:
    author = require_author(TITLE)
    if author is None:
        return
    st.title(TITLE)
    st.caption(f"Signed in as {author}. Content files: {common.content_root()}")
    _show_flash()
    bank = common.bank()
    entries = queue(bank)
    if not entries:
        st.info("Nothing waits for review: no drafts, and no item's concept page has moved on. "
                "Make a draft on the Generate page or import a CSV on the Export page.")
        return
    drafts = sum(e.kind == "draft" for e in entries)
    st.write(f"{drafts} draft(s) and {len(entries) - drafts} item(s) whose concept page changed.")
    chosen = st.selectbox("Item to review", entries, format_func=_label, key="author-review-pick")
    if chosen is None:
        return
    st.caption(f"{chosen.path} · {chosen.detail}")
    if chosen.kind == "draft":
        _review_draft(bank, chosen, author)
    else:
        _review_page_change(bank, chosen, author)


def _review_draft(bank: Bank, entry: QueueEntry, author: str) -> None:
    item = bank.items[entry.item_id]
    root = common.content_root()
    facts = common.facts_text()
    with st.container(border=True):
        _preview(item)
    problems = approval_problems(bank, item.id, facts_text=facts)
    if problems:
        st.error("This draft cannot be approved as it is:\n\n" + "\n".join(f"- {p}" for p in problems))
    else:
        st.success("The bank checks pass with this draft published.")
    log = services.journey().decision_log()
    if st.button("Approve and publish", type="primary", disabled=bool(problems), key="author-approve"):
        outcome = approve(root, bank, item.id, author=author, log=log, facts_text=facts)
        _finish(outcome.ok, outcome.messages)
    with st.expander("Edit and approve"):
        item_text = (root / entry.path).read_text(encoding="utf-8")
        edited_text = st.text_area("Item YAML", item_text, height=380, key=f"author-edit-{item.id}")
        rubric = bank.rubric_for(item)
        rubric_text = None
        if rubric is not None and "rubric" + rubric.id in bank.sources:
            source = (root / bank.sources["rubric" + rubric.id]).read_text(encoding="utf-8")
            rubric_text = st.text_area("Rubric YAML", source, height=260, key=f"author-edit-rubric-{item.id}")
        if st.button("Validate and approve the edit", key="author-edit-approve"):
            edit = read_edit(edited_text, item.module, rubric_text)
            if edit.errors or edit.item is None:
                st.error("The edit is not valid:\n\n" + "\n".join(f"- {e}" for e in edit.errors))
            else:
                outcome = approve(root, bank, item.id, author=author, log=log, edited=edit.item,
                                  rubric=edit.rubric, facts_text=facts, reason="edited in the studio")
                _finish(outcome.ok, outcome.messages)
    with st.expander("Reject"):
        reason = st.text_input("Why is it rejected?", key=f"author-reject-reason-{item.id}")
        if st.button("Reject the draft", key="author-reject"):
            outcome = reject(root, bank, item.id, author=author, reason=reason, log=log)
            _finish(outcome.ok, outcome.messages)
    _history(item.id)


def _finish(ok: bool, messages: tuple[str, ...]) -> None:
    if not ok:
        st.error("\n\n".join(messages))
        return
    _flash(True, messages)
    common.refresh_bank()
    st.rerun()


def _review_page_change(bank: Bank, entry: QueueEntry, author: str) -> None:
    root = common.content_root()
    try:
        review = review_page(bank, entry.item_id, GitPageHistory(root))
    except CoachError as exc:
        st.error(str(exc))
        return
    st.write(f"Page **{review.page_id}**: stamped {review.stamped or '(none)'}, now {review.current}. {review.note}.")
    if review.diff:
        st.code(review.diff, language="diff")
    with st.container(border=True):
        _preview(bank.items[entry.item_id])
    st.caption("If the item still agrees with the page, mark it reviewed: its `concept_version` is stamped with "
               "the page's current version. If not, edit the item file and stamp it then.")
    if st.button("Reviewed: the item agrees with the page", key="author-stamp"):
        done = stamp(bank, root, [entry.item_id])
        services.journey().decision_log().record_decision(
            item_id=entry.item_id, draft_path=entry.path, action="approve", author=author,
            reason=f"page {review.page_id} changed: reviewed against {review.current}",
            resulting_version=bank.items[entry.item_id].version)
        _finish(True, tuple(f"stamped {s.item_id}: {s.old or '(none)'} -> {s.new}" for s in done))
    _history(entry.item_id)


def _history(item_id: str) -> None:
    decisions = services.journey().decision_log().list_decisions(item_id)
    if decisions:
        with st.expander(f"Decisions on {item_id} ({len(decisions)})"):
            for d in decisions:
                st.markdown(f"- {d.at:%Y-%m-%d %H:%M} UTC · **{d.action}** by {d.author}"
                            f"{' · v' + str(d.resulting_version) if d.resulting_version else ''}"
                            f"{' · ' + d.reason if d.reason else ''}")
