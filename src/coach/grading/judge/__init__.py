"""The LLM judge: prompt, reply schema and outcome, quote check, cache, the judge itself, fakes for demos."""
