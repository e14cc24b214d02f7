"""What a short answer is graded against: criteria (from a rubric, or built from a reference answer)."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from coach.content.schema import Misconception, Rubric
from coach.grading.numeric.spec import NumericSpec
from coach.vocab import Dimension


class CriterionSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    description: str
    weight: float
    dimension: Dimension
    phrasings: tuple[str, ...]
    misconceptions: tuple[str, ...] = ()
    numeric: NumericSpec | None = None  # the quantities the answer must state, for the rendered variant


class MisconceptionSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    statement: str
    phrasings: tuple[str, ...]


class GradedExample(BaseModel):
    """A human-graded answer to the same question, used as an anchor (score in [0, 1])."""

    model_config = ConfigDict(frozen=True)

    answer: str
    score: float


class GradingTarget(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str  # stable id of what is graded (item@version or a hash of question+reference)
    question: str
    reference: str
    criteria: tuple[CriterionSpec, ...]
    misconceptions: tuple[MisconceptionSpec, ...] = ()
    extra_references: tuple[str, ...] = ()
    examples: tuple[GradedExample, ...] = ()
    from_rubric: bool = True


def target_from_rubric(
    key: str, question: str, reference: str, rubric: Rubric, catalogue: Mapping[str, Misconception],
    numeric: Mapping[str, NumericSpec] | None = None,
) -> GradingTarget:
    mis_ids = dict.fromkeys(m for c in rubric.criteria for m in c.misconceptions)
    return GradingTarget(
        key=key,
        question=question,
        reference=reference,
        criteria=tuple(
            CriterionSpec(
                id=c.id,
                description=c.description,
                weight=c.weight,
                dimension=c.dimension,
                phrasings=c.phrasings,
                misconceptions=c.misconceptions,
                numeric=(numeric or {}).get(c.id),
            )
            for c in rubric.criteria
        ),
        misconceptions=tuple(
            MisconceptionSpec(id=m, statement=catalogue[m].statement, phrasings=catalogue[m].phrasings)
            for m in mis_ids
            if m in catalogue
        ),
    )
