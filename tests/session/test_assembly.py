from __future__ import annotations

import random
from collections import Counter

import pytest

from coach.content.schema import Difficulty
from coach.errors import SessionError
from coach.session.assembly import READINESS, assemble_practice, assemble_readiness, estimate_minutes
from coach.vocab import Dimension
from tests.factories import make_bank


def test_practice_is_reproducible_from_its_seed() -> None:
    bank = make_bank()
    a = assemble_practice(bank, "mod", None, 10, random.Random(7))
    b = assemble_practice(bank, "mod", None, 10, random.Random(7))
    c = assemble_practice(bank, "mod", None, 10, random.Random(8))
    assert [i.key for i in a] == [i.key for i in b]
    assert [o.text for i in a for o in i.options] == [o.text for i in b for o in i.options]
    assert [i.key for i in a] != [i.key for i in c]


def test_practice_is_stratified_by_difficulty_and_type() -> None:
    bank = make_bank(easy=8, medium=10, hard=7, shorts=6)  # pool: 31 items
    for seed in range(20):
        items = assemble_practice(bank, "mod", None, 10, random.Random(seed))
        by_diff = Counter(i.difficulty for i in items)
        # Proportional shares of 10 from a pool of 10 easy, 12 medium, 9 hard (shorts included).
        assert 2 <= by_diff[Difficulty.EASY] <= 4 and 3 <= by_diff[Difficulty.MEDIUM] <= 5
        assert 2 <= by_diff[Difficulty.HARD] <= 4
        assert 1 <= sum(i.type == "short" for i in items) <= 3
        assert len({i.id for i in items}) == 10


def test_practice_filters_by_difficulty_and_caps_at_the_pool() -> None:
    bank = make_bank()
    items = assemble_practice(bank, "mod", Difficulty.HARD, 50, random.Random(1))
    assert {i.difficulty for i in items} == {Difficulty.HARD}
    assert len(items) == 7 + 2  # seven hard MCQs and two hard short answers


def test_options_are_shuffled_so_the_key_moves() -> None:
    bank = make_bank()
    positions = Counter(
        i.key_index
        for seed in range(10)
        for i in assemble_practice(bank, "mod", None, 10, random.Random(seed))
        if i.type == "mcq"
    )
    assert len(positions) == 4


def test_readiness_check_follows_the_blueprint() -> None:
    bank = make_bank()
    for seed in range(25):
        items = assemble_readiness(bank, "mod", random.Random(seed))
        assert len(items) == READINESS.size
        assert sum(i.type == "short" for i in items) == READINESS.short
        assert {d for i in items for d in i.dimensions} == set(Dimension)
        assert Counter(i.difficulty for i in items) == dict(READINESS.by_difficulty)


def test_empty_module_is_a_clear_error() -> None:
    bank = make_bank()
    with pytest.raises(SessionError, match="no published items"):
        assemble_practice(bank, "later", None, 5, random.Random(0))


def test_time_estimate_grows_with_short_answers() -> None:
    bank = make_bank()
    mcqs = [i for i in bank.items.values() if i.type == "mcq"][:5]
    shorts = [i for i in bank.items.values() if i.type == "short"][:5]
    assert estimate_minutes(shorts) > estimate_minutes(mcqs) >= 1
