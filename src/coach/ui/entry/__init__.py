"""The per-session script lives in its own folder: beside `ui/pages/`, Streamlit would read that folder as the
app's pages."""
