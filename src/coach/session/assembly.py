"""Seeded, stratified assembly of practice tests and readiness checks from a module's published pool."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from coach.content.bank import Bank
from coach.content.render import RenderedItem, pick_variant, render
from coach.content.schema import Difficulty, Item
from coach.errors import SessionError
from coach.vocab import Dimension

MINUTES = {
    ("mcq", Difficulty.EASY): 0.75,
    ("mcq", Difficulty.MEDIUM): 1.0,
    ("mcq", Difficulty.HARD): 1.5,
    ("short", Difficulty.EASY): 2.0,
    ("short", Difficulty.MEDIUM): 3.0,
    ("short", Difficulty.HARD): 4.0,
}


@dataclass(frozen=True)
class Blueprint:
    """What a readiness check must contain."""

    size: int = 10
    short: int = 3
    by_difficulty: tuple[tuple[Difficulty, int], ...] = (
        (Difficulty.EASY, 3),
        (Difficulty.MEDIUM, 4),
        (Difficulty.HARD, 3),
    )
    every_dimension: bool = True


READINESS = Blueprint()


def estimate_minutes(items: Sequence[Item | RenderedItem]) -> int:
    return max(1, math.ceil(sum(MINUTES[(i.type, i.difficulty)] for i in items)))


def pool(bank: Bank, module_id: str, difficulty: Difficulty | None = None) -> list[Item]:
    """The items a check or practice test may draw: published, and not one of the module page's free samples
    (a sample is shown with its answer, so it must never come up as a graded question)."""
    module = bank.modules.get(module_id)
    samples = set(module.samples) if module else set()
    items = [i for i in bank.published(module_id) if i.id not in samples]
    if not items:
        raise SessionError(f"module {module_id!r} has no published items yet")
    return sorted((i for i in items if difficulty is None or i.difficulty == difficulty), key=lambda i: i.id)


def present(item: Item, rng: random.Random) -> RenderedItem:
    """Render a seeded variant and shuffle MCQ options (the file's option order must not leak the key)."""
    rendered = render(item, pick_variant(item, rng))
    if rendered.options:
        options = list(rendered.options)
        rng.shuffle(options)
        rendered = rendered.model_copy(update={"options": tuple(options)})
    return rendered


def _stratified(items: list[Item], count: int, rng: random.Random) -> list[Item]:
    """Draw `count` items keeping each (difficulty, type) stratum near its share of the pool."""
    strata: dict[tuple[str, str], list[Item]] = {}
    for item in items:
        strata.setdefault((item.difficulty.value, item.type), []).append(item)
    for members in strata.values():
        rng.shuffle(members)
    quotas = {k: count * len(v) / len(items) for k, v in strata.items()}
    taken = {k: min(len(strata[k]), math.floor(q)) for k, q in quotas.items()}
    # Hand out the remaining places by largest remainder, ties broken by the seeded RNG.
    order = sorted(strata, key=lambda k: (quotas[k] - taken[k], rng.random()), reverse=True)
    while sum(taken.values()) < count:
        progressed = False
        for k in order:
            if sum(taken.values()) >= count:
                break
            if taken[k] < len(strata[k]):
                taken[k] += 1
                progressed = True
        if not progressed:
            break
    chosen = [item for k in sorted(strata) for item in strata[k][: taken[k]]]
    rng.shuffle(chosen)
    order_key = {Difficulty.EASY: 0, Difficulty.MEDIUM: 1, Difficulty.HARD: 2}
    return sorted(chosen, key=lambda i: order_key[i.difficulty])


def assemble_practice(
    bank: Bank, module_id: str, difficulty: Difficulty | None, count: int, rng: random.Random
) -> list[RenderedItem]:
    candidates = pool(bank, module_id, difficulty)
    if count < 1:
        raise SessionError("a practice test needs at least one question")
    count = min(count, len(candidates))
    return [present(i, rng) for i in _stratified(candidates, count, rng)]


def _fits(chosen: list[Item], blueprint: Blueprint) -> tuple[int, ...]:
    """Shortfalls against the blueprint (all zeros means it fits)."""
    types = Counter(i.type for i in chosen)
    diffs = Counter(i.difficulty for i in chosen)
    dims = {d for i in chosen for d in i.dimensions}
    missing_dims = len(set(Dimension) - dims) if blueprint.every_dimension else 0
    diff_gap = sum(abs(diffs[d] - n) for d, n in blueprint.by_difficulty)
    return (missing_dims, abs(types["short"] - blueprint.short), diff_gap)


def assemble_readiness(
    bank: Bank, module_id: str, rng: random.Random, blueprint: Blueprint = READINESS, tries: int = 400
) -> list[RenderedItem]:
    """Draw a check that measures every dimension, with the blueprint's mix of types and difficulties.

    Seeded rejection sampling: each try draws the short answers and MCQs separately, and the first draw
    that fits wins; otherwise the closest draw is used (small pools).
    """
    items = pool(bank, module_id)
    shorts = [i for i in items if i.type == "short"]
    mcqs = [i for i in items if i.type == "mcq"]
    n_short = min(blueprint.short, len(shorts))
    n_mcq = min(blueprint.size - n_short, len(mcqs))
    best: list[Item] | None = None
    best_gap: tuple[int, ...] | None = None
    for _ in range(tries):
        chosen = rng.sample(shorts, n_short) + rng.sample(mcqs, n_mcq)
        gap = _fits(chosen, blueprint)
        if best_gap is None or gap < best_gap:
            best, best_gap = chosen, gap
        if not any(gap):
            break
    assert best is not None
    rng.shuffle(best)
    order_key = {Difficulty.EASY: 0, Difficulty.MEDIUM: 1, Difficulty.HARD: 2}
    best.sort(key=lambda i: order_key[i.difficulty])
    return [present(i, rng) for i in best]
