"""My progress: per module the latest and best readiness results, each dimension's series, ready or not,
and the module to suggest next. Pure over the candidate's stored attempts and the bank."""

from __future__ import annotations

from datetime import datetime

from coach.content.bank import Bank
from coach.service import convert
from coach.service.views import View
from coach.store.records import AttemptRecord
from coach.vocab import Dimension


class ResultPoint(View):
    attempt_id: str
    at: datetime
    overall: float
    band: str


class DimensionPoint(View):
    attempt_id: str
    at: datetime
    value: float


class ModuleProgress(View):
    module: str
    title: str
    checks: int  # graded readiness checks
    practice: int  # graded practice tests
    latest: ResultPoint | None
    best: ResultPoint | None
    overall_series: tuple[ResultPoint, ...]
    series: dict[Dimension, tuple[DimensionPoint, ...]]  # readiness checks only, oldest first
    ready: bool  # a readiness check reached the threshold


class JourneyProgress(View):
    modules: tuple[ModuleProgress, ...]  # learning-path order
    threshold: float
    suggested_next: str | None  # the first open module on the path not yet ready; None when all are


def _point(r: AttemptRecord) -> ResultPoint:
    assert r.overall is not None and r.band is not None
    return ResultPoint(attempt_id=r.id, at=convert.when(r), overall=r.overall, band=r.band)


def module_progress(bank: Bank, module: str, records: list[AttemptRecord], threshold: float) -> ModuleProgress:
    graded = sorted((r for r in records if r.module == module and r.state == "graded" and r.overall is not None),
                    key=convert.when)
    checks = [r for r in graded if r.kind == "readiness"]
    points = tuple(_point(r) for r in checks)
    series: dict[Dimension, tuple[DimensionPoint, ...]] = {}
    for dim in Dimension:
        series[dim] = tuple(
            DimensionPoint(attempt_id=r.id, at=convert.when(r), value=v)
            for r in checks
            if (v := convert.dimension_values(r).get(dim)) is not None
        )
    best = max(points, key=lambda p: (p.overall, p.at)) if points else None
    return ModuleProgress(
        module=module,
        title=bank.modules[module].title if module in bank.modules else module,
        checks=len(checks),
        practice=len(graded) - len(checks),
        latest=points[-1] if points else None,
        best=best,
        overall_series=points,
        series=series,
        ready=best is not None and best.overall >= threshold,
    )


def journey_progress(bank: Bank, records: list[AttemptRecord], threshold: float) -> JourneyProgress:
    order = [m for m in bank.path.modules if m in bank.modules]
    modules = tuple(module_progress(bank, m, records, threshold) for m in order)
    open_ids = {m.id for m in bank.ready_modules()}
    suggested = next((p.module for p in modules if p.module in open_ids and not p.ready), None)
    return JourneyProgress(modules=modules, threshold=threshold, suggested_next=suggested)
