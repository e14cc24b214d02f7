"""The LLM path with langchain-core's fake chat models and the local chat-completions server."""

from __future__ import annotations

import json

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from coach.authoring.chat import wrap
from coach.authoring.distractors import suggest_distractors
from coach.authoring.drafts import Target, generate_draft
from coach.content.bank import Bank
from coach.providers.openai_chat import OpenAIChatModel
from tests.support.chat_server import ChatServer

QUOTE = "a head cannot be cut along its dimension without turning every attention score into a cross-GPU sum"


def reply(text: str, quote: str = QUOTE, misconception: str = "tp-splits-head-dim") -> str:
    return json.dumps({"candidates": [{"text": text, "misconception": misconception,
                                       "why_wrong": "Heads are the unit of TP.", "page_quote": quote}]})


GOOD = "Each KV head is split along head_dim into two halves, and every one of the sixteen ranks holds one half"


def test_llm_candidates_are_validated_with_the_rest(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    chat = FakeListChatModel(responses=[reply(GOOD)])
    found = suggest_distractors(bank, "mp-kvrep-mp16-checkpoint", embedder, chat=chat)
    llm = [a for a in found.accepted if a.candidate.source.value == "llm"]
    assert [a.candidate.text for a in llm] == [GOOD]
    assert llm[0].candidate.misconception == "tp-splits-head-dim" and found.notes == ()


def test_an_ungrounded_quote_is_rejected(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    chat = FakeListChatModel(responses=[reply(GOOD, quote="words the page never says at all")])
    found = suggest_distractors(bank, "mp-kvrep-mp16-checkpoint", embedder, chat=chat)
    (bad,) = [a for a in found.rejected if a.candidate.source.value == "llm"]
    assert "not in the concept page" in bad.reasons[0]


def test_an_unparsable_reply_falls_back_and_says_so(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    chat = FakeListChatModel(responses=["I cannot help with that."])
    found = suggest_distractors(bank, "mp-kvrep-mp16-checkpoint", embedder, chat=chat)
    assert found.notes and "did not match the schema" in found.notes[0]
    assert len(found.accepted) >= 3 and all(a.candidate.source.value != "llm" for a in found.accepted)


def test_through_the_openai_compatible_server(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    with ChatServer(reply=lambda body: reply(GOOD)) as server:
        chat = wrap(OpenAIChatModel(api_key="test", base_url=server.url, model="local-test-model", max_retries=0))
        found = suggest_distractors(bank, "mp-kvrep-mp16-checkpoint", embedder, chat=chat)
        sent = server.requests[0]
    assert any(a.candidate.text == GOOD for a in found.accepted)
    system = sent["messages"][0]["content"]
    assert "KV-head replication" in system and "tp-splits-head-dim" in system  # page and catalogue in the prompt
    assert '"page_quote"' in system  # the parser's format instructions


def test_a_server_error_falls_back(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    with ChatServer(default="500") as server:
        chat = wrap(OpenAIChatModel(api_key="t", base_url=server.url, model="m", max_retries=0))
        found = suggest_distractors(bank, "mp-kvrep-mp16-checkpoint", embedder, chat=chat)
    assert found.notes and "the model failed" in found.notes[0] and len(found.accepted) >= 3


def test_llm_short_draft_builds_item_and_rubric(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    draft_reply = json.dumps({
        "stem": "Why does TP beyond the KV-head count duplicate the KV cache, and how can it be avoided?",
        "model_answer": "Heads are the unit of TP, so extra ranks get copies of KV heads. Keep TP at most the "
                        "KV-head count and scale with PP or DP, or shard the copies by tokens.",
        "explanation": "Each rank needs whole heads; past the head count heads are replicated and the group "
                       "stores the cache several times over, which costs capacity; PP, DP or decode context "
                       "parallelism avoid it.",
        "criteria": [
            {"description": "Heads are replicated", "dimension": "conceptual",
             "phrasings": ["each KV head is copied to several ranks", "ranks share copies of the same head"]},
            {"description": "A fix", "dimension": "tradeoff",
             "phrasings": ["keep TP at most the KV heads and add PP", "shard the duplicated KV by tokens"]},
        ],
    })
    chat = FakeListChatModel(responses=[draft_reply])
    draft = generate_draft(bank, "kv-head-replication", Target(type="short"), embedder, chat=chat)
    assert draft.item.status == "draft" and draft.rubric is not None
    assert draft.item.provenance is not None and draft.item.provenance.generator == "llm"
    assert set(draft.item.dimensions) == {c.dimension for c in draft.rubric.criteria}
    assert abs(sum(c.weight for c in draft.rubric.criteria) - 1) < 1e-9
