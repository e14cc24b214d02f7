"""Coach feedback written by an LLM in one structured call per attempt, grounded in the grades, cached.

`coach_feedback` is the entry point for the pages: it picks the writer from the settings (an OpenAI-compatible
endpoint, the fake writer in "fake" mode, or none) and always returns feedback the candidate can read:
- LLM on and the reply usable: `source="llm"`; the facts-only parts (the score sentence, the next step on the
  learning path, the catalogue's corrections) still come from the template, and whatever the model wrote that
  the grades do not back is dropped (`feedback/reply.py`).
- No endpoint: the template (`source="template"`).
- Any failure (timeout, 429, 500, malformed or schema-breaking JSON, a truncated reply, nothing grounded): the
  template, with `fallback_reason` in plain words. Failures of the call itself are not cached (they pass); a
  reply that could not be used is (at temperature 0 the model would write it again).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, ValidationError

from coach.content.bank import Bank
from coach.errors import ProviderError
from coach.feedback.cache import FeedbackCache, feedback_key
from coach.feedback.coach import CoachFeedback, template_feedback
from coach.feedback.facts import attempt_facts
from coach.feedback.prompt import FEEDBACK_PROMPT, PROMPT_VERSION, REPLY_PARSER, prompt_variables
from coach.feedback.reply import ground, misconception_lines
from coach.grading.dimensions import ScoreCard
from coach.providers.base import ChatModel
from coach.providers.langchain_chat import ReplyProblem, UnusableReply, as_langchain, model_name, read_structured

if TYPE_CHECKING:
    from coach.config import Settings

log = logging.getLogger(__name__)

_PROBLEM_WORDS = {
    ReplyProblem.TRUNCATED: "the AI coach's reply was cut off (token limit reached)",
    ReplyProblem.NOT_JSON: "the AI coach's reply was not valid JSON",
    ReplyProblem.SCHEMA: "the AI coach's reply did not match the feedback schema",
    ReplyProblem.REFUSED: "the AI coach declined to write feedback",
}


class _Cached(BaseModel):
    """What the cache keeps for one key: the feedback written, or why the reply could not be used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    feedback: CoachFeedback | None = None
    failure: str | None = None


def _fallback(base: CoachFeedback, reason: str, model: str, dropped: tuple[str, ...] = ()) -> CoachFeedback:
    log.info("coach feedback falls back to the template: %s", reason)
    return base.model_copy(update={"fallback_reason": reason, "model": model, "dropped": dropped})


def write_feedback(
    card: ScoreCard,
    bank: Bank,
    module_id: str,
    *,
    model: ChatModel | BaseChatModel,
    attempt_id: str,
    cache: FeedbackCache | None = None,
) -> CoachFeedback:
    """One call to `model` for the whole attempt (none when the cache has it); never raises for a model failure."""
    base = template_feedback(card, bank, module_id)
    name = model_name(model)
    key = feedback_key(attempt_id, card, name, PROMPT_VERSION)
    if cache is not None and (raw := cache.get(key)) is not None:
        try:
            hit = _Cached.model_validate_json(raw)
        except ValidationError:
            hit = None  # written by an older version: write it again
        if hit is not None and hit.feedback is not None:
            return hit.feedback
        if hit is not None and hit.failure is not None:
            return _fallback(base, hit.failure, name)

    def keep(entry: _Cached) -> None:
        if cache is not None:
            cache.put(key, entry.model_dump_json())

    facts = attempt_facts(card, bank, module_id)
    try:
        message = (FEEDBACK_PROMPT | as_langchain(model)).invoke(prompt_variables(facts))
    except ProviderError as exc:
        return _fallback(base, f"the AI coach could not answer: {exc}", name)
    except Exception as exc:  # a provider must raise ProviderError; anything else is still no feedback
        return _fallback(base, f"the AI coach failed unexpectedly: {type(exc).__name__}: {exc}", name)
    try:
        reply = read_structured(message, REPLY_PARSER)
    except UnusableReply as exc:
        reason = _PROBLEM_WORDS[exc.problem]
        keep(_Cached(failure=reason))
        return _fallback(base, reason, name)
    grounded = ground(reply, facts, bank)
    if not (grounded.strengths or grounded.gaps or grounded.notes):
        reason = "the AI coach's reply cited nothing that this attempt's grades show"
        keep(_Cached(failure=reason))
        return _fallback(base, reason, name, tuple(grounded.dropped))
    summary = f"{base.summary} {reply.summary.strip()}".strip()
    feedback = base.model_copy(
        update={
            "source": "llm",
            "model": name,
            "summary": summary,
            "strengths": tuple(grounded.strengths),
            "gaps": tuple(grounded.gaps),
            "misconceptions": tuple(misconception_lines(facts, grounded.misconception_notes)),
            "study": tuple(grounded.study) or base.study,
            "notes": tuple(grounded.notes),
            "dropped": tuple(grounded.dropped),
        }
    )
    keep(_Cached(feedback=feedback))
    return feedback


def feedback_model_from_settings(settings: Settings) -> ChatModel | None:
    """The writer the settings ask for: the fake writer in "fake" mode, the configured endpoint, or None."""
    if settings.llm_mode == "fake":
        from coach.feedback.fakes import fake_feedback_writer

        return fake_feedback_writer()
    from coach.providers.registry import chat_model_from_settings

    return chat_model_from_settings(settings)


def coach_feedback(
    card: ScoreCard,
    bank: Bank,
    module_id: str,
    *,
    attempt_id: str,
    settings: Settings,
    cache: FeedbackCache | None,
) -> CoachFeedback:
    """The feedback the results page shows for a graded attempt (LLM when configured, else the template)."""
    model = feedback_model_from_settings(settings)
    if model is None:
        return template_feedback(card, bank, module_id)
    return write_feedback(card, bank, module_id, model=model, attempt_id=attempt_id, cache=cache)
