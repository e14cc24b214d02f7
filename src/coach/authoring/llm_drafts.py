"""Whole draft items from a chat model: one structured call returns the stem, key, distractors (each grounded
in the page) and explanation, or the stem, model answer and rubric criteria. Distractors are then validated and
ranked like any other; a reply that cannot make a valid item raises GenerationError (the caller falls back)."""

from __future__ import annotations

from datetime import datetime

from langchain_core.language_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from coach.authoring.chat import model_name
from coach.authoring.drafts import MIN_OPTIONS, Draft, Target, free_id, provenance
from coach.authoring.llm import GenerationError, Proposal, catalogue_lines, invoke_structured, to_candidate
from coach.content.bank import Bank
from coach.content.schema import Criterion, McqItem, Option, Rubric, ShortItem, Status
from coach.providers.base import Embedder


class McqReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    stem: str
    key: str = Field(description="the one correct option")
    distractors: list[Proposal] = Field(description="wrong options, each grounded in a page quote")
    explanation: str = Field(description="derives the key step by step and says why each distractor is wrong")


class CriterionReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    description: str
    dimension: str = Field(description="conceptual | tradeoff | quantitative | explanation")
    phrasings: list[str] = Field(description="two to four ways a strong candidate might say it")
    misconceptions: list[str] = Field(default_factory=list, description="catalogue ids that contradict it")


class ShortReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    stem: str
    model_answer: str
    explanation: str
    criteria: list[CriterionReply]


SYSTEM = """You write interview questions on AI inference systems from a concept page. Use only what the page \
teaches. Write every number in words or inside backticks (a formula), never as bare digits: numbers are \
computed by the bank's calculators later.

Concept page "{page_title}":
<<<PAGE
{page_body}
PAGE>>>

Misconception catalogue (id: statement):
{catalogue}

{format_instructions}"""

HUMAN = """Write one {kind} question of {difficulty} difficulty that measures: {dimensions}. {extra}"""

DRAFT_PROMPT = ChatPromptTemplate.from_messages([("system", SYSTEM), ("human", HUMAN)])
EXTRA = {
    "mcq": f"Give exactly {MIN_OPTIONS - 1} distractors of the key's form and length, each with the page quote "
    "that shows why it is wrong.",
    "short": "Give a model answer of three to five sentences and two to four rubric criteria whose weights the "
    "bank sets equal.",
}


def llm_draft(chat: BaseChatModel, bank: Bank, page_id: str, target: Target, embedder: Embedder, *,
              now: datetime | None = None) -> Draft:
    page = bank.concepts[page_id]
    values: dict[str, object] = {
              "page_title": page.title, "page_body": page.body, "catalogue": catalogue_lines(bank, page),
              "kind": "multiple-choice" if target.type == "mcq" else "short-answer",
              "difficulty": target.difficulty.value, "dimensions": ", ".join(d.value for d in target.dimensions),
              "extra": EXTRA[target.type]}
    reply_type: type[BaseModel] = McqReply if target.type == "mcq" else ShortReply
    reply = invoke_structured(chat, DRAFT_PROMPT, reply_type, values)
    prov = provenance(page, "llm", model_name(chat), now)
    common = {"status": Status.DRAFT, "difficulty": target.difficulty, "concept": page.id,
              "concept_version": page.version, "module": page.module, "provenance": prov}
    try:
        if isinstance(reply, McqReply):
            return _mcq(bank, reply, common, target, embedder, free_id(bank, page, "mcq"), model_name(chat))
        assert isinstance(reply, ShortReply)
        return _short(reply, common, free_id(bank, page, "short"))
    except (ValidationError, ValueError) as exc:
        raise GenerationError(f"the model's draft is not a valid item: {str(exc).splitlines()[0]}") from None


def _mcq(bank: Bank, reply: McqReply, common: dict[str, object], target: Target, embedder: Embedder, item_id: str,
         model: str) -> Draft:
    from coach.authoring.distractors import assess_candidates

    candidates = [to_candidate(p, bank, model) for p in reply.distractors]
    provisional = McqItem.model_validate({
        **common, "id": item_id, "dimensions": target.dimensions, "stem": reply.stem, "explanation": reply.explanation,
        "options": [Option(text=reply.key, correct=True), *(Option(text=c.text) for c in candidates[:2])],
    })
    found = assess_candidates(bank, provisional.model_copy(update={"options": provisional.options[:1] * 3}),
                              candidates, embedder)
    kept = [a.candidate for a in found.accepted[: MIN_OPTIONS - 1]]
    if len(kept) < MIN_OPTIONS - 1:
        why = "; ".join(f"{a.candidate.text!r}: {a.reasons[0]}" for a in found.rejected[:3])
        raise GenerationError(f"only {len(kept)} of the model's distractors are valid ({why})")
    options = [Option(text=reply.key, correct=True), *(Option(text=c.text, misconception=c.misconception)
                                                       for c in kept)]
    return Draft(McqItem.model_validate({**provisional.model_dump(), "options": options}))


def _short(reply: ShortReply, common: dict[str, object], item_id: str) -> Draft:
    n = len(reply.criteria)
    if not 1 <= n <= 6:
        raise ValueError(f"{n} criteria (a rubric has one to six)")
    weights = [round(1 / n, 4)] * n
    weights[-1] = round(1 - sum(weights[:-1]), 4)
    criteria = tuple(
        Criterion(id=f"c{k + 1}", description=c.description, weight=w, dimension=c.dimension,
                  phrasings=tuple(c.phrasings), misconceptions=tuple(c.misconceptions))
        for k, (c, w) in enumerate(zip(reply.criteria, weights, strict=True))
    )
    rubric = Rubric(id=item_id, item=item_id, criteria=criteria)
    item = ShortItem.model_validate({**common, "id": item_id, "stem": reply.stem, "explanation": reply.explanation,
                                     "model_answer": reply.model_answer, "rubric": item_id,
                                     "dimensions": tuple(dict.fromkeys(c.dimension for c in criteria))})
    return Draft(item, rubric)
