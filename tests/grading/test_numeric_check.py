"""The numeric check: right values, named wrong formulas evaluated on the item's own arguments, the guards
against inventing a mistake, and how the result combines with a criterion's semantic verdict."""

from __future__ import annotations

import pytest

from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import ExpectedQuantity, NumericCheck
from coach.grading.numeric.build import numeric_spec, wrong_values
from coach.grading.numeric.check import NumericStatus, check_numbers, given_numbers
from coach.grading.numeric.spec import NumericSpec, QuantitySpec, WrongValue
from coach.grading.numeric.verdict import combine
from coach.grading.score import CriterionResult, Verdict
from coach.vocab import Dimension

KV = NumericCheck(quantities=(ExpectedQuantity(value="b405", unit="B"),))
KNEE = NumericCheck(quantities=(ExpectedQuantity(value="ridge", unit="FLOP/byte"),
                                ExpectedQuantity(value="bstar", unit="", wrong_args={"link_id": "nvlink4"})), need=1)


def test_wrong_formulas_are_evaluated_on_the_items_own_arguments(bank: Bank) -> None:
    item = bank.items["if-kv-gqa-vs-mla"]
    wrong, _ = wrong_values(item, KV.quantities[0], {}, bank.misconceptions)
    by_calc = {w.calc: w for w in wrong}
    assert by_calc["kv_bytes_per_token_no_kv_factor"].shown == 126 * 8 * 128 * 2  # 258,048: K/V factor dropped
    assert by_calc["kv_bytes_per_token_q_heads"].shown == 2 * 126 * 128 * 128 * 2
    assert by_calc["kv_bytes_per_token_no_kv_factor"].misconception_id == "kv-forgets-k-and-v"
    assert by_calc["kv_bytes_per_token_no_kv_factor"].statement == bank.misconceptions["kv-forgets-k-and-v"].statement


def test_a_wrong_formula_needing_an_argument_the_item_lacks_is_reported_not_guessed(bank: Bank) -> None:
    item = bank.items["if-rl-knee"]
    bare = ExpectedQuantity(value="bstar", unit="")
    wrong, unproduced = wrong_values(item, bare, {}, bank.misconceptions)
    assert "compute_bound_batch_link" not in {w.calc for w in wrong}
    assert any(u.calc == "compute_bound_batch_link" and "link_id" in u.reason for u in unproduced)
    wrong, _ = wrong_values(item, KNEE.quantities[1], {}, bank.misconceptions)
    link = next(w for w in wrong if w.calc == "compute_bound_batch_link")
    assert link.shown == pytest.approx(1000e12 / 450e9)  # NVLink 4's 450 GB/s in place of HBM's 3.35 TB/s


def _spec(bank: Bank, item_id: str, check: NumericCheck) -> tuple[NumericSpec, tuple]:  # type: ignore[type-arg]
    item = bank.items[item_id]
    rendered = render(item)
    return numeric_spec(item, check, {}, bank.misconceptions), given_numbers(rendered.stem, rendered.model_answer or "")


def test_right_value_in_any_unit_is_met(bank: Bank) -> None:
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    for text in ("2·126·8·128·2 = 516,096 B per token", "about 504 KiB per token", "roughly 0.52 MB", "516096"):
        assert check_numbers(text, spec, given).status is NumericStatus.MET, text


def test_a_wrong_formulas_value_is_wrong_and_names_the_misconception(bank: Bank) -> None:
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    result = check_numbers("126·8·128·2 = 258,048 B per token, so 3.7× larger", spec, given)
    assert result.status is NumericStatus.WRONG
    wrong = result.wrong[0]
    assert wrong.wrong is not None and wrong.wrong.misconception_id == "kv-forgets-k-and-v"
    assert wrong.found is not None and wrong.found.text == "258,048 B per token"
    assert "258,048 B per token" in result.reason() and "expected 516,096 B" in result.reason()


def test_right_value_beside_a_wrong_one_is_not_a_mistake(bank: Bank) -> None:
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    text = "With the K/V factor it is 516,096 B; forgetting it gives 258,048 B."
    assert check_numbers(text, spec, given).status is NumericStatus.MET


def test_a_series_of_times_is_read_in_its_unit_so_its_right_value_is_no_mistake(bank: Bank) -> None:
    prefill = NumericCheck(quantities=(ExpectedQuantity(value="prefill", unit="ms", tolerance=0.1),))
    spec, given = _spec(bank, "if-tt-queued-ttft", prefill)
    # 0.79 s is what the 6-FLOPs-per-parameter mistake gives for one prefill, and three prefills here: the series
    # "0.26, 0.53 and 0.79 s" states the right 263 ms first
    text = "the first three get worse (from 0.26, 0.53 and 0.79 s to ~1.05 s)."
    assert check_numbers(text, spec, given).status is NumericStatus.MET
    assert check_numbers("one prefill takes 0.79 s", spec, given).status is NumericStatus.WRONG


def test_a_slip_after_the_right_working_names_no_misconception(bank: Bank) -> None:
    # 2.4 ms is the weights-only floor (kv-reads-free), but the working counts the KV term: naming the
    # misconception would tell the candidate to unlearn a claim they did not make
    item = bank.items["if-dm-fp8-speedup"]
    check = next(c for c in bank.rubric_for(item).criteria if c.id == "kv-dominates").numeric  # type: ignore[union-attr]
    assert check is not None
    spec = numeric_spec(item, check, {}, bank.misconceptions)
    rendered = render(item)
    given = given_numbers(rendered.stem, rendered.model_answer or "")
    assert any(w.shown == pytest.approx(2.4, abs=0.05) for q in spec.quantities if q.name == "t8" for w in q.wrong)
    slip = check_numbers("(8.0 + 34.4) GB over 3.35 TB/s is 2.4 ms, and 34.4 GB of KV", spec, given)
    assert slip.status is NumericStatus.SLIP and not slip.wrong
    assert "gives 12.7 ms, but you wrote 2.4 ms" in slip.reason()
    listed = check_numbers("(8.0 + 34.4) GB over 3.35 TB/s, so 15.1 ms to 2.4 ms", spec, given)
    assert listed.status is not NumericStatus.WRONG  # the working, not equated, still gives the right value
    bare = check_numbers("the FP8 step is 2.4 ms while the KV cache is 34.4 GB", spec, given)
    assert bare.status is NumericStatus.WRONG and bare.wrong[0].wrong is not None
    assert bare.wrong[0].wrong.misconception_id == "kv-reads-free"


def test_operands_and_numbers_the_item_states_are_never_wrong_values() -> None:
    wrong = WrongValue(calc="w", shown=4.0, statement="one all-reduce per matmul")
    spec = NumericSpec(quantities=(QuantitySpec(name="ar", shown=2.0, unit="", text="2", wrong=(wrong,)),), need=1)
    assert check_numbers("I count 4 all-reduces per layer", spec).status is NumericStatus.WRONG
    assert check_numbers("4 × 10 µs of fixed cost", spec).status is NumericStatus.ABSENT  # an operand
    given = given_numbers("Llama on TP with 4 GPUs")
    assert check_numbers("on 4 GPUs", spec, given).status is NumericStatus.ABSENT  # the question's own 4


def test_knee_reads_the_ridge_and_the_nvlink_mistake(bank: Bank) -> None:
    spec, given = _spec(bank, "if-rl-knee", KNEE)
    right = check_numbers("1000e12/3.35e12 ≈ 300 FLOPs/byte, so near B = 300", spec, given)
    assert right.status is NumericStatus.MET and right.derived
    nvlink = check_numbers("ridge = 1000 TFLOP/s over NVLink 450 GB/s, knee ≈ 2,200", spec, given)
    assert nvlink.status is NumericStatus.WRONG
    assert nvlink.wrong[0].wrong is not None
    assert nvlink.wrong[0].wrong.misconception_id == "roofline-uses-link-bandwidth"


def _semantic(verdict: Verdict, evidence: str | None = "the words", mis: str | None = None) -> CriterionResult:
    return CriterionResult(criterion_id="c", description="d", weight=1.0, dimension=Dimension.QUANTITATIVE,
                           verdict=verdict, evidence=evidence, misconception_id=mis)


SPEC = NumericSpec(quantities=(
    QuantitySpec(name="a", shown=42.9, unit="GB", text="42.9 GB",
                 wrong=(WrongValue(calc="w", shown=5.36, misconception_id="gbit-is-gbyte", statement="Gb is GB"),)),
    QuantitySpec(name="b", shown=6.0, unit="ms", text="6.0 ms")), need=2)


@pytest.mark.parametrize(
    ("need", "answer", "semantic", "expected"),
    [
        # a wrong formula's number: contradicted whatever the words
        (2, "It is 5.36 GB and 6 ms.", Verdict.MET, Verdict.CONTRADICTED),
        (2, "It is 5.36 GB and 6 ms.", Verdict.MISSED, Verdict.CONTRADICTED),
        # the right numbers: met when the words earn at least partial, or two or more numbers are right
        (2, "It is 43 GB. That takes 6 ms.", Verdict.MET, Verdict.MET),
        (2, "It is 43 GB. That takes 6 ms.", Verdict.MISSED, Verdict.MET),
        (2, "It is 43 GB. That takes 6 ms.", Verdict.CONTRADICTED, Verdict.MET),
        (1, "It is 43 GB.", Verdict.PARTIAL, Verdict.MET),
        (1, "It is 43 GB.", Verdict.MISSED, Verdict.PARTIAL),
        (1, "It is 43 GB.", Verdict.CONTRADICTED, Verdict.PARTIAL),
        (1, "It is 40 GiB.", Verdict.MISSED, Verdict.PARTIAL),
        # ... or met on missed words when the answer writes out the arithmetic
        (1, "That takes 43 GB / 7.2 TB/s.", Verdict.MISSED, Verdict.MET),
        # some of the numbers: partial
        (2, "It is 43 GB.", Verdict.MET, Verdict.PARTIAL),
        (2, "It is 43 GB.", Verdict.MISSED, Verdict.PARTIAL),
        # no number: at most partial
        (2, "It is large and slow.", Verdict.MET, Verdict.PARTIAL),
        (2, "It is large and slow.", Verdict.PARTIAL, Verdict.PARTIAL),
        (2, "It is large and slow.", Verdict.MISSED, Verdict.MISSED),
    ],
)
def test_verdict_combination(need: int, answer: str, semantic: Verdict, expected: Verdict) -> None:
    result = combine(_semantic(semantic), check_numbers(answer, SPEC.model_copy(update={"need": need})), answer)
    assert result.verdict is expected
    if expected is not Verdict.MISSED:
        assert result.evidence and result.evidence in answer + "the words"
    assert result.reason


def test_working_equated_to_a_wrong_result_is_the_wrong_result(bank: Bank) -> None:
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    assert check_numbers("126·8·128·2 = 258,048 B", spec, given).status is NumericStatus.WRONG  # no K/V factor
    assert check_numbers("2·126·8·128·2 = 516,096 B", spec, given).derived


@pytest.mark.parametrize("text", ["2·126·8·128·2 = 258,048 B per token", "2·126·8·128·2 is 258,048 B",
                                  "2·126·8·128·2, which comes to about 450,000 B"])
def test_right_working_equated_to_another_number_is_a_slip_naming_no_formula(bank: Bank, text: str) -> None:
    """The working counts the K/V factor, so 258,048 B is a slip of arithmetic, not kv-forgets-k-and-v."""
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    result = check_numbers(text, spec, given)
    assert result.status is NumericStatus.SLIP and not result.wrong and not result.right
    assert "your working 2·126·8·128·2 gives 516,096 B, but you wrote" in result.reason()
    judged = combine(_semantic(Verdict.MET), result, text)
    assert judged.verdict is Verdict.PARTIAL and judged.misconception_id is None and judged.by_numbers
    assert judged.evidence == text and "check the arithmetic" in judged.reason


def test_a_working_followed_by_a_number_of_another_kind_claims_nothing(bank: Bank) -> None:
    spec, given = _spec(bank, "if-kv-gqa-vs-mla", KV)
    assert check_numbers("2·126·8·128·2 = 516,096 B, is 7.3 times", spec, given).status is NumericStatus.MET
    assert check_numbers("per token 2·126·8·128·2 bytes, is 3 ms late", spec, given).status is NumericStatus.MET


def test_a_bare_number_the_question_gives_is_not_the_right_value() -> None:
    spec = NumericSpec(quantities=(QuantitySpec(name="b", shown=15.8, unit="%", text="15.8%"),), need=1)
    inputs = given_numbers("compute the bubble for 4 stages with 4 versus 16 micro-batches")
    assert check_numbers("with 16 it is small", spec, inputs, inputs).status is NumericStatus.ABSENT
    assert check_numbers("with 16 it is 15.8%", spec, inputs, inputs).status is NumericStatus.MET


def test_a_number_with_a_unit_the_question_gives_is_not_a_nearby_right_value() -> None:
    step = QuantitySpec(name="step", shown=19.2, unit="ms", text="19.2 ms",
                        wrong=(WrongValue(calc="w", shown=14.7, statement="the KV reads are free"),))
    tps = QuantitySpec(name="tps", shown=835.4, unit="tok/s", text="835 tok/s")
    spec = NumericSpec(quantities=(step, tps), need=1)
    inputs = given_numbers("a TPOT SLO of 20 ms; tokens per second rise from about 835 tok/s")
    # the SLO is within 5% of the step time, but it is the question's number, so the wrong 14.7 ms stands
    result = check_numbers("the step is about 14.7 ms, inside the 20 ms target", spec, inputs, inputs)
    assert result.status is NumericStatus.WRONG
    assert [q.spec.name for q in result.wrong] == ["step"]
    # a result the candidate computed that rounds near the question's number is still theirs
    assert check_numbers("the step is about 19.5 ms", spec, inputs, inputs).right[0].spec.name == "step"
    # and a value the question itself states, as the rubric expects it repeated, counts
    assert check_numbers("throughput is 835 tok/s", spec, inputs, inputs).right[0].spec.name == "tps"


def test_combination_quotes_the_sentence_with_the_wrong_number_and_drops_an_unfounded_misconception() -> None:
    answer = "The cache is big. It is 5.36 GB and 6 ms."
    result = combine(_semantic(Verdict.MET), check_numbers(answer, SPEC), answer)
    assert result.evidence == "It is 5.36 GB and 6 ms."
    assert result.misconception_id == "gbit-is-gbyte"
    assert "you wrote 5.36 GB" in result.reason and "expected 42.9 GB" in result.reason
    right = "It is 43 GB. That takes 6 ms."
    lifted = combine(_semantic(Verdict.CONTRADICTED, mis="some-id"), check_numbers(right, SPEC), right)
    assert lifted.misconception_id is None and lifted.evidence == "It is 43 GB."


def test_optional_numbers_change_nothing_when_absent() -> None:
    optional = SPEC.model_copy(update={"need": 0})
    semantic = _semantic(Verdict.MET)
    assert combine(semantic, check_numbers("No numbers here.", optional), "No numbers here.") == semantic
    wrong = "It is 5.36 GB."
    assert combine(semantic, check_numbers(wrong, optional), wrong).verdict is Verdict.CONTRADICTED


@pytest.mark.parametrize(
    ("answer", "given", "expected"),
    [
        # optional numbers, but the one the point rests on is of an expected kind and none of the values
        ("The step takes about 24 ms.", "", Verdict.PARTIAL),
        ("About 17 GB of it is read.", "", Verdict.PARTIAL),
        # a count or a ratio is stated for many reasons: it backs no expected size or time
        ("It needs 8 GPUs and is 3.2x slower.", "", Verdict.MET),
        # a number the question or the model answer states is theirs, not a wrong figure
        ("With a 24 ms SLO it is tight.", "The SLO is 24 ms.", Verdict.MET),
        # an input to the answer's own arithmetic is no claim: its result is (2.36 ms, not the 6.0 ms expected)
        ("Reading 17 GB / 7.2 TB/s gives the step.", "", Verdict.PARTIAL),
    ],
)
def test_an_optional_figure_of_the_expected_kind_that_is_none_of_the_values_is_partial(
        answer: str, given: str, expected: Verdict) -> None:
    optional = SPEC.model_copy(update={"need": 0})
    result = combine(_semantic(Verdict.MET), check_numbers(answer, optional, given_numbers(given)), answer)
    assert result.verdict is expected
    if expected is Verdict.PARTIAL:
        assert result.reason.startswith("you wrote") and ("expects (6.0 ms)" in result.reason
                                                          or "expects (42.9 GB)" in result.reason)
        assert "no number found" not in result.reason


# Error carried forward: a value that follows from the answer's own slip is credited once the slip is counted.
SIZE = NumericSpec(quantities=(QuantitySpec(name="gqa", shown=516096, unit="B", text="516,096 B"),), need=1)
RATIO = NumericSpec(quantities=(QuantitySpec(name="mla", shown=70272, unit="B", text="70,272 B"),
                                QuantitySpec(name="ratio", shown=7.34, unit="×", text="7.34×")), need=2)
SLIPPED = "2·126·8·128·2 = 258,048 B per token, against MLA's 70,272 B"


@pytest.mark.parametrize(("ratio", "credited"), [("3.7×", True), ("about 3.67 times", True), ("5.1×", False)])
def test_a_value_that_follows_from_the_answers_own_slip_is_credited(ratio: str, credited: bool) -> None:
    answer = f"{SLIPPED}, so GQA's cache is {ratio} larger."
    slips = check_numbers(answer, SIZE).slips
    assert len(slips) == 1 and slips[0].slip_factor == pytest.approx(0.5)
    result = check_numbers(answer, RATIO, slips=slips)
    assert (result.status is NumericStatus.MET) is credited
    if credited:
        assert "follows from your 258,048 B" in result.reason() and "with 516,096 B it is 7.34×" in result.reason()
    else:
        assert "no number found for 7.34×" in result.reason()


def test_without_a_slip_nothing_is_carried_forward() -> None:
    # the same ratio after a named wrong formula's 258,048 B (no working) is not credited: only a slip carries
    answer = "126·8·128·2 bytes gives 258,048 B per token against 70,272 B, so 3.7× larger."
    assert not check_numbers(answer, SIZE).slips
    assert check_numbers(answer, RATIO).status is NumericStatus.SOME


def test_an_unexpected_figure_from_working_is_quoted_with_its_value() -> None:
    answer = "Reading 17 GB / 7.2 TB/s gives the step."
    result = check_numbers(answer, SPEC.model_copy(update={"need": 0}))
    assert result.stray is not None
    assert result.reason() == ("you wrote 17 GB / 7.2 TB/s (= 2.36 ms), which is none of the figures this point "
                               "expects (6.0 ms)")


def test_a_symmetric_dispatch_and_combine_total_names_the_misconception(bank: Bank) -> None:
    check = next(c for c in bank.rubrics["di-ds-overlap"].criteria if c.id == "bytes-per-layer").numeric
    assert check is not None
    spec, given = _spec(bank, "di-ds-overlap", check)
    symmetric = "Dispatch and combine each move 114,688 B per token, so 229,376 B per token per MoE layer."
    result = check_numbers(symmetric, spec, given)
    assert result.status is NumericStatus.WRONG
    assert result.wrong[0].wrong is not None and result.wrong[0].wrong.misconception_id == "dispatch-combine-symmetric"
    right = "Dispatch moves 59,136 B and combine 114,688 B per token: 173,824 B per token per MoE layer."
    assert check_numbers(right, spec, given).status is NumericStatus.MET
