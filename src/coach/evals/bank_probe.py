"""The bank's own grading figures (issue 16): does the offline grader, on the bank's rubrics, pass the bank's
model answers and fail the catalogue's statements of each attached misconception?

Per module:
- every short item's model answer (every variant) is graded against its own rubric, as the app grades an answer
  (`grading.attempt.target_for`, then `screen_offline`); it passes when it reaches the rubric's "strong" level;
- every catalogue statement of every misconception attached to a criterion is graded against that rubric (the
  item's first variant); it passes when that criterion's verdict is `contradicted` *and* the score is below
  the rubric's "partial" level.
Each figure is a share of passes and a mean score. With `stand_ins`, a misconception that has no statements yet
is represented by its phrasings ("phrasings": what the grader matches, so they fire almost by construction) or
by its one-line catalogue `statement` ("statement": never matched by the grader, the fairer stand-in), and the
result says how many stand-ins it graded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from coach.content.bank import Bank
from coach.content.render import render, variants
from coach.content.schema import Rubric, ShortItem, Status
from coach.evals.devsets import level
from coach.grading.attempt import target_for
from coach.grading.combine import screen_offline
from coach.grading.score import Score, Verdict
from coach.grading.target import GradingTarget

STRONG_DEFAULT = 0.8  # the levels every rubric states today; the defaults only cover a rubric without them
PARTIAL_DEFAULT = 0.45
BATCH = 64  # answers per grade_many call: batched forward passes, bounded memory
StandIns = Literal["phrasings", "statement"] | None


class Grader(Protocol):
    def grade_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[Score]: ...


@dataclass(frozen=True)
class Case:
    """One answer graded against one rubric, and what it must earn."""

    kind: Literal["model_answer", "statement"]
    module: str
    item: str
    variant: str  # the rendering's key (item@version[params])
    text: str
    rubric: Rubric
    criterion: str | None = None  # statements: the criterion the misconception is attached to
    misconception: str | None = None
    stand_in: bool = False  # a phrasing (or the catalogue statement) graded in place of missing statements


@dataclass(frozen=True)
class Outcome:
    case: Case
    score: float
    verdict: str | None  # statements: the verdict on their criterion
    passed: bool

    def detail(self) -> dict[str, Any]:
        c = self.case
        return {"kind": c.kind, "module": c.module, "item": c.item, "variant": c.variant,
                "criterion": c.criterion, "misconception": c.misconception, "statement": c.text,
                "stand_in": c.stand_in, "verdict": self.verdict, "score": round(self.score, 4),
                "needs": (f"score >= {strong(c.rubric)}" if c.kind == "model_answer" else
                          f"{c.criterion} contradicted and score < {partial(c.rubric)}")}


@dataclass
class ProbeResult:
    outcomes: list[Outcome] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)

    def failing(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.passed]

    stand_ins: StandIns = None

    def summary(self) -> dict[str, Any]:
        """The JSON contract: {"modules": [{id, model_answers, model_answers_strong, misconception_statements,
        misconceptions_contradicted, model_answer_mean, misconception_mean}]}; a share or mean over no case is
        null. When stand-ins were graded, a top-level "stand_ins" says how many per module."""
        out: dict[str, Any] = {"modules": []}
        stand_ins: dict[str, int] = {}
        for module in self.modules:
            models = [o for o in self.outcomes if o.case.module == module and o.case.kind == "model_answer"]
            stmts = [o for o in self.outcomes if o.case.module == module and o.case.kind == "statement"]
            out["modules"].append({
                "id": module,
                "model_answers": len(models),
                "model_answers_strong": _share([o.passed for o in models]),
                "misconception_statements": len(stmts),
                "misconceptions_contradicted": _share([o.verdict == Verdict.CONTRADICTED for o in stmts]),
                "model_answer_mean": _mean([o.score for o in models]),
                "misconception_mean": _mean([o.score for o in stmts]),
            })
            if any(o.case.stand_in for o in stmts):
                stand_ins[module] = sum(o.case.stand_in for o in stmts)
        if stand_ins:
            out["stand_ins"] = {"note": f"misconceptions without statements are represented by their "
                                        f"{self.stand_ins or 'phrasings'}", "per_module": stand_ins}
        return out


def strong(rubric: Rubric) -> float:
    return level(rubric, "strong", STRONG_DEFAULT)


def partial(rubric: Rubric) -> float:
    return level(rubric, "partial", PARTIAL_DEFAULT)


def _share(flags: Sequence[bool]) -> float | None:
    return round(sum(flags) / len(flags), 4) if flags else None


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def probe_cases(bank: Bank, module: str | None = None, *, stand_ins: StandIns = None) -> list[Case]:
    """Every case the probe grades, in a stable order (module, item, variant; then criterion, misconception)."""
    cases: list[Case] = []
    shorts = sorted((i for i in bank.items.values() if isinstance(i, ShortItem) and i.status == Status.PUBLISHED
                     and i.rubric in bank.rubrics and (module is None or i.module == module)),
                    key=lambda i: (i.module or "", i.id))
    for item in shorts:
        rubric = bank.rubrics[item.rubric]
        first = render(item)
        for variant in variants(item):
            rendered = render(item, variant)
            cases.append(Case("model_answer", item.module or "", item.id, rendered.key,
                              rendered.model_answer or "", rubric))
        for c in rubric.criteria:
            for mid in c.misconceptions:
                mis = bank.misconceptions.get(mid)
                if mis is None:
                    continue
                texts, stand_in = mis.statements, False
                if not texts and stand_ins is not None:
                    texts = mis.phrasings if stand_ins == "phrasings" else (mis.statement,)
                    stand_in = True
                cases += [Case("statement", item.module or "", item.id, first.key, t, rubric, c.id, mid, stand_in)
                          for t in texts]
    return cases


def run_probe(bank: Bank, grader: Grader, module: str | None = None, *, stand_ins: StandIns = None) -> ProbeResult:
    cases = probe_cases(bank, module, stand_ins=stand_ins)
    targets: dict[str, GradingTarget] = {}
    for item in {c.item for c in cases}:
        source = bank.items[item]
        for variant in variants(source):
            rendered = render(source, variant)
            targets[rendered.key] = target_for(bank, rendered)
    rows = [(c.text, targets[c.variant]) for c in cases]
    scores: list[Score] = []
    for start in range(0, len(rows), BATCH):
        scores += grader.grade_many(rows[start:start + BATCH])
    result = ProbeResult(modules=sorted({c.module for c in cases}), stand_ins=stand_ins)
    for case, raw in zip(cases, scores, strict=True):
        score = screen_offline(raw, case.text)  # as the app shows it with the judge off
        if case.kind == "model_answer":
            result.outcomes.append(Outcome(case, score.value, None, score.value >= strong(case.rubric)))
            continue
        verdict = next((r.verdict for r in score.criteria if r.criterion_id == case.criterion), None)
        passed = verdict == Verdict.CONTRADICTED and score.value < partial(case.rubric)
        result.outcomes.append(Outcome(case, score.value, str(verdict) if verdict else None, passed))
    return result


def table(result: ProbeResult) -> str:
    """The summary for humans."""
    def pct(x: float | None) -> str:
        return "   -" if x is None else f"{x:4.0%}"

    def num(x: float | None) -> str:
        return "   -" if x is None else f"{x:.2f}"

    lines = [f"{'module':<26} {'models':>6} {'strong':>6} {'mean':>5}   {'stmts':>5} {'contra':>6} {'mean':>5}"]
    summary = result.summary()
    for m in summary["modules"]:
        lines.append(f"{m['id']:<26} {m['model_answers']:>6} {pct(m['model_answers_strong']):>6} "
                     f"{num(m['model_answer_mean']):>5}   {m['misconception_statements']:>5} "
                     f"{pct(m['misconceptions_contradicted']):>6} {num(m['misconception_mean']):>5}")
    if "stand_ins" in summary:
        lines.append(f"stand-ins ({summary['stand_ins']['note']}): {summary['stand_ins']['per_module']}")
    return "\n".join(lines)


def details(result: ProbeResult) -> str:
    """One line per failing case: item, criterion, statement, verdict, score."""
    lines = []
    for o in result.failing():
        c = o.case
        if c.kind == "model_answer":
            lines.append(f"model answer {c.variant}: {o.score:.2f} < strong {strong(c.rubric)}")
        else:
            tag = f" ({result.stand_ins} stand-in)" if c.stand_in else ""
            lines.append(f"{c.item} / {c.criterion} / {c.misconception}{tag}: {c.text!r} -> {o.verdict}, "
                         f"{o.score:.2f} (needs contradicted and < {partial(c.rubric)})")
    return "\n".join(lines)
