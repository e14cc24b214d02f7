"""Interview readiness coach: content, sessions, grading and feedback for AI-inference systems interviews.

Importing this package is cheap: SDKs and the embedding model load lazily in `coach.providers`.
"""

__version__ = "0.1.0"
