"""Bank statistics in the shape `coach bank stats --json` promises."""

from __future__ import annotations

from typing import Any

from coach.content.bank import Bank
from coach.content.schema import Difficulty


def bank_stats(bank: Bank) -> dict[str, Any]:
    modules = []
    for module_id in bank.path.modules:
        module = bank.modules.get(module_id)
        if module is None:
            continue
        items = bank.published(module_id)
        modules.append(
            {
                "id": module.id,
                "title": module.title,
                "items": len(items),
                "by_difficulty": {d.value: sum(i.difficulty == d for i in items) for d in Difficulty},
                "by_type": {t: sum(i.type == t for i in items) for t in ("mcq", "short")},
            }
        )
    return {"modules": modules, "concepts": len(bank.concepts)}
