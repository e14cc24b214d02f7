"""Calculators reproduce the worked numbers of domain-facts.md §2."""

from __future__ import annotations

import pytest

from coach.calc import compute
from coach.calc.registry import load_all

CASES = [
    ("kv_bytes_per_token", {"model_id": "llama-3.1-8b"}, 131_072),
    ("kv_bytes_per_token", {"model_id": "llama-3.1-70b"}, 327_680),
    ("kv_bytes_per_token", {"model_id": "llama-3.1-405b"}, 516_096),
    ("kv_bytes_per_token", {"model_id": "qwen3-235b-a22b"}, 192_512),
    ("kv_bytes_per_token", {"model_id": "deepseek-v3"}, 70_272),
    ("kv_bytes_per_token_mla_as_mha", {"model_id": "deepseek-v3"}, 4_997_120),
    ("kv_cache_bytes", {"model_id": "llama-3.1-70b", "tokens": 131_072}, 42.95e9),
    ("weight_bytes", {"model_id": "llama-3.1-70b"}, 141.1e9),
    ("weight_bytes_per_gpu", {"model_id": "llama-3.1-70b", "tp": 8}, 17.6e9),
    ("weight_bytes_per_gpu", {"model_id": "llama-3.1-405b", "tp": 8}, 101.5e9),
    ("weight_bytes_per_gpu", {"model_id": "llama-3.1-405b", "tp": 8, "dtype": "fp8"}, 50.7e9),
    ("allreduces_per_step", {"model_id": "llama-3.3-70b"}, 160),
    ("allreduce_bytes", {"model_id": "llama-3.1-70b", "tokens": 64}, 2**20),
    ("ring_allreduce_bytes_per_gpu", {"model_id": "llama-3.1-70b", "tokens": 64, "p": 8}, 1.75 * 2**20),
    (
        "tp_allreduce_time_per_step",
        {"model_id": "llama-3.1-70b", "tokens": 8192, "p": 8, "link_id": "nvlink4"},
        83.5e-3,
    ),
    ("pipeline_bubble", {"p": 4, "m": 4}, 0.429),
    ("pipeline_bubble", {"p": 4, "m": 16}, 0.158),
    ("pipeline_bubble", {"p": 8, "m": 32}, 0.179),
    ("pipeline_bubble_vs_ideal", {"p": 4, "m": 4}, 0.75),
    ("pipeline_bubble_spread_over_stages", {"p": 4, "m": 16}, 3 / 76),
    ("moe_dispatch_bytes_per_token", {"model_id": "deepseek-v3", "dtype": "fp8", "scale_group": 128}, 59_136),
    ("moe_combine_bytes_per_token", {"model_id": "deepseek-v3"}, 114_688),
    ("moe_dispatch_bytes_per_token", {"model_id": "mixtral-8x7b"}, 16 * 1024),
    ("kv_transfer_seconds", {"model_id": "llama-3.1-70b", "tokens": 8192, "link_id": "nvlink4"}, 6.0e-3),
    ("kv_transfer_seconds", {"model_id": "llama-3.1-70b", "tokens": 8192, "link_id": "ib-400g"}, 53.7e-3),
    ("kv_transfer_seconds", {"model_id": "llama-3.1-70b", "tokens": 131_072, "link_id": "pcie5"}, 682e-3),
    ("kv_transfer_seconds", {"model_id": "deepseek-v3", "tokens": 8192, "link_id": "ib-400g"}, 11.5e-3),
    ("kv_transfer_seconds", {"model_id": "llama-3.1-70b", "tokens": 131_072, "link_id": "mooncake-8x400g"}, 226e-3),
    ("decode_tokens_per_s_bound", {"model_id": "llama-3.1-8b", "hw_id": "h100"}, 209),
    ("decode_tokens_per_s_bound", {"model_id": "llama-3.1-8b", "hw_id": "h200"}, 299),
    ("decode_tokens_per_s_bound", {"model_id": "llama-3.1-70b", "hw_id": "h100", "tp": 8}, 190),
    ("decode_tokens_per_s_bound", {"model_id": "llama-3.1-70b", "hw_id": "h200", "dtype": "fp8"}, 68),
    ("decode_tokens_per_s_bound", {"model_id": "llama-3.1-70b", "hw_id": "b200", "dtype": "fp8"}, 113),
    (
        "decode_aggregate_tokens_per_s",
        {"model_id": "llama-3.1-70b", "hw_id": "h200", "batch": 32, "context": 4096, "dtype": "fp8"},
        1350,
    ),
    ("implied_bandwidth_gb_s", {"megabytes": 7.57, "microseconds": 77}, 98.3),
    ("kv_ratio", {"model_a": "llama-3.1-405b", "model_b": "deepseek-v3"}, 7.34),
]


@pytest.mark.parametrize(("name", "args", "expected"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_calculator_matches_fact_sheet(name: str, args: dict, expected: float) -> None:
    # The sheet rounds to 3-4 significant figures.
    assert compute(name, **args) == pytest.approx(expected, rel=6e-3)


def test_wrong_formulas_name_their_misconception_and_differ_from_the_right_one() -> None:
    calcs = load_all()
    wrong = [c for c in calcs.values() if c.wrong_of]
    assert len(wrong) >= 8
    for c in wrong:
        assert c.wrong_of in calcs and c.misconception, c.name
    assert compute("kv_bytes_per_token_q_heads", model_id="llama-3.1-70b") == 8 * compute(
        "kv_bytes_per_token", model_id="llama-3.1-70b"
    )
    assert compute("kv_bytes_per_token_no_kv_factor", model_id="llama-3.1-70b") * 2 == compute(
        "kv_bytes_per_token", model_id="llama-3.1-70b"
    )


def test_wrong_formulas_for_misconceptions_the_numeric_criteria_attach() -> None:
    # one byte per parameter whatever the precision: Llama 3.1 8B in BF16 read as 8.03 GB, so 2.4 ms and 417 tok/s
    assert compute("weight_bytes_one_per_param", model_id="llama-3.1-8b") * 2 == pytest.approx(
        compute("weight_bytes", model_id="llama-3.1-8b"))
    assert compute("decode_step_floor_one_byte_per_param", model_id="llama-3.1-8b", hw_id="h100") == pytest.approx(
        2.4e-3, rel=6e-3)
    assert compute("decode_tokens_per_s_one_byte_per_param", model_id="llama-3.1-8b", hw_id="h100") == pytest.approx(
        2 * compute("decode_tokens_per_s_bound", model_id="llama-3.1-8b", hw_id="h100"))
    # KV reads taken as free: the step floor of a batch is the weights' alone (right only with no batch)
    weights_only = compute("decode_step_floor_weights_only", model_id="llama-3.1-8b", hw_id="h100")
    assert weights_only == pytest.approx(compute("decode_step_floor_seconds", model_id="llama-3.1-8b", hw_id="h100"))
    assert weights_only < compute("decode_step_floor_seconds", model_id="llama-3.1-8b", hw_id="h100", batch=32,
                                  context=8192) / 3
    assert compute("ms_tpot_floor_weights_only", model_id="llama-3.1-70b", hw_id="h200", dtype="fp8") < compute(
        "ms_tpot_floor_at_batch", model_id="llama-3.1-70b", hw_id="h200", batch=16, context=4096, dtype="fp8")
    # the step divided by the batch, read as each user's TPOT: 19.2 ms at batch 16 becomes 1.2 ms
    step = compute("ms_tpot_floor_at_batch", model_id="llama-3.1-70b", hw_id="h200", batch=16, context=4096,
                   dtype="fp8")
    assert compute("ms_tpot_floor_per_user_divided", model_id="llama-3.1-70b", hw_id="h200", batch=16,
                   context=4096, dtype="fp8") == pytest.approx(step / 16)
    assert step == pytest.approx(19.2e-3, rel=0.01)
    # TP16 over 8 KV heads read as free: 504 KiB / 16 = 31.5 KiB per GPU (the right one replicates: 63 KiB)
    assert compute("kv_bytes_per_token_per_gpu_split_heads", model_id="llama-3.1-405b", tp=16) == 31.5 * 1024
    assert compute("kv_bytes_per_token_per_gpu", model_id="llama-3.1-405b", tp=16) == 63 * 1024
    assert compute("kv_bytes_per_token_tp_group_one_copy", model_id="llama-3.1-405b", tp=16) == 504 * 1024
    # the weights left out of the KV budget; Little's law divided
    assert compute("ms_kv_budget_all_hbm", hw_id="h200") - compute(
        "ms_kv_budget_bytes", model_id="llama-3.1-70b", hw_id="h200", dtype="fp8") == pytest.approx(
        compute("weight_bytes", model_id="llama-3.1-70b", dtype="fp8"))
    assert compute("ms_admission_queue_limit_divided", capacity_rps=100, max_wait_s=1.5) == pytest.approx(66.67, 1e-3)
    assert compute("ms_admission_queue_limit", capacity_rps=100, max_wait_s=1.5) == 150


def test_unknown_names_fail_loudly() -> None:
    with pytest.raises(KeyError):
        compute("no_such_calculator")
    with pytest.raises(KeyError, match="unknown model"):
        compute("kv_bytes_per_token", model_id="gpt-9")
    with pytest.raises(ValueError, match="MLA"):
        compute("kv_bytes_per_token_mla", model_id="llama-3.1-8b")
