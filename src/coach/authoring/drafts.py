"""Draft items from a concept page and a target (type, difficulty, dimensions), offline or with a chat model.

Offline, an MCQ asks which statement about the page is right: the key is the correction of one of the page's
catalogued misconceptions, the distractors are the statements of the others (validated and ranked like any
distractor), and the explanation derives the key and answers each distractor with its own correction. A short
item asks the candidate to explain the page's topic; its rubric has one criterion per correction, phrased also
by the page's own sentence that says it best. Texts with bare numbers are avoided (the number rule would fail).
Drafts carry `status: draft`, the page version and their provenance; they are files for review, never published.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from coach.authoring.candidates import Candidate, Source
from coach.authoring.offline import adapt
from coach.content.bank import Bank
from coach.content.numbers import bare_numbers
from coach.content.schema import (
    ConceptPage,
    Criterion,
    Difficulty,
    Item,
    McqItem,
    Misconception,
    Option,
    Provenance,
    Rubric,
    ShortItem,
    Status,
)
from coach.errors import ContentError
from coach.grading.text import sentences
from coach.providers.base import Embedder
from coach.vocab import Dimension

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

MIN_OPTIONS = 4


class Target(BaseModel):
    """What the draft should be: validated, so a typo in --difficulty is a clear error."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["mcq", "short"] = "mcq"
    difficulty: Difficulty = Difficulty.MEDIUM
    dimensions: tuple[Dimension, ...] = Field(default=(Dimension.CONCEPTUAL,), min_length=1)


@dataclass(frozen=True)
class Draft:
    item: Item
    rubric: Rubric | None = None
    notes: tuple[str, ...] = field(default=())


def _clean(m: Misconception) -> bool:
    return not bare_numbers(m.statement) and not bare_numbers(m.correction)


def _page_misconceptions(bank: Bank, page: ConceptPage) -> list[Misconception]:
    mine = [m for m in bank.misconceptions.values() if m.concept == page.id and _clean(m)]
    if len(mine) >= MIN_OPTIONS:
        return mine
    module = {p.id for p in bank.concepts.values() if p.module == page.module}
    return mine + [m for m in bank.misconceptions.values() if m.concept in module and m.concept != page.id
                   and _clean(m)]


def free_id(bank: Bank, page: ConceptPage, kind: str) -> str:
    n = 1
    while f"{page.id}-{kind}-draft-{n}" in bank.items:
        n += 1
    return f"{page.id}-{kind}-draft-{n}"[:80]


def provenance(page: ConceptPage, generator: str, model: str | None, now: datetime | None) -> Provenance:
    return Provenance(source_page=page.id, page_version=page.version, generator=generator, model=model,
                      created=now or datetime.now(UTC))


def generate_draft(bank: Bank, page_id: str, target: Target, embedder: Embedder, *,
                   chat: BaseChatModel | None = None, seed: int = 0, now: datetime | None = None) -> Draft:
    """With a chat model, its draft (one structured call); a model failure falls back to the offline draft and
    says so in `notes`. Without, the offline draft."""
    if chat is not None:
        from coach.authoring.llm import GenerationError
        from coach.authoring.llm_drafts import llm_draft

        try:
            return llm_draft(chat, bank, page_id, target, embedder, now=now)
        except GenerationError as exc:
            fallback = offline_draft(bank, page_id, target, embedder, seed=seed, now=now)
            return Draft(fallback.item, fallback.rubric, (f"the model's draft was not used ({exc}); offline draft",
                                                          *fallback.notes))
    return offline_draft(bank, page_id, target, embedder, seed=seed, now=now)


def offline_draft(bank: Bank, page_id: str, target: Target, embedder: Embedder, *, seed: int = 0,
                  now: datetime | None = None) -> Draft:
    page = bank.concepts.get(page_id)
    if page is None:
        raise ContentError("draft", f"unknown concept page {page_id!r}")
    if page.module not in bank.modules:
        raise ContentError("draft", f"page {page_id} names module {page.module!r}, which does not exist")
    pool = _page_misconceptions(bank, page)
    if len(pool) < (MIN_OPTIONS if target.type == "mcq" else 2):
        raise ContentError("draft", f"page {page_id} has too few catalogued misconceptions to draft from offline")
    start = seed % len(pool)
    pool = pool[start:] + pool[:start]  # the seed picks which misconception the key corrects
    if target.type == "short":
        return _short_draft(bank, page, pool, target, embedder, now)
    return _mcq_draft(bank, page, pool, target, embedder, now)


def _mcq_draft(bank: Bank, page: ConceptPage, pool: list[Misconception], target: Target, embedder: Embedder,
               now: datetime | None) -> Draft:
    from coach.authoring.distractors import assess_candidates

    key_mis, others = pool[0], pool[1:]
    key = key_mis.correction.strip().rstrip(".")
    topic = page.title[:1].lower() + page.title[1:] if not page.title[:2].isupper() else page.title
    stem = f"Which statement about {topic} is correct?"
    provisional = [Option(text=key, correct=True)] + [Option(text=adapt(m.statement, key), misconception=m.id)
                                                      for m in others[:3]]
    item = McqItem(id=free_id(bank, page, "mcq"), status=Status.DRAFT, difficulty=target.difficulty,
                   concept=page.id, concept_version=page.version, dimensions=target.dimensions, stem=stem,
                   options=tuple(provisional), explanation=key, module=page.module,
                   provenance=provenance(page, "offline", None, now))
    candidates = [Candidate(text=adapt(m.statement, key), source=Source.CATALOGUE, why_wrong=m.correction,
                            misconception=m.id, origin=m.id) for m in others]
    # Rank against the key alone: two fillers of the key's length stand in for options not chosen yet.
    filler = Option(text="~" * len(key))
    bare = item.model_copy(update={"options": (provisional[0], filler, filler)})
    ranked = assess_candidates(bank, bare, candidates, embedder).accepted[: MIN_OPTIONS - 1]
    notes: list[str] = []
    if len(ranked) < MIN_OPTIONS - 1:
        notes.append(f"only {len(ranked)} valid distractors: write the rest by hand")
        ranked_c = [c for c in candidates if c.text not in {a.candidate.text for a in ranked}]
        chosen = [a.candidate for a in ranked] + ranked_c[: MIN_OPTIONS - 1 - len(ranked)]
    else:
        chosen = [a.candidate for a in ranked]
    options = (Option(text=key, correct=True), *(Option(text=c.text, misconception=c.misconception) for c in chosen))
    why_not = " ".join(f"Not \"{c.text.rstrip('.')}\": {bank.misconceptions[c.misconception or ''].correction}"
                       for c in chosen if c.misconception in bank.misconceptions)
    summary = "" if bare_numbers(page.summary) else page.summary.strip()
    explanation = f"{key_mis.correction.strip()} {summary} {why_not}".strip()
    final = item.model_copy(update={"options": options, "explanation": explanation})
    return Draft(McqItem.model_validate(final.model_dump()), None, tuple(notes))


def _best_sentence(page: ConceptPage, text: str, embedder: Embedder) -> str | None:
    """The page sentence (without bare numbers) that says `text` best: the rubric's page-grounded phrasing."""
    plain = re.sub(r"[#*`]", "", page.body)
    found = [s.strip() for s in sentences(plain) if 6 <= len(s.split()) <= 40 and not bare_numbers(s)]
    if not found:
        return None
    vectors = embedder.embed([text, *found])
    sims = vectors[1:] @ vectors[0]
    return found[int(np.argmax(sims))]


def _short_draft(bank: Bank, page: ConceptPage, pool: list[Misconception], target: Target, embedder: Embedder,
                 now: datetime | None) -> Draft:
    chosen = pool[: max(2, min(3, len(target.dimensions) + 1))]
    item_id = free_id(bank, page, "short")
    dims = [target.dimensions[i % len(target.dimensions)] for i in range(len(chosen))]
    weights = [round(1 / len(chosen), 4)] * len(chosen)
    weights[-1] = round(1 - sum(weights[:-1]), 4)
    criteria = []
    for k, (m, dim, w) in enumerate(zip(chosen, dims, weights, strict=True)):
        best = _best_sentence(page, m.correction, embedder)
        phrasings = tuple(dict.fromkeys(p for p in (m.correction.strip(), best, *m.phrasings[:0]) if p))
        if len(phrasings) < 2:
            phrasings = (m.correction.strip(), f"it is not true that {m.statement[:1].lower()}{m.statement[1:]}")
        criteria.append(Criterion(id=f"c{k + 1}", description=m.correction.strip(), weight=w, dimension=dim,
                                  phrasings=phrasings, misconceptions=(m.id,)))
    rubric = Rubric(id=item_id, item=item_id, criteria=tuple(criteria))
    summary = page.summary.strip().rstrip(".")
    answer = " ".join(m.correction.strip() for m in chosen)
    item = ShortItem(id=item_id, status=Status.DRAFT, difficulty=target.difficulty, concept=page.id,
                     concept_version=page.version, dimensions=tuple(dict.fromkeys(dims)),
                     stem=f"Explain, as you would to an interviewer: {summary[:1].lower()}{summary[1:]}.",
                     explanation=f"{'' if bare_numbers(page.summary) else page.summary.strip()} "
                                 f"A strong answer makes these points: {answer}".strip(),
                     rubric=item_id, model_answer=answer, module=page.module,
                     provenance=provenance(page, "offline", None, now))
    return Draft(item, rubric)
