"""Every module of the real bank can be sat: the readiness blueprint fits exactly, across many seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from coach.content.bank import Bank
from coach.session.assembly import READINESS, assemble_practice, assemble_readiness, estimate_minutes
from coach.vocab import Dimension

MODULES = ["inference-fundamentals", "model-parallelism", "distributed-inference", "multi-gpu-serving"]


@pytest.mark.parametrize("module", MODULES)
def test_readiness_blueprint_fits_every_module(bank: Bank, module: str) -> None:
    for seed in range(30):
        items = assemble_readiness(bank, module, random.Random(seed))
        assert len(items) == READINESS.size
        assert sum(i.type == "short" for i in items) == READINESS.short
        assert {d for i in items for d in i.dimensions} == set(Dimension)
        assert Counter(i.difficulty for i in items) == dict(READINESS.by_difficulty)
        assert 8 <= estimate_minutes(items) <= 25


@pytest.mark.parametrize("module", MODULES)
def test_parametric_items_show_new_numbers_on_a_retake(bank: Bank, module: str) -> None:
    stems: dict[str, set[str]] = {}
    for seed in range(12):
        for item in assemble_practice(bank, module, None, 40, random.Random(seed)):
            stems.setdefault(item.id, set()).add(item.stem)
    parametric = [i for i in bank.published(module) if i.params]
    assert parametric, f"{module} has no parametric items"
    assert any(len(stems[i.id]) > 1 for i in parametric)
