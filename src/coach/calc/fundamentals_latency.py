"""Inference-fundamentals calculators, part 2: prefill and latency metrics and batching, plus the named wrong
formulas their distractors come from (part 1 is `fundamentals.py`).

Compute peaks are never facts here: every calculator that needs one takes `peak_tflops` as an input (a premise
the item states), while HBM bandwidth and capacity come from `tables` (domain-facts §3).
"""

from __future__ import annotations

from coach.calc.formulas import (
    flops_per_token,
    weight_bytes,
)
from coach.calc.fundamentals import bw_bytes_s
from coach.calc.registry import calculator

# Prefill and latency -----------------------------------------------------------------------------------------


@calculator()
def prefill_seconds(model_id: str, tokens: int, peak_tflops: float, mfu_pct: float) -> float:
    """Compute-bound prefill: tokens · 2N / (peak · utilization), attention-score FLOPs ignored."""
    return tokens * flops_per_token(model_id) / (peak_tflops * 1e12 * mfu_pct / 100)


@calculator(wrong_of="prefill_seconds", misconception="flops-training-6n")
def prefill_seconds_6n(model_id: str, tokens: int, peak_tflops: float, mfu_pct: float) -> float:
    """Wrong: prefill time with 6N FLOPs per token."""
    return 3 * prefill_seconds(model_id, tokens, peak_tflops, mfu_pct)


@calculator(wrong_of="prefill_seconds", misconception="flops-one-per-param")
def prefill_seconds_1n(model_id: str, tokens: int, peak_tflops: float, mfu_pct: float) -> float:
    """Wrong: prefill time with N FLOPs per token."""
    return prefill_seconds(model_id, tokens, peak_tflops, mfu_pct) / 2


@calculator(wrong_of="prefill_seconds", misconception="prefill-token-by-token")
def prefill_seconds_sequential(model_id: str, tokens: int, hw_id: str, dtype: str = "bf16") -> float:
    """Wrong: tokens · weight bytes / bandwidth, as if prefill read all the weights once per prompt token."""
    return tokens * weight_bytes(model_id, dtype) / bw_bytes_s(hw_id)


@calculator()
def queued_ttft_seconds(model_id: str, tokens: int, peak_tflops: float, mfu_pct: float, ahead: int) -> float:
    """TTFT of a prompt behind `ahead` equal prompts prefilled one after another: (ahead+1) · prefill time."""
    return (ahead + 1) * prefill_seconds(model_id, tokens, peak_tflops, mfu_pct)


@calculator()
def tpot_ms(e2e_s: float, ttft_ms: float, output_tokens: int) -> float:
    """Time per output token after the first: (E2E − TTFT) / (n − 1), in ms."""
    return (e2e_s * 1e3 - ttft_ms) / (output_tokens - 1)


@calculator(wrong_of="tpot_ms", misconception="tpot-includes-ttft")
def tpot_ms_with_ttft(e2e_s: float, ttft_ms: float, output_tokens: int) -> float:
    """Wrong: E2E / n, folding the prefill wait into every token."""
    return e2e_s * 1e3 / output_tokens


@calculator(wrong_of="tpot_ms", misconception="tpot-divided-by-batch")
def tpot_ms_per_batch(e2e_s: float, ttft_ms: float, output_tokens: int, batch: int) -> float:
    """Wrong: divides the per-request interval by the batch size, confusing aggregate throughput with latency."""
    return tpot_ms(e2e_s, ttft_ms, output_tokens) / batch


@calculator(wrong_of="tpot_ms", misconception="tpot-counts-prompt-tokens")
def tpot_ms_with_prompt(e2e_s: float, ttft_ms: float, output_tokens: int, prompt_tokens: int) -> float:
    """Wrong: divides the decode time by prompt plus output tokens."""
    return (e2e_s * 1e3 - ttft_ms) / (prompt_tokens + output_tokens)


@calculator()
def e2e_seconds(ttft_ms: float, tpot_ms: float, output_tokens: int) -> float:
    """End-to-end latency: TTFT + (n − 1) · TPOT, in seconds."""
    return (ttft_ms + (output_tokens - 1) * tpot_ms) / 1e3


# Batching ----------------------------------------------------------------------------------------------------


@calculator()
def static_batch_utilization(batch: int, long_tokens: int, short_tokens: int) -> float:
    """Static batch with one long and batch−1 short requests: (long + (b−1)·short) / (b · long) of slot-steps."""
    return (long_tokens + (batch - 1) * short_tokens) / (batch * long_tokens)


@calculator(wrong_of="static_batch_utilization", misconception="static-batch-counts-short-only")
def static_batch_utilization_short_ratio(batch: int, long_tokens: int, short_tokens: int) -> float:
    """Wrong: short / long, as if the long request's slot were idle too."""
    return short_tokens / long_tokens


@calculator(wrong_of="static_batch_utilization", misconception="static-batch-unweighted-mean")
def static_batch_utilization_unweighted(batch: int, long_tokens: int, short_tokens: int) -> float:
    """Wrong: (long + short) / 2 / long, averaging the two lengths without counting how many requests each has."""
    return (long_tokens + short_tokens) / 2 / long_tokens
