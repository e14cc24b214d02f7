"""The small fitted models that turn grading features into a score, and their versioned JSON file.

Models are logistic regressions on standardised features (soft targets in [0, 1] are fine), fitted by Newton's
method with an L2 penalty, in numpy. `coach calibrate grader` fits them on training splits and writes
`coach/data/grader_params.json`, which records the data, protocol, date and figures. Without that file the
built-in defaults below are used, so the grader works with no data present.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

PARAMS_VERSION = 1
PARAMS_FILE = "grader_params.json"
CROSS_PARAMS_FILE = "grader_params_cross.json"  # fitted with the cross-encoder's features (coach calibrate grader)


@dataclass(frozen=True)
class Model:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float

    def logit(self, f: Mapping[str, float]) -> float:
        z = self.intercept
        for name, m, s, c in zip(self.features, self.mean, self.scale, self.coef, strict=True):
            z += c * (f.get(name, m) - m) / s
        return z

    def predict(self, f: Mapping[str, float]) -> float:
        return _sigmoid(self.logit(f))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Model:
        return cls(features=tuple(d["features"]), mean=tuple(d["mean"]), scale=tuple(d["scale"]),
                   coef=tuple(d["coef"]), intercept=float(d["intercept"]))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def fit_logistic(rows: Sequence[Mapping[str, float]], y: Sequence[float] | np.ndarray, features: Sequence[str],
                 l2: float = 1.0, weights: Sequence[float] | np.ndarray | None = None, iters: int = 50) -> Model:
    """L2-penalised logistic regression; `y` may hold soft targets in [0, 1]."""
    x = np.array([[r[f] for f in features] for r in rows], dtype=float)
    t = np.clip(np.asarray(y, dtype=float), 0.0, 1.0)
    w = np.ones(len(t)) if weights is None else np.asarray(weights, dtype=float)
    w = w / w.mean()
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(t), 1))])
    beta = np.zeros(z.shape[1])
    pen = np.full(z.shape[1], l2 / len(t))
    pen[-1] = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(z @ beta, -40, 40)))
        grad = z.T @ (w * (p - t)) / len(t) + pen * beta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z / len(t) + np.diag(pen) + 1e-9 * np.eye(z.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return Model(features=tuple(features), mean=tuple(map(float, mean)), scale=tuple(map(float, scale)),
                 coef=tuple(map(float, beta[:-1])), intercept=float(beta[-1]))


@dataclass(frozen=True)
class Verdicts:
    """Criterion verdict cuts: on the bi-encoder's criterion match (see grader.criterion_score) and on the
    cross-encoder's reading of the best span (its expected credit; its probability of "contradicts")."""

    met: float = 0.55
    partial: float = 0.43
    misconception: float = 0.72  # bi-encoder alone (no cross-encoder): a misconception phrasing this close
    xe_met: float = 0.6
    xe_partial: float = 0.35
    xe_contra: float = 0.5
    xe_right: float = 0.3  # a span read as correct this surely keeps the criterion from being contradicted


# Built-in fallback, used when no params file is present: token recall of the reference's new words and
# its hard variant, set by hand to give about 0.5 at the typical recall of a half-right answer.
DEFAULT_BASE = Model(
    features=("tok_rec", "tok_rec_hard"), mean=(0.55, 0.35), scale=(0.12, 0.25), coef=(1.6, 0.6), intercept=0.4,
)


@dataclass(frozen=True)
class GraderParams:
    base: Model = DEFAULT_BASE
    anchored: Model | None = None  # used when the target carries graded examples
    verdicts: Verdicts = field(default_factory=Verdicts)
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def weights_whole_reading(self) -> bool:
        """Whether a model uses the cross-encoder's reading of the whole answer against the reference."""
        models = [m for m in (self.base, self.anchored) if m is not None]
        return any(f.startswith("xe_") for m in models for f in m.features)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": PARAMS_VERSION,
            **dict(self.meta),
            "models": {"base": self.base.to_json(),
                       **({"anchored": self.anchored.to_json()} if self.anchored else {})},
            "verdicts": asdict(self.verdicts),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> GraderParams:
        if int(d.get("version", 0)) != PARAMS_VERSION:
            raise ValueError(f"grader params version {d.get('version')} is not {PARAMS_VERSION}")
        models = d["models"]
        meta = {k: v for k, v in d.items() if k not in ("version", "models", "verdicts")}
        return cls(base=Model.from_json(models["base"]),
                   anchored=Model.from_json(models["anchored"]) if "anchored" in models else None,
                   verdicts=Verdicts(**d.get("verdicts", {})), meta=meta)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GraderParams:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def shipped_params_path(cross: bool = False) -> Path:
    return Path(str(resources.files("coach").joinpath("data", CROSS_PARAMS_FILE if cross else PARAMS_FILE)))


@lru_cache(maxsize=2)
def shipped_params(cross: bool = False) -> GraderParams:
    """The fitted params shipped with the package for the bi-encoder path, or for the path with the
    cross-encoder (fitted with its features); the bi-encoder's when the latter is absent, the built-in defaults
    when neither is there."""
    path = shipped_params_path(cross)
    if path.exists():
        return GraderParams.load(path)
    return shipped_params(False) if cross else GraderParams()
