"""The loaded bank: every module, item, rubric, concept page and misconception, indexed by id."""

from __future__ import annotations

from dataclasses import dataclass, field

from coach.content.schema import (
    ConceptPage,
    Difficulty,
    Item,
    LearningPath,
    Misconception,
    Module,
    ModuleStatus,
    Rubric,
    Status,
)


@dataclass(frozen=True)
class Problem:
    """One content problem: the file, the record id (when known) and what is wrong."""

    path: str
    record: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path} [{self.record}]" if self.record else self.path
        return f"{where}: {self.message}"


@dataclass
class Bank:
    path: LearningPath
    modules: dict[str, Module] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    rubrics: dict[str, Rubric] = field(default_factory=dict)
    concepts: dict[str, ConceptPage] = field(default_factory=dict)
    misconceptions: dict[str, Misconception] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # record id -> file it came from

    def published(self, module_id: str) -> list[Item]:
        return [i for i in self.items.values() if i.module == module_id and i.status == Status.PUBLISHED]

    def ready_modules(self) -> list[Module]:
        return [
            self.modules[m]
            for m in self.path.modules
            if m in self.modules and self.modules[m].status == ModuleStatus.READY and self.published(m)
        ]

    def prerequisites(self, module_id: str) -> tuple[str, ...]:
        if module_id in self.path.prerequisites:
            return self.path.prerequisites[module_id]
        order = list(self.path.modules)
        i = order.index(module_id)
        return (order[i - 1],) if i > 0 else ()

    def next_module(self, module_id: str) -> str | None:
        order = list(self.path.modules)
        i = order.index(module_id)
        return order[i + 1] if i + 1 < len(order) else None

    def pool_by_difficulty(self, module_id: str) -> dict[Difficulty, int]:
        counts = dict.fromkeys(Difficulty, 0)
        for item in self.published(module_id):
            counts[item.difficulty] += 1
        return counts

    def rubric_for(self, item: Item) -> Rubric | None:
        rubric_id = getattr(item, "rubric", None)
        return self.rubrics.get(rubric_id) if rubric_id else None
