"""MCQs are graded exactly against their single key."""

from __future__ import annotations

from coach.content.render import RenderedItem
from coach.grading.score import Flag, Score


def grade_mcq(item: RenderedItem, choice: int | None) -> Score:
    key = item.key_index
    if key is None:
        raise ValueError(f"{item.id} is not an MCQ")
    if choice is None:
        return Score(value=0.0, source="mcq", flags=(Flag.EMPTY,), notes=("Skipped.",))
    picked = item.options[choice]
    if choice == key:
        return Score(value=1.0, source="mcq", notes=("Correct.",))
    notes = [f"You chose: {picked.text}", f"The answer: {item.options[key].text}"]
    flags = (Flag.MISCONCEPTION,) if picked.misconception else ()
    return Score(value=0.0, source="mcq", flags=flags, notes=tuple(notes))
