"""The misconception profile: what the candidate showed, with evidence, the page that fixes it, and fading.

Shown: an MCQ distractor tagged with the misconception was chosen, or a short answer contradicted a rubric
criterion with that misconception. Tested: the attempt had a question that could show it (such a distractor
among the options, or a rubric criterion naming it).

Fading rule: an entry is `active` when the latest graded attempt that tested it also showed it; each later
graded attempt that tests it without showing it counts as one clean test. With 1 clean test it is `fading`;
with FADE_AFTER (2) or more it is `faded` (the page may hide it). Showing it again makes it active again.
Attempts that do not test a misconception say nothing about it and do not count.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from coach.content.bank import Bank
from coach.content.render import RenderedItem
from coach.grading.score import Score, Verdict
from coach.service import convert
from coach.service.views import View
from coach.store.records import AttemptRecord

FADE_AFTER = 2


class MisconceptionStatus(StrEnum):
    ACTIVE = "active"
    FADING = "fading"
    FADED = "faded"


class Evidence(View):
    attempt_id: str
    at: datetime
    question: int  # 1-based, as the candidate saw it
    item_id: str
    stem: str
    chose: str | None = None  # the distractor's text (MCQ)
    wrote: str | None = None  # the sentence of the answer that showed it (short answer)


class ConceptLink(View):
    id: str
    title: str


class MisconceptionEntry(View):
    id: str
    statement: str
    correction: str
    concept: ConceptLink | None
    evidence: tuple[Evidence, ...]  # oldest first
    last_shown: datetime
    clean_tests: int  # later attempts that tested it and did not show it
    status: MisconceptionStatus


def _tests(bank: Bank, item: RenderedItem) -> set[str]:
    if item.type == "mcq":
        return {o.misconception for o in item.options if o.misconception}
    rubric = bank.rubrics.get(item.rubric or "")
    return {m for c in rubric.criteria for m in c.misconceptions} if rubric else set()


def _shown(item: RenderedItem, choice: int | None, text: str | None, score: Score) -> dict[str, tuple[str | None, ...]]:
    """Misconception id -> (chose, wrote) for what this answer showed."""
    if item.type == "mcq":
        if choice is not None and 0 <= choice < len(item.options) and item.options[choice].misconception:
            return {item.options[choice].misconception or "": (item.options[choice].text, None)}
        return {}
    return {
        c.misconception_id: (None, c.evidence or text)
        for c in score.criteria
        if c.misconception_id and c.verdict == Verdict.CONTRADICTED
    }


def _concept(bank: Bank, misconception_id: str, fallback: str | None) -> ConceptLink | None:
    m = bank.misconceptions.get(misconception_id)
    page_id = (m.concept if m and m.concept else None) or fallback
    page = bank.concepts.get(page_id or "")
    return ConceptLink(id=page.id, title=page.title) if page else None


def misconception_profile(bank: Bank, records: list[AttemptRecord]) -> list[MisconceptionEntry]:
    """Every misconception the candidate ever showed, active ones first, then by the latest showing."""
    evidence: dict[str, list[Evidence]] = {}
    concept_of: dict[str, str] = {}
    clean: dict[str, int] = {}
    for record in sorted((r for r in records if r.state == "graded"), key=convert.when):
        card = convert.stored_card(record)
        assert card is not None
        at = convert.when(record)
        shown_here: set[str] = set()
        tested_here: set[str] = set()
        for result in card.results:
            item, answer = result.item, result.answer
            tested_here |= _tests(bank, item)
            if answer is None or answer.skipped:
                continue
            for mid, (chose, wrote) in _shown(item, answer.choice, answer.text, result.score).items():
                shown_here.add(mid)
                concept_of.setdefault(mid, item.concept)
                evidence.setdefault(mid, []).append(Evidence(
                    attempt_id=record.id, at=at, question=result.index + 1, item_id=item.id, stem=item.stem,
                    chose=chose, wrote=wrote,
                ))
        for mid in evidence:
            if mid in shown_here:
                clean[mid] = 0
            elif mid in tested_here:
                clean[mid] = clean.get(mid, 0) + 1
    entries = []
    for mid, found in evidence.items():
        m = bank.misconceptions.get(mid)
        n = clean.get(mid, 0)
        status = (MisconceptionStatus.ACTIVE if n == 0 else
                  MisconceptionStatus.FADING if n < FADE_AFTER else MisconceptionStatus.FADED)
        entries.append(MisconceptionEntry(
            id=mid, statement=m.statement if m else mid, correction=m.correction if m else "",
            concept=_concept(bank, mid, concept_of.get(mid)), evidence=tuple(found), last_shown=found[-1].at,
            clean_tests=n, status=status,
        ))
    rank = {MisconceptionStatus.ACTIVE: 0, MisconceptionStatus.FADING: 1, MisconceptionStatus.FADED: 2}
    return sorted(entries, key=lambda e: (rank[e.status], -e.last_shown.timestamp(), e.id))
