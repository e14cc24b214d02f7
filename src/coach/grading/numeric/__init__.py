"""Executable quantitative checks: numbers with units read from an answer (pint), compared with the values
`coach.calc` computes for the rendered variant and with the values of its named wrong formulas.

extract.py reads the numbers; spec.py is what a `GradingTarget` carries; build.py computes it from an item;
check.py compares; verdict.py combines the result with a criterion's semantic verdict (the grader's hook).
"""
