"""Streamlit entry point: wiring only. Run with `streamlit run app.py`."""

from coach.ui.nav import main

main()
