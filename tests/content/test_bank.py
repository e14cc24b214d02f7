"""The project's own bank: valid, every number computed, every variant renderable."""

from __future__ import annotations

import re

import pytest

from coach.calc import compute
from coach.content.bank import Bank
from coach.content.checks import check_bank
from coach.content.checks_misconceptions import heldout_statements
from coach.content.numbers import bare_numbers
from coach.content.render import PLACEHOLDER, format_value, render, value_of, variants
from coach.content.schema import McqItem, ShortItem
from tests.conftest import ROOT


def test_bank_check_is_clean(bank: Bank, facts_text: str) -> None:
    problems = check_bank(bank, facts_text, heldout=heldout_statements(ROOT))
    assert problems == [], "\n".join(map(str, problems))


def test_every_numeric_item_recomputes(bank: Bank) -> None:
    """Recompute each value independently from its calculator and find it in the rendered text."""
    numeric = [i for i in bank.items.values() if i.values]
    assert numeric, "the bank has no computed items"
    for item in numeric:
        for variant in variants(item):
            rendered = render(item, variant)
            texts = [
                rendered.stem,
                rendered.explanation,
                *(o.text for o in rendered.options),
                rendered.model_answer or "",
            ]
            for name, spec in item.values.items():
                args = {
                    k: (variant[v[1:]] if isinstance(v, str) and v.startswith("$") else v) for k, v in spec.args.items()
                }
                expected = float(spec.value) if spec.value is not None else compute(spec.calc or "", **args)
                assert value_of(spec, variant) == pytest.approx(expected)
                shown = format_value(spec, expected)
                used = any(
                    re.search(r"\{" + name + r"\}", t)
                    for t in [
                        item.stem,
                        item.explanation,
                        *(getattr(item, "model_answer", "") or "",),
                        *(o.text for o in getattr(item, "options", ())),
                    ]
                )
                if used:
                    assert any(shown in t for t in texts), f"{item.id} {variant}: {name}={shown} not shown"
            for t in texts:
                assert not PLACEHOLDER.search(t), f"{item.id}: unrendered placeholder in {t!r}"


def test_no_item_text_carries_an_undeclared_number(bank: Bank) -> None:
    for item in bank.items.values():
        declared = {n for lit in item.literals for n in bare_numbers(lit.text)}
        texts = [item.stem, item.explanation]
        if isinstance(item, McqItem):
            texts += [o.text for o in item.options]
        if isinstance(item, ShortItem):
            texts.append(item.model_answer)
        for t in texts:
            assert set(bare_numbers(t)) <= declared, f"{item.id}: {set(bare_numbers(t)) - declared}"


def test_every_short_item_has_a_matching_rubric(bank: Bank) -> None:
    for item in bank.items.values():
        if isinstance(item, ShortItem):
            rubric = bank.rubrics[item.rubric]
            assert rubric.item == item.id
            assert abs(sum(c.weight for c in rubric.criteria) - 1) < 1e-9
