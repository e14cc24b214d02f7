"""Forward passes of a few fixed shapes, so that a row's output never depends on what it is batched with.

Texts are grouped by padded length; a group runs in passes of `most` rows (bounded by a token budget) and its last,
short pass in the fewest rows of a small ladder that hold it, rather than in `most` rows mostly of padding. That
is only sound where the machine's kernels give a row bitwise the same output in a pass of 4, 8 or 16 rows; on
this project's machines they do (1 or 2 rows take another kernel for the cross-encoder). `exact_ladder` checks it
once per model on the machine at hand and keeps only the sizes that agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

PASS_ROWS = (4, 8, 16)


def exact_ladder(run: Callable[[int], np.ndarray]) -> tuple[int, ...]:
    """The pass sizes whose output for a probe row is bitwise that of the largest; `run(rows)` runs the probe in a
    pass of that many rows and returns the probe row's output."""
    full = run(PASS_ROWS[-1])
    return tuple(r for r in PASS_ROWS[:-1] if np.array_equal(run(r), full)) + PASS_ROWS[-1:]


def pass_rows(members: int, most: int, ladder: tuple[int, ...]) -> int:
    """Rows of the pass that runs `members` rows of a group whose full passes take `most`."""
    return min(most, next((r for r in ladder if r >= members), most))


def padded(seqs: Sequence[Sequence[int]], rows: int, length: int) -> tuple[Any, Any]:
    """Token ids and attention mask of one pass of (rows, length): the sequences, then dummy rows (only their
    first position attended, so that no row is empty)."""
    import torch

    ids = torch.zeros((rows, length), dtype=torch.long)
    mask = torch.zeros((rows, length), dtype=torch.long)
    mask[:, 0] = 1
    for row, seq in enumerate(seqs):
        ids[row, : len(seq)] = torch.tensor(seq)
        mask[row, : len(seq)] = 1
    return ids, mask
