"""Inference-fundamentals calculators, part 1: roofline, decode bounds, FLOPs per token and KV budgets, plus the
named wrong formulas their distractors come from (part 2, `fundamentals_latency.py`: prefill, latency metrics
and batching).

Compute peaks are never facts here: every roofline calculator takes `peak_tflops` as an input (a premise
the item states), while HBM bandwidth and capacity come from `tables` (domain-facts §3).
"""

from __future__ import annotations

import math

from coach.calc.formulas import (
    _bytes,
    active_weight_bytes,
    flops_per_token,
    hbm_gb,
    hbm_tb_s,
    kv_bytes_per_token,
    kv_bytes_per_token_mla,
    kv_bytes_per_token_mla_as_mha,
    weight_bytes,
)
from coach.calc.registry import calculator
from coach.calc.tables import link, model


def bw_bytes_s(hw_id: str) -> float:
    return hbm_tb_s(hw_id) * 1e12


def hbm_bytes(hw_id: str) -> float:
    return hbm_gb(hw_id) * 1e9


def gqa_dims(model_id: str) -> tuple[int, int, int, int]:
    m = model(model_id)
    if m.kv_heads is None:
        raise ValueError(f"{m.name} uses MLA; these attention formulas assume MHA/GQA")
    return m.layers, m.q_heads, m.kv_heads, m.head_dim


# Roofline ----------------------------------------------------------------------------------------------------


@calculator()
def ridge_flops_per_byte(peak_tflops: float, hw_id: str) -> float:
    """Roofline ridge point: peak FLOP/s / HBM bytes/s (FLOPs per byte where a kernel turns compute-bound)."""
    return peak_tflops * 1e12 / bw_bytes_s(hw_id)


@calculator()
def gemm_intensity(tokens: int, dtype: str = "bf16") -> float:
    """FLOPs per weight byte of a GEMM where `tokens` rows share each weight: 2·tokens / bytes per weight."""
    return 2 * tokens / _bytes(dtype)


@calculator(wrong_of="gemm_intensity", misconception="intensity-per-parameter")
def gemm_intensity_per_param(tokens: int, dtype: str = "bf16") -> float:
    """Wrong: 2·tokens FLOPs per *parameter*, forgetting to divide by the bytes each weight occupies."""
    return 2 * tokens


@calculator(wrong_of="gemm_intensity", misconception="flops-one-per-param")
def gemm_intensity_one_flop(tokens: int, dtype: str = "bf16") -> float:
    """Wrong: tokens / bytes, counting a multiply-add as one FLOP."""
    return tokens / _bytes(dtype)


@calculator(wrong_of="gemm_intensity", misconception="decode-intensity-ignores-batch")
def gemm_intensity_batch_one(tokens: int, dtype: str = "bf16") -> float:
    """Wrong: the batch-1 intensity 2 / bytes, as if batching did not share weight reads."""
    return 2 / _bytes(dtype)


@calculator()
def compute_bound_batch(peak_tflops: float, hw_id: str, dtype: str = "bf16") -> float:
    """Batch at which decode weight GEMMs reach the ridge: 2·B/bytes = peak/bandwidth, so B = ridge·bytes/2."""
    return ridge_flops_per_byte(peak_tflops, hw_id) * _bytes(dtype) / 2


@calculator(wrong_of="compute_bound_batch", misconception="intensity-per-parameter")
def compute_bound_batch_per_param(peak_tflops: float, hw_id: str, dtype: str = "bf16") -> float:
    """Wrong: sets 2·B (FLOPs per parameter) equal to the ridge (FLOPs per byte): B = ridge/2."""
    return ridge_flops_per_byte(peak_tflops, hw_id) / 2


@calculator(wrong_of="compute_bound_batch", misconception="flops-one-per-param")
def compute_bound_batch_one_flop(peak_tflops: float, hw_id: str, dtype: str = "bf16") -> float:
    """Wrong: one FLOP per weight per sequence, B/bytes = ridge: B = ridge·bytes."""
    return ridge_flops_per_byte(peak_tflops, hw_id) * _bytes(dtype)


@calculator(wrong_of="compute_bound_batch", misconception="roofline-uses-link-bandwidth")
def compute_bound_batch_link(peak_tflops: float, link_id: str, dtype: str = "bf16") -> float:
    """Wrong: builds the ridge from the interconnect's bandwidth instead of HBM's."""
    return peak_tflops * 1e12 / (link(link_id).gb_s * 1e9) * _bytes(dtype) / 2


@calculator()
def attainable_tflops(peak_tflops: float, hw_id: str, intensity: float) -> float:
    """Roofline: attainable TFLOP/s = min(peak, intensity · HBM bandwidth)."""
    return min(peak_tflops, intensity * bw_bytes_s(hw_id) / 1e12)


# Decode bounds -----------------------------------------------------------------------------------------------


@calculator(wrong_of="decode_tokens_per_s_bound", misconception="decode-compute-bound")
def decode_tokens_per_s_compute(model_id: str, peak_tflops: float) -> float:
    """Wrong for batch-1 decode: peak FLOP/s / (2·active params), as if decode were compute-bound."""
    return peak_tflops * 1e12 / flops_per_token(model_id)


@calculator(wrong_of="decode_tokens_per_s_bound", misconception="decode-reads-only-kv")
def decode_tokens_per_s_kv_only(model_id: str, hw_id: str, context: int, kv_dtype: str = "bf16") -> float:
    """Wrong: bandwidth / (context · KV bytes per token), as if the weights were not re-read every step."""
    return bw_bytes_s(hw_id) / (context * kv_bytes_per_token(model_id, kv_dtype))


@calculator(wrong_of="weight_bytes", misconception="weight-bytes-one-per-param")
def weight_bytes_one_per_param(model_id: str) -> float:
    """Wrong: parameters · 1 byte, whatever the precision (right only for an 8-bit format)."""
    return model(model_id).params_b * 1e9


@calculator(wrong_of="decode_step_floor_seconds", misconception="weight-bytes-one-per-param")
def decode_step_floor_one_byte_per_param(model_id: str, hw_id: str, tp: int = 1, batch: int = 0, context: int = 0,
                                         kv_dtype: str = "bf16") -> float:
    """Wrong: the decode step floor with the weights counted at one byte per parameter."""
    kv = batch * context * kv_bytes_per_token(model_id, kv_dtype)
    return (weight_bytes_one_per_param(model_id) + kv) / (tp * bw_bytes_s(hw_id))


@calculator(wrong_of="decode_tokens_per_s_bound", misconception="weight-bytes-one-per-param")
def decode_tokens_per_s_one_byte_per_param(model_id: str, hw_id: str, tp: int = 1) -> float:
    """Wrong: tp · bandwidth / (parameters · 1 byte), whatever the precision."""
    return 1 / decode_step_floor_one_byte_per_param(model_id, hw_id, tp)


@calculator(wrong_of="decode_step_floor_seconds", misconception="kv-reads-free")
def decode_step_floor_weights_only(model_id: str, hw_id: str, dtype: str = "bf16", tp: int = 1) -> float:
    """Wrong for a batch with context: weights / (tp · bandwidth), as if reading the KV cache took no time."""
    return weight_bytes(model_id, dtype) / (tp * bw_bytes_s(hw_id))


@calculator()
def decode_step_active_seconds(model_id: str, hw_id: str, dtype: str = "bf16") -> float:
    """Batch-1 decode floor of an MoE model: active weight bytes / HBM bandwidth (only routed experts read)."""
    return active_weight_bytes(model_id, dtype) / bw_bytes_s(hw_id)


@calculator(wrong_of="decode_aggregate_tokens_per_s", misconception="kv-reads-free")
def decode_aggregate_ignoring_kv(model_id: str, hw_id: str, batch: int, dtype: str = "bf16") -> float:
    """Wrong: batch · bandwidth / weight bytes, as if the KV cache cost nothing to read each step."""
    return batch * bw_bytes_s(hw_id) / weight_bytes(model_id, dtype)


@calculator(wrong_of="decode_aggregate_tokens_per_s", misconception="kv-scales-with-q-heads")
def decode_aggregate_q_heads(
    model_id: str, hw_id: str, batch: int, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Wrong: aggregate decode bound with each sequence's KV sized by query heads instead of KV heads."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    kv = batch * context * 2 * n_layers * q_heads * head_dim * _bytes(kv_dtype)
    return batch * bw_bytes_s(hw_id) / (weight_bytes(model_id, dtype) + kv)


@calculator()
def decode_speedup(
    model_id: str, hw_id: str, from_dtype: str, to_dtype: str, batch: int = 0, context: int = 0,
    kv_dtype: str = "bf16",
) -> float:
    """Ratio of decode step floors when the weights change precision and the KV cache does not:
    (W_from + B·c·kv) / (W_to + B·c·kv)."""
    kv = batch * context * kv_bytes_per_token(model_id, kv_dtype) if batch else 0.0
    return (weight_bytes(model_id, from_dtype) + kv) / (weight_bytes(model_id, to_dtype) + kv)


@calculator()
def bandwidth_utilization(model_id: str, hw_id: str, tokens_per_s: float, dtype: str = "bf16") -> float:
    """Batch-1 memory-bandwidth utilization: tokens/s · weight bytes / HBM bandwidth (KV reads ignored)."""
    return tokens_per_s * weight_bytes(model_id, dtype) / bw_bytes_s(hw_id)


@calculator(wrong_of="bandwidth_utilization", misconception="decode-compute-bound")
def flop_utilization(model_id: str, tokens_per_s: float, peak_tflops: float) -> float:
    """FLOP utilization tokens/s · 2·params / peak: the wrong yardstick for batch-1 decode."""
    return tokens_per_s * flops_per_token(model_id) / (peak_tflops * 1e12)


@calculator()
def max_batch_for_step(
    model_id: str, hw_id: str, step_ms: float, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Largest decode batch whose step floor (weights + B·context·KV)/bandwidth stays ≤ step_ms, capped by the
    KV that fits in HBM beside the weights: min(floor((t·bw − W)/(c·kv)), floor((HBM − W)/(c·kv)))."""
    w = weight_bytes(model_id, dtype)
    per_seq = context * kv_bytes_per_token(model_id, kv_dtype)
    by_time = math.floor((step_ms * 1e-3 * bw_bytes_s(hw_id) - w) / per_seq)
    return float(min(by_time, max_sequences_kv(model_id, hw_id, context, dtype, kv_dtype)))


@calculator(wrong_of="max_batch_for_step", misconception="decode-reads-only-kv")
def max_batch_for_step_kv_only(
    model_id: str, hw_id: str, step_ms: float, context: int, kv_dtype: str = "bf16"
) -> float:
    """Wrong: floor(t·bw / (c·kv)), forgetting that every step also reads all the weights."""
    return float(math.floor(step_ms * 1e-3 * bw_bytes_s(hw_id) / (context * kv_bytes_per_token(model_id, kv_dtype))))


@calculator(wrong_of="max_batch_for_step", misconception="kv-scales-with-q-heads")
def max_batch_for_step_q_heads(
    model_id: str, hw_id: str, step_ms: float, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Wrong: sizes each sequence's KV with query heads instead of KV heads."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    per_seq = context * 2 * n_layers * q_heads * head_dim * _bytes(kv_dtype)
    return float(math.floor((step_ms * 1e-3 * bw_bytes_s(hw_id) - weight_bytes(model_id, dtype)) / per_seq))


# FLOPs per token ---------------------------------------------------------------------------------------------


@calculator(wrong_of="flops_per_token", misconception="flops-training-6n")
def flops_per_token_training(model_id: str) -> float:
    """Wrong for inference: 6 · active params, the training cost (forward 2N + backward 4N)."""
    return 3 * flops_per_token(model_id)


@calculator(wrong_of="flops_per_token", misconception="flops-one-per-param")
def flops_per_token_one_per_param(model_id: str) -> float:
    """Wrong: 1 · active params, counting a multiply-add as one FLOP."""
    return flops_per_token(model_id) / 2


@calculator(wrong_of="flops_per_token", misconception="moe-flops-total-params")
def flops_per_token_total_params(model_id: str) -> float:
    """Wrong for MoE: 2 · total params, as if every expert ran for every token."""
    return 2 * model(model_id).params_b * 1e9


@calculator(wrong_of="flops_per_token", misconception="decode-recomputes-prefix")
def flops_per_token_recompute(model_id: str, context: int) -> float:
    """Wrong with a KV cache: 2 · params · context, as if every step re-ran the whole prefix."""
    return flops_per_token(model_id) * context


@calculator()
def attention_flops_per_token(model_id: str, context: int) -> float:
    """Attention-score FLOPs of one token at a context: 4·L·q_heads·d_head·context (QKᵀ and A·V, 2 each)."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    return 4 * n_layers * q_heads * head_dim * context


@calculator()
def attention_parity_context(model_id: str) -> float:
    """Context where attention-score FLOPs equal the weight FLOPs: 2N / (4·L·q_heads·d_head)."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    return flops_per_token(model_id) / (4 * n_layers * q_heads * head_dim)


@calculator(wrong_of="attention_parity_context", misconception="gqa-cuts-attention-flops")
def attention_parity_context_kv_heads(model_id: str) -> float:
    """Wrong: counts score FLOPs with KV heads, as if GQA cut them: 2N / (4·L·kv_heads·d_head)."""
    n_layers, _, kv_heads, head_dim = gqa_dims(model_id)
    return flops_per_token(model_id) / (4 * n_layers * kv_heads * head_dim)


@calculator(wrong_of="attention_parity_context", misconception="attention-forgets-av")
def attention_parity_context_scores_only(model_id: str) -> float:
    """Wrong: counts only QKᵀ (2·L·q_heads·d_head per context token), forgetting the A·V product."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    return flops_per_token(model_id) / (2 * n_layers * q_heads * head_dim)


@calculator(wrong_of="attention_parity_context", misconception="flops-training-6n")
def attention_parity_context_6n(model_id: str) -> float:
    """Wrong: takes the weight FLOPs per token as 6N (training) instead of 2N."""
    return 3 * attention_parity_context(model_id)


# KV cache ----------------------------------------------------------------------------------------------------


@calculator()
def max_sequences_kv(model_id: str, hw_id: str, context: int, dtype: str = "bf16", kv_dtype: str = "bf16") -> float:
    """Sequences of `context` tokens whose KV fits beside the weights: floor((HBM − W) / (context · kv))."""
    free = hbm_bytes(hw_id) - weight_bytes(model_id, dtype)
    return float(math.floor(free / (context * kv_bytes_per_token(model_id, kv_dtype))))


@calculator(wrong_of="max_sequences_kv", misconception="kv-budget-ignores-weights")
def max_sequences_kv_all_hbm(model_id: str, hw_id: str, context: int, kv_dtype: str = "bf16") -> float:
    """Wrong: floor(HBM / (context · kv)), as if the weights took no memory."""
    return float(math.floor(hbm_bytes(hw_id) / (context * kv_bytes_per_token(model_id, kv_dtype))))


@calculator(wrong_of="max_sequences_kv", misconception="kv-scales-with-q-heads")
def max_sequences_kv_q_heads(
    model_id: str, hw_id: str, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Wrong: sizes the KV with query heads instead of KV heads."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    per_seq = context * 2 * n_layers * q_heads * head_dim * _bytes(kv_dtype)
    return float(math.floor((hbm_bytes(hw_id) - weight_bytes(model_id, dtype)) / per_seq))


@calculator(wrong_of="max_sequences_kv", misconception="kv-forgets-k-and-v")
def max_sequences_kv_no_kv_factor(
    model_id: str, hw_id: str, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Wrong: forgets the factor 2 for K and V, doubling the count."""
    n_layers, _, kv_heads, head_dim = gqa_dims(model_id)
    per_seq = context * n_layers * kv_heads * head_dim * _bytes(kv_dtype)
    return float(math.floor((hbm_bytes(hw_id) - weight_bytes(model_id, dtype)) / per_seq))


@calculator(wrong_of="kv_cache_bytes", misconception="kv-scales-with-q-heads")
def kv_cache_bytes_q_heads(model_id: str, tokens: int, dtype: str = "bf16", batch: int = 1) -> float:
    """Wrong: KV cache for a batch sized with query heads: 2·L·q_heads·d_head·bytes·tokens·batch."""
    n_layers, q_heads, _, head_dim = gqa_dims(model_id)
    return 2 * n_layers * q_heads * head_dim * _bytes(dtype) * tokens * batch


@calculator(wrong_of="kv_cache_bytes", misconception="kv-forgets-k-and-v")
def kv_cache_bytes_no_kv_factor(model_id: str, tokens: int, dtype: str = "bf16", batch: int = 1) -> float:
    """Wrong: KV cache for a batch without the factor 2 for K and V."""
    n_layers, _, kv_heads, head_dim = gqa_dims(model_id)
    return n_layers * kv_heads * head_dim * _bytes(dtype) * tokens * batch


@calculator(wrong_of="kv_cache_bytes", misconception="kv-ignores-batch")
def kv_cache_bytes_one_sequence(model_id: str, tokens: int, dtype: str = "bf16", batch: int = 1) -> float:
    """Wrong: sizes one sequence's cache, as if the batch's sequences shared it."""
    return kv_bytes_per_token(model_id, dtype) * tokens


@calculator(wrong_of="kv_bytes_per_token_mla", misconception="mla-caches-two-latents")
def kv_bytes_per_token_mla_two_latents(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: 2·L·(kv_lora_rank + rope)·bytes, as if MLA cached separate K and V latents."""
    return 2 * kv_bytes_per_token_mla(model_id, dtype)


@calculator(wrong_of="kv_bytes_per_token_mla", misconception="mla-forgets-rope-key")
def kv_bytes_per_token_mla_no_rope(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: L·kv_lora_rank·bytes, forgetting the decoupled RoPE key cached beside the latent."""
    m = model(model_id)
    if m.kv_lora_rank is None:
        raise ValueError(f"{m.name} does not use MLA")
    return m.layers * m.kv_lora_rank * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token_mla", misconception="mla-caches-per-head-kv")
def kv_bytes_per_token_mla_expanded(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: caches MLA's up-projected per-head K (nope+rope) and V: L·q_heads·(k + v dims)·bytes."""
    return kv_bytes_per_token_mla_as_mha(model_id, dtype)


@calculator()
def weight_hbm_fraction(model_id: str, hw_id: str, dtype: str = "bf16") -> float:
    """Share of a GPU's HBM capacity the weights occupy: weight bytes / HBM bytes."""
    return weight_bytes(model_id, dtype) / hbm_bytes(hw_id)


@calculator()
def hbm_bytes_in(hw_id: str, ms: float) -> float:
    """Bytes the HBM can deliver in `ms` milliseconds: ms · 10⁻³ · bandwidth."""
    return ms * 1e-3 * bw_bytes_s(hw_id)
