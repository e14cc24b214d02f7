"""Builds a criterion's `NumericSpec` for one variant of an item: the expected values and the values every
named wrong formula of the same calculator gives on the item's own arguments (`coach.calc`)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coach.calc.registry import Calculator, wrong_formulas_of
from coach.content.render import Variant, format_value, render_text, spec_args, value_of
from coach.content.schema import ExpectedQuantity, Item, Misconception, NumericCheck, Rubric, ValueSpec
from coach.grading.numeric.attribution import clause_start
from coach.grading.numeric.spec import NumericSpec, QuantitySpec, WrongValue
from coach.units import quantity


@dataclass(frozen=True)
class Unproduced:
    """A wrong formula of an expected value that gives no usable number for this variant, and why."""

    calc: str
    reason: str


def shown_value(spec: ValueSpec, number: float) -> float:
    """The number as the item shows it: value / scale, times 100 for a percent format."""
    shown = number / spec.scale
    return shown * 100 if spec.fmt.endswith("%") else shown


def shown_text(spec: ValueSpec, number: float, unit: str) -> str:
    text = format_value(spec, number)
    if spec.fmt.endswith("%"):
        return text
    if unit in ("x", "×", "ratio"):
        return f"{text}×"
    return f"{text} {unit}".strip()


def _call_args(calc: Calculator, args: Mapping[str, Any]) -> dict[str, Any] | str:
    """The arguments `calc` takes from `args`, or the name of one it needs and `args` lacks."""
    taken: dict[str, Any] = {}
    for name, param in inspect.signature(calc.fn).parameters.items():
        if name in args:
            taken[name] = args[name]
        elif param.default is inspect.Parameter.empty:
            return name
    return taken


def wrong_values(item: Item, expected: ExpectedQuantity, variant: Variant,
                 catalogue: Mapping[str, Misconception]) -> tuple[list[WrongValue], list[Unproduced]]:
    """Every named wrong formula of the expected value's calculator, evaluated on the item's arguments for
    this variant (plus the criterion's `wrong_args` and the variant's params). A value within tolerance of
    the right one cannot be told apart and is left out, with the reason."""
    spec = item.values[expected.value]
    if spec.calc is None:
        return [], []
    right = shown_value(spec, value_of(spec, variant))
    args = {**variant, **spec_args(spec, variant), **expected.wrong_args}
    found: list[WrongValue] = []
    unproduced: list[Unproduced] = []
    for calc in wrong_formulas_of(spec.calc):
        call = _call_args(calc, args)
        if isinstance(call, str):
            unproduced.append(Unproduced(calc.name, f"needs argument {call!r}, which the item does not give"))
            continue
        try:
            shown = shown_value(spec, float(calc.fn(**call)))
        except (ValueError, KeyError, TypeError, ZeroDivisionError) as exc:
            unproduced.append(Unproduced(calc.name, f"does not apply here ({exc})"))
            continue
        if abs(shown - right) <= expected.tolerance * abs(right):
            unproduced.append(Unproduced(calc.name, f"gives {shown:g}, within tolerance of the right {right:g}"))
            continue
        mis = catalogue.get(calc.misconception or "")
        found.append(WrongValue(calc=calc.name, shown=shown, misconception_id=calc.misconception,
                                statement=mis.statement if mis else calc.doc, formula=calc.doc))
    return found, unproduced


def quantity_spec(item: Item, expected: ExpectedQuantity, variant: Variant,
                  catalogue: Mapping[str, Misconception]) -> QuantitySpec:
    spec = item.values[expected.value]
    number = value_of(spec, variant)
    quantity(1.0, expected.unit)  # raises on a unit the registry does not know (bank check reports it first)
    wrong, _ = wrong_values(item, expected, variant, catalogue)
    return QuantitySpec(name=expected.value, shown=shown_value(spec, number), unit=expected.unit,
                        text=shown_text(spec, number, expected.unit), tolerance=expected.tolerance,
                        wrong=tuple(wrong), context=context_of(item, expected.value, variant))


def context_of(item: Item, name: str, variant: Variant) -> str:
    """The model answer's clause up to value `name`, rendered ("For placement, a `hash mod N` scheme would
    move"); "" when the model answer does not show the value."""
    template = getattr(item, "model_answer", None) or ""
    at = template.find("{" + name + "}")
    if at < 0:
        return ""
    return render_text(template[clause_start(template, at):at], item, variant).strip()


def numeric_spec(item: Item, check: NumericCheck, variant: Variant,
                 catalogue: Mapping[str, Misconception]) -> NumericSpec:
    return NumericSpec(quantities=tuple(quantity_spec(item, q, variant, catalogue) for q in check.quantities),
                       need=check.required)


def numeric_specs(item: Item, rubric: Rubric, variant: Variant,
                  catalogue: Mapping[str, Misconception]) -> dict[str, NumericSpec]:
    """criterion id -> its numeric spec for this variant, for the criteria that declare quantities."""
    return {c.id: numeric_spec(item, c.numeric, variant, catalogue) for c in rubric.criteria if c.numeric}
