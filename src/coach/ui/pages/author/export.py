"""Export every published item as Moodle XML or GIFT; import a CSV of MCQs into drafts."""

from __future__ import annotations

import streamlit as st

from coach.authoring.csv_import import COLUMNS, read_csv
from coach.authoring.gift import export_gift
from coach.authoring.moodle import export_moodle, published_count, validate_moodle
from coach.authoring.queue import write_draft
from coach.errors import CoachError
from coach.ui.pages.author import common
from coach.ui.pages.author.gate import require_author

TITLE = "Export and import"
IMPORTED = "author-import-done"


def render_page() -> None:
    if require_author(TITLE) is None:
        return
    st.title(TITLE)
    bank = common.bank()
    st.subheader("Export")
    st.write(f"{published_count(bank)} published items (drafts are never exported). Moodle has no variants, "
             "so a parametric item exports its first variant.")
    xml = export_moodle(bank)
    problems = validate_moodle(xml)
    c1, c2 = st.columns(2)
    if problems:
        c1.error("The Moodle XML does not validate:\n\n" + "\n".join(f"- {p}" for p in problems))
    else:
        c1.download_button("Download Moodle XML", xml, file_name="coach-moodle.xml", mime="application/xml",
                           key="author-export-xml")
    c2.download_button("Download GIFT", export_gift(bank), file_name="coach.gift.txt", mime="text/plain",
                       key="author-export-gift")
    st.divider()
    st.subheader("Import a CSV into drafts")
    st.caption("Columns: " + ", ".join(COLUMNS) + " (dimensions separated by ';'). Nothing is written if any "
               "line has an error.")
    done = st.session_state.pop(IMPORTED, None)
    if done:
        st.success("Wrote " + ", ".join(done) + ". The drafts wait in the review queue.")
    upload = st.file_uploader("CSV file", type=["csv"], key="author-import-csv")
    if upload is not None and st.button("Import as drafts", key="author-import-go"):
        try:
            text = upload.getvalue().decode("utf-8")
        except UnicodeDecodeError:
            st.error("The file is not UTF-8 text.")
            return
        drafts, errors = read_csv(text, bank)
        if errors:
            st.error(f"{upload.name}: nothing imported.\n\n" + "\n".join(f"- {e}" for e in errors))
            return
        try:
            written = [str(p) for d in drafts for p in write_draft(common.content_root(), d)]
        except CoachError as exc:
            st.error(f"Writing the drafts failed: {exc}")
            return
        st.session_state[IMPORTED] = written
        common.refresh_bank()
        st.rerun()
