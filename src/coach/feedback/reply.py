"""The JSON the coach-feedback model must reply with, and the check that keeps only what the grades back.

Every part of the reply points at the facts it rests on (a question number, a criterion id, a concept id, a
misconception id, a quote), so each can be checked: a quote not in that answer, a study link to a concept that
does not exist, a misconception the attempt did not show, a strength on a criterion that was not met or a gap
on one that was, are dropped, and each drop is recorded in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from coach.content.bank import Bank
from coach.feedback.coach import AnswerNote, StudyLink
from coach.feedback.facts import AttemptFacts, QuestionFact
from coach.grading.judge.quotes import quote_in_answer

MAX_GAPS = 3
MAX_STRENGTHS = 5


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class PointReply(_Part):
    question: int = Field(description="the question number (q) this point is about")
    criterion: str | None = Field(default=None, description="the rubric criterion id, for a short answer")
    text: str = Field(description="one or two sentences to the candidate")


class NoteReply(_Part):
    question: int = Field(description="the number (q) of a short-answer question")
    quote: str = Field(description="words copied exactly from that answer")
    note: str = Field(description="what those words show, and what would make the answer stronger")


class StudyReply(_Part):
    concept: str = Field(description="a concept page id from concept_pages")
    reason: str = Field(description="why this page, tied to this attempt")


class MisconceptionReply(_Part):
    id: str = Field(description="a misconception id from misconceptions_shown (never any other)")
    note: str = Field(default="", description="one sentence on why the belief is wrong")


class FeedbackReply(_Part):
    """What the coach writes about one attempt."""

    summary: str = Field(description="two or three sentences of overall feedback")
    strengths: list[PointReply] = Field(default_factory=list, description="what the candidate did well")
    gaps: list[PointReply] = Field(default_factory=list, description="the two or three gaps that matter most")
    notes: list[NoteReply] = Field(default_factory=list, description="one note per answered short question")
    study: list[StudyReply] = Field(default_factory=list, description="what to study next, most useful first")
    misconceptions: list[MisconceptionReply] = Field(default_factory=list)


@dataclass
class Grounded:
    """The parts of a reply that the facts back, and what was dropped."""

    strengths: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    notes: list[AnswerNote] = field(default_factory=list)
    study: list[StudyLink] = field(default_factory=list)
    misconception_notes: dict[str, str] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)


def _point_backed(point: PointReply, q: QuestionFact | None, *, strength: bool) -> str | None:
    """Why the point is not backed by the grades, or None when it is."""
    if q is None:
        return f"it names Q{point.question}, which this attempt does not have"
    if point.criterion:
        c = next((c for c in q.criteria if c.id == point.criterion), None)
        if c is None:
            return f"Q{q.q} has no criterion '{point.criterion}'"
        if strength and c.verdict not in ("met", "partial"):
            return f"'{c.id}' on Q{q.q} was {c.verdict}, not a strength"
        if not strength and c.verdict == "met":
            return f"'{c.id}' on Q{q.q} was met, not a gap"
        return None
    if q.score is None:
        return f"Q{q.q} could not be scored"
    if strength and q.score < 0.75:
        return f"Q{q.q} scored {q.score:.0%}, not a strength"
    if not strength and q.score >= 1.0:
        return f"Q{q.q} earned full marks, not a gap"
    return None


def _label(point: PointReply) -> str:
    return f"Q{point.question}: {point.text.strip()}"


def ground(reply: FeedbackReply, facts: AttemptFacts, bank: Bank) -> Grounded:
    out = Grounded()
    for kind, points, limit in (("strength", reply.strengths, MAX_STRENGTHS), ("gap", reply.gaps, MAX_GAPS)):
        kept = out.strengths if kind == "strength" else out.gaps
        for p in points:
            why = _point_backed(p, facts.question(p.question), strength=kind == "strength")
            if why is not None:
                out.dropped.append(f"a {kind} was left out: {why}")
            elif not p.text.strip():
                out.dropped.append(f"an empty {kind} on Q{p.question} was left out")
            elif len(kept) < limit:
                kept.append(_label(p))
    noted: set[int] = set()
    for n in reply.notes:
        q = facts.question(n.question)
        if q is None or q.type != "short" or not q.answer:
            out.dropped.append(f"a note on Q{n.question} was left out: it is not an answered short question")
        elif not quote_in_answer(n.quote, q.answer):
            out.dropped.append(f"a note on Q{q.q} was left out: its quote is not in the answer")
        elif q.q not in noted:
            noted.add(q.q)
            out.notes.append(AnswerNote(question=q.q, quote=n.quote.strip(), note=n.note.strip()))
    for s in reply.study:
        page = bank.concepts.get(s.concept)
        if page is None:
            out.dropped.append(f"a study link to '{s.concept}' was left out: there is no such concept page")
        elif all(link.concept != page.id for link in out.study):
            out.study.append(StudyLink(concept=page.id, title=page.title, reason=s.reason.strip() or page.summary))
    shown = {m.id for m in facts.misconceptions_shown}
    for m in reply.misconceptions:
        if m.id not in shown:
            out.dropped.append(f"the misconception '{m.id}' was left out: this attempt did not show it")
        elif m.note.strip():
            out.misconception_notes.setdefault(m.id, m.note.strip())
    return out


def misconception_lines(facts: AttemptFacts, notes: dict[str, str]) -> list[str]:
    """Every misconception the attempt showed, with the words that showed it and the catalogue's correction."""
    lines = []
    for m in facts.misconceptions_shown:
        shown_by = f"you {m.shown_by} \u201c{m.evidence}\u201d: " if m.evidence else ""
        extra = f" {notes[m.id]}" if m.id in notes else ""
        lines.append(f"Q{m.q}: {shown_by}\u201c{m.statement}\u201d {m.correction}{extra}")
    return list(dict.fromkeys(lines))
