"""How a criterion's numeric check combines with its semantic verdict (the embedding grader's, or any other).

| numbers in the answer                                  | verdict                                            |
|--------------------------------------------------------|----------------------------------------------------|
| a named wrong formula's value (and not the right one)  | contradicted, whatever the words; names the misconception |
| two right values in each other's places (attribution)  | contradicted; names no misconception               |
| working that gives a right value, equated to another   | partial, whatever the words (a slip of arithmetic: |
| number ("2·126·8·128·2 = 258,048 B")                   | the working shows the method; names no formula)    |
| the right values (`need` of them)                      | met if the words earn at least partial, the answer |
|                                                        | writes out the arithmetic that gives one, or two or |
|                                                        | more are right; else partial                       |
| some right values, fewer than `need`                   | partial                                            |
| a value that follows from the answer's own slip        | counts as right (error carried forward: the slip   |
| (3.7× after 258,048 B for 516,096 B)                   | costs once, where it was made); the reason says so |
| none of the expected values                            | at most partial (a met becomes partial)            |
| none, the numbers optional (`need: 0`), but a number   | at most partial: the figure the point rests on is  |
| of an expected quantity's kind, with a unit (24 tok/s) | none of them ("you wrote 24 tokens/s, which is none |
|                                                        | of the figures this point expects (95 tok/s or 190 |
|                                                        | tok/s)"), in a note too                            |
| none, and the numbers are optional (`need: 0`)         | the semantic verdict stands                        |

A criterion a wrong (or swapped) number contradicts, or a slip makes partial, is marked `by_numbers`: with the
LLM judge on, the judge cannot lift it (`grading/combine.py`), so numbers stay decisive on both paths.

A right number lifts a semantic "contradicted" to partial and drops its misconception: the feedback must not
tell a candidate to unlearn what their numbers show they did not believe. Every verdict the check sets carries
as evidence the answer's sentence with the number, and the reason in plain words ("you wrote 43 GB; expected
42.9 GB").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from coach.grading.numeric.check import NumericResult, NumericStatus, check_numbers, given_numbers
from coach.grading.numeric.extract import Found
from coach.grading.score import CriterionResult, Verdict
from coach.grading.target import GradingTarget
from coach.grading.text import sentences


def sentence_of(answer: str, found: Found) -> str:
    """The sentence of the answer that holds the number (an exact substring of the answer)."""
    pos = 0
    for s in sentences(answer):
        start = answer.find(s, pos)
        if start < 0:
            continue
        if start <= found.start < start + len(s):
            return s
        pos = start + len(s)
    return found.text


def combine(semantic: CriterionResult, numeric: NumericResult, answer: str) -> CriterionResult:
    """The criterion's verdict once its numbers are checked (see the table above)."""
    status, verdict = numeric.status, semantic.verdict
    reason = numeric.reason()
    update: dict[str, object] = {}
    if status is NumericStatus.WRONG:
        wrong = numeric.wrong[0]
        assert wrong.found is not None and wrong.wrong is not None
        update = {"verdict": Verdict.CONTRADICTED, "misconception_id": wrong.wrong.misconception_id,
                  "evidence": sentence_of(answer, wrong.found), "by_numbers": True}
    elif status is NumericStatus.SWAPPED:  # right numbers in each other's places: a wrong claim, no formula
        assert numeric.swapped is not None
        a, b = (q.found for q in numeric.swapped)
        assert a is not None and b is not None
        update = {"verdict": Verdict.CONTRADICTED, "misconception_id": None, "by_numbers": True,
                  "evidence": " … ".join(dict.fromkeys((sentence_of(answer, a), sentence_of(answer, b))))}
    elif status is NumericStatus.SLIP:  # the method is right, the result is not: no misconception to unlearn
        slip = numeric.slips[0]
        assert slip.working is not None
        update = {"verdict": Verdict.PARTIAL, "misconception_id": None, "by_numbers": True,
                  "evidence": sentence_of(answer, slip.working)}
    elif status is NumericStatus.MET or status is NumericStatus.SOME:
        # Words at least partial, or the working written out, or two right numbers: hard to come by chance.
        worded = verdict in (Verdict.MET, Verdict.PARTIAL) or numeric.derived or len(numeric.right) >= 2
        lifted = Verdict.MET if status is NumericStatus.MET and worded else Verdict.PARTIAL
        found = numeric.right[0].found
        assert found is not None
        # the words' span is the evidence only if it holds a number that met: else show the number's sentence
        keep = (verdict in (Verdict.MET, Verdict.PARTIAL) and semantic.evidence is not None
                and any(r.found is not None and r.found.text in semantic.evidence for r in numeric.right))
        update = {"verdict": lifted, "misconception_id": None, "by_numbers": False,
                  "evidence": semantic.evidence if keep else sentence_of(answer, found)}
    elif verdict is Verdict.MET and (numeric.need > 0 or numeric.stray is not None):
        update = {"verdict": Verdict.PARTIAL}  # no expected figure; or optional ones, and the one given is none
    elif numeric.need == 0:
        return semantic
    return semantic.model_copy(update={**update, "reason": _joined(semantic.reason, reason)})


def _joined(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


@dataclass(frozen=True)
class NumericReview:
    criteria: tuple[CriterionResult, ...]
    notes: tuple[str, ...]  # one plain sentence per wrong number, for the candidate


def review_numbers(results: Sequence[CriterionResult], answer: str, target: GradingTarget) -> NumericReview:
    """Check the numbers of every criterion that declares quantities and combine with its verdict."""
    specs = {c.id: c.numeric for c in target.criteria if c.numeric is not None}
    if not specs:
        return NumericReview(tuple(results), ())
    given, inputs = given_numbers(target.question, target.reference), given_numbers(target.question)
    checked = {cid: check_numbers(answer, spec, given, inputs) for cid, spec in specs.items()}
    # the answer's slips of arithmetic, on whichever criterion: a value that follows from one is credited elsewhere
    slips = tuple(q for numeric in checked.values() for q in numeric.slips)
    out, notes = [], []
    for r in results:
        spec = specs.get(r.criterion_id)
        if spec is None:
            out.append(r)
            continue
        numeric = check_numbers(answer, spec, given, inputs, slips) if slips else checked[r.criterion_id]
        out.append(combine(r, numeric, answer))
        # a wrong number, a slip, or a figure of the expected kind that is none of them: say which
        if (numeric.status in (NumericStatus.WRONG, NumericStatus.SWAPPED, NumericStatus.SLIP)
                or numeric.stray is not None):
            notes.append(f"Numbers: {numeric.reason()}.")
        elif numeric.carried:  # a credited value that is not the expected one: say why it was credited
            notes.append(f"Numbers: {numeric.carried_note()}.")
    return NumericReview(tuple(out), tuple(notes))
