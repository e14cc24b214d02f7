"""Builds small in-memory banks for session and grading tests, and small CSV files for the readers."""

from __future__ import annotations

import csv
from pathlib import Path

from coach.content.bank import Bank
from coach.content.schema import (
    ConceptPage,
    Criterion,
    LearningPath,
    McqItem,
    Module,
    Option,
    Rubric,
    ShortItem,
    page_version,
)
from coach.vocab import Dimension

DIMS = list(Dimension)
PAGE_BODY = "Body."
PAGE_VERSION = page_version(PAGE_BODY)  # the fixtures are stamped against the page they link to


def mcq(n: int, difficulty: str, dims: tuple[Dimension, ...] = (Dimension.CONCEPTUAL,), module: str = "mod") -> McqItem:
    return McqItem(
        id=f"q{n:02d}",
        module=module,
        difficulty=difficulty,
        concept="page",
        concept_version=PAGE_VERSION,
        dimensions=dims,
        stem=f"Question number {n}?",
        options=(
            Option(text=f"right answer {n}", correct=True),
            Option(text=f"wrong answer {n}a", misconception="mis"),
            Option(text=f"wrong answer {n}b"),
            Option(text=f"wrong answer {n}c"),
        ),
        explanation="Because " + "reasons " * 30,
    )


def short(n: int, difficulty: str, module: str = "mod") -> tuple[ShortItem, Rubric]:
    item = ShortItem(
        id=f"s{n:02d}",
        module=module,
        difficulty=difficulty,
        concept="page",
        concept_version=PAGE_VERSION,
        dimensions=(Dimension.CONCEPTUAL, Dimension.EXPLANATION),
        stem=f"Explain thing {n}.",
        rubric=f"s{n:02d}",
        model_answer="Pipeline stages run one after another for a token.",
        explanation="Because " + "reasons " * 30,
    )
    rubric = Rubric(
        id=f"s{n:02d}",
        item=f"s{n:02d}",
        criteria=(
            Criterion(
                id="serial",
                description="Stages run in sequence for one token",
                weight=0.6,
                dimension=Dimension.CONCEPTUAL,
                phrasings=(
                    "each pipeline stage waits for the previous stage to finish the token",
                    "the stages process a single token sequentially so their times add up",
                ),
            ),
            Criterion(
                id="why",
                description="Explains that latency is the sum of stage times",
                weight=0.4,
                dimension=Dimension.EXPLANATION,
                phrasings=(
                    "so the latency of one token is the sum of all stage times",
                    "end-to-end latency adds up across the stages rather than shrinking",
                ),
            ),
        ),
    )
    return item, rubric


def make_bank(easy: int = 8, medium: int = 10, hard: int = 7, shorts: int = 6) -> Bank:
    bank = Bank(path=LearningPath(title="Path", modules=("mod", "later")))
    bank.modules["mod"] = Module(id="mod", title="Module M", summary="A module.")
    bank.modules["later"] = Module(id="later", title="Next module", summary="Later.", status="coming")
    bank.concepts["page"] = ConceptPage(id="page", title="The page", module="mod", summary="Read this.", body=PAGE_BODY)
    n = 0
    for difficulty, count in (("easy", easy), ("medium", medium), ("hard", hard)):
        for _ in range(count):
            n += 1
            dims = (DIMS[n % 3],)  # conceptual / tradeoff / quantitative in turn
            bank.items[f"q{n:02d}"] = mcq(n, difficulty, dims)
    for k in range(shorts):
        item, rubric = short(k, ("easy", "medium", "hard")[k % 3])
        bank.items[item.id] = item
        bank.rubrics[rubric.id] = rubric
    return bank


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path
