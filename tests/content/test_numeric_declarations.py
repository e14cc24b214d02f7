"""Rubric criteria that declare the numbers they expect: parsing, and what `coach bank check` reports."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from coach.content.bank import Bank
from coach.content.checks import check_bank
from coach.content.schema import Criterion, ExpectedQuantity, NumericCheck


def _with(bank: Bank, rubric_id: str, criterion_id: str, check: NumericCheck | None) -> Bank:
    patched = copy.copy(bank)
    patched.rubrics = dict(bank.rubrics)
    rubric = bank.rubrics[rubric_id]
    criteria = tuple(c.model_copy(update={"numeric": check}) if c.id == criterion_id else c for c in rubric.criteria)
    patched.rubrics[rubric_id] = rubric.model_copy(update={"criteria": criteria})
    return patched


def _messages(bank: Bank) -> list[str]:
    return [p.message for p in check_bank(bank, None, enforce_counts=False)]


def test_declarations_parse_with_defaults() -> None:
    check = NumericCheck.model_validate({"quantities": [{"value": "b405", "unit": "B"}]})
    assert check.required == 1 and check.quantities[0].tolerance == 0.05
    with pytest.raises(ValidationError, match="need 3 exceeds"):
        NumericCheck.model_validate({"need": 3, "quantities": [{"value": "a"}, {"value": "b"}]})
    with pytest.raises(ValidationError):
        NumericCheck.model_validate({"quantities": [{"value": "a", "tolerence": 0.1}]})  # a typo is an error
    with pytest.raises(ValidationError):
        Criterion.model_validate({"id": "c1", "description": "d", "weight": 1, "dimension": "quantitative",
                                  "phrasings": ["a b", "c d"], "numeric": {"quantities": []}})


@pytest.mark.parametrize(
    ("quantity", "message"),
    [
        (ExpectedQuantity(value="nope", unit="B"), "does not define"),
        (ExpectedQuantity(value="b405", unit="parsecs"), "unknown unit"),
        (ExpectedQuantity(value="b405", unit="B", wrong_args={"planet": "mars"}), "takes wrong_args 'planet'"),
    ],
)
def test_bank_check_reports_a_bad_declaration(bank: Bank, quantity: ExpectedQuantity, message: str) -> None:
    patched = _with(bank, "if-kv-gqa-vs-mla", "gqa-size", NumericCheck(quantities=(quantity,)))
    assert any(message in m for m in _messages(patched)), _messages(patched)


def test_a_percent_value_needs_the_percent_unit(bank: Bank) -> None:
    bad = NumericCheck(quantities=(ExpectedQuantity(value="b1", unit=""),))
    assert any("its unit is '%'" in m for m in _messages(_with(bank, "mp-pp-microbatch-short", "bubble-numbers", bad)))


def test_every_quantitative_criterion_of_a_computed_item_declares_its_numbers(bank: Bank) -> None:
    assert not [m for m in _messages(bank) if "numeric" in m]
    undeclared = _with(bank, "if-kv-gqa-vs-mla", "gqa-size", None)
    assert any("gqa-size is quantitative" in m for m in _messages(undeclared))


def test_a_criterion_quoting_the_items_computed_figures_declares_them(bank: Bank) -> None:
    # numbers-and-scale-out is an explanation criterion, but its description quotes 12.5% and 88.9%
    undeclared = _with(bank, "ms-kv-router", "numbers-and-scale-out", None)
    quoted = [m for m in _messages(undeclared) if "quotes the item's computed" in m]
    assert len(quoted) == 1 and all(f"{{{v}}}" in quoted[0] for v in ("hit", "moved")), quoted
