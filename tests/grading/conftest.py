"""Fixtures for the offline grader tests: the real embedder (loaded once) and a grader on shipped params."""

from __future__ import annotations
