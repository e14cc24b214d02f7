"""A seeded readiness check answered plausibly, for the benchmarks: each MCQ at random, each short item with the
first two sentences of its model answer, or with a given answer (a colleague's paraphrase) where there is one (one
RNG draws the check and then the choices, so a seed is one check)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from coach.content.bank import Bank
from coach.grading.text import sentences
from coach.session.assembly import assemble_readiness
from coach.session.runner import Attempt, AttemptKind, advance, record, start


def answered_check(bank: Bank, module: str, seed: int, answers: Mapping[str, str] | None = None) -> Attempt:
    rng = random.Random(seed)
    attempt = start(AttemptKind.READINESS, module, assemble_readiness(bank, module, rng), seed=seed)
    for item in attempt.items:
        if item.type == "mcq":
            attempt = advance(record(attempt, choice=rng.randrange(len(item.options))))
        else:
            text = (answers or {}).get(item.id) or " ".join(sentences(item.model_answer or "")[:2])
            attempt = advance(record(attempt, text=text))
    return attempt
