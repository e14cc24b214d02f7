"""Compares the numbers an answer states with a criterion's expected quantities.

Per quantity: a number within tolerance (after unit conversion) is the right value; failing that, a number
that matches a named wrong formula's value is that formula's mistake. A bare number ("about 300") is read in
the expected unit. Guards against inventing a mistake the candidate did not make:
- a wrong value counts only when the answer does not also state the right one for that quantity;
- a number inside a larger expression (126 in 2·126·8·128·2) is an input, never a wrong result;
- a number the question or the model answer itself states (an input, or another right quantity) is never
  taken for a wrong one, nor is another expected quantity's right value in any notation ("1/9" for 11.1%);
- a bare number the question states is not taken for a right one, nor is one with a unit unless the question
  states the expected value itself (a 20 ms SLO is no 19.2 ms step time);
- arithmetic equated to a number ("2·126·8·128·2 = 258,048") shows working: the number after "=" is the claim;
  when the working gives the right value and the claim does not, it is a slip of arithmetic, not a wrong formula
  (the working shows the candidate did not believe it), and is said as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from coach.grading.numeric.attribution import reads_as, swapped
from coach.grading.numeric.extract import Found, extract
from coach.grading.numeric.spec import NumericSpec, QuantitySpec, WrongValue
from coach.units import DimensionalityError, base_of, quantity

AS_WRITTEN = 0.005  # two numbers this close are one number written twice, not two results that agree


class NumericStatus(StrEnum):
    MET = "met"  # at least `need` quantities right, none wrong
    SOME = "some"  # some right, fewer than `need`
    WRONG = "wrong"  # a quantity stated only with a named wrong formula's value
    SWAPPED = "swapped"  # two right numbers given to each other's places (attribution.py)
    SLIP = "slip"  # working that gives the right value, equated to another number
    ABSENT = "absent"  # no expected quantity found (neither right nor a known wrong value)


@dataclass(frozen=True)
class QuantityResult:
    spec: QuantitySpec
    found: Found | None = None  # the number that matched (right or wrong)
    wrong: WrongValue | None = None
    derived: bool = False  # the right value is also the result of arithmetic the answer writes out
    working: Found | None = None  # a slip: this arithmetic gives the right value, but `found` is what it claims
    carried: QuantityResult | None = None  # the answer's slip that `found` follows from (error carried forward)

    @property
    def right(self) -> bool:
        return self.found is not None and self.wrong is None and self.working is None

    @property
    def slip_factor(self) -> float | None:
        """For a slip: what the claimed result is as a multiple of the right value."""
        if self.working is None or self.found is None or not self.spec.shown:
            return None
        try:
            return self.found.in_unit(self.spec.unit) / self.spec.shown
        except DimensionalityError:
            return None


@dataclass(frozen=True)
class NumericResult:
    status: NumericStatus
    need: int
    quantities: tuple[QuantityResult, ...] = field(default_factory=tuple)
    swapped: tuple[QuantityResult, QuantityResult] | None = None
    stray: Found | None = None  # with none expected found: a number of an expected quantity's kind, none of them

    @property
    def right(self) -> tuple[QuantityResult, ...]:
        return tuple(q for q in self.quantities if q.right)

    @property
    def derived(self) -> bool:
        """Is a right value the result of arithmetic the answer writes out (the working shown)?"""
        return any(q.derived for q in self.right)

    @property
    def wrong(self) -> tuple[QuantityResult, ...]:
        return tuple(q for q in self.quantities if q.wrong is not None)

    @property
    def slips(self) -> tuple[QuantityResult, ...]:
        return tuple(q for q in self.quantities if q.working is not None)

    @property
    def carried(self) -> tuple[QuantityResult, ...]:
        """Right values credited because they follow from the answer's own slip (error carried forward)."""
        return tuple(q for q in self.right if q.carried is not None)

    def carried_note(self) -> str:
        """What the candidate is told of a value credited from their slip ("" when there is none)."""
        return "; ".join(_said_right(q) for q in self.carried)

    def reason(self) -> str:
        """In plain words: "you wrote 43 GB; expected 42.9 GB"."""
        if self.swapped is not None:  # the numbers are right, so say only where each belongs
            a, b = self.swapped
            return (f"{a.spec.text} and {b.spec.text} are the other way round: \"{_ending_in(a.spec)}\"; "
                    f"\"{_ending_in(b.spec)}\"")
        parts = [_said_right(q) for q in self.right]
        for q in self.wrong:
            assert q.found is not None and q.wrong is not None
            parts.append(f"you wrote {q.found.said(q.spec.unit)}, which is what a wrong formula gives "
                         f"({q.wrong.statement.rstrip('.')}); expected {q.spec.text}")
        for q in self.slips:
            assert q.found is not None and q.working is not None
            parts.append(f"your working {q.working.text} gives {q.spec.text}, but you wrote {q.found.text}: "
                         "check the arithmetic")
        kin = [q.spec for q in self.quantities if self.stray is not None and _kind(q.spec) == self.stray.dims]
        if self.stray is not None and kin:
            parts.append(f"you wrote {self.stray.said(kin[0].unit)}, which is none of the figures this point "
                         f"expects ({' or '.join(k.text for k in kin)})")
        missing = [q.spec.text for q in self.quantities if q.found is None and q.spec not in kin]
        if missing and self.need > 0 and self.status is not NumericStatus.MET:  # optional figures are not missed
            parts.append(f"no number found for {', '.join(missing)}")
        return "; ".join(parts)


def _said_right(q: QuantityResult) -> str:
    assert q.found is not None
    if q.carried is not None and q.carried.found is not None:
        return (f"you wrote {q.found.said(q.spec.unit)}, which follows from your {q.carried.found.text} (credited: "
                f"the slip is counted once); with {q.carried.spec.text} it is {q.spec.text}")
    return f"you wrote {q.found.said(q.spec.unit)}; expected {q.spec.text}"


def _ending_in(spec: QuantitySpec) -> str:
    """The model answer's clause ending in the number ("a consistent-hash ring moves about 11.1%")."""
    return f"{spec.context}{'' if spec.context.endswith(('(', '[')) else ' '}{spec.text}".strip()


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * max(abs(b), 1e-300)


def matches(found: Found, shown: float, unit: str, tolerance: float) -> bool:
    """Does `found` state `shown` `unit`? Units convert ("504 KiB" is 516,096 B; "400 Gb/s" is 50 GB/s); a bare
    number is read in the expected unit, or as a fraction of it when the unit is a ratio ("3/7" is 42.9%)."""
    base, dims = base_of(quantity(shown, unit))
    if found.bare:
        return _close(found.magnitude, shown, tolerance) or (dims == "dimensionless"
                                                             and _close(found.base, base, tolerance))
    return found.dims == dims and _close(found.base, base, tolerance)


def stated_by(found: Found, given: Sequence[Found], tolerance: float) -> bool:
    """Does the question or the model answer state this number too (so it is no mistake of the candidate's)?"""
    for g in given:
        if found.bare or g.bare:  # a bare number may be the same one in any unit: compare as written
            if _close(found.magnitude, g.magnitude, tolerance):
                return True
        elif found.dims == g.dims and _close(found.base, g.base, tolerance):
            return True
    return False


def repeats_input(found: Found, spec: QuantitySpec, inputs: Sequence[Found]) -> bool:
    """Is `found` the question's own number rather than the candidate's result? A bare number the question
    states always is ("16" micro-batches is no 15.8%); one with a unit is when the question states it as
    written and does not state the expected value itself (the question's 20 ms SLO is no 19.2 ms step time,
    while "about 835 tokens/s" repeated from the question is the 835 it expects)."""
    if found.bare:
        return stated_by(found, inputs, spec.tolerance)
    return stated_by(found, inputs, AS_WRITTEN) and not any(
        matches(i, spec.shown, spec.unit, AS_WRITTEN) for i in inputs if not i.bare)


def check_quantity(spec: QuantitySpec, stated: Sequence[Found], given: Sequence[Found],
                   inputs: Sequence[Found] = ()) -> QuantityResult:
    """`given`: every number the question and the model answer state; `inputs`: the question's alone (a number
    that repeats one of them is not taken for a right value: `repeats_input`)."""
    # Quote back the clearest statement: a number with its unit, then a result of arithmetic, then a bare one.
    ordered = sorted(stated, key=lambda f: (f.bare, not f.derived))
    hits = [f for f in ordered if matches(f, spec.shown, spec.unit, spec.tolerance)
            and not repeats_input(f, spec, inputs)]
    # in "2·126·8·128·2 = 258,048" the claim is 258,048: working that claims a result is no right value itself
    claims = {f: claimed_by(f, stated) for f in hits if f.equated}
    right = [f for f in hits if claims.get(f) is None]
    if right:
        return QuantityResult(spec, found=right[0], derived=any(f.derived for f in hits))
    for working, claim in claims.items():
        if claim is not None and not matches(claim, spec.shown, spec.unit, spec.tolerance):
            return QuantityResult(spec, found=claim, working=working)
    for f in ordered:
        if f.operand or stated_by(f, given, spec.tolerance):
            continue
        for w in spec.wrong:
            if matches(f, w.shown, spec.unit, spec.tolerance):
                return QuantityResult(spec, found=f, wrong=w)
    return QuantityResult(spec)


def claimed_by(working: Found, stated: Sequence[Found]) -> Found | None:
    """The number equated working claims as its result: the first one written after it that is no operand, when
    it is a quantity of the same kind (or either is a bare number)."""
    claim = min((f for f in stated if f.start >= working.end and not f.operand), key=lambda f: f.start, default=None)
    if claim is None or not (claim.bare or working.bare or claim.dims == working.dims):
        return None
    return claim


def _right_elsewhere(result: QuantityResult, spec: NumericSpec) -> QuantityResult:
    """A number that is another expected quantity's right value is that quantity, not this one's mistake
    ("1/9" is the ring's 11.1%, though believing hash mod N moves 1/9 is a misconception)."""
    f = result.found
    if result.wrong is None or f is None:
        return result
    if any(matches(f, q.shown, q.unit, q.tolerance) for q in spec.quantities if q is not result.spec):
        return QuantityResult(result.spec)
    return result


def _misplaced(answer: str, results: Sequence[QuantityResult], stated: Sequence[Found]) -> tuple[QuantityResult, ...]:
    """A right number written once, clearly in the clause of another quantity the answer gives no value, where
    that quantity's named wrong formula gives the same number, is that quantity's mistake ("hash mod N moves
    11.1%": the ring's figure, and what believing hash mod N keeps sessions in place gives)."""
    out = list(results)
    for i, a in enumerate(results):
        if not a.right or a.found is None or not a.spec.context:
            continue
        if sum(matches(f, a.spec.shown, a.spec.unit, a.spec.tolerance) for f in stated if not f.operand) != 1:
            continue  # written more than once: one of them may be in its own place
        for j, b in enumerate(out):
            if j == i or b.found is not None or not b.spec.context:
                continue
            w = next((w for w in b.spec.wrong if matches(a.found, w.shown, b.spec.unit, b.spec.tolerance)), None)
            if w is not None and reads_as(answer, a, b, results):
                out[i], out[j] = QuantityResult(a.spec), QuantityResult(b.spec, found=a.found, wrong=w)
                break
    return tuple(out)


def _kind(spec: QuantitySpec) -> str:
    return base_of(quantity(spec.shown, spec.unit))[1]


def stray_number(stated: Sequence[Found], given: Sequence[Found], spec: NumericSpec) -> Found | None:
    """A number with a unit of the same kind as an expected quantity (a rate, a size, a time: not a count or a
    ratio, which an answer states for many reasons) that is none of the expected values, nor one the question
    or the model answer states, nor an input to the answer's own arithmetic: "about 24 tokens/s" where the
    bound is 95 or 190."""
    kinds = {_kind(q) for q in spec.quantities} - {"dimensionless"}
    tolerance = max(q.tolerance for q in spec.quantities)
    return next((f for f in stated if not f.bare and not f.operand and f.dims in kinds
                 and not stated_by(f, given, tolerance)), None)


def given_numbers(*texts: str) -> tuple[Found, ...]:
    """Every number the question and the model answer state, operands included."""
    return tuple(f for t in texts for f in extract(t))


def _carried_forward(results: tuple[QuantityResult, ...], slips: Sequence[QuantityResult], stated: Sequence[Found],
                     given: Sequence[Found], spec: NumericSpec) -> tuple[QuantityResult, ...]:
    """Error carried forward, as examiners mark it: a quantity the answer gives no right value for, stated as what
    its right value becomes when the answer's own slip ("2·126·8·128·2 = 258,048 B", half the right 516,096 B) is
    carried into it (a ratio of 3.7× for 7.34×), is credited: the slip is counted once, where it was made."""
    out = list(results)
    for i, r in enumerate(results):
        if r.found is not None:
            continue
        for slip in slips:
            k = slip.slip_factor
            if slip.spec == r.spec or k is None or k <= 0 or _close(k, 1.0, r.spec.tolerance):
                continue
            f = next((f for f in stated if not f.operand and not stated_by(f, given, r.spec.tolerance)
                      and not any(matches(f, q.shown, q.unit, q.tolerance) for q in spec.quantities)
                      and any(matches(f, r.spec.shown * m, r.spec.unit, r.spec.tolerance) for m in (k, 1 / k))), None)
            if f is not None:
                out[i] = QuantityResult(r.spec, found=f, carried=slip)
                break
    return tuple(out)


def check_numbers(answer: str, spec: NumericSpec, given: Sequence[Found] = (),
                  inputs: Sequence[Found] = (), slips: Sequence[QuantityResult] = ()) -> NumericResult:
    """`slips`: the answer's slips of arithmetic found on any criterion of the item (see `_carried_forward`)."""
    stated = extract(answer)
    results = tuple(_right_elsewhere(check_quantity(q, stated, given, inputs), spec) for q in spec.quantities)
    results = _misplaced(answer, results, stated)
    if slips:
        results = _carried_forward(results, slips, stated, given, spec)
    right = sum(r.right for r in results)
    swap = None
    if any(r.wrong is not None for r in results):
        status = NumericStatus.WRONG
    elif (swap := swapped(answer, results)) is not None:
        status = NumericStatus.SWAPPED
    elif any(r.working is not None for r in results):
        status = NumericStatus.SLIP
    elif right and right >= spec.need:
        status = NumericStatus.MET
    elif right:
        status = NumericStatus.SOME
    else:
        status = NumericStatus.ABSENT
    stray = stray_number(stated, given, spec) if status is NumericStatus.ABSENT else None
    return NumericResult(status=status, need=spec.need, quantities=results, swapped=swap, stray=stray)
