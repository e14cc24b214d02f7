"""Per-item statistics: facility, discrimination (point-biserial and the upper/lower 27% index), option choice
rates, rubric-criterion rates, and the flags an author acts on.

Discrimination uses the rest score (the attempt's total without this item), so an item does not correlate
with itself. Items are grouped by id across versions unless `by_version` is asked.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from coach.analytics.records import ResponseRecord

MIN_RESPONSES = 30  # below this the statistics are noise (an upper/lower 27% group of 8 or fewer)
RARE_DISTRACTOR = 0.05
EXTREME_FACILITY = (0.05, 0.95)
GROUP = 0.27


class ItemStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    item_id: str
    type: str
    responses: int
    facility: float | None  # mean score
    point_biserial: float | None
    upper_lower: float | None  # facility in the top 27% by rest score minus the bottom 27%
    options: dict[str, float] = {}  # option text -> share of responses that chose it
    criteria: dict[str, dict[str, float]] = {}  # criterion -> verdict -> share
    flags: tuple[str, ...] = ()


def point_biserial(scores: np.ndarray, rest: np.ndarray) -> float | None:
    """Pearson correlation of the item score with the rest score (equal to point-biserial for 0/1 scores)."""
    if len(scores) < 3 or scores.std() == 0 or rest.std() == 0:
        return None
    return float(np.corrcoef(scores, rest)[0, 1])


def upper_lower(scores: np.ndarray, rest: np.ndarray) -> float | None:
    n = max(1, round(GROUP * len(scores)))
    if len(scores) < 2 * n or len(scores) < 4:
        return None
    order = np.argsort(rest, kind="stable")
    return float(scores[order[-n:]].mean() - scores[order[:n]].mean())


def item_stats(records: Sequence[ResponseRecord], *, key_text: str | None = None,
               option_texts: Sequence[str] = (), min_responses: int = MIN_RESPONSES) -> ItemStats:
    """Statistics of one item's responses. `option_texts` lists every option (so unchosen ones count as 0)."""
    if not records:
        raise ValueError("no responses")
    first = records[0]
    scores = np.array([r.score for r in records], dtype=float)
    rest = np.array([r.attempt_total for r in records], dtype=float) - scores  # the total without this item
    facility = float(scores.mean())
    options: dict[str, float] = {}
    if first.type == "mcq":
        counts: dict[str, int] = dict.fromkeys(option_texts, 0)
        for r in records:
            if r.chosen_text is not None:
                counts[r.chosen_text] = counts.get(r.chosen_text, 0) + 1
        options = {t: c / len(records) for t, c in counts.items()}
    criteria: dict[str, dict[str, float]] = {}
    if first.type == "short":
        tallies: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for r in records:
            for cid, verdict in r.criteria.items():
                tallies[cid][verdict] += 1
        criteria = {cid: {v: n / sum(t.values()) for v, n in sorted(t.items())} for cid, t in sorted(tallies.items())}
    pb, ul = point_biserial(scores, rest), upper_lower(scores, rest)
    flags = []
    if len(records) < min_responses:
        flags.append(f"too few responses to say: {len(records)} of the {min_responses} needed")
    else:
        if pb is not None and pb < 0:
            flags.append(f"negative discrimination (point-biserial {pb:.2f}): stronger candidates do worse")
        if facility >= EXTREME_FACILITY[1]:
            flags.append(f"almost everyone gets it ({facility:.0%})")
        if facility <= EXTREME_FACILITY[0]:
            flags.append(f"almost no one gets it ({facility:.0%})")
        keys = {key_text} | {r.chosen_text for r in records if r.score >= 1}  # a variant's key has its own text
        for text, share in options.items():
            if text not in keys and share < RARE_DISTRACTOR:
                flags.append(f"distractor chosen by {share:.0%} (< {RARE_DISTRACTOR:.0%}): {text!r}")
    return ItemStats(item_id=first.item_id, type=first.type, responses=len(records), facility=facility,
                     point_biserial=None if pb is None or math.isnan(pb) else pb, upper_lower=ul, options=options,
                     criteria=criteria, flags=tuple(flags))
