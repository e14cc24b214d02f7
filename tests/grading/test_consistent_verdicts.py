"""No sentence is read both ways at once: one that meets a criterion to which a misconception is attached makes
that criterion's point, so it names that misconception on no other criterion (`criteria.consistent`)."""

from __future__ import annotations

import pytest

from coach.content.bank import Bank
from coach.content.render import render
from coach.grading.attempt import target_for
from coach.grading.offline.criteria import consistent
from coach.grading.score import CriterionResult, Verdict
from coach.grading.target import CriterionSpec
from coach.vocab import Dimension

# a right denial of "decode is compute-bound", which if-dm-why attaches to two of its criteria
DENIAL = ("At small batch, decode is limited by memory bandwidth rather than FLOPs, because every step has to pull "
          "the full set of weights out of HBM.")


@pytest.mark.parametrize(("item_id", "met"), [("if-dm-why", "weights-every-step"),
                                             ("mp-dp-vs-tp-8b-short", "mechanism")])
def test_a_sentence_that_meets_one_criterion_names_its_misconception_on_no_other(bank: Bank, default_path,  # type: ignore[no-untyped-def]
                                                                              item_id: str, met: str) -> None:
    score = default_path.grade(DENIAL, target_for(bank, render(bank.items[item_id])))
    verdicts = {c.criterion_id: c for c in score.criteria}
    assert verdicts[met].verdict == Verdict.MET, verdicts[met]
    assert not [c for c in score.criteria if c.verdict == Verdict.CONTRADICTED or c.misconception_id], score.criteria


def _spec(cid: str, misconceptions: tuple[str, ...]) -> CriterionSpec:
    return CriterionSpec(id=cid, description=cid, weight=0.5, dimension=Dimension.CONCEPTUAL, phrasings=(cid,),
                         misconceptions=misconceptions)


def _result(cid: str, verdict: Verdict, evidence: str | None, mid: str | None = None) -> CriterionResult:
    return CriterionResult(criterion_id=cid, description=cid, weight=0.5, dimension=Dimension.CONCEPTUAL,
                           verdict=verdict, evidence=evidence, misconception_id=mid, reason="read as the opposite")


FALLBACKS = [(Verdict.MET, "s", ""), (Verdict.PARTIAL, "s", "read as partly right")]


def test_the_contradiction_gives_way_to_the_verdict_short_of_it() -> None:
    specs = [_spec("a", ("m",)), _spec("b", ("m",))]
    out = consistent([_result("a", Verdict.MET, "s"), _result("b", Verdict.CONTRADICTED, "s", "m")], specs, FALLBACKS)
    assert out[0].verdict == Verdict.MET
    assert (out[1].verdict, out[1].evidence, out[1].misconception_id, out[1].reason) == (
        Verdict.PARTIAL, "s", None, "read as partly right")


def test_the_contradiction_stands_when_nothing_meets_its_misconceptions_opposite_in_that_sentence() -> None:
    contradicted = _result("b", Verdict.CONTRADICTED, "s", "m")
    for first, specs in [
        (_result("a", Verdict.MET, "s"), [_spec("a", ("other",)), _spec("b", ("m",))]),  # m not attached to a
        (_result("a", Verdict.MET, "t"), [_spec("a", ("m",)), _spec("b", ("m",))]),  # a met by another sentence
        (_result("a", Verdict.PARTIAL, "s"), [_spec("a", ("m",)), _spec("b", ("m",))]),  # a only partly made
    ]:
        assert consistent([first, contradicted], specs, FALLBACKS)[1] == contradicted
