"""Domain calculators. Every number an item shows comes from here or is checked against it.

Figures in `tables` come from ../shared/reference/domain-facts.md, each with its source key.
"""

from coach.calc.registry import CALCULATORS, Calculator, compute

__all__ = ["CALCULATORS", "Calculator", "compute"]
