"""The bank test (issue 16): the real offline grader, on the bank's own rubrics, passes every model answer and
fails every catalogue statement of every attached misconception on the criterion it is attached to.

The bank is graded once per session (`probed`); each assertion reads that one result. A failure lists exactly
the cases that fail, so whoever fixes the content can act on each line.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from coach.content.bank import Bank
from coach.evals.bank_probe import ProbeResult, partial, probe_cases, run_probe, strong
from coach.grading.score import CriterionResult, Score, Verdict
from coach.grading.target import GradingTarget
from coach.vocab import Dimension
from tests.factories import make_bank

CONTRACT = {"id", "model_answers", "model_answers_strong", "misconception_statements",
            "misconceptions_contradicted", "model_answer_mean", "misconception_mean"}


@pytest.fixture(scope="module", params=["checked_grader", "grader", "cross_grader"])
def probed(request, bank: Bank) -> ProbeResult:  # type: ignore[no-untyped-def]
    """As the app grades (the cross-encoder checking contradiction candidates), with the bi-encoder alone and
    with the cross-encoder reading everything: each must pass the bank's own gate."""
    return run_probe(bank, request.getfixturevalue(request.param))


def test_every_model_answer_scores_strong(probed: ProbeResult) -> None:
    weak = [f"{o.case.variant}: {o.score:.3f} < strong {strong(o.case.rubric)}"
            + (f" (flags: {', '.join(o.flags)})" if o.flags else "")
            for o in probed.outcomes if o.case.kind == "model_answer" and not o.passed]
    assert weak == [], f"{len(weak)} model answer(s) below 'strong':\n" + "\n".join(weak)


# Statements a grader is known not to catch: (grader, item, criterion, misconception, statement) -> why. Each must
# still fail (like a strict xfail), so a grader that learns to catch it shows here.
KNOWN_MISSES = {
    ("checked_grader", "if-kv-gqa-vs-mla", "mla-size-ratio", "mla-forgets-rope-key",
     "DeepSeek-V3's cache is just the 512-dimensional latent in each layer; nothing else has to be stored."):
    "the bi-encoder places it beside the model answer's 'latent plus RoPE key', so it is no candidate for "
    "mla-forgets-rope-key; with one cross-encoder it was contradicted, but under two other names "
    "(mla-caches-two-latents, and mla-shards-by-head on mla-cost), which the second adapter does not confirm",
}


def test_every_attached_misconception_statement_is_contradicted_below_partial(
        bank: Bank, probed: ProbeResult, request: pytest.FixtureRequest) -> None:
    grader = request.node.callspec.params["probed"]
    missing = sorted({f"{r.id}/{c.id}: misconception {m} has no catalogue statements to grade"
                      for r in bank.rubrics.values() for c in r.criteria for m in c.misconceptions
                      if m in bank.misconceptions and not bank.misconceptions[m].statements})
    misses = {(grader, o.case.item, o.case.criterion, o.case.misconception, o.case.text): o
              for o in probed.outcomes if o.case.kind == "statement" and not o.passed}
    known = {k for k in KNOWN_MISSES if k[0] == grader}
    failing = [f"{item}/{criterion}/{m}: {text!r} -> {o.verdict}, {o.score:.3f} (needs contradicted and < "
               f"{partial(o.case.rubric)})" for (_, item, criterion, m, text), o in misses.items()
               if (grader, item, criterion, m, text) not in known]
    caught = [f"{k[1]}/{k[2]}/{k[3]}: now caught, take it out of KNOWN_MISSES" for k in sorted(known - set(misses))]
    problems = missing + failing + caught
    assert problems == [], (f"{len(missing)} attachment(s) without statements, {len(failing)} statement(s) that "
                            "do not fire:\n" + "\n".join(problems))


def test_the_summary_keeps_its_contract(probed: ProbeResult) -> None:
    summary = probed.summary()
    assert [m["id"] for m in summary["modules"]] == sorted(m["id"] for m in summary["modules"])
    assert summary["modules"], "no module was probed"
    for m in summary["modules"]:
        assert set(m) == CONTRACT
        assert m["model_answers"] > 0
        for key in ("model_answers_strong", "misconceptions_contradicted", "model_answer_mean", "misconception_mean"):
            assert m[key] is None or 0.0 <= m[key] <= 1.0, (m["id"], key, m[key])


# --- the probe's own logic, with a grader whose verdicts are set by hand (no model) ---------------------------

class ScriptedGrader:
    """Grades a model answer 0.9 with every criterion met, and anything else 0.2 with the first criterion
    contradicted, except answers containing "slips", which score 0.6 with nothing contradicted."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def grade_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[Score]:
        self.batches.append(len(rows))
        return [self._grade(a, t) for a, t in rows]

    def _grade(self, answer: str, target: GradingTarget) -> Score:
        model = answer == target.reference
        slips = "slips" in answer
        value = 0.9 if model else 0.6 if slips else 0.2
        crits = tuple(CriterionResult(criterion_id=c.id, description=c.description, weight=c.weight,
                                      dimension=Dimension.CONCEPTUAL,
                                      verdict=Verdict.CONTRADICTED if (j == 0 and not model and not slips)
                                      else Verdict.MET, similarity=0.5)
                      for j, c in enumerate(target.criteria))
        return Score(value=value, source="embedding", criteria=crits)


def _small_bank() -> Bank:
    from coach.content.schema import Misconception

    bank = make_bank(0, 0, 0, 2)
    rubric = bank.rubrics["s00"]
    crits = list(rubric.criteria)
    crits[0] = crits[0].model_copy(update={"misconceptions": ("pp-lowers-latency",)})
    crits[1] = crits[1].model_copy(update={"misconceptions": ("pp-lowers-latency",)})
    bank.rubrics["s00"] = rubric.model_copy(update={"criteria": tuple(crits)})
    bank.misconceptions["pp-lowers-latency"] = Misconception(
        id="pp-lowers-latency", statement="PP lowers latency.", correction="It does not.",
        phrasings=("PP4 cuts the time per token to a quarter",), source="test",
        statements=("A four-stage pipeline returns each token four times sooner.",
                    "The stage slips make it faster for one request, I think."))
    return bank


def test_the_probe_counts_passes_per_criterion_and_module() -> None:
    grader = ScriptedGrader()
    result = run_probe(_small_bank(), grader)
    (m,) = result.summary()["modules"]
    assert m == {"id": "mod", "model_answers": 2, "model_answers_strong": 1.0, "misconception_statements": 4,
                 "misconceptions_contradicted": 0.25, "model_answer_mean": 0.9, "misconception_mean": 0.4}
    # attached to both criteria: each statement is judged on its own criterion, and only the first is
    # contradicted by the scripted grader; the "slips" statement is contradicted nowhere and scores 0.6
    failing = [(o.case.criterion, o.case.text[:6], o.verdict) for o in result.failing()]
    assert failing == [("serial", "The st", "met"), ("why", "A four", "met"), ("why", "The st", "met")]
    assert "stand_ins" not in result.summary()


def test_stand_ins_are_phrasings_and_are_reported() -> None:
    bank = _small_bank()
    mis = bank.misconceptions["pp-lowers-latency"]
    bank.misconceptions[mis.id] = mis.model_copy(update={"statements": ()})
    assert [c for c in probe_cases(bank) if c.kind == "statement"] == []
    cases = [c for c in probe_cases(bank, stand_ins="phrasings") if c.kind == "statement"]
    assert [c.text for c in cases] == [mis.phrasings[0]] * 2 and all(c.stand_in for c in cases)
    cases = [c for c in probe_cases(bank, stand_ins="statement") if c.kind == "statement"]
    assert [c.text for c in cases] == [mis.statement] * 2 and all(c.stand_in for c in cases)
    summary = run_probe(bank, ScriptedGrader(), stand_ins="phrasings").summary()
    assert summary["stand_ins"]["per_module"] == {"mod": 2} and "phrasings" in summary["stand_ins"]["note"]


def test_the_probe_grades_in_batches_and_filters_by_module(monkeypatch: pytest.MonkeyPatch) -> None:
    from coach.evals import bank_probe

    grader = ScriptedGrader()
    bank = _small_bank()
    n = len(probe_cases(bank))
    monkeypatch.setattr(bank_probe, "BATCH", 3)
    run_probe(bank, grader)
    assert sum(grader.batches) == n and max(grader.batches) == 3
    assert run_probe(bank, ScriptedGrader(), module="later").summary() == {"modules": []}
