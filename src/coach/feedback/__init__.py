"""Coach feedback from a ScoreCard: templates offline; an LLM-written version can replace them later."""
