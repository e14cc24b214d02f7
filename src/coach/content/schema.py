"""Pydantic models for every content file. Frozen, and `extra="forbid"` so a typo is an error, not a no-op."""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from coach.vocab import Dimension

Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*[a-z0-9]$", min_length=2, max_length=80)]
Text = Annotated[str, Field(min_length=1)]
# A concept page's version: the first 12 hex digits of the sha256 of its body's words (see `page_version`).
PageVersion = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]


def page_version(body: str) -> str:
    """The version of a concept page body. Words joined by single spaces are hashed, so re-wrapping lines or
    changing blank lines does not move the version; any change of wording does."""
    return hashlib.sha256(" ".join(body.split()).encode("utf-8")).hexdigest()[:12]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Status(StrEnum):
    DRAFT = "draft"
    REVIEW = "review"
    PUBLISHED = "published"


class ValueSpec(Frozen):
    """A number an item shows, computed by a named calculator (`calc`) or given as an input constant (`value`).

    Arguments may name an item parameter as "$param". The rendered text is format(value / scale, fmt).
    """

    calc: str | None = None
    args: dict[str, str | int | float] = Field(default_factory=dict)
    value: int | float | None = None
    scale: float = 1.0
    fmt: str = ",.0f"

    @model_validator(mode="after")
    def _one_source(self) -> ValueSpec:
        if (self.calc is None) == (self.value is None):
            raise ValueError("a value needs exactly one of `calc` (a calculator name) or `value` (an input)")
        if self.value is not None and self.args:
            raise ValueError("`args` only go with `calc`")
        return self


class Literal_(Frozen):
    """A number stated in prose that is a sourced fact rather than a calculation (e.g. '2 all-reduces')."""

    text: str
    source: Text  # a domain-facts.md section, e.g. "F4" or "§4 DistServe"


class Option(Frozen):
    text: Text
    correct: bool = False
    misconception: Slug | None = None  # why a candidate might pick this distractor
    formula: str | None = None  # for computed distractors: the named wrong formula it comes from


class Provenance(Frozen):
    """Where a generated or imported draft came from (kept after approval, for the record)."""

    source_page: Slug | None = None  # the concept page it was generated from
    page_version: PageVersion | None = None
    generator: Text  # e.g. "offline", "llm", "csv-import"
    model: str | None = None  # the chat model, for LLM drafts
    created: datetime  # UTC


class ItemBase(Frozen):
    id: Slug
    version: int = Field(default=1, ge=1)
    status: Status = Status.PUBLISHED
    updated: date | None = None
    difficulty: Difficulty
    concept: Slug  # concept page id
    # The concept page version the item was written (or last reviewed) against; `coach author stamp` sets it.
    concept_version: PageVersion | None = None
    provenance: Provenance | None = None
    dimensions: tuple[Dimension, ...] = Field(min_length=1)
    stem: Text
    explanation: Text
    params: dict[str, tuple[str | int | float, ...]] = Field(default_factory=dict)
    values: dict[str, ValueSpec] = Field(default_factory=dict)
    literals: tuple[Literal_, ...] = ()
    tags: tuple[str, ...] = ()
    # Filled by the loader from the folder; an author may also state it.
    module: Slug | None = None

    @field_validator("dimensions")
    @classmethod
    def _unique_dimensions(cls, v: tuple[Dimension, ...]) -> tuple[Dimension, ...]:
        if len(set(v)) != len(v):
            raise ValueError("dimensions repeat")
        return v


class McqItem(ItemBase):
    type: Literal["mcq"] = "mcq"
    options: tuple[Option, ...] = Field(min_length=3, max_length=6)

    @model_validator(mode="after")
    def _one_key(self) -> McqItem:
        keys = sum(o.correct for o in self.options)
        if keys != 1:
            raise ValueError(f"an MCQ needs exactly one correct option, found {keys}")
        return self

    @property
    def key_index(self) -> int:
        return next(i for i, o in enumerate(self.options) if o.correct)


class ShortItem(ItemBase):
    type: Literal["short"] = "short"
    rubric: Slug
    model_answer: Text
    max_words: int = Field(default=150, ge=20, le=600)


Item = Annotated[McqItem | ShortItem, Field(discriminator="type")]


class ItemFile(Frozen):
    """questions/<module>/<topic>.yaml: a list of items."""

    items: tuple[Item, ...] = Field(min_length=1)


class ExpectedQuantity(Frozen):
    """A number a criterion expects: one of the item's `values`, as the item shows it (value / scale)."""

    value: Annotated[str, Field(pattern=r"^[a-z_][a-z0-9_]*$")]  # a key of the item's `values`
    unit: str = ""  # the unit of the shown number: "B", "GB", "ms", "GB/s", "FLOP/byte", "%", "x"; "" for a count
    tolerance: float = Field(default=0.05, gt=0, lt=1)  # relative
    # Arguments a named wrong formula needs that the item's own calculation does not pass (e.g. the link a
    # roofline built from interconnect bandwidth uses); the item's arguments and params fill the rest.
    wrong_args: dict[str, str | int | float] = Field(default_factory=dict)


class NumericCheck(Frozen):
    """The quantities a criterion expects in the answer, checked by the numeric grader (docs/authoring.md)."""

    quantities: tuple[ExpectedQuantity, ...] = Field(min_length=1)
    need: int | None = Field(default=None, ge=0)  # how many must appear (default: all; 0: optional)

    @model_validator(mode="after")
    def _need(self) -> NumericCheck:
        if self.need is not None and self.need > len(self.quantities):
            raise ValueError(f"need {self.need} exceeds the {len(self.quantities)} quantities listed")
        if len({q.value for q in self.quantities}) != len(self.quantities):
            raise ValueError("a quantity is listed twice")
        return self

    @property
    def required(self) -> int:
        return len(self.quantities) if self.need is None else self.need


class Criterion(Frozen):
    id: Slug
    description: Text
    weight: float = Field(gt=0, le=1)
    dimension: Dimension
    phrasings: tuple[Text, ...] = Field(min_length=2)  # ways a strong answer may say it, in other words
    misconceptions: tuple[Slug, ...] = ()  # statements that contradict this criterion
    numeric: NumericCheck | None = None  # numbers the answer must state, computed by coach.calc


class RubricLevel(Frozen):
    label: Text
    min_score: float = Field(ge=0, le=1)
    description: Text


class Rubric(Frozen):
    id: Slug
    item: Slug
    version: int = Field(default=1, ge=1)
    criteria: tuple[Criterion, ...] = Field(min_length=1)
    levels: tuple[RubricLevel, ...] = ()
    # "none, because …": why no criterion carries a misconception (checked by `coach bank check`)
    misconceptions: Text | None = None

    @model_validator(mode="after")
    def _weights(self) -> Rubric:
        total = sum(c.weight for c in self.criteria)
        if abs(total - 1.0) > 1e-6:
            raise ValueError(f"criterion weights sum to {total:.3f}, not 1")
        ids = [c.id for c in self.criteria]
        if len(set(ids)) != len(ids):
            raise ValueError("criterion ids repeat")
        return self


class Misconception(Frozen):
    id: Slug
    statement: Text  # the wrong belief, as a learner would hold it
    correction: Text
    phrasings: tuple[Text, ...] = Field(min_length=1)  # how it shows up in an answer
    # whole plain statements of the error in a candidate's voice, graded by the bank test (never phrasings)
    statements: tuple[Text, ...] = ()
    source: Text  # where the sheet lists it, e.g. "domain-facts §5.5"
    concept: Slug | None = None


class MisconceptionFile(Frozen):
    misconceptions: tuple[Misconception, ...]


class ConceptPage(Frozen):
    """concepts/<id>.md: YAML front matter plus a Markdown body that teaches the derivation."""

    id: Slug
    title: Text
    module: Slug
    summary: Text
    body: Text

    @property
    def version(self) -> str:
        """Computed from the body, never written: an author cannot forget to bump it."""
        return page_version(self.body)


class ModuleStatus(StrEnum):
    READY = "ready"
    COMING = "coming"


class Module(Frozen):
    """questions/<module>/module.yaml."""

    id: Slug
    title: Text
    status: ModuleStatus = ModuleStatus.READY
    summary: Text
    tests: tuple[Text, ...] = ()  # "What this module tests" bullets
    keywords: tuple[Text, ...] = ()
    level: Literal["Beginner", "Intermediate", "Advanced"] = "Intermediate"
    study_hours: float = Field(default=4, gt=0)
    samples: tuple[Slug, ...] = ()  # two item ids free to try on the module page


class LearningPath(Frozen):
    """questions/path.yaml: the ordered modules; each step's prerequisite is the one before unless stated."""

    title: Text
    modules: tuple[Slug, ...] = Field(min_length=1)
    prerequisites: dict[Slug, tuple[Slug, ...]] = Field(default_factory=dict)
