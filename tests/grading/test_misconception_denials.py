"""A right sentence that denies a misconception is not read as stating it.

A statement and its denial look alike to the bi-encoder, and the cross-encoder reads many right in-domain sentences
as contradicting. Seen on the dev sets: a colleague's right answer on data-parallel replicas ("... but a given
request runs no faster") was marked contradicted and told it believed replicas cut a request's latency (0.35)."""

from __future__ import annotations

import pytest

from coach.content.bank import Bank
from coach.content.render import render
from coach.grading.attempt import target_for
from coach.grading.offline.criteria import denies_misconception
from coach.grading.score import Verdict

DP_QUESTION = "What does adding data-parallel replicas do at inference?"
DP_DENIAL = ("More replicas multiply the requests per second you can serve roughly linearly, but a given request "
             "runs no faster, since it still sees one copy of the model.")
PREFIX_DENIAL = ("A prefix hit does not make decoding faster: TPOT stays the same, only TTFT drops because prefill "
                 "is skipped.")


def _texts(bank: Bank, mid: str) -> tuple[str, ...]:
    m = bank.misconceptions[mid]
    return (m.statement, *m.phrasings)


def test_a_negated_restatement_denies_the_misconception(bank: Bank) -> None:
    assert denies_misconception(DP_DENIAL, _texts(bank, "dp-replicas-cut-latency"), DP_QUESTION)
    assert denies_misconception(PREFIX_DENIAL, _texts(bank, "ms-prefix-hit-speeds-decode"), "Why?")


@pytest.mark.parametrize("text", [
    # a statement of it, beside a negation about something else
    "Replicas do not talk to each other, and adding them makes each individual request finish faster.",
    # "not just X: Y" asserts both
    "Adding replicas does not just raise throughput: it makes each individual request finish faster.",
    "Replicas not only add throughput, they make each individual request finish faster too.",
])
def test_a_statement_of_the_misconception_does_not_deny_it(bank: Bank, text: str) -> None:
    assert not denies_misconception(text, _texts(bank, "dp-replicas-cut-latency"), DP_QUESTION)


def test_opposite_polar_words_alone_are_no_denial(bank: Bank) -> None:
    """"Cutting TTFT" beside "faster decode" restates the misconception; no word in it says no."""
    text = "A prefix cache hit makes the decode tokens come out faster as well as cutting TTFT."
    assert not denies_misconception(text, _texts(bank, "ms-prefix-hit-speeds-decode"), "Why?")


@pytest.mark.parametrize(("item_id", "answer", "mid"), [
    ("mp-dp-replicas-short", DP_DENIAL, "dp-replicas-cut-latency"),
    ("ms-prefix-hit-decode", PREFIX_DENIAL, "ms-prefix-hit-speeds-decode"),
], ids=["dp-replicas", "prefix-hit"])
def test_a_denial_is_not_told_it_holds_the_misconception(bank: Bank, default_path, item_id: str, answer: str,  # type: ignore[no-untyped-def]
                                                         mid: str) -> None:
    score = default_path.grade(answer, target_for(bank, render(bank.items[item_id])))
    assert all(c.misconception_id != mid for c in score.criteria), score.criteria
    assert not [c for c in score.criteria if c.verdict == Verdict.CONTRADICTED], score.criteria


@pytest.mark.parametrize("answer", [
    "Each extra replica takes a share of every request, so a single request finishes sooner.",
    "Adding replicas does not just raise throughput: it makes each individual request finish faster.",
])
def test_the_misconception_itself_is_still_contradicted(bank: Bank, default_path, answer: str) -> None:  # type: ignore[no-untyped-def]
    target = target_for(bank, render(bank.items["mp-dp-replicas-short"]))
    verdicts = {c.criterion_id: c for c in default_path.grade(answer, target).criteria}
    assert verdicts["throughput-not-latency"].verdict is Verdict.CONTRADICTED
    assert verdicts["throughput-not-latency"].misconception_id in (None, "dp-replicas-cut-latency")
