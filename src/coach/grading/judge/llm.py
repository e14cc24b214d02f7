"""The LLM judge: one structured call per answer, per-criterion verdicts backed by exact quotes.

The chain is langchain-core's: `JUDGE_PROMPT` (a `ChatPromptTemplate`) | the chat model (any `BaseChatModel`;
the project's `ChatModel`s through `ChatModelAdapter`) | `PydanticOutputParser(JudgeReply)`. The answer enters
the prompt as delimited data; sentences addressed to the grader are removed before the model sees it. The parsed
reply is checked: every criterion id must be the rubric's, and a verdict whose quote is not in the answer is
void (counted as missed). Any failure (provider error, timeout, invalid JSON, wrong schema, truncated reply,
unknown or missing ids) gives an *unscored* outcome with the reason; never a 0. Outcomes are cached by (target
key + rubric fingerprint, sha256 of the answer, model name, prompt version).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from langchain_core.language_models import BaseChatModel
from langchain_core.output_parsers import PydanticOutputParser
from langchain_core.runnables import RunnableLambda

from coach.errors import ProviderError
from coach.grading.guards.injection import detect_injection, redact
from coach.grading.judge.cache import JudgeCache, JudgeCacheKey, LRUJudgeCache, answer_sha256, target_fingerprint
from coach.grading.judge.prompt import JUDGE_PROMPT, prompt_variables
from coach.grading.judge.quotes import quote_in_answer
from coach.grading.judge.verdict import JudgedCriterion, JudgeOutcome, JudgeReply
from coach.grading.score import Verdict
from coach.grading.target import GradingTarget
from coach.providers.base import ChatModel
from coach.providers.langchain_chat import ReplyProblem, UnusableReply, as_langchain, model_name, read_structured

if TYPE_CHECKING:
    from coach.config import Settings

REPLY_PARSER: PydanticOutputParser[JudgeReply] = PydanticOutputParser(pydantic_object=JudgeReply)
_PROBLEM_WORDS = {
    ReplyProblem.TRUNCATED: "the judge's reply was cut off (token limit reached)",
    ReplyProblem.NOT_JSON: "the judge's reply was not valid JSON",
    ReplyProblem.SCHEMA: "the judge's reply did not match the verdict schema",
    ReplyProblem.REFUSED: "the judge refused to grade the answer",
}


class LLMJudge:
    """Judge answers with a chat model. Thread-safe; `judge_many` bounds the calls in flight.

    `model` is the project's `ChatModel` (wrapped in `ChatModelAdapter`: temperature 0, JSON mode asked for) or
    any langchain-core `BaseChatModel`, used as configured.
    """

    def __init__(
        self,
        model: ChatModel | BaseChatModel,
        *,
        cache: JudgeCache | None = None,
        max_concurrency: int = 4,
        max_answer_chars: int = 4000,
    ) -> None:
        self.model = model
        self.model_name = model_name(model)
        self._chain = JUDGE_PROMPT | as_langchain(model)
        self.cache: JudgeCache = cache if cache is not None else LRUJudgeCache()
        self.max_concurrency = max(1, max_concurrency)
        self.max_answer_chars = max_answer_chars

    @classmethod
    def from_settings(cls, settings: Settings, *, cache: JudgeCache | None = None) -> LLMJudge | None:
        """The judge the settings ask for, or None when the judge is off ("fake" mode: the keyword judge)."""
        from coach.providers.registry import chat_model_from_settings

        model: ChatModel | None
        if settings.llm_mode == "fake":
            from coach.grading.judge.fakes import KeywordFakeJudge

            model = KeywordFakeJudge()
        else:
            model = chat_model_from_settings(settings)
        if model is None:
            return None
        return cls(
            model, cache=cache, max_concurrency=settings.llm_max_concurrency, max_answer_chars=settings.max_answer_chars
        )

    def cache_key(self, answer: str, target: GradingTarget) -> JudgeCacheKey:
        return JudgeCacheKey(target_fingerprint(target), answer_sha256(answer), self.model_name)

    def judge(self, answer: str, target: GradingTarget) -> JudgeOutcome:
        key = self.cache_key(answer, target)
        hit = self.cache.get(key)
        if hit is not None:
            return hit.model_copy(update={"cached": True, "calls": 0})
        outcome = self._judge_uncached(answer, target, key)
        if not outcome.unscored:  # failures are often transient: never cache them
            self.cache.put(key, outcome)
        return outcome

    def judge_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[JudgeOutcome]:
        """Judge a whole check concurrently, at most `max_concurrency` calls in flight; order is kept."""
        if not rows:
            return []
        keys = [self.cache_key(a, t) for a, t in rows]
        first: dict[JudgeCacheKey, int] = {}
        for i, k in enumerate(keys):
            first.setdefault(k, i)  # identical (answer, target) pairs are judged once
        unique = sorted(first.values())

        def judge_row(i: int) -> JudgeOutcome:
            return self.judge(*rows[i])

        # langchain's batch runs them on a thread pool of `max_concurrency` workers; `judge` never raises.
        judged = RunnableLambda(judge_row).batch(unique, {"max_concurrency": self.max_concurrency})
        done = dict(zip(unique, judged, strict=True))
        return [
            done[first[k]] if first[k] == i else done[first[k]].model_copy(update={"cached": True, "calls": 0})
            for i, k in enumerate(keys)
        ]

    # -------------------------------------------------------------------------------------------------
    def _judge_uncached(self, answer: str, target: GradingTarget, key: JudgeCacheKey) -> JudgeOutcome:
        sent = answer[: self.max_answer_chars]
        injection = detect_injection(sent)
        notes: list[str] = []
        if len(answer) > len(sent):
            notes.append(f"Only the first {self.max_answer_chars} characters of the answer were judged.")
        if injection.detected:
            # The instructions never reach the model: it grades the rest of the answer.
            sent = redact(sent, injection)
            notes.append("Sentences addressed to the grader were removed before the AI judge saw the answer.")

        def outcome(**fields: object) -> JudgeOutcome:
            return JudgeOutcome.model_validate(
                {
                    "target_key": target.key,
                    "model": self.model_name,
                    "answer_sha256": key.answer_sha256,
                    "injection": injection,
                    **fields,
                }
            )

        if not sent.strip():
            why = "Nothing but instructions to the grader." if injection.detected else "No answer was given."
            missed = tuple(
                JudgedCriterion(criterion_id=c.id, verdict=Verdict.MISSED, claimed=Verdict.MISSED, reason=why)
                for c in target.criteria
            )
            return outcome(value=0.0, criteria=missed, notes=tuple(notes))

        def unscored(reason: str) -> JudgeOutcome:
            return outcome(unscored=True, reason=reason, calls=1)

        try:
            message = self._chain.invoke(prompt_variables(sent, target))
        except ProviderError as exc:
            return unscored(f"the judge model failed: {exc}")
        except Exception as exc:  # a provider must raise ProviderError; anything else is still not a grade
            return unscored(f"the judge model failed unexpectedly: {type(exc).__name__}: {exc}")
        try:
            parsed = read_structured(message, REPLY_PARSER)
        except UnusableReply as exc:
            return unscored(_PROBLEM_WORDS[exc.problem])
        wanted = [c.id for c in target.criteria]
        got = [c.id for c in parsed.criteria]
        unknown = sorted(set(got) - set(wanted))
        if unknown:
            return unscored(f"the judge returned unknown criterion ids: {', '.join(unknown)}")
        missing = [w for w in wanted if w not in got]
        if missing:
            return unscored(f"the judge left out criteria: {', '.join(missing)}")
        if len(got) != len(set(got)):
            return unscored("the judge graded a criterion twice")
        by_id = {c.id: c for c in parsed.criteria}
        judged: list[JudgedCriterion] = []
        for spec in target.criteria:
            r = by_id[spec.id]
            voided = False
            verdict = r.verdict
            if verdict is not Verdict.MISSED and not quote_in_answer(r.quote, sent):
                voided, verdict = True, Verdict.MISSED
                notes.append(f"The judge's verdict on '{spec.id}' was set aside: its quote is not in the answer.")
            judged.append(
                JudgedCriterion(
                    criterion_id=spec.id,
                    verdict=verdict,
                    claimed=r.verdict,
                    reason=r.reason.strip(),
                    quote=r.quote.strip(),
                    voided=voided,
                )
            )
        weights = {c.id: c.weight for c in target.criteria}
        total = sum(weights.values()) or 1.0
        value = sum(weights[j.criterion_id] * j.credit for j in judged) / total
        return outcome(value=min(1.0, max(0.0, value)), criteria=tuple(judged), notes=tuple(notes), calls=1)
