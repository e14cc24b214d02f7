"""The offline grader tests use the `embedder` and `grader` fixtures of tests/conftest.py."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["grader", "checked_grader"])
def default_path(request):  # type: ignore[no-untyped-def]
    """The bi-encoder path, alone and with the cross-encoder checking contradiction candidates (the app's)."""
    return request.getfixturevalue(request.param)
