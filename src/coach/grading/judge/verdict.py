"""What the judge replies (the schema its JSON must fit) and what the pipeline keeps of it (the outcome)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from coach.grading.guards.injection import InjectionReport
from coach.grading.score import VERDICT_CREDIT, Verdict


class _ReplyCriterion(BaseModel):
    """One criterion as the judge returns it; `contradicted` is the offline grader's word, never the judge's."""

    model_config = ConfigDict(extra="ignore")

    id: str
    reason: str = ""
    quote: str = ""
    verdict: Verdict

    @field_validator("id", mode="before")
    @classmethod
    def _strip(cls, v: object) -> object:
        return v.strip() if isinstance(v, str) else v

    @field_validator("quote", "reason", mode="before")
    @classmethod
    def _none_is_empty(cls, v: object) -> object:
        return "" if v is None else v

    @field_validator("verdict", mode="before")
    @classmethod
    def _lower(cls, v: object) -> object:
        v = v.strip().lower() if isinstance(v, str) else v
        if v == Verdict.CONTRADICTED.value:
            raise ValueError("verdict must be met, partial or missed")
        return v


class JudgeReply(BaseModel):
    """The JSON object the judge must reply with (read by langchain-core's `PydanticOutputParser`)."""

    model_config = ConfigDict(extra="ignore")

    criteria: list[_ReplyCriterion] = Field(min_length=1)


# ---------------------------------------------------------------------------------------------- outcome
class JudgedCriterion(BaseModel):
    model_config = ConfigDict(frozen=True)

    criterion_id: str
    verdict: Verdict  # after voiding: a void verdict reads MISSED
    claimed: Verdict  # what the judge said
    reason: str = ""
    quote: str = ""
    voided: bool = False

    @property
    def credit(self) -> float:
        return VERDICT_CREDIT[self.verdict]


class JudgeOutcome(BaseModel):
    """The judge's grade of one answer, or why there is none (`unscored`)."""

    model_config = ConfigDict(frozen=True)

    target_key: str
    model: str
    answer_sha256: str
    unscored: bool = False
    reason: str = ""  # why unscored, in plain words
    value: float | None = None  # weighted credit in [0, 1]; None when unscored
    criteria: tuple[JudgedCriterion, ...] = ()
    notes: tuple[str, ...] = ()
    injection: InjectionReport = InjectionReport(False)
    cached: bool = False
    calls: int = 0  # model calls made for this outcome (0 when cached or not needed)

    def by_id(self) -> dict[str, JudgedCriterion]:
        return {c.criterion_id: c for c in self.criteria}
