"""Numbers with units read from answers, and their conversion: each form the numeric check must read."""

from __future__ import annotations

import pytest

from coach.grading.numeric.check import matches
from coach.grading.numeric.extract import Found, extract
from coach.units import base_of, parse_unit, quantity


def claims(text: str) -> list[Found]:
    return [f for f in extract(text) if not f.operand]


def only(text: str) -> Found:
    found = claims(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("text", "base", "dims"),
    [
        ("320 KiB", 320 * 1024, "[information]"),
        ("0.32 MB", 320_000, "[information]"),
        ("43 GB", 43e9, "[information]"),
        ("6 ms", 0.006, "[time]"),
        ("43%", 0.43, "dimensionless"),
        ("3/7", 3 / 7, "dimensionless"),
        ("1.8 TB/s", 1.8e12, "[information] / [time]"),
        ("400 Gb/s", 50e9, "[information] / [time]"),  # bits, not bytes
        ("258,048 B", 258_048, "[information]"),
        ("3.7×", 3.7, "dimensionless"),
        ("~300 FLOPs/byte", 300, "[compute] / [information]"),
        ("1.2e12", 1.2e12, "dimensionless"),
        ("2^30", 2**30, "dimensionless"),
        ("10 µs", 1e-5, "[time]"),
        ("1,800 tok/s", 1800, "1 / [time]"),
        ("1000 TFLOP/s", 1e15, "[compute] / [time]"),
        ("2.4x", 2.4, "dimensionless"),
        ("8k tokens", 8000, "dimensionless"),
        ("0.49 million tokens", 490_000, "dimensionless"),
        ("516,096 bytes per token", 516_096, "[information]"),
        ("a 2-byte weight", 2, "[information]"),
        ("1.5 GiB", 1.5 * 2**30, "[information]"),
    ],
)
def test_each_listed_form_reads_with_its_unit(text: str, base: float, dims: str) -> None:
    found = only(text)
    assert found.base == pytest.approx(base, rel=1e-9)
    assert found.dims == dims


def test_bits_and_bytes_differ_by_eight() -> None:
    assert only("400 Gb/s").base * 8 == pytest.approx(only("400 GB/s").base)


def test_written_arithmetic_is_evaluated_with_units_and_its_numbers_are_operands() -> None:
    found = extract("The ridge is 1000 TFLOP/s ÷ 3.35 TB/s ≈ 299 FLOPs per byte.")
    value = next(f for f in found if f.derived)
    assert value.base == pytest.approx(1e15 / 3.35e12)
    assert value.dims == "[compute] / [information]"
    assert {f.text for f in found if f.operand} == {"1000 TFLOP/s", "3.35 TB/s"}
    assert [f.magnitude for f in claims("`2·126·8·128·2` = 516,096 bytes")] == [516_096, 516_096]
    assert only("61·(512+64)·2").base == 70_272
    assert only("(16.1 + 34.4) GB").base == pytest.approx(50.5e9)
    assert only("2 × 10^12 FLOP/s").base == pytest.approx(2e12)
    assert only("160 × 10 µs").base == pytest.approx(1.6e-3)
    assert only("32 × 8192 tokens × 128 KiB").base == pytest.approx(32 * 8192 * 131072)


def test_a_piece_of_a_formula_broken_by_a_name_is_no_claim() -> None:
    # "top-8" is a name inside the product, so "7,168 x 2 bytes" (14 KiB) is an input, not the candidate's total
    assert claims("all-to-alls move tokens x top-8 x 7,168 x 2 bytes per layer") == []
    assert claims("each GPU sends 2 x hidden x 2 bytes") == []
    assert [f.base for f in claims("the dispatch is 8 x 7,168 x 2 bytes")] == [8 * 7168 * 2]


def test_numbers_glued_to_names_are_not_quantities() -> None:
    assert claims("H100 with TP8 and FP8 on DeepSeek-V3 (top-8) over PCIe Gen5 x16") == []


def test_a_number_hyphenated_to_a_word_names_a_size_and_states_no_quantity() -> None:
    # read bare, the width 7,168 was DeepSeek-V3's dispatch "sent once" wrong value, 7,168 B (a right paraphrase)
    assert claims("every token's 7,168-wide hidden state goes to an 8-way expert group") == []
    assert [(f.text, f.unit) for f in claims("2-byte weights and a 64-token batch")] == [("2-byte", "byte"),
                                                                                          ("64-token", "token")]
    assert [f.text for f in claims("3-5 ms")] == ["3", "5 ms"]  # a range, not a modifier


def test_a_lists_markers_state_no_quantity() -> None:
    # "(3)" was read as 3, what the bubble-against-ideal-compute wrong formula gives, in a right paraphrase
    assert claims("Three fixes: (1) more micro-batches, (2) fewer stages, (3) tensor parallelism.") == []
    assert [f.text for f in claims("1. Prefill streams 3.35 TB/s.\n2) Decode takes 6 ms")] == ["3.35 TB/s", "6 ms"]
    assert "2" in [f.text for f in claims("The answer is 2. Then 3 ms.")]  # a sentence ending in a number


def test_a_ratio_in_words_is_a_ratio_and_times_between_factors_multiplies() -> None:
    assert [(f.text, f.unit) for f in claims("a 7.34-fold saving, about 3.67 times larger")] == [
        ("7.34-fold", "×"), ("3.67 times", "×")]
    assert only("8 times 128 bytes").base == 8 * 128  # a product, as before


def test_a_ratio_sign_before_a_number_multiplies() -> None:
    assert only("8 x 7168").base == 8 * 7168
    assert only("8x7168").base == 8 * 7168
    assert only("7.34× larger").unit == "×"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("from 0.26, 0.53 and 0.79 s", [("0.26", 0.26), ("0.53", 0.53), ("0.79 s", 0.79)]),
        ("between 3 and 5 ms", [("3", 0.003), ("5 ms", 0.005)]),
        ("3-5 ms", [("3", 0.003), ("5 ms", 0.005)]),
        ("3 to 5 ms", [("3", 0.003), ("5 ms", 0.005)]),
        ("between 40 and 60%", [("40", 0.4), ("60%", 0.6)]),
    ],
)
def test_a_series_shares_the_unit_written_at_its_end(text: str, read: list[tuple[str, float]]) -> None:
    found = claims(text)
    assert [f.text for f in found] == [t for t, _ in read]
    assert [f.base for f in found] == [pytest.approx(b) for _, b in read]
    assert len({f.dims for f in found}) == 1


def test_a_clause_after_a_comma_is_no_series_and_a_ratio_to_one_is_a_ratio() -> None:
    assert [(f.text, f.unit) for f in claims("At batch 16, 835 tokens/s")] == [("16", ""), ("835 tokens/s", "tokens/s")]
    assert [(f.text, f.unit) for f in claims("about 2.4 to 2.6 to 1")] == [("2.4", "×"), ("2.6", "×")]
    assert [(f.text, f.unit) for f in claims("a 3:1 split")] == [("3", "×")]
    assert [(f.text, f.unit) for f in claims("from 4 to 8 replicas")] == [("4", ""), ("8", "")]  # no unit, no ratio


def test_unparseable_arithmetic_falls_back_to_each_number() -> None:
    # units that cannot be added: each number stands alone rather than the text being lost
    assert [f.base for f in claims("6 ms + 3 GB")] == [pytest.approx(0.006), 3e9]


def test_conversion_compares_across_units_and_reads_bare_numbers_in_the_expected_unit() -> None:
    assert matches(only("504 KiB"), 516_096, "B", 0.05)
    assert matches(only("0.516 MB"), 516_096, "B", 0.05)
    assert matches(only("50 GB/s"), 400, "Gb/s", 0.05)
    assert not matches(only("400 GB/s"), 400, "Gb/s", 0.05)  # 8x off
    assert matches(only("0.006 s"), 6.0, "ms", 0.05)
    assert matches(only("43"), 42.9, "GB", 0.05)  # bare: read in the expected unit
    assert matches(only("3/7"), 42.86, "%", 0.05)  # a fraction against a percent
    assert matches(only("43%"), 42.86, "%", 0.05)
    assert not matches(only("43 ms"), 42.9, "GB", 0.05)  # wrong dimension
    assert not matches(only("46 GB"), 42.9, "GB", 0.05)  # 7% off


def test_registry_knows_the_domain_units_and_rejects_others() -> None:
    for unit in ("B", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "Gb/s", "GB/s", "FLOP/s", "tok/s", "%", "x",
                 "ms", "µs", "s", "FLOP/byte", ""):
        assert parse_unit(unit) is not None, unit
    for unit in ("GPUs", "parsecs", "is"):
        assert parse_unit(unit) is None
    assert base_of(quantity(1, "Gb")) == (0.125e9, "[information]")
