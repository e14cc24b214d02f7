"""Streamlit entry point: wiring only. Run with `streamlit run app.py`.

`st.App` lets the server start the model loading before the first browser connects (`lifespan`) and serve the
route that sets HttpOnly cookies (`ROUTES`); each browser session runs `coach/ui/entry/session.py`.
"""

import streamlit as st

from coach.ui.server import ROUTES, SCRIPT, lifespan

app = st.App(SCRIPT, lifespan=lifespan, routes=ROUTES)
