"""Persistence. For now: attempts saved as JSON files so a reload can resume (the database arrives later)."""
