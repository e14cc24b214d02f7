"""Combine the embedding grade with the LLM judge's, with guards against a judge that was fooled.

- No judge, or the judge is unscored: the embedding grade stands (flagged `judge_unscored`, said plainly).
- Otherwise per criterion: the judge's credit is blended with the embedding's (weight from the params file),
  but the judge may only ADD credit where the answer's content supports it: its quote must be in the answer
  (void verdicts are already missed) and the embedding similarity for that criterion must reach
  `support_floor`. A criterion the embeddings saw contradicted earns at most `contradicted_cap` from the judge.
- The final grade exceeds the embedding grade only by the judge's supported per-criterion gains (times the
  judge weight), and never by more than `max_lift`.
- An answer that addresses the grader (see `guards/injection.py`) gets no lift at all, and the sentences carrying
  the instructions lose any embedding credit they earned.
- A large gap between the graders flags `low_confidence` and lowers the confidence.

The weights are versioned in `coach/data/combine_params.json`; `coach.evals.fit_combine` refits them from
human labels (`coach calibrate combine`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from coach.grading.guards.injection import InjectionReport, detect_injection, span_is_injected
from coach.grading.score import VERDICT_CREDIT, CriterionResult, Flag, Score, Verdict

if TYPE_CHECKING:
    from coach.grading.judge.llm import LLMJudge
    from coach.grading.judge.verdict import JudgeOutcome
    from coach.grading.target import GradingTarget

PARAMS_RESOURCE = "combine_params.json"


class CombineParams(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str
    judge_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    disagreement_threshold: float = Field(default=0.35, gt=0.0, le=1.0)
    low_confidence_factor: float = Field(default=0.6, gt=0.0, le=1.0)
    support_floor: float = Field(default=0.4, ge=-1.0, le=1.0)
    max_lift: float = Field(default=0.15, ge=0.0, le=1.0)
    contradicted_cap: float = Field(default=0.5, ge=0.0, le=1.0)
    produced_by: str = ""
    refit: str = ""
    fitted_on: dict[str, Any] | None = None


def load_combine_params(path: Path | None = None) -> CombineParams:
    """The packaged params (or the file at `path`). Reads package data only; cached."""
    if path is not None:
        return CombineParams.model_validate_json(Path(path).read_text(encoding="utf-8"))
    return _packaged_params()


@lru_cache(maxsize=1)
def _packaged_params() -> CombineParams:
    text = resources.files("coach").joinpath("data", PARAMS_RESOURCE).read_text(encoding="utf-8")
    return CombineParams.model_validate_json(text)


# --------------------------------------------------------------------------------------------- combining
def _verdict_for(credit: float, embedded: Verdict) -> Verdict:
    if credit >= 0.75:
        return Verdict.MET
    if credit >= 0.25:
        return Verdict.PARTIAL
    return Verdict.CONTRADICTED if embedded is Verdict.CONTRADICTED else Verdict.MISSED


def strip_injected_credit(embedding: Score, report: InjectionReport) -> Score:
    """Criteria whose evidence is a sentence carrying an injection lose their embedding credit."""
    if not report.detected:
        return embedding
    lost = 0.0
    criteria: list[CriterionResult] = []
    for c in embedding.criteria:
        if c.verdict in (Verdict.MET, Verdict.PARTIAL) and span_is_injected(c.evidence, report):
            lost += c.weight * VERDICT_CREDIT[c.verdict]
            criteria.append(
                c.model_copy(
                    update={
                        "verdict": Verdict.MISSED,
                        "evidence": None,
                        "reason": "Its only evidence was an instruction to the grader.",
                    }
                )
            )
        else:
            criteria.append(c)
    # The calibrated value is not a plain sum of criterion credits, so remove the injected share of it. When no
    # criterion earned anything, the calibrated value is a residual of the similarity model alone (2-4% for a
    # pure injection): an answer that carries instructions and earns no criterion earns nothing.
    earned = sum(c.weight * VERDICT_CREDIT[c.verdict] for c in embedding.criteria)
    if not lost and earned:
        return embedding
    kept = max(0.0, earned - lost) / earned if earned else 0.0
    return embedding.model_copy(update={"value": embedding.value * kept, "criteria": tuple(criteria)})


def combine(
    embedding: Score, judge: JudgeOutcome | None, params: CombineParams | None = None, *, answer: str | None = None
) -> Score:
    """One grade from the embedding Score and the judge's outcome (None when the judge is off).

    Give `answer` so that injection detection also runs when the judge is off or failed.
    """
    params = params or load_combine_params()
    if embedding.unscored:
        return embedding
    if answer is not None:
        injection = detect_injection(answer)
    else:
        injection = judge.injection if judge is not None else InjectionReport(False)
    emb = embedding
    if injection.detected:
        emb = strip_injected_credit(embedding, injection).with_flags(Flag.INJECTION, note=injection.note)
    if judge is None:
        return emb
    if judge.unscored or judge.value is None:
        return emb.with_flags(
            Flag.JUDGE_UNSCORED,
            note=f"The AI judge could not grade this answer ({judge.reason or 'no reason given'}); this grade comes "
            "from the offline rubric matcher alone.",
        )

    w = params.judge_weight
    by_id = judge.by_id()
    notes: list[str] = list(judge.notes)
    unsupported: list[str] = []
    criteria: list[CriterionResult] = []
    judge_counted = 0.0
    supported_gain = 0.0  # credit the judge adds over the embeddings on criteria the content supports
    total_weight = sum(c.weight for c in emb.criteria) or 1.0
    for ec in emb.criteria:
        e_credit = VERDICT_CREDIT[ec.verdict]
        jc = by_id.get(ec.criterion_id)
        if jc is None:  # the judge graded another rubric version: it has no say on this criterion
            j_credit, quote, reason = e_credit, None, ec.reason
        else:
            j_credit, quote, reason = jc.credit, (jc.quote or None), jc.reason or ec.reason
            if j_credit > e_credit:
                if injection.detected:
                    j_credit = e_credit
                elif ec.similarity < params.support_floor:
                    j_credit = e_credit
                    unsupported.append(ec.criterion_id)
                elif ec.by_numbers:  # a wrong number, or a slip of arithmetic, is no matter of wording
                    j_credit = e_credit
                elif ec.verdict is Verdict.CONTRADICTED:
                    j_credit = max(e_credit, min(j_credit, params.contradicted_cap))
        judge_counted += ec.weight * j_credit
        supported_gain += ec.weight * max(0.0, j_credit - e_credit)
        credit = (1 - w) * e_credit + w * j_credit
        evidence = quote if (quote and j_credit > 0 and j_credit >= e_credit) else ec.evidence
        criteria.append(
            ec.model_copy(update={"verdict": _verdict_for(credit, ec.verdict), "evidence": evidence, "reason": reason})
        )
    judge_supported = judge_counted / total_weight
    blended = (1 - w) * emb.value + w * judge_supported
    # The judge may pull the grade down freely, but lift it only by its supported per-criterion gains (the
    # embedding value may be calibrated below its verdicts' credits: that gap is no licence to add), and
    # never by more than max_lift.
    earned_lift = w * supported_gain / total_weight
    ceiling = emb.value if injection.detected else min(1.0, emb.value + min(params.max_lift, earned_lift))
    value = min(blended, ceiling)
    if not injection.detected and earned_lift > params.max_lift + 1e-9 and blended > ceiling + 1e-9:
        notes.append(f"The AI judge's extra credit was capped at +{params.max_lift:.2f} over the rubric matcher.")
    if unsupported:
        notes.append(
            "The AI judge credited " + ", ".join(f"'{u}'" for u in unsupported) + ", which the rubric "
            "matcher found no support for in the answer; that credit was not counted."
        )

    flags = list(emb.flags)
    confidence = emb.confidence
    gap = abs(emb.value - judge.value)
    if gap > params.disagreement_threshold:
        flags.append(Flag.LOW_CONFIDENCE)
        confidence *= params.low_confidence_factor
        notes.append(
            f"The offline rubric matcher ({emb.value:.0%}) and the AI judge ({judge.value:.0%}) disagree "
            "on this answer; treat the grade as provisional."
        )
    return Score(
        value=max(0.0, min(1.0, value)),
        source="combined",
        confidence=max(0.0, min(1.0, confidence)),
        criteria=tuple(criteria),
        flags=tuple(dict.fromkeys(flags)),
        notes=(*emb.notes, *notes),
    )


def screen_offline(embedding: Score, answer: str) -> Score:
    """The embedding grade as it stands with the judge off: text addressed to the grader earns nothing and is
    flagged (a fake "grader note" restating the reference otherwise lifts the matcher's grade)."""
    return combine(embedding, None, answer=answer)


def grade_with_judge(
    rows: Sequence[tuple[str, GradingTarget, Score]], judge: LLMJudge | None, params: CombineParams | None = None
) -> list[Score]:
    """Judge a whole check concurrently (bounded by the judge's max_concurrency) and combine each answer."""
    outcomes: list[JudgeOutcome | None] = (
        list(judge.judge_many([(a, t) for a, t, _ in rows])) if judge is not None else [None] * len(rows)
    )
    return [
        combine(score, outcome, params, answer=answer)
        for (answer, _t, score), outcome in zip(rows, outcomes, strict=True)
    ]
