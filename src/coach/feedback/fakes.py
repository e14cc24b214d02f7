"""A deterministic offline coach-feedback writer for the app's "fake" mode (demos, tests).

It is a `ChatModel` (a scripted `FakeChatModel`): it reads the facts back out of the real prompt and replies with
the real JSON, so fake mode runs the whole LLM path (prompt, call, parser, grounding, cache). Its choices are
plain rules: strengths from met criteria and correct MCQs, the heaviest missed criteria as gaps, a note per short
answer quoting the sentence the grader took as evidence, study pages for the questions that lost marks, and
every misconception shown.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from coach.feedback.facts import AttemptFacts, QuestionFact
from coach.feedback.prompt import read_facts
from coach.feedback.reply import MAX_GAPS, MAX_STRENGTHS
from coach.grading.text import sentences
from coach.providers.base import ChatMessage
from coach.providers.fake import FakeChatModel


def _note(q: QuestionFact) -> dict[str, object] | None:
    if not q.answer:
        return None
    met = [c for c in q.criteria if c.verdict in ("met", "partial") and c.evidence]
    missed = sorted((c for c in q.criteria if c.verdict not in ("met", "partial")), key=lambda c: -c.weight)
    quote = met[0].evidence if met else (sentences(q.answer) or [q.answer])[0]
    said = f"This earned '{met[0].id}'." if met else "This does not yet meet a criterion."
    need = missed[0].requires.rstrip(".") if missed else ""
    more = f" To strengthen it: {need[:1].lower()}{need[1:]}." if missed else ""
    return {"question": q.q, "quote": quote, "note": said + more}


def fake_feedback(facts: AttemptFacts) -> dict[str, object]:
    strengths: list[dict[str, object]] = []
    gaps: list[tuple[float, dict[str, object]]] = []
    for q in facts.questions:
        if q.type == "mcq" and q.correct:
            strengths.append({"question": q.q, "text": "You picked the right option."})
        for c in q.criteria:
            point = c.requires.rstrip(".")
            if c.verdict == "met":
                strengths.append({"question": q.q, "criterion": c.id, "text": f"You covered: {point}."})
            elif c.verdict in ("missed", "contradicted"):
                gaps.append((c.weight, {"question": q.q, "criterion": c.id, "text": f"Not yet shown: {point}."}))
    gaps.sort(key=lambda g: -g[0])
    first_lost: dict[str, QuestionFact] = {}
    for q in facts.questions:
        if q.score is not None and q.score < 1:
            first_lost.setdefault(q.concept, q)
    pages = {p.id for p in facts.concept_pages}
    study = [{"concept": c, "reason": f"Q{q.q} lost marks on this topic."} for c, q in first_lost.items() if c in pages]
    measured = {d: v for d, v in facts.dimensions.items() if v is not None}
    summary = "Demo feedback written by the built-in fake coach from your grades."
    if measured:
        summary += f" Focus next on the {min(measured, key=lambda d: measured[d])} dimension."
    notes = [n for q in facts.questions if (n := _note(q)) is not None]
    return {
        "summary": summary,
        "strengths": strengths[:MAX_STRENGTHS],
        "gaps": [g for _, g in gaps[:MAX_GAPS]],
        "notes": notes,
        "study": study,
        "misconceptions": [{"id": m.id, "note": ""} for m in facts.misconceptions_shown],
    }


FAKE_WRITER_NAME = "fake-coach-writer"


def fake_feedback_writer() -> FakeChatModel:
    """A ChatModel that writes deterministic coach feedback from the facts in the prompt."""

    def write(messages: Sequence[ChatMessage]) -> str:
        return json.dumps(fake_feedback(read_facts(messages)), ensure_ascii=False)

    return FakeChatModel(write, name=FAKE_WRITER_NAME)
