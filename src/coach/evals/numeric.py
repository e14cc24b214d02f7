"""The numeric figure: does the grader mark a wrong formula's number contradicted, and a right number met?

For every criterion that declares quantities and every variant of its item, answers are built from the item's
own model answer with one expected number replaced:
- by each value a named wrong formula (`wrong_of`) gives for the variant: the share marked contradicted
  (target 100% of those the calculators can produce), and the share naming the formula's misconception;
  where the model answer's working, left in place, still gives the right value, the number is no statement
  of the formula: equated to it ("2·126·8·128·2 = 258,048 B"), it is a slip of arithmetic, and the share
  marked partial without naming a misconception is reported;
- by the right value written in other units (KiB for B, s for ms, Gb/s for GB/s, a fraction for a percent):
  the share still met.
It also counts the misconceptions attached to those criteria that some named wrong formula can produce.
Both graders (numeric check on and off) grade the same answers in one run, so "before" and "after" come
from the same texts. The model answers themselves are graded too: their scores before and after, and any
criterion the check changes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from coach.calc.registry import wrong_formulas_of
from coach.content.bank import Bank
from coach.content.render import format_value, render, render_text, value_of, variants
from coach.content.schema import ExpectedQuantity, ShortItem
from coach.grading.attempt import target_for
from coach.grading.numeric.build import shown_value, wrong_values
from coach.grading.numeric.check import check_numbers, given_numbers, matches, stated_by
from coach.grading.numeric.extract import extract
from coach.grading.score import Score, Verdict
from coach.grading.target import GradingTarget
from coach.units import parse_unit, quantity

# Units a right value is rewritten in, by dimension (the one the model answer writes is skipped).
ALTERNATIVES = {
    "[information]": ("B", "KiB", "KB", "MiB", "MB", "GiB", "GB", "TB"),
    "[time]": ("s", "ms", "µs"),
    "[information] / [time]": ("GB/s", "Gb/s", "TB/s", "MB/s"),
}


class Grader(Protocol):  # the part of EmbeddingGrader this eval uses
    def grade_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[Score]: ...


@dataclass(frozen=True)
class Probe:
    kind: str  # "wrong" | "slip" | "rewrite" | "model"
    item: str
    variant: str
    criterion: str
    quantity: str
    answer: str
    target: GradingTarget
    calc: str = ""  # the wrong formula, for kind "wrong"
    misconception: str | None = None
    written: str = ""  # the number as the answer writes it


def significant(x: float, digits: int = 3) -> str:
    """x to `digits` significant figures, with thousands separators ("504", "0.0516", "1,010")."""
    if x == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:,.{places}f}"


def _answer_with(item: ShortItem, variant: dict[str, Any], name: str, text: str) -> str:
    """The model answer with value `name` written as `text`, and so is every value that shows the same number
    (mp-kvrep's {full} and {gpp} are one size under two names): otherwise the right number stays beside it."""
    spec = item.values[name]
    same = format_value(spec, value_of(spec, variant))
    template = item.model_answer
    for other, other_spec in item.values.items():
        if other == name or format_value(other_spec, value_of(other_spec, variant)) == same:
            template = template.replace("{" + other + "}", text)
    return render_text(template, item, variant)


def _written(shown: float, fmt: str, unit: str, tolerance: float) -> str:
    """A wrong value as the item's format writes it, or to 3 significant figures where that format would
    round it out of tolerance (a 0.75 ms written "0.7")."""
    text = format(shown / 100, fmt) if fmt.endswith("%") else format(shown, fmt)
    number = next((f for f in extract(text) if not f.operand), None)
    if number is not None and matches(number, shown, unit, tolerance):
        return text
    return significant(shown) + ("%" if fmt.endswith("%") else "")


def _rewrites(item: ShortItem, q: ExpectedQuantity, variant: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(answer, how the number is written) for the right value in other units."""
    spec = item.values[q.value]
    shown = shown_value(spec, value_of(spec, variant))
    placeholder = "{" + q.value + "}"
    if spec.fmt.endswith("%"):
        written = significant(shown / 100)
        yield _answer_with(item, variant, q.value, written), written
        return
    after = re.search(re.escape(placeholder) + r"\s?(?P<u>[A-Za-zµμ]+(?:/[A-Za-zµμ]+)?)", item.model_answer)
    if after is None or not q.unit:
        return
    written_unit = parse_unit(after.group("u"))
    if written_unit is None:
        return
    value = quantity(shown, q.unit)
    dims = str(value.to_base_units().dimensionality)
    for alt in ALTERNATIVES.get(dims, ()):
        if parse_unit(alt) == written_unit:
            continue
        magnitude = float(value.to(parse_unit(alt)).magnitude)
        if not 0.01 <= magnitude < 1e6:
            continue
        written = f"{significant(magnitude)} {alt}"
        answer = render_text(item.model_answer.replace(after.group(0), written), item, variant)
        yield answer, written


def probes(bank: Bank) -> tuple[list[Probe], list[dict[str, str]]]:
    """Every probe answer, and what could not be probed (with why)."""
    out: list[Probe] = []
    skipped: list[dict[str, str]] = []
    for item in bank.items.values():
        rubric = bank.rubric_for(item)
        if not isinstance(item, ShortItem) or rubric is None:
            continue
        for variant in variants(item):
            rendered = render(item, variant)
            target = target_for(bank, rendered)
            vname = ",".join(f"{k}={v}" for k, v in sorted(variant.items()))
            given = [f for t in (rendered.stem, rendered.model_answer or "") for f in extract(t)]
            out.append(Probe("model", item.id, vname, "", "", rendered.model_answer or "", target))
            for c in rubric.criteria:
                for q in c.numeric.quantities if c.numeric else ():
                    base = {"item": item.id, "variant": vname, "criterion": c.id, "quantity": q.value}
                    placeholder = "{" + q.value + "}"
                    if placeholder not in item.model_answer:
                        skipped.append({**base, "why": "the model answer does not show this value"})
                        continue
                    out += _wrong_probes(item, q, variant, vname, c.id, target, given, skipped, base, bank)
                    out += [Probe("rewrite", item.id, vname, c.id, q.value, answer, target, written=written)
                            for answer, written in _rewrites(item, q, variant)]
    return out, skipped


def _wrong_probes(item: ShortItem, q: ExpectedQuantity, variant: dict[str, Any], vname: str, criterion: str,
                  target: GradingTarget, given: Sequence[Any], skipped: list[dict[str, str]],
                  base: dict[str, str], bank: Bank) -> list[Probe]:
    spec = item.values[q.value]
    wrong, unproduced = wrong_values(item, q, variant, bank.misconceptions)
    skipped += [{**base, "calc": u.calc, "why": u.reason} for u in unproduced]
    out = []
    for w in wrong:
        written = _written(w.shown, spec.fmt, q.unit, q.tolerance)
        number = next((f for f in extract(written) if not f.operand), None)
        if number is None or stated_by(number, given, q.tolerance):
            skipped.append({**base, "calc": w.calc,
                            "why": f"gives {written}, a number the question or model answer states itself"})
            continue
        answer = _answer_with(item, variant, q.value, written)
        reading = _working_gives(answer, target, criterion, q.value)
        if reading is not None:
            skipped.append({**base, "calc": w.calc,
                            "why": f"the model answer's working, left in place, still gives the right value "
                                   f"beside {written}"})
            if reading == "slip":  # it is a slip of arithmetic instead: partial, naming no formula
                out.append(Probe("slip", item.id, vname, criterion, q.value, answer, target, calc=w.calc,
                                 misconception=w.misconception_id, written=written))
            continue
        out.append(Probe("wrong", item.id, vname, criterion, q.value, answer, target, calc=w.calc,
                         misconception=w.misconception_id, written=written))
    return out


def _working_gives(answer: str, target: GradingTarget, criterion: str, quantity: str) -> str | None:
    """Does arithmetic the answer writes out still give the right value, as the check reads it? "right" when it
    stands as the value ("(8.0 + 34.4) GB over 3.35 TB/s, … 2.4 ms" counts the KV term the formula leaves out),
    "slip" when it is equated to the wrong number ("2·126·8·128·2 = 258,048 B" counts the K/V factor); then the
    number is no statement of the wrong formula. None when the answer gives the wrong number alone."""
    spec = next(c.numeric for c in target.criteria if c.id == criterion)
    assert spec is not None
    result = check_numbers(answer, spec, given_numbers(target.question, target.reference),
                           given_numbers(target.question))
    q = next(r for r in result.quantities if r.spec.name == quantity)
    return "slip" if q.working is not None else "right" if q.right else None


def _verdict(score: Score, criterion: str) -> Verdict | None:
    return next((c.verdict for c in score.criteria if c.criterion_id == criterion), None)


def _share(hits: int, n: int) -> float | None:
    return round(hits / n, 4) if n else None


def misconception_coverage(bank: Bank) -> dict[str, Any]:
    """Of the misconceptions attached to criteria that check numbers, how many a named wrong formula of one of
    the criterion's expected values can produce (the others the numbers alone cannot catch)."""
    attached, uncovered = 0, []
    for item in bank.items.values():
        rubric = bank.rubric_for(item)
        if not isinstance(item, ShortItem) or rubric is None:
            continue
        for c in rubric.criteria:
            if c.numeric is None:
                continue
            used = {calc for q in c.numeric.quantities if (calc := item.values[q.value].calc)}
            produced = {w.misconception for calc in used for w in wrong_formulas_of(calc)}
            attached += len(c.misconceptions)
            uncovered += [{"item": item.id, "criterion": c.id, "misconception": m}
                          for m in c.misconceptions if m not in produced]
    return {"attached": attached, "with_a_wrong_formula": attached - len(uncovered), "without": uncovered}


def numeric_figure(bank: Bank, after: Grader, before: Grader) -> dict[str, Any]:
    """Grade every probe with the numeric check on (`after`) and off (`before`) and report the shares."""
    built, skipped = probes(bank)
    rows = [(p.answer, p.target) for p in built]
    graded = list(zip(built, after.grade_many(rows), before.grade_many(rows), strict=True))
    model = {(p.item, p.variant): (a, b) for p, a, b in graded if p.kind == "model"}

    wrong = [(p, a, b) for p, a, b in graded if p.kind == "wrong"]
    contradicted = [p for p, a, _ in wrong if _verdict(a, p.criterion) is Verdict.CONTRADICTED]
    named = [p for p, a, _ in wrong if any(c.criterion_id == p.criterion and c.misconception_id == p.misconception
                                           for c in a.criteria)]
    slips = [(p, a) for p, a, _ in graded if p.kind == "slip"]
    partial = [p for p, a in slips if _verdict(a, p.criterion) is Verdict.PARTIAL
               and not any(c.criterion_id == p.criterion and c.misconception_id for c in a.criteria)]
    rewrites = [(p, a, b) for p, a, b in graded if p.kind == "rewrite"]
    still_met = [p for p, a, _ in rewrites if _verdict(a, p.criterion) is Verdict.MET]
    changes = [round(a.value - b.value, 4) for a, b in model.values()]
    return {
        "wrong_values": {
            "n": len(wrong),
            "contradicted_share": _share(len(contradicted), len(wrong)),
            "misconception_named_share": _share(len(named), len(wrong)),
            "before_contradicted_share": _share(
                sum(_verdict(b, p.criterion) is Verdict.CONTRADICTED for p, _, b in wrong), len(wrong)),
            "before_met_share": _share(sum(_verdict(b, p.criterion) is Verdict.MET for p, _, b in wrong), len(wrong)),
            "mean_score_after": _mean(a.value for _, a, _ in wrong),
            "mean_score_before": _mean(b.value for _, _, b in wrong),
            "not_contradicted": [_row(p, a) for p, a, _ in wrong if p not in contradicted],
            "misconception_not_named": [{**_row(p, a), "named": [c.misconception_id for c in a.criteria
                                                                 if c.criterion_id == p.criterion]}
                                        for p, a, _ in wrong if p not in named],
        },
        "slips": {  # right working equated to a wrong formula's number: partial, and no misconception named
            "n": len(slips),
            "partial_naming_nothing_share": _share(len(partial), len(slips)),
            "other": [_row(p, a) for p, a in slips if p not in partial],
        },
        "right_value_rewrites": {
            "n": len(rewrites),
            "met_share": _share(len(still_met), len(rewrites)),
            "before_met_share": _share(
                sum(_verdict(b, p.criterion) is Verdict.MET for p, _, b in rewrites), len(rewrites)),
            "not_met": [_row(p, a) for p, a, _ in rewrites if p not in still_met],
        },
        "model_answers": {
            "n": len(model),
            "mean_score_after": _mean(a.value for a, _ in model.values()),
            "mean_score_before": _mean(b.value for _, b in model.values()),
            "max_abs_change": max((abs(c) for c in changes), default=0.0),
            "contradicted_criteria_after": sum(c.verdict is Verdict.CONTRADICTED
                                               for a, _ in model.values() for c in a.criteria),
            "changed": [{"item": k[0], "variant": k[1], "before": round(b.value, 4), "after": round(a.value, 4)}
                        for k, (a, b) in model.items() if abs(a.value - b.value) >= 0.005],
        },
        "misconception_coverage": misconception_coverage(bank),
        "not_probed": skipped,
    }


def _mean(values: Iterator[float] | Any) -> float | None:
    vals = list(values)
    return round(sum(vals) / len(vals), 4) if vals else None


def _row(p: Probe, score: Score) -> dict[str, Any]:
    verdict = _verdict(score, p.criterion)
    return {"item": p.item, "variant": p.variant, "criterion": p.criterion, "quantity": p.quantity,
            "calc": p.calc, "written": p.written, "verdict": verdict.value if verdict else None}
