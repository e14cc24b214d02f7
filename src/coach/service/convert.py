"""Between the session's models (Attempt, Answer, Score, ScoreCard) and the store's plain records and JSON."""

from __future__ import annotations

from datetime import datetime

from coach.content.render import RenderedItem
from coach.errors import AttemptNotFound
from coach.grading.dimensions import ItemResult, ScoreCard, score_card
from coach.grading.mcq import grade_mcq
from coach.grading.score import Flag, Score
from coach.session.runner import Answer, Attempt, AttemptKind, AttemptState, Reveal
from coach.store.records import AnswerRecord, AttemptRecord, Json
from coach.vocab import Dimension


def attempt_record(attempt: Attempt, candidate_id: str) -> AttemptRecord:
    return AttemptRecord(
        id=attempt.id,
        candidate_id=candidate_id,
        kind=attempt.kind.value,
        module=attempt.module,
        seed=attempt.seed,
        reveal=attempt.reveal.value,
        difficulty=attempt.difficulty,
        state=attempt.state.value,
        position=attempt.position,
        items=tuple(item.model_dump(mode="json") for item in attempt.items),
        started_at=attempt.started,
        answers=tuple(answer_record(attempt, a) for a in attempt.answers),
    )


def answer_record(attempt: Attempt, answer: Answer) -> AnswerRecord:
    """The answer with what identifies the question it answers (item id, version, variant, option text)."""
    item = attempt.items[answer.index]
    choice_text = item.options[answer.choice].text if answer.choice is not None and item.options else None
    return AnswerRecord(
        index=answer.index,
        item_id=item.id,
        item_version=item.version,
        variant=item.variant,
        answered_at=answer.at,
        choice=answer.choice,
        choice_text=choice_text,
        text=answer.text,
        skipped=answer.skipped,
    )


def to_attempt(record: AttemptRecord) -> Attempt:
    if record.state not in {s.value for s in AttemptState}:
        raise AttemptNotFound("This attempt was abandoned and cannot be opened again.")
    return Attempt(
        id=record.id,
        kind=AttemptKind(record.kind),
        module=record.module,
        seed=record.seed,
        reveal=Reveal(record.reveal),
        difficulty=record.difficulty,
        items=tuple(RenderedItem.model_validate(i) for i in record.items),
        answers=tuple(
            Answer(index=a.index, choice=a.choice, text=a.text, skipped=a.skipped, at=a.answered_at)
            for a in record.answers
        ),
        position=record.position,
        state=AttemptState(record.state),
        started=record.started_at,
    )


def grade_json(score: Score) -> Json:
    """value, source, confidence, criteria (verdict, evidence, misconception), flags, notes, unscored."""
    return score.model_dump(mode="json")


def _missing_score(item: RenderedItem) -> Score:
    if item.type == "mcq":
        return grade_mcq(item, None)
    return Score(value=0.0, source="embedding", flags=(Flag.EMPTY,), notes=("Skipped: no answer given.",))


def stored_card(record: AttemptRecord) -> ScoreCard | None:
    """The score card of a graded attempt, rebuilt from the stored grades (no grading runs); None if ungraded."""
    if record.state != "graded":
        return None
    attempt = to_attempt(record)
    grades: dict[int, Json | None] = {a.index: a.grade for a in record.answers}
    results = []
    for index, item in enumerate(attempt.items):
        grade = grades.get(index)
        score = Score.model_validate(grade) if grade is not None else _missing_score(item)
        results.append(ItemResult(index=index, item=item, answer=attempt.answer_for(index), score=score))
    return score_card(results)


def when(record: AttemptRecord) -> datetime:
    """The moment an attempt's result belongs to: graded, else submitted, else started."""
    return record.graded_at or record.submitted_at or record.started_at


def dimensions_of(stored: tuple[Json, ...] | list[Json] | None) -> dict[Dimension, float | None]:
    """Each dimension's stored score (None where nothing measured it); empty when nothing is stored."""
    if stored is None:
        return {}
    values = {Dimension(d["dimension"]): d["value"] for d in stored}
    return {d: values.get(d) for d in Dimension}


def dimension_values(record: AttemptRecord) -> dict[Dimension, float | None]:
    return dimensions_of(record.dimensions)
