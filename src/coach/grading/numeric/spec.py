"""What the numeric check compares an answer with: each expected quantity of a criterion, computed for the
rendered variant, with the values the named wrong formulas give for the same variant. Part of `GradingTarget`,
so grading needs no calculator and no bank."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class WrongValue(BaseModel):
    """What a named wrong formula (`@calculator(wrong_of=...)`) gives, in the expected quantity's unit."""

    model_config = ConfigDict(frozen=True)

    calc: str
    shown: float
    misconception_id: str | None = None
    statement: str  # the catalogue's statement of the misconception (or the formula's doc when it has none)
    formula: str = ""  # the calculator's doc: what the wrong formula does


class QuantitySpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str  # the item's value name
    shown: float  # the expected number in `unit`, as the item shows it
    unit: str  # "" for a count
    text: str  # how the item writes it, e.g. "516,096 B", "42.9%", "7.34×"
    tolerance: float = 0.05
    wrong: tuple[WrongValue, ...] = ()
    context: str = ""  # the model answer's clause up to this number: what the number is the figure for


class NumericSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    quantities: tuple[QuantitySpec, ...]
    need: int  # how many must appear; 0: numbers are optional (only a wrong one counts)
