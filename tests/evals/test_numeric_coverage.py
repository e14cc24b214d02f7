"""Which misconceptions attached to number-checking criteria a named wrong formula can produce."""

from __future__ import annotations

from coach.content.bank import Bank
from coach.evals.numeric import misconception_coverage


def test_coverage_counts_attached_misconceptions_and_lists_the_uncovered(bank: Bank) -> None:
    cov = misconception_coverage(bank)
    uncovered = {(u["item"], u["criterion"], u["misconception"]) for u in cov["without"]}
    assert cov["attached"] == cov["with_a_wrong_formula"] + len(uncovered) > 0
    # one byte per parameter has its formula now, so the floor estimate's numbers can contradict it
    assert ("if-dm-why", "floor-estimate", "weight-bytes-one-per-param") not in uncovered
    assert ("mp-kvrep-405b-tp16-short", "kv-numbers", "tp-exceeds-kv-heads-free") not in uncovered
    # a claim about scaling, not a number any formula of the criterion gives
    assert ("mp-dp-vs-tp-8b-short", "tp-lower-latency", "tp-linear-latency") in uncovered
