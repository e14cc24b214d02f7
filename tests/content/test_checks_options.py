"""The issue-16 MCQ rules: numeric options are distinct numbers, and far enough apart under 'roughly'."""

from __future__ import annotations

from coach.content.checks_options import check_option_numbers, stated_numbers
from coach.content.schema import McqItem, Option, ValueSpec
from coach.vocab import Dimension


def _item(stem: str, texts: tuple[str, ...], **extra: object) -> McqItem:
    return McqItem(id="q1", difficulty="easy", concept="page", dimensions=(Dimension.QUANTITATIVE,), stem=stem,
                   explanation="Because " + "reasons " * 30,
                   options=tuple(Option(text=t, correct=i == 0) for i, t in enumerate(texts)), **extra)


def test_units_are_read_so_equal_sizes_compare_equal() -> None:
    (a, _), = stated_numbers("1,792 KiB")
    (b, _), = stated_numbers("1.75 MiB, the whole tensor")
    assert a == b
    assert stated_numbers("On H100 with Llama 3.1 70B, 53.7 ms")[0][1] == "53.7 ms"  # names are no numbers
    assert [n[0][1] for n in stated_numbers("2.39×, then 42.9%")] == ["dimensionless", "dimensionless"]


def test_two_options_with_the_same_number_are_an_error() -> None:
    item = _item("How big is the tensor?", ("512 KiB", "0.5 MiB", "64 KiB", "4,096 KiB"))
    msgs = check_option_numbers(item)
    assert len(msgs) == 1 and "options 1 ('512 KiB') and 2 ('0.5 MiB') state the same number" in msgs[0]
    assert check_option_numbers(_item("How big?", ("512 KiB", "1,792 KiB", "64 KiB", "4,096 KiB"))) == []


def test_the_same_number_in_another_unit_is_a_different_answer() -> None:
    assert check_option_numbers(_item("How big?", ("8 ms", "8 GB", "64 KiB", "4 s"))) == []


def test_options_that_are_not_all_single_numbers_are_left_out() -> None:
    item = _item("How many tokens does each GPU own?", (
        "It owns 8,192 tokens and receives 3 K/V chunks from its peers",
        "It owns 8,192 tokens and receives nothing from anyone at all",
        "It owns all 32,768 tokens of the prompt on every GPU",
        "It owns 8,192 tokens and receives one merged tensor"))
    assert check_option_numbers(item) == []


def test_roughly_needs_a_15_percent_gap_from_the_key() -> None:
    texts = ("About 2.39×, because each token reads the weights", "About 2.25×, because the HBM is larger",
             "About 1.00×, because the FLOPs are equal", "About 5.37×, because the two compound")
    msgs = check_option_numbers(_item("Roughly how many times faster?", texts))
    assert len(msgs) == 1 and "distractor 2 ('2.25×')" in msgs[0] and "within 5.9% of the key ('2.39×')" in msgs[0]
    # without "roughly" (in the stem or the key) the exact figures tell them apart
    exact = tuple(t.replace("About ", "") for t in texts)
    assert check_option_numbers(_item("How many times faster, to two decimals?", exact)) == []
    # "~" and "≈" count, and the key alone may say it
    assert check_option_numbers(_item("How many times faster?", ("~2.39×", *exact[1:])))
    assert check_option_numbers(_item("≈ how many times faster?", exact))


def test_the_gap_is_checked_in_every_variant() -> None:
    """A distractor that is far from the key in one variant and close in another is caught in the second."""
    item = _item(
        "Roughly what factor of S does each of {p} GPUs send?",
        ("About {key}× S", "About {ring}× S", "About 3.00× S", "About 5.00× S"),
        params={"p": (2, 8)},
        values={"key": ValueSpec(value=1.6, fmt=".2f"),
                "ring": ValueSpec(calc="ring_allreduce_factor", args={"p": "$p"}, fmt=".2f")},
    )
    msgs = check_option_numbers(item)  # p=2: 1.00 against 1.60, far; p=8: 1.75, within 9.4%
    assert len(msgs) == 1 and msgs[0].startswith("variant {'p': 8}") and "within 9.4%" in msgs[0]
