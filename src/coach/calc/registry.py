"""Named calculators. Items refer to them by name; `@calculator` registers a function here.

Every module of `coach.calc` is imported on first use, so a new file of calculators registers itself.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Number = float


@dataclass(frozen=True)
class Calculator:
    name: str
    fn: Callable[..., Number]
    doc: str
    wrong_of: str | None = None  # for a named wrong formula: the correct calculator it imitates
    misconception: str | None = None  # the misconception id a learner using it holds


CALCULATORS: dict[str, Calculator] = {}
_loaded = False


def calculator(
    *, wrong_of: str | None = None, misconception: str | None = None
) -> Callable[[Callable[..., Number]], Callable[..., Number]]:
    def register(fn: Callable[..., Number]) -> Callable[..., Number]:
        name = fn.__name__
        if name in CALCULATORS:
            raise ValueError(f"calculator {name} registered twice")
        CALCULATORS[name] = Calculator(name, fn, (fn.__doc__ or "").strip(), wrong_of, misconception)
        return fn

    return register


def load_all() -> dict[str, Calculator]:
    global _loaded
    if not _loaded:
        import coach.calc as pkg

        for info in pkgutil.iter_modules(pkg.__path__):
            if info.name not in {"registry", "tables"}:
                importlib.import_module(f"coach.calc.{info.name}")
        _loaded = True
    return CALCULATORS


def wrong_formulas_of(name: str) -> list[Calculator]:
    """The named wrong formulas that imitate calculator `name` (`@calculator(wrong_of=name)`), in registry order."""
    return [c for c in load_all().values() if c.wrong_of == name]


def compute(name: str, **args: Any) -> Number:
    calcs = load_all()
    if name not in calcs:
        raise KeyError(f"unknown calculator {name!r}")
    return float(calcs[name].fn(**args))
