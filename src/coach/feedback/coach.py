"""Template coach feedback: strengths, gaps, misconceptions shown, what to read, and the next module."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from coach.content.bank import Bank
from coach.grading.dimensions import ScoreCard
from coach.grading.score import Verdict
from coach.vocab import Dimension

STRONG = 0.75
WEAK = 0.6


class StudyLink(BaseModel):
    model_config = ConfigDict(frozen=True)

    concept: str
    title: str
    reason: str


class AnswerNote(BaseModel):
    """A note on one short answer, quoting the candidate's own words (checked to be in the answer)."""

    model_config = ConfigDict(frozen=True)

    question: int  # 1-based, as the candidate saw it
    quote: str
    note: str


class CoachFeedback(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Which one the candidate is reading: "llm" (written by the model named in `model`, grounded in the grades)
    # or "template" (written by `template_feedback`; `fallback_reason` says why when an LLM was configured).
    source: Literal["template", "llm"] = "template"
    summary: str
    strengths: tuple[str, ...]
    gaps: tuple[str, ...]
    misconceptions: tuple[str, ...]
    study: tuple[StudyLink, ...]
    next_step: str
    notes: tuple[AnswerNote, ...] = ()
    model: str | None = None
    fallback_reason: str | None = None
    dropped: tuple[str, ...] = ()  # what the model wrote that the grades do not back, and was left out


def questions(n: int) -> str:
    """'1 question', '5 questions'."""
    return f"{n} question{'' if n == 1 else 's'}"


def _dimension_lines(card: ScoreCard) -> tuple[list[str], list[str]]:
    strengths, gaps = [], []
    for d in card.dimensions:
        if d.value is None:
            continue
        line = f"{d.dimension.label}: {d.value:.0%} across {questions(len(d.items))}."
        if d.value >= STRONG:
            strengths.append(line)
        elif d.value < WEAK:
            gaps.append(line)
    return strengths, gaps


def template_feedback(card: ScoreCard, bank: Bank, module_id: str) -> CoachFeedback:
    strengths, gaps = _dimension_lines(card)
    misconceptions: list[str] = []
    study: dict[str, StudyLink] = {}
    for r in card.results:
        for c in r.score.criteria:
            if c.verdict == Verdict.MET and c.evidence and len(strengths) < 6:
                strengths.append(f"Q{r.index + 1}: you made the point \u201c{c.evidence}\u201d ({c.description})")
            elif c.verdict in (Verdict.MISSED, Verdict.PARTIAL):
                gaps.append(f"Q{r.index + 1}: {c.verdict.value} \u2014 {c.description}")
            if c.misconception_id and c.misconception_id in bank.misconceptions:
                m = bank.misconceptions[c.misconception_id]
                misconceptions.append(f"Q{r.index + 1}: \u201c{m.statement}\u201d {m.correction}")
        if r.item.type == "mcq" and r.answer is not None and r.answer.choice is not None and r.score.value < 1:
            picked = r.item.options[r.answer.choice]
            if picked.misconception and picked.misconception in bank.misconceptions:
                m = bank.misconceptions[picked.misconception]
                misconceptions.append(f"Q{r.index + 1}: \u201c{m.statement}\u201d {m.correction}")
        if r.score.value < 1 and r.item.concept in bank.concepts and r.item.concept not in study:
            page = bank.concepts[r.item.concept]
            study[page.id] = StudyLink(concept=page.id, title=page.title, reason=f"Q{r.index + 1}: {page.summary}")
    module = bank.modules[module_id]
    nxt = bank.next_module(module_id)
    if card.overall >= 0.8 and nxt:
        next_step = f"You are ready to move on: next on the path is {bank.modules[nxt].title}."
    elif card.overall >= 0.8:
        next_step = "You have reached the end of the learning path: retake a check later to confirm it sticks."
    else:
        next_step = f"Study the pages under “Read next”, then retake the {module.title} check (up to 3 a day)."
    weakest = min((d for d in card.dimensions if d.value is not None), key=lambda d: d.value or 0.0, default=None)
    summary = f"{card.band}: {card.overall:.0%} overall on {module.title}."
    if weakest is not None and weakest.value is not None and weakest.value < STRONG:
        summary += f" Your weakest dimension is {weakest.dimension.label.lower()} ({weakest.value:.0%})."
    if card.unscored:
        summary += f" {card.unscored} answer(s) could not be scored and are left out of the total."
    unmeasured = [d.dimension.label for d in card.dimensions if d.value is None]
    if unmeasured:
        summary += f" Not measured in this attempt: {', '.join(unmeasured)}."
    return CoachFeedback(
        summary=summary,
        strengths=tuple(dict.fromkeys(strengths)),
        gaps=tuple(dict.fromkeys(gaps))[:12],
        misconceptions=tuple(dict.fromkeys(misconceptions)),
        study=tuple(study.values()),
        next_step=next_step,
    )


__all__ = ["AnswerNote", "CoachFeedback", "Dimension", "StudyLink", "template_feedback"]
