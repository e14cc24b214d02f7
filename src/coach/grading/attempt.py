"""Grade a whole submitted attempt: MCQs exactly, short answers by rubric (embeddings, then the judge if on)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from coach.content.bank import Bank
from coach.content.render import RenderedItem, variant_of
from coach.grading.combine import screen_offline
from coach.grading.dimensions import ItemResult, ScoreCard, score_card
from coach.grading.mcq import grade_mcq
from coach.grading.numeric.build import numeric_specs
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Flag, Score
from coach.grading.target import GradingTarget, target_from_rubric
from coach.session.runner import Attempt, AttemptState

# Reviews embedding-graded short answers with an LLM judge and returns the combined scores, in order.
JudgeReview = Callable[[Sequence[tuple[str, GradingTarget, Score]]], list[Score]]
Progress = Callable[[int, int, str], None]


def target_for(bank: Bank, item: RenderedItem) -> GradingTarget:
    """What a rendered short item is graded against; quantitative criteria carry their numbers, computed by
    `coach.calc` for the variant the candidate saw."""
    if item.rubric is None or item.rubric not in bank.rubrics:
        raise ValueError(f"{item.id} has no rubric")
    rubric = bank.rubrics[item.rubric]
    source = bank.items.get(item.id)
    numeric = numeric_specs(source, rubric, variant_of(source, item), bank.misconceptions) if source else {}
    return target_from_rubric(
        item.key, item.stem, item.model_answer or "", rubric, bank.misconceptions, numeric
    )


def grade_attempt(
    attempt: Attempt,
    bank: Bank,
    grader: EmbeddingGrader,
    judge: JudgeReview | None = None,
    progress: Progress | None = None,
) -> ScoreCard:
    if attempt.state == AttemptState.IN_PROGRESS:
        raise ValueError("grade an attempt only after its last answer")
    total = len(attempt.items)
    results: dict[int, ItemResult] = {}
    shorts: list[tuple[int, str, GradingTarget, Score]] = []
    written: dict[int, tuple[str, GradingTarget]] = {}  # the short answers to grade, with their targets
    for index, item in enumerate(attempt.items):
        answer = attempt.answer_for(index)
        if item.type == "short" and answer is not None and not answer.skipped and (answer.text or "").strip():
            written[index] = (answer.text or "", target_for(bank, item))
    # one batched pass for every short answer's encodings and cross-encoder pairs (speed only, never a grade)
    grader.prepare(list(written.values()))
    for index, item in enumerate(attempt.items):
        answer = attempt.answer_for(index)
        if progress:
            progress(index, total, f"Grading question {index + 1} of {total}")
        if item.type == "mcq":
            score = grade_mcq(item, None if answer is None or answer.skipped else answer.choice)
        elif index not in written:
            score = Score(value=0.0, source="embedding", flags=(Flag.EMPTY,), notes=("Skipped: no answer given.",))
        else:
            text, target = written[index]
            raw = grader.grade(text, target)
            shorts.append((index, text, target, raw))  # the judge review screens it itself
            score = screen_offline(raw, text)
        results[index] = ItemResult(index=index, item=item, answer=answer, score=score)
    if judge is not None and shorts:
        if progress:
            progress(total, total, f"The LLM judge is reviewing {len(shorts)} short answer(s)")
        reviewed = judge([(text, target, score) for _, text, target, score in shorts])
        for (index, *_), combined in zip(shorts, reviewed, strict=True):
            results[index] = results[index].model_copy(update={"score": combined})
    if progress:
        progress(total, total, "Done")
    return score_card([results[i] for i in range(total)])
