"""Sentence splitting: the spans every grader reads and the quotes the candidate is shown."""

from __future__ import annotations

from coach.grading.text import sentences

LONG = ("At batch 16, 835 tokens/s means a 16 ÷ 835 ≈ 19.2 ms step, matching 70.5 GB of FP8 weights plus 16 × 4,096 × "
        "320 KiB = 21.5 GB of KV read at 4.8 TB/s, already tight against 20 ms, and at batch 32 the step becomes "
        "113.4 GB ÷ 4.8 TB/s ≈ 23.6 ms (32 ÷ 1,353 ≈ 23.7 ms),so every token misses the SLO.")


def test_a_long_sentence_is_cut_at_its_commas_but_never_inside_a_number() -> None:
    parts = sentences(LONG)
    assert "matching 70.5 GB of FP8 weights plus 16 × 4,096 × 320 KiB = 21.5 GB of KV read at 4.8 TB/s" in parts
    assert "113.4 GB ÷ 4.8 TB/s ≈ 23.6 ms (32 ÷ 1,353 ≈ 23.7 ms)" in parts[-2]
    assert parts[0] == "At batch 16" and parts[-1] == "so every token misses the SLO."  # a comma with no space


def test_a_short_sentence_is_not_cut() -> None:
    text = "Each GPU holds 128,256 / 8 = 16,032 rows, so the lookup is local. The rest output zeros."
    assert sentences(text) == ["Each GPU holds 128,256 / 8 = 16,032 rows, so the lookup is local.",
                               "The rest output zeros."]
