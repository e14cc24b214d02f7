"""Held-out, expert-scored domain answers: does the offline grader agree with an expert, and resist gaming?

The CSV (kept outside the repository, e.g. /work/heldout/domain_answers.csv) has the columns
id,question,reference_answer,answer,score,kind with kind one of genuine | stuffing | negation | question_copy |
off_topic | gibberish | injection | padding | non_english. Scores are the expert's, in [0, 1].

    python -m coach.evals.heldout PATH [--guards auto|on|off]

Reports Pearson between grader and expert on the genuine answers (target >= 0.75), and the grader's mean
score on each kind of gaming answer and overall on stuffing, negation, question copy, off-topic and injection
(target <= 0.25 of full marks).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from coach.evals.metrics import pearson
from coach.grading.score import Score, Verdict
from coach.grading.target import CriterionSpec, GradingTarget
from coach.grading.text import sentences
from coach.providers.base import Embedder
from coach.vocab import Dimension

KINDS = ("genuine", "stuffing", "negation", "question_copy", "off_topic", "gibberish", "injection", "padding",
         "non_english")
GAMING_KINDS = ("stuffing", "negation", "question_copy", "off_topic", "injection")
PEARSON_TARGET = 0.75
GAMING_TARGET = 0.25


class Grader(Protocol):
    def grade(self, answer: str, target: GradingTarget) -> Score: ...


@dataclass(frozen=True)
class HeldoutRow:
    id: str
    question: str
    reference: str
    answer: str
    score: float
    kind: str


def load_rows(path: str | Path) -> list[HeldoutRow]:
    with Path(path).open(newline="", encoding="utf-8") as fh:
        rows = [
            HeldoutRow(id=r["id"], question=r["question"], reference=r["reference_answer"], answer=r["answer"],
                       score=float(r["score"]), kind=r["kind"].strip())
            for r in csv.DictReader(fh)
        ]
    unknown = {r.kind for r in rows} - set(KINDS)
    if unknown:
        raise ValueError(f"Unknown kinds in {path}: {sorted(unknown)}")
    return rows


def _sentence_target(question: str, reference: str) -> GradingTarget:
    parts = sentences(reference) or [reference]
    return GradingTarget(
        key="heldout:" + hashlib.sha1(f"{question}\x00{reference}".encode()).hexdigest()[:16],
        question=question, reference=reference,
        criteria=tuple(
            CriterionSpec(id=f"s{i + 1}", description=s, weight=1.0 / len(parts), dimension=Dimension.CONCEPTUAL,
                          phrasings=(s,))
            for i, s in enumerate(parts)
        ),
        from_rubric=False,
    )


def target_builder() -> Callable[[str, str], GradingTarget]:
    """`coach.grading.offline.auto_rubric.auto_target` when present, else one criterion per reference sentence."""
    try:
        from coach.grading.offline.auto_rubric import auto_target
    except ImportError:
        return _sentence_target

    def build(question: str, reference: str) -> GradingTarget:
        return auto_target(question, reference)

    return build


def apply_guards(score: Score, answer_report: object) -> Score:
    """Apply a GuardReport to a score: contradicted criteria lose their credit, the scale and cap hold, flags
    and notes are added."""
    from coach.grading.guards.assess import GuardReport

    assert isinstance(answer_report, GuardReport)
    report = answer_report
    value = score.value
    criteria = score.criteria
    if report.negated_criteria:
        lost = sum(c.weight * _credit(c.verdict) for c in criteria if c.criterion_id in report.negated_criteria)
        value = max(0.0, value - lost)
        criteria = tuple(
            c.model_copy(update={"verdict": Verdict.CONTRADICTED, "reason": "the answer states the opposite"})
            if c.criterion_id in report.negated_criteria else c
            for c in criteria
        )
    flags = tuple(dict.fromkeys((*score.flags, *report.flags)))
    notes = tuple(dict.fromkeys((*score.notes, *report.notes)))
    value = min(value * report.scale, report.cap)
    return score.model_copy(update={"value": value, "criteria": criteria, "flags": flags, "notes": notes})


def _credit(verdict: Verdict) -> float:
    from coach.grading.score import VERDICT_CREDIT

    return VERDICT_CREDIT[verdict]


class GuardedGrader:
    """Runs the guards, grades the cleaned answer with the wrapped grader, then applies the report."""

    def __init__(self, grader: Grader, embedder: Embedder) -> None:
        self.grader = grader
        self.embedder = embedder

    def grade(self, answer: str, target: GradingTarget) -> Score:
        from coach.grading.guards.assess import assess

        report = assess(answer, target, self.embedder)
        score = apply_guards(self.grader.grade(report.clean_answer or answer, target), report)
        if report.clean_answer and report.clean_answer.strip() != answer.strip():  # as the embedding grader:
            whole = apply_guards(self.grader.grade(answer, target), report.graded_whole(answer))
            score = max(score, whole, key=lambda s: s.value)  # setting a sentence aside never costs
        return score


def applies_guards(grader: object) -> bool:
    """Whether a grader already runs `coach.grading.guards.assess` itself (then it must not be wrapped twice)."""
    if getattr(grader, "applies_guards", False) or getattr(grader, "use_guards", False):
        return True
    module = sys.modules.get(type(grader).__module__)
    return any(getattr(v, "__module__", None) == "coach.grading.guards.assess" or getattr(v, "__name__", None) ==
               "coach.grading.guards.assess" for v in vars(module).values()) if module else False


def _mean(xs: Iterable[float]) -> float | None:
    arr = list(xs)
    return float(np.mean(arr)) if arr else None


def evaluate_heldout(path: str | Path, grader: Grader,
                     build_target: Callable[[str, str], GradingTarget] | None = None) -> dict[str, object]:
    """Grade every row and compare with the expert. Returns plain numbers (JSON-serialisable)."""
    rows = load_rows(path)
    build = build_target or target_builder()
    targets: dict[tuple[str, str], GradingTarget] = {}
    predicted: list[float] = []
    flags: list[list[str]] = []
    for r in rows:
        key = (r.question, r.reference)
        if key not in targets:
            targets[key] = build(r.question, r.reference)
        s = grader.grade(r.answer, targets[key])
        predicted.append(float(s.value))
        flags.append([f.value for f in s.flags])
    by_kind: dict[str, dict[str, float | int | None]] = {}
    for kind in KINDS:
        idx = [i for i, r in enumerate(rows) if r.kind == kind]
        if not idx:
            continue
        by_kind[kind] = {
            "n": len(idx),
            "grader_mean": _mean(predicted[i] for i in idx),
            "expert_mean": _mean(rows[i].score for i in idx),
            "mae": _mean(abs(predicted[i] - rows[i].score) for i in idx),
            "flagged_share": _mean(1.0 if flags[i] else 0.0 for i in idx),
        }
    genuine = [i for i, r in enumerate(rows) if r.kind == "genuine"]
    scored_by_content = [i for i, r in enumerate(rows) if r.kind in ("genuine", "padding")]
    gaming = [i for i, r in enumerate(rows) if r.kind in GAMING_KINDS]
    r_genuine = pearson([predicted[i] for i in genuine], [rows[i].score for i in genuine])
    gaming_mean = _mean(predicted[i] for i in gaming)
    return {
        "path": str(path),
        "rows": len(rows),
        "questions": len(targets),
        "pearson_genuine": r_genuine,
        "pearson_genuine_and_padding": pearson([predicted[i] for i in scored_by_content],
                                                [rows[i].score for i in scored_by_content]),
        "n_genuine": len(genuine),
        "gaming_mean_overall": gaming_mean,
        "gaming_kinds": list(GAMING_KINDS),
        "by_kind": by_kind,
        "pearson_target": PEARSON_TARGET,
        "gaming_target": GAMING_TARGET,
        "pearson_ok": r_genuine >= PEARSON_TARGET,
        "gaming_ok": gaming_mean is not None and gaming_mean <= GAMING_TARGET,
        "per_row": [
            {"id": r.id, "kind": r.kind, "expert": r.score, "grader": round(predicted[i], 4), "flags": flags[i]}
            for i, r in enumerate(rows)
        ],
    }


def format_report(result: dict[str, object]) -> str:
    lines = [
        f"held-out set: {result['path']} ({result['rows']} rows, {result['questions']} questions)",
        f"Pearson on genuine answers (n={result['n_genuine']}): {result['pearson_genuine']:.3f} "
        f"(target >= {PEARSON_TARGET}) {'OK' if result['pearson_ok'] else 'BELOW TARGET'}",
        f"Pearson on genuine + padding (scored by their core): {result['pearson_genuine_and_padding']:.3f}",
    ]
    gm = result["gaming_mean_overall"]
    lines.append(f"mean score of gaming answers ({', '.join(GAMING_KINDS)}): "
                 f"{gm if gm is None else f'{gm:.3f}'} (target <= {GAMING_TARGET}) "
                 f"{'OK' if result['gaming_ok'] else 'ABOVE TARGET'}")
    lines.append(f"{'kind':14s} {'n':>3s} {'grader':>7s} {'expert':>7s} {'MAE':>6s} {'flagged':>8s}")
    by_kind = result["by_kind"]
    assert isinstance(by_kind, dict)
    for kind, m in by_kind.items():
        lines.append(f"{kind:14s} {m['n']:>3d} {m['grader_mean']:7.3f} {m['expert_mean']:7.3f} {m['mae']:6.3f} "
                     f"{m['flagged_share']:8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coach.evals.heldout", description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--guards", choices=("auto", "on", "off"), default="auto",
                        help="wrap the grader with coach.grading.guards.assess (auto: unless it already applies them)")
    parser.add_argument("--json", type=Path, default=None, help="also write the full result (with rows) here")
    args = parser.parse_args(argv)

    from coach.grading.offline.grader import EmbeddingGrader
    from coach.providers.st_embedder import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    base: Grader = EmbeddingGrader(embedder)
    if args.guards != "auto" and applies_guards(base):
        with contextlib.suppress(TypeError):  # the grader runs the guards itself: switch them off there
            base = EmbeddingGrader(embedder, use_guards=False)
    wrap = args.guards == "on" or (args.guards == "auto" and not applies_guards(base))
    grader: Grader = GuardedGrader(base, embedder) if wrap else base
    result = evaluate_heldout(args.path, grader)
    print(format_report(result))
    if wrap:
        how = "wrapped around the grader here"
    elif applies_guards(base):
        how = "applied by the grader itself"
    else:
        how = "off"
    print(f"guards: {how}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
