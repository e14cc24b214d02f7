"""The numeric figure's acceptance rule, held in CI: every wrong-formula value the calculators produce for a
quantitative bank criterion is marked contradicted on that criterion, on the app's grader."""

from __future__ import annotations

from coach.content.bank import Bank
from coach.evals.numeric import probes
from coach.grading.score import Verdict


def test_every_wrong_formula_value_in_the_bank_is_contradicted(bank: Bank, checked_grader) -> None:  # type: ignore[no-untyped-def]
    built, skipped = probes(bank)
    wrong = [p for p in built if p.kind == "wrong"]
    assert len(wrong) >= 100  # 109 today
    scores = checked_grader.grade_many([(p.answer, p.target) for p in wrong])
    missed = [(p.item, p.variant, p.criterion, p.written, p.calc) for p, s in zip(wrong, scores, strict=True)
              if next(c.verdict for c in s.criteria if c.criterion_id == p.criterion) is not Verdict.CONTRADICTED]
    assert missed == []
    # a probe is left out only for a stated reason, never silently
    assert all(s["why"] for s in skipped)
