"""The journey API the pages call (pure of Streamlit): identity, attempts, grading, history, progress, sharing.

Start with `Journey.from_settings(settings, bank, grader, judge)`; see journey.py, progress.py,
misconceptions.py and share.py.
"""
