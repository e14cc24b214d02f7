"""The module page's free samples are shown with their answers, so no check or practice test may draw them."""

from __future__ import annotations

import random

import pytest

from coach.config import get_settings
from coach.content.bank import Bank
from coach.content.loader import load_bank
from coach.session.assembly import assemble_practice, assemble_readiness, pool


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(get_settings().content_dir)


def test_every_ready_module_has_samples_and_they_are_outside_its_pool(bank: Bank) -> None:
    for module in bank.ready_modules():
        assert module.samples, f"{module.id} has no samples to show"
        drawn = {i.id for i in pool(bank, module.id)}
        assert drawn, module.id
        assert not drawn & set(module.samples), module.id
        published = {i.id for i in bank.published(module.id)}
        assert set(module.samples) <= published and drawn == published - set(module.samples)


def test_no_readiness_check_or_practice_test_draws_a_sample(bank: Bank) -> None:
    for module in bank.ready_modules():
        samples = set(module.samples)
        everything = len(pool(bank, module.id))
        for seed in range(25):
            check = assemble_readiness(bank, module.id, random.Random(seed))
            practice = assemble_practice(bank, module.id, None, everything, random.Random(seed))
            assert not {i.id for i in check} & samples, (module.id, seed)
            assert not {i.id for i in practice} & samples, (module.id, seed)
