"""The only layer that imports streamlit. Pages render and call services; state stays thin."""
