"""The numeric figure's acceptance rule, held in CI: every wrong-formula value the calculators produce for a
quantitative bank criterion is marked contradicted on that criterion, on the app's grader; where the model
answer's working that gives the right value is left equated to it, it is a slip: partial, naming nothing."""

from __future__ import annotations

from coach.content.bank import Bank
from coach.evals.numeric import probes
from coach.grading.score import Verdict


def test_every_wrong_formula_value_in_the_bank_is_contradicted(bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    built, skipped = probes(bank)
    wrong = [p for p in built if p.kind == "wrong"]
    assert len(wrong) >= 95  # 100 today
    scores = checked_grader.grade_many([(p.answer, p.target) for p in wrong])
    missed = [(p.item, p.variant, p.criterion, p.written, p.calc) for p, s in zip(wrong, scores, strict=True)
              if next(c.verdict for c in s.criteria if c.criterion_id == p.criterion) is not Verdict.CONTRADICTED]
    assert missed == []
    # a probe is left out only for a stated reason, never silently
    assert all(s["why"] for s in skipped)


def test_a_wrong_value_after_the_right_working_is_a_slip_not_the_formula(bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    slips = [p for p in probes(bank)[0] if p.kind == "slip"]
    assert len(slips) >= 5  # 9 today: if-kv-gqa-vs-mla's `2·126·8·128·2` = ..., if-dm-fp8-speedup's 32 × 8,192 × ...
    scores = checked_grader.grade_many([(p.answer, p.target) for p in slips])
    verdicts = [next(c for c in s.criteria if c.criterion_id == p.criterion)
                for p, s in zip(slips, scores, strict=True)]
    assert [(v.verdict, v.misconception_id) for v in verdicts] == [(Verdict.PARTIAL, None)] * len(slips)
    assert all(any("check the arithmetic" in n for n in s.notes) for s in scores)
