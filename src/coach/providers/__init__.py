"""The only layer that imports openai, langchain-core or sentence-transformers."""
