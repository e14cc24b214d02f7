"""The LLM path: one structured call per request, a langchain-core ChatPromptTemplate in, pydantic models out.

Replies are parsed by langchain-core's PydanticOutputParser (JSON in the message text), which works with any
OpenAI-compatible server, tool calling or not. Every distractor must quote the concept page to show why it is
wrong; the validator refuses a quote that is not in the page. Any failure raises GenerationError, which callers
turn into an offline fallback that says so.
"""

from __future__ import annotations

import json

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.output_parsers import PydanticOutputParser
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, ConfigDict, Field

from coach.authoring.candidates import Candidate, Source
from coach.authoring.chat import model_name
from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import ConceptPage, McqItem
from coach.errors import CoachError

PROMPT_VERSION = "author-v1"


class GenerationError(CoachError):
    pass


class Proposal(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(description="the wrong option, in the same form and about the same length as the key")
    misconception: str = Field(description="a catalogue id from the list, or a short name of the wrong belief")
    why_wrong: str = Field(description="one or two sentences: why it is wrong, from the page")
    page_quote: str = Field(description="words copied exactly from the concept page that show why it is wrong")


class DistractorReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    candidates: list[Proposal]


SYSTEM = """You write distractors (wrong options) for multiple-choice questions that test engineers on AI \
inference systems. A good distractor is what a candidate holding a real misconception would choose: specific, \
plausible, the same form and about the same length as the correct option, and clearly wrong to an expert. \
Every distractor must be wrong for a reason the concept page states: quote the page's exact words. Never \
restate the correct option in other words. Prefer misconceptions from the catalogue; name others briefly.

Concept page "{page_title}":
<<<PAGE
{page_body}
PAGE>>>

Misconception catalogue (id: statement):
{catalogue}

{format_instructions}"""

HUMAN = """Question: {stem}
Correct option: {key}
Existing options (do not repeat them): {options}
Why the key is right: {explanation}

Write {n} new distractors."""

DISTRACTOR_PROMPT = ChatPromptTemplate.from_messages([("system", SYSTEM), ("human", HUMAN)])


def catalogue_lines(bank: Bank, page: ConceptPage) -> str:
    mine = [m for m in bank.misconceptions.values() if m.concept == page.id]
    rest = [m for m in bank.misconceptions.values() if m.concept != page.id and m.concept in {
        p.id for p in bank.concepts.values() if p.module == page.module}]
    return "\n".join(f"- {m.id}: {m.statement}" for m in [*mine, *rest][:40])


def invoke_structured(chat: BaseChatModel, prompt: ChatPromptTemplate, reply: type[BaseModel],
                      values: dict[str, object]) -> BaseModel:
    """prompt | chat | PydanticOutputParser, with every failure turned into a GenerationError that says which."""
    parser: PydanticOutputParser[BaseModel] = PydanticOutputParser(pydantic_object=reply)
    chain = prompt.partial(format_instructions=parser.get_format_instructions()) | chat | parser
    try:
        return chain.invoke(values)
    except OutputParserException as exc:
        raise GenerationError(f"the model's reply did not match the schema: {str(exc).splitlines()[0]}") from None
    except Exception as exc:  # a provider error, a timeout, a refused request: not candidates
        raise GenerationError(f"the model failed: {type(exc).__name__}: {exc}") from None


def llm_distractors(chat: BaseChatModel, bank: Bank, item: McqItem, *, n: int = 5) -> list[Candidate]:
    page = bank.concepts[item.concept]
    rendered = render(item)
    key = rendered.options[rendered.key_index or 0].text
    values = {
        "page_title": page.title,
        "page_body": page.body,
        "catalogue": catalogue_lines(bank, page),
        "stem": rendered.stem,
        "key": key,
        "options": json.dumps([o.text for o in rendered.options if not o.correct], ensure_ascii=False),
        "explanation": rendered.explanation,
        "n": n,
    }
    reply = invoke_structured(chat, DISTRACTOR_PROMPT, DistractorReply, values)
    assert isinstance(reply, DistractorReply)
    return [to_candidate(p, bank, model_name(chat)) for p in reply.candidates]


def to_candidate(p: Proposal, bank: Bank, model: str) -> Candidate:
    known = p.misconception if p.misconception in bank.misconceptions else None
    why = p.why_wrong.strip() if known else f"{p.why_wrong.strip()} (misconception: {p.misconception.strip()})"
    return Candidate(text=p.text.strip(), source=Source.LLM, why_wrong=why, misconception=known, origin=model,
                     page_quote=p.page_quote)
