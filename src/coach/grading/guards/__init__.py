"""Anti-gaming guards: stuffing, negation, question copy, off-topic, other languages, and text addressed to the
grader (injection)."""
