"""Attempts: seeded assembly of a practice test or readiness check, and the pure state machine that runs it."""
