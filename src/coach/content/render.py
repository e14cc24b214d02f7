"""Turns an item template into the text a candidate sees, with every number computed by `coach.calc`.

An item may declare `params` (e.g. model: [llama-3.1-8b, llama-3.1-70b]); a variant picks one value of each.
Text refers to `{value_name}`, `{param}` or `{param.attr}` (e.g. `{model.name}`, `{model.layers}`).
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from coach.calc.registry import compute, load_all
from coach.calc.tables import HARDWARE, LINKS, MODELS
from coach.content.schema import Difficulty, Item, McqItem, ShortItem, ValueSpec
from coach.vocab import Dimension

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?:\.([a-z_][a-z0-9_]*))?\}")

Variant = dict[str, str | int | float]


class RenderedOption(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    correct: bool
    misconception: str | None = None


class RenderedItem(BaseModel):
    """What a candidate sees: one variant of an item with all numbers filled in."""

    model_config = ConfigDict(frozen=True)

    id: str
    version: int
    module: str
    type: str
    difficulty: Difficulty
    concept: str
    dimensions: tuple[Dimension, ...]
    stem: str
    explanation: str
    options: tuple[RenderedOption, ...] = ()
    rubric: str | None = None
    model_answer: str | None = None
    max_words: int = 150
    variant: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """A stable id of this rendering (item, version, variant) for caches and storage."""
        suffix = ",".join(f"{k}={v}" for k, v in self.variant)
        return f"{self.id}@v{self.version}" + (f"[{suffix}]" if suffix else "")

    @property
    def key_index(self) -> int | None:
        return next((i for i, o in enumerate(self.options) if o.correct), None)


def variants(item: Item) -> list[Variant]:
    """Every combination of the item's params; a non-parametric item has one empty variant."""
    if not item.params:
        return [{}]
    names = sorted(item.params)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*(item.params[n] for n in names))]


def pick_variant(item: Item, rng: random.Random) -> Variant:
    options = variants(item)
    return options[rng.randrange(len(options))]


def _resolve_arg(arg: Any, variant: Variant) -> Any:
    if isinstance(arg, str) and arg.startswith("$"):
        name = arg[1:]
        if name not in variant:
            raise KeyError(f"argument {arg} names no param")
        return variant[name]
    return arg


def spec_args(spec: ValueSpec, variant: Variant) -> dict[str, Any]:
    """A value's calculator arguments for one variant ("$param" resolved)."""
    return {k: _resolve_arg(v, variant) for k, v in spec.args.items()}


def value_of(spec: ValueSpec, variant: Variant) -> float:
    if spec.value is not None:
        return float(spec.value)
    assert spec.calc is not None
    return compute(spec.calc, **spec_args(spec, variant))


def variant_of(item: Item, rendered: RenderedItem) -> Variant:
    """The typed variant a rendering was made from (a rendering keeps its params as text)."""
    variant: Variant = {}
    for name, text in rendered.variant:
        choices = item.params.get(name, ())
        variant[name] = next((c for c in choices if str(c) == text), text)
    return variant


def format_value(spec: ValueSpec, number: float) -> str:
    return format(number / spec.scale, spec.fmt)


def _attr_text(param_value: Any, attr: str) -> str:
    for table in (MODELS, HARDWARE, LINKS):
        if isinstance(param_value, str) and param_value in table:
            found = getattr(table[param_value], attr)
            return f"{found:,}" if isinstance(found, int) else str(found)
    raise KeyError(f"{param_value!r} has no attribute table for .{attr}")


def render_text(text: str, item: Item, variant: Variant) -> str:
    def sub(match: re.Match[str]) -> str:
        name, attr = match.group(1), match.group(2)
        if name in item.values and attr is None:
            spec = item.values[name]
            return format_value(spec, value_of(spec, variant))
        if name in variant:
            value = variant[name]
            if attr:
                return _attr_text(value, attr)
            return f"{value:,}" if isinstance(value, int) else str(value)
        raise KeyError(f"placeholder {{{match.group(0)[1:-1]}}} names no value or param")

    return PLACEHOLDER.sub(sub, text)


def render(item: Item, variant: Variant | None = None) -> RenderedItem:
    variant = variants(item)[0] if variant is None else variant
    base: dict[str, Any] = {
        "id": item.id,
        "version": item.version,
        "module": item.module or "",
        "type": item.type,
        "difficulty": item.difficulty,
        "concept": item.concept,
        "dimensions": item.dimensions,
        "stem": render_text(item.stem, item, variant),
        "explanation": render_text(item.explanation, item, variant),
        "variant": tuple(sorted((k, str(v)) for k, v in variant.items())),
    }
    if isinstance(item, McqItem):
        base["options"] = tuple(
            RenderedOption(text=render_text(o.text, item, variant), correct=o.correct, misconception=o.misconception)
            for o in item.options
        )
    elif isinstance(item, ShortItem):
        base["rubric"] = item.rubric
        base["model_answer"] = render_text(item.model_answer, item, variant)
        base["max_words"] = item.max_words
    return RenderedItem(**base)


def wrong_calcs_in(text: str, item: Item) -> list[str]:
    """Names of the wrong-formula calculators whose values a piece of text shows."""
    calcs = load_all()
    found = []
    for match in PLACEHOLDER.finditer(text):
        spec = item.values.get(match.group(1))
        if spec is not None and spec.calc and calcs[spec.calc].wrong_of:
            found.append(spec.calc)
    return found
