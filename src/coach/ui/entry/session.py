"""The script Streamlit runs for each browser session; `app.py` declares the server around it."""

from coach.ui.nav import main

main()
