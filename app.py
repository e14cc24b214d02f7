"""Streamlit entry point: wiring only. Run with `streamlit run app.py`."""

from coach.ui.router import main

main()
