"""A script for AppTest: one author page, chosen by ?p=<url_path> (the app's navigation wires the same
render functions)."""

import streamlit as st

from coach.ui.pages.author import PAGES

wanted = st.query_params.get("p", "author")
for render, _title, url in PAGES:
    if url == wanted:
        render()
