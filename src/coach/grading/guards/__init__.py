"""Anti-gaming guards: stuffing, negation and swapped relations, question copy, off-topic, gibberish,
padding, other languages, and text addressed to the grader (injection)."""
