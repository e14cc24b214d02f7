"""Pass sizes (providers/passes.py): a short group runs in fewer rows only where that changes no bit."""

from __future__ import annotations

import numpy as np

from coach.providers.passes import PASS_ROWS, exact_ladder, pass_rows


def test_the_ladder_keeps_only_the_sizes_whose_output_matches_the_largest() -> None:
    assert exact_ladder(lambda rows: np.ones(3, dtype=np.float32)) == PASS_ROWS
    # another kernel for small passes: the last bit differs, so those sizes are dropped
    assert exact_ladder(lambda rows: np.float32([1.0, 2.0 + (1e-6 if rows < 8 else 0.0)])) == (8, 16)
    assert exact_ladder(lambda rows: np.float32([rows])) == (16,)


def test_a_pass_takes_the_fewest_rows_of_the_ladder_that_hold_its_rows_never_more_than_a_full_pass() -> None:
    assert [pass_rows(n, 16, (4, 8, 16)) for n in (1, 4, 5, 8, 9, 16)] == [4, 4, 8, 8, 16, 16]
    assert [pass_rows(n, 12, (4, 8, 16)) for n in (3, 9, 12)] == [4, 12, 12]  # a token bound of 12 rows
    assert [pass_rows(n, 2, (4, 8, 16)) for n in (1, 2)] == [2, 2]  # long texts: fewer rows than the ladder's least
    assert [pass_rows(n, 16, (16,)) for n in (1, 16)] == [16, 16]  # no exact smaller size: the full pass
