"""GIFT export: one question per published item (first variant, as for Moodle XML), categories by module.
Essays carry the rubric as a comment line, since GIFT has no grader information."""

from __future__ import annotations

import re

from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import McqItem

_SPECIAL = re.compile(r"([~=#{}:\\])")


def gift_escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def export_gift(bank: Bank) -> str:
    lines: list[str] = []
    for module_id in bank.path.modules:
        module, items = bank.modules.get(module_id), bank.published(module_id)
        if module is None or not items:
            continue
        lines += [f"$CATEGORY: $course$/top/{bank.path.title}/{module.title}", ""]
        for item in sorted(items, key=lambda i: i.id):
            r = render(item)
            head = f"::{gift_escape(item.id)}::{gift_escape(r.stem)}"
            if isinstance(item, McqItem):
                answers = []
                for o in r.options:
                    mis = bank.misconceptions.get(o.misconception or "")
                    feedback = r.explanation if o.correct else (mis.correction if mis else r.explanation)
                    answers.append(f"\t{'=' if o.correct else '~'}{gift_escape(o.text)}#{gift_escape(feedback)}")
                lines += [head + " {", *answers, "}", ""]
            else:
                rubric = bank.rubric_for(item)
                for c in rubric.criteria if rubric else ():
                    lines.append(f"// rubric {c.id} ({c.weight:.0%}): {' '.join(c.description.split())}")
                lines += [head + " {}", ""]
    return "\n".join(lines)
