"""Distractors for an item: generate (offline, or with a chat model), validate, rank, keep the best distinct ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from coach.authoring.candidates import Assessed, Candidate
from coach.authoring.offline import offline_candidates
from coach.authoring.rank import PageFacts, assess
from coach.authoring.validate import Context, context, duplicate_of, problems, texts_to_embed
from coach.content.bank import Bank
from coach.content.render import RenderedItem, Variant, render, variants
from coach.content.schema import McqItem
from coach.errors import ContentError
from coach.providers.base import Embedder

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


@dataclass(frozen=True)
class Suggestions:
    """Valid candidates best first, and every rejected one with its reasons."""

    item_id: str
    accepted: tuple[Assessed, ...]
    rejected: tuple[Assessed, ...]
    notes: tuple[str, ...] = ()  # e.g. "the model failed: offline candidates only"

    def best(self, n: int) -> list[Assessed]:
        return list(self.accepted[:n])


def mcq(bank: Bank, item_id: str) -> McqItem:
    item = bank.items.get(item_id)
    if item is None:
        raise ContentError("distractors", f"unknown item {item_id!r}")
    if not isinstance(item, McqItem):
        raise ContentError("distractors", f"item {item_id} is a {item.type} item: distractors are for MCQs")
    return item


def page_facts(bank: Bank, item: McqItem) -> PageFacts:
    return PageFacts(
        misconceptions=frozenset(m.id for m in bank.misconceptions.values() if m.concept == item.concept),
        items=frozenset(i.id for i in bank.items.values() if i.concept == item.concept),
    )


def _cheap_pass(bank: Bank, item: McqItem, candidates: list[Candidate], variant: Variant | None
                ) -> tuple[RenderedItem, str, Context, list[tuple[Candidate, list[str]]]]:
    """The first pass: the rules that need no embeddings, for every candidate."""
    variant = variants(item)[0] if variant is None else variant
    rendered = render(item, variant)
    page_text = bank.concepts[item.concept].body if item.concept in bank.concepts else ""
    cheap = context(item, rendered, candidates, page_text=page_text)
    return rendered, page_text, cheap, [(c, problems(c, cheap)) for c in candidates]


def prime_embeddings(bank: Bank, item_ids: list[str], embedder: Embedder) -> int:
    """Embed in one call every text the offline semantic pass of these items will compare, so that each item's
    `suggest_distractors` finds them in the embedder's cache. One long batch, sorted by length, pads far less
    than a batch per item: the bank's 394 texts took 26-37 s at once against 69-110 s in 43 per-item calls on
    the loaded 2-core machine. Returns how many texts were embedded."""
    texts: list[str] = []
    for item_id in item_ids:
        item = mcq(bank, item_id)
        rendered, _, _, first = _cheap_pass(bank, item, offline_candidates(bank, item), None)
        texts += texts_to_embed(rendered, [c for c, reasons in first if not reasons])
    unique = list(dict.fromkeys(texts))
    if unique:
        embedder.embed(unique)
    return len(unique)


def assess_candidates(
    bank: Bank, item: McqItem, candidates: list[Candidate], embedder: Embedder, variant: Variant | None = None
) -> Suggestions:
    """Validate and rank candidates from any source; a later duplicate of a better candidate is rejected."""
    rendered, page_text, cheap, first = _cheap_pass(bank, item, candidates, variant)
    rejected = [Assessed(candidate=c, reasons=tuple(r)) for c, r in first if r]
    survivors = [c for c, r in first if not r]  # only these are embedded: most rejections need no model
    ctx = context(item, rendered, survivors, embedder, page_text)
    page = page_facts(bank, item)
    scored = sorted(
        (assess(c, ctx, problems(c, ctx), page) for c in survivors),
        key=lambda a: (-a.plausibility, a.candidate.text),
    )
    accepted: list[Assessed] = []
    for a in scored:
        if not a.valid:
            rejected.append(a)
            continue
        twin = next(
            (b for b in accepted if duplicate_of(a.candidate.text, b.candidate.text, cheap)
             or duplicate_of(a.candidate.text, b.candidate.text, ctx)),
            None,
        )
        if twin is None and a.candidate.misconception:
            twin = next((b for b in accepted if b.candidate.misconception == a.candidate.misconception), None)
        if twin is not None:
            why = f"a better-ranked candidate says the same or embodies the same misconception: {twin.candidate.text!r}"
            rejected.append(a.model_copy(update={"reasons": (why,)}))
        else:
            accepted.append(a)
    return Suggestions(item.id, tuple(accepted), tuple(rejected))


def suggest_distractors(
    bank: Bank,
    item_id: str,
    embedder: Embedder,
    *,
    chat: BaseChatModel | None = None,
    n: int = 5,
    variant: Variant | None = None,
) -> Suggestions:
    """With a chat model: its candidates (one structured call) plus the offline ones, validated together; a model
    failure falls back to offline candidates and says so in `notes`. Without: offline candidates only."""
    item = mcq(bank, item_id)
    candidates = offline_candidates(bank, item, variant)
    notes: list[str] = []
    if chat is not None:
        from coach.authoring.llm import GenerationError, llm_distractors

        try:
            candidates = llm_distractors(chat, bank, item, n=n) + candidates
        except GenerationError as exc:
            notes.append(f"the model's candidates were not used ({exc}); offline candidates only")
    found = assess_candidates(bank, item, candidates, embedder, variant)
    return Suggestions(found.item_id, found.accepted, found.rejected, tuple(notes))
