"""Numeric distractors from the calculators, each rendered in the key's own words and format.

For every placeholder in the key that a calculator fills:
- wrong formulas: each calculator registered `wrong_of` that one, on the same arguments (the item's params);
- derivation steps: another value of the item, in the same unit and format, that no option shows yet (a
  learner who stops half-way picks it);
- misread inputs: the same calculator with another dtype, or with another value of one of the item's params;
- factor slips: the key's value ×2, ÷2, ×10, ÷10 (a dropped factor of two, a misplaced decimal point), the
  weakest of the family, ranked last.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from coach.authoring.candidates import Candidate, Source
from coach.calc.registry import load_all, wrong_formulas_of
from coach.content.bank import Bank
from coach.content.render import PLACEHOLDER, Variant, format_value, render_text, value_of
from coach.content.schema import McqItem, ValueSpec

DTYPE_SLIPS = ("fp8", "bf16", "fp32")
FACTOR_SLIPS = ((2.0, "x2", "doubles the answer (a factor of two counted twice: both directions, or K and V again)"),
                (0.5, "div2", "halves the answer (a factor of two dropped)"),
                (10.0, "x10", "a misplaced decimal point"),
                (0.1, "div10", "a misplaced decimal point"))


def numeric_candidates(bank: Bank, item: McqItem, variant: Variant) -> list[Candidate]:
    key = item.options[item.key_index]
    out: list[Candidate] = []
    for match in PLACEHOLDER.finditer(key.text):
        name = match.group(1)
        spec = item.values.get(name)
        if spec is None or spec.calc is None or match.group(2):
            continue
        for source, origin, new_spec, why, mis in _variants_of(bank, item, name, spec, variant):
            try:
                # A slip keeps the calculator and rescales it, so the file still computes every number.
                number = value_of(new_spec, variant) * spec.scale / new_spec.scale
            except (KeyError, ValueError, TypeError, ZeroDivisionError):
                continue  # the formula does not apply to these arguments (e.g. an MLA formula on a GQA model)
            if format_value(spec, number) == format_value(spec, value_of(spec, variant)):
                continue
            new_name = re.sub(r"\W+", "_", f"{name}_{origin}").strip("_")[:60]
            template = key.text.replace(match.group(0), "{" + new_name + "}")
            out.append(
                Candidate(
                    text=render_text(key.text.replace(match.group(0), format_value(spec, number)), item, variant),
                    source=source,
                    why_wrong=why,
                    misconception=mis,
                    origin=origin,
                    template=template,
                    values={new_name: new_spec},
                    value=number,
                )
            )
    return out


Proposal = tuple[Source, str, ValueSpec, str, str | None]


def _variants_of(bank: Bank, item: McqItem, name: str, spec: ValueSpec, variant: Variant) -> Iterator[Proposal]:
    calcs = load_all()
    for wrong in wrong_formulas_of(spec.calc) if spec.calc else []:
        mis = bank.misconceptions.get(wrong.misconception or "")
        why = wrong.doc.removeprefix("Wrong: ").strip() + (f" {mis.correction}" if mis else "")
        yield Source.WRONG_FORMULA, wrong.name, spec.model_copy(update={"calc": wrong.name}), why, wrong.misconception
    shown = {m.group(1) for o in item.options for m in PLACEHOLDER.finditer(o.text)}
    for other, step in item.values.items():
        if other in shown or other == name or (step.scale, step.fmt) != (spec.scale, spec.fmt) or step.calc is None:
            continue
        if calcs.get(step.calc) is not None and calcs[step.calc].wrong_of:
            continue  # a wrong formula's value belongs to the first family above
        why = f"An intermediate step of the derivation ({other}, from {step.calc}), not the answer the stem asks for."
        yield Source.DERIVATION, other, step, why, None
    for arg, value in spec.args.items():
        if arg == "dtype" and isinstance(value, str):
            for dtype in DTYPE_SLIPS:
                if dtype != value:
                    new = spec.model_copy(update={"args": {**spec.args, "dtype": dtype}})
                    why = f"Uses {dtype.upper()} bytes, not {value.upper()}."
                    yield Source.ARGUMENT, f"dtype={dtype}", new, why, None
        if isinstance(value, str) and value.startswith("$") and value[1:] in item.params:
            param = value[1:]
            for alt in item.params[param]:
                if alt != variant.get(param):
                    new = spec.model_copy(update={"args": {**spec.args, arg: alt}})
                    why = f"The right formula for {param} = {alt}, not the stem's {param} = {variant.get(param)}."
                    yield Source.ARGUMENT, f"{param}={alt}", new, why, None
    for factor, label, why in FACTOR_SLIPS:
        slip = spec.model_copy(update={"scale": spec.scale / factor})
        yield Source.SLIP, label, slip, f"The right method with an arithmetic slip: it {why}.", None
