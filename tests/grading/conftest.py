"""The offline grader tests use the `embedder` and `grader` fixtures of tests/conftest.py."""
