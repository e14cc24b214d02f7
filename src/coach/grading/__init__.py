"""Grading: exact MCQ keys, rubric grading by embeddings, the optional LLM judge, and their combination."""
