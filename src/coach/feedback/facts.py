"""What the coach-feedback model may draw on: the graded attempt reduced to facts (pure; no model, no I/O).

Per question its grade and, for short answers, the candidate's words and each criterion's verdict with the span
that decided it; the misconceptions the attempt *showed* (a criterion contradicted by a catalogue misconception,
or a distractor chosen for one), each with its evidence; and the concept pages the candidate may be sent to.
The feedback is checked against these facts after the model has written it (`feedback/grounding.py`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from coach.content.bank import Bank
from coach.grading.dimensions import ItemResult, ScoreCard
from coach.grading.guards.injection import detect_injection, redact

STEM_CHARS = 400  # enough to know what was asked; the full stems would only cost tokens


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CriterionFact(Frozen):
    id: str
    requires: str
    weight: float
    verdict: str  # met | partial | missed | contradicted
    evidence: str | None = None  # the span of the answer that decided it
    misconception: str | None = None


class QuestionFact(Frozen):
    q: int  # 1-based, as the candidate saw it
    type: str  # mcq | short
    question: str
    concept: str
    score: float | None  # None when it could not be scored
    correct: bool | None = None  # MCQ
    chosen: str | None = None  # MCQ: the option text picked
    skipped: bool = False
    answer: str | None = None  # short: the candidate's words (instructions to the grader removed)
    criteria: tuple[CriterionFact, ...] = ()


class MisconceptionFact(Frozen):
    id: str
    q: int
    statement: str
    correction: str
    evidence: str  # what the candidate wrote or chose that shows it
    shown_by: Literal["wrote", "chose"]
    concept: str | None = None


class ConceptFact(Frozen):
    id: str
    title: str
    summary: str


class AttemptFacts(Frozen):
    module: str
    module_title: str
    overall: float
    band: str
    dimensions: dict[str, float | None]
    questions: tuple[QuestionFact, ...]
    misconceptions_shown: tuple[MisconceptionFact, ...]
    concept_pages: tuple[ConceptFact, ...]

    def question(self, q: int) -> QuestionFact | None:
        return next((x for x in self.questions if x.q == q), None)


def _question(r: ItemResult) -> QuestionFact:
    answer = r.answer
    base = {
        "q": r.index + 1,
        "type": r.item.type,
        "question": r.item.stem.strip()[:STEM_CHARS],
        "concept": r.item.concept,
        "score": None if r.score.unscored else round(r.score.value, 3),
        "skipped": answer is None or answer.skipped,
    }
    if r.item.type == "mcq":
        chosen = None if answer is None or answer.choice is None else r.item.options[answer.choice].text
        return QuestionFact(**base, correct=r.score.value >= 1.0, chosen=chosen)
    text = (answer.text or "") if answer is not None else ""
    report = detect_injection(text)
    criteria = tuple(
        CriterionFact(
            id=c.criterion_id,
            requires=c.description,
            weight=c.weight,
            verdict=c.verdict.value,
            evidence=c.evidence,
            misconception=c.misconception_id,
        )
        for c in r.score.criteria
    )
    # As with the judge: sentences addressed to the grader never reach the model.
    return QuestionFact(**base, answer=redact(text, report) if report.detected else text, criteria=criteria)


def _shown(r: ItemResult, bank: Bank) -> list[MisconceptionFact]:
    found: list[tuple[str, str, Literal["wrote", "chose"]]] = [
        (c.misconception_id, c.evidence or "", "wrote") for c in r.score.criteria if c.misconception_id
    ]
    answer = r.answer
    if r.item.type == "mcq" and answer is not None and answer.choice is not None and r.score.value < 1:
        picked = r.item.options[answer.choice]
        if picked.misconception:
            found.append((picked.misconception, picked.text, "chose"))
    out = []
    for mid, evidence, how in found:
        m = bank.misconceptions.get(mid)
        if m is not None:
            out.append(
                MisconceptionFact(
                    id=m.id,
                    q=r.index + 1,
                    statement=m.statement,
                    correction=m.correction,
                    evidence=evidence,
                    shown_by=how,
                    concept=m.concept,
                )
            )
    return out


def attempt_facts(card: ScoreCard, bank: Bank, module_id: str) -> AttemptFacts:
    questions = tuple(_question(r) for r in card.results)
    shown = tuple(m for r in card.results for m in _shown(r, bank))
    wanted = [q.concept for q in questions] + [m.concept for m in shown if m.concept]
    wanted += [c.id for c in bank.concepts.values() if c.module == module_id]
    pages = tuple(
        ConceptFact(id=c.id, title=c.title, summary=c.summary)
        for cid in dict.fromkeys(wanted)
        if (c := bank.concepts.get(cid)) is not None
    )
    return AttemptFacts(
        module=module_id,
        module_title=bank.modules[module_id].title,
        overall=round(card.overall, 3),
        band=card.band,
        dimensions={d.dimension.value: None if d.value is None else round(d.value, 3) for d in card.dimensions},
        questions=questions,
        misconceptions_shown=shown,
        concept_pages=pages,
    )
