"""Relations between two things, read by order rather than by polarity.

The converse of an ordering word: "the reduce-scatter runs before the all-gather" says what "the all-gather
follows the reduce-scatter" says. Two clauses using the family's opposite words agree when their arguments
stand on opposite sides of the word, and contradict when they stand on the same side.
"""

from __future__ import annotations

from dataclasses import dataclass

from coach.grading.guards.negation_words import JOIN


@dataclass(frozen=True)
class Sides:
    """What stands either side of a relation word in its clause: the nearest content stem, and all of them."""

    near_left: str | None
    near_right: str | None
    left: frozenset[str]
    right: frozenset[str]


def sides(stems: list[str | None], pos: int) -> Sides:
    """`stems` holds each token's content stem (None for other words, JOIN where merged clauses meet)."""
    left: list[str] = []
    for s in reversed(stems[:pos]):
        if s == JOIN:
            break
        if s is not None:
            left.append(s)
    right: list[str] = []
    for s in stems[pos + 1:]:
        if s == JOIN:
            break
        if s is not None:
            right.append(s)
    return Sides(left[0] if left else None, right[0] if right else None, frozenset(left), frozenset(right))


def orientation(a: Sides, b: Sides) -> int:
    """-1 if the two clauses name their shared arguments on opposite sides of the relation word ("children
    before the parent" / "the node after its children"), +1 on the same side, 0 if that is undecided ("long jobs
    run after the short ones" / "shorter jobs run before longer ones": the nouns say +1, the adjectives -1). The
    nearest arguments decide; failing those, all the stems the two sides share vote."""
    near_a = {a.near_left: -1, a.near_right: 1}
    near_b = {b.near_left: -1, b.near_right: 1}
    vote = sum(near_a[s] * near_b[s] for s in near_a.keys() & near_b.keys() if s is not None)
    if not vote:
        for s in (a.left | a.right) & (b.left | b.right):
            if (s in a.left) != (s in a.right) and (s in b.left) != (s in b.right):
                vote += 1 if (s in a.left) == (s in b.left) else -1
    return (vote > 0) - (vote < 0)

