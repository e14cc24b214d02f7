"""Criteria built automatically from a reference answer, so any (question, reference) pair can be graded.

The reference is split into key propositions (sentences, then clauses joined by ';', 'and', 'because', ...);
each becomes a criterion weighted by how much new content it carries (words the question already says count
little). Extra references (other correct answers) become extra phrasings of the criterion they match best.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from coach.grading.offline.lexical import content_set, content_stems
from coach.grading.target import CriterionSpec, GradedExample, GradingTarget
from coach.grading.text import sentences
from coach.vocab import Dimension

MAX_CRITERIA = 6
MIN_CONTENT = 2  # a clause with fewer new content words is merged into its neighbour
_CLAUSE_BREAK = re.compile(
    r"\s*(?:;|:\s|,?\s+(?:and then|whereas|while|because|since|so that|therefore|thus|but|however|which means)\s+"
    r"|,\s+(?:and|or)\s+|\s+and\s+(?=(?:it|they|this|the|a|an|each|every|then)\b))",
    re.IGNORECASE,
)


def key_for(question: str, reference: str) -> str:
    return "auto:" + hashlib.sha1(f"{question}\x00{reference}".encode()).hexdigest()[:16]


def propositions(reference: str, question: str = "") -> list[str]:
    """Split a reference into at most MAX_CRITERIA clauses, each carrying some content the question lacks."""
    q = content_set(question)
    raw: list[str] = []
    for s in sentences(reference):
        parts = [p.strip(" ,.;:") for p in _CLAUSE_BREAK.split(s)]
        raw.extend(p for p in parts if p)
    merged: list[str] = []
    for part in raw:
        new = [w for w in content_stems(part) if w not in q]
        if merged and len(new) < MIN_CONTENT:
            merged[-1] = f"{merged[-1]}, {part}"
        else:
            merged.append(part)
    if len(merged) > 1 and len([w for w in content_stems(merged[0]) if w not in q]) < MIN_CONTENT:
        merged[1] = f"{merged[0]}, {merged[1]}"
        merged = merged[1:]
    while len(merged) > MAX_CRITERIA:  # join the shortest adjacent pair
        i = min(range(len(merged) - 1), key=lambda k: len(merged[k]) + len(merged[k + 1]))
        merged[i : i + 2] = [f"{merged[i]}, {merged[i + 1]}"]
    return merged or ([reference.strip()] if reference.strip() else [])


def _weight(clause: str, q: frozenset[str]) -> float:
    stems = content_stems(clause)
    return 1.0 + sum(1.0 if w not in q else 0.25 for w in stems)


def auto_target(question: str, reference: str, extra_references: Sequence[str] = (),
                examples: Sequence[GradedExample] = (), key: str | None = None) -> GradingTarget:
    """A grading target whose criteria are the reference's key propositions."""
    q = content_set(question)
    clauses = propositions(reference, question)
    weights = [_weight(c, q) for c in clauses]
    total = sum(weights) or 1.0
    phrasings: list[list[str]] = [[c] for c in clauses]
    for extra in extra_references:
        if extra.strip() and len(clauses) == 1:
            phrasings[0].append(extra.strip())
    criteria = tuple(
        CriterionSpec(
            id=f"p{i + 1}", description=c, weight=w / total, dimension=Dimension.CONCEPTUAL,
            phrasings=tuple(dict.fromkeys(p)),
        )
        for i, (c, w, p) in enumerate(zip(clauses, weights, phrasings, strict=True))
    )
    return GradingTarget(
        key=key or key_for(question, reference), question=question, reference=reference, criteria=criteria,
        extra_references=tuple(r for r in extra_references if r.strip() and r.strip() != reference.strip()),
        examples=tuple(examples), from_rubric=False,
    )
