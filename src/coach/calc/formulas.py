"""Core formulas of domain-facts.md §2 (F1-F8), plus the named wrong formulas distractors come from."""

from __future__ import annotations

from coach.calc.registry import calculator
from coach.calc.tables import DTYPE_BYTES, hardware, link, model


def _bytes(dtype: str) -> float:
    try:
        return DTYPE_BYTES[dtype]
    except KeyError:
        raise KeyError(f"unknown dtype {dtype!r}; known: {', '.join(DTYPE_BYTES)}") from None


# F1 / F2: KV cache -----------------------------------------------------------------------------------------


@calculator()
def kv_bytes_per_token(model_id: str, dtype: str = "bf16") -> float:
    """KV-cache bytes per token: 2·L·n_kv·d_head·bytes for MHA/GQA; L·(kv_lora_rank+rope)·bytes for MLA."""
    m = model(model_id)
    if m.kv_heads is None:
        return kv_bytes_per_token_mla(model_id, dtype)
    return 2 * m.layers * m.kv_heads * m.head_dim * _bytes(dtype)


@calculator()
def kv_bytes_per_token_mla(model_id: str, dtype: str = "bf16") -> float:
    """MLA caches one latent plus the RoPE key per layer: L·(kv_lora_rank + rope_dim)·bytes (F2)."""
    m = model(model_id)
    if m.kv_lora_rank is None or m.rope_dim is None:
        raise ValueError(f"{m.name} does not use MLA")
    return m.layers * (m.kv_lora_rank + m.rope_dim) * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token_mla", misconception="mla-caches-per-head-kv")
def kv_bytes_per_token_mla_as_mha(model_id: str, dtype: str = "bf16") -> float:
    """MLA cached as plain MHA: L·q_heads·(k 192 + v 128)·bytes (F2: 4,997,120 B for DeepSeek-V3)."""
    m = model(model_id)
    if m.rope_dim is None:
        raise ValueError(f"{m.name} does not use MLA")
    k_dim = m.head_dim + m.rope_dim
    return m.layers * m.q_heads * (k_dim + m.head_dim) * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token", misconception="kv-scales-with-q-heads")
def kv_bytes_per_token_q_heads(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: uses Q heads instead of KV heads (overstates a GQA cache by q_heads/kv_heads)."""
    m = model(model_id)
    return 2 * m.layers * m.q_heads * m.head_dim * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token", misconception="kv-forgets-k-and-v")
def kv_bytes_per_token_no_kv_factor(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: forgets the factor 2 for K and V."""
    m = model(model_id)
    if m.kv_heads is None:
        raise ValueError(f"{m.name} uses MLA")
    return m.layers * m.kv_heads * m.head_dim * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token", misconception="kv-per-layer-only")
def kv_bytes_per_token_one_layer(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: counts one layer instead of all L layers."""
    m = model(model_id)
    if m.kv_heads is None:
        raise ValueError(f"{m.name} uses MLA")
    return 2 * m.kv_heads * m.head_dim * _bytes(dtype)


@calculator()
def kv_cache_bytes(model_id: str, tokens: int, dtype: str = "bf16", batch: int = 1) -> float:
    """KV cache for `batch` sequences of `tokens` tokens each."""
    return kv_bytes_per_token(model_id, dtype) * tokens * batch


@calculator()
def kv_ratio(model_a: str, model_b: str, dtype: str = "bf16") -> float:
    """KV bytes per token of model_a over model_b (e.g. 405B vs DeepSeek-V3: 7.34×)."""
    return kv_bytes_per_token(model_a, dtype) / kv_bytes_per_token(model_b, dtype)


@calculator()
def kv_q_head_overstatement(model_id: str) -> float:
    """How many times Q heads overstate the KV cache: q_heads / kv_heads."""
    m = model(model_id)
    if m.kv_heads is None:
        raise ValueError(f"{m.name} uses MLA")
    return m.q_heads / m.kv_heads


@calculator()
def kv_duplication_under_tp(model_id: str, tp: int) -> float:
    """KV replication factor when TP exceeds the KV-head count: max(1, tp / n_kv); MLA's one latent: tp."""
    m = model(model_id)
    kv_heads = 1 if m.kv_heads is None else m.kv_heads
    return max(1.0, tp / kv_heads)


# F3: weights -----------------------------------------------------------------------------------------------


@calculator()
def weight_bytes(model_id: str, dtype: str = "bf16") -> float:
    """Total weight bytes: parameters · bytes per parameter."""
    return model(model_id).params_b * 1e9 * _bytes(dtype)


@calculator()
def weight_bytes_per_gpu(model_id: str, dtype: str = "bf16", tp: int = 1, pp: int = 1) -> float:
    """Weights per GPU under TP×PP: P·bytes/(tp·pp), replicated norms ignored (F3)."""
    return weight_bytes(model_id, dtype) / (tp * pp)


@calculator()
def active_weight_bytes(model_id: str, dtype: str = "bf16") -> float:
    """Bytes of the parameters active per token (MoE), or all parameters for a dense model."""
    m = model(model_id)
    return (m.active_params_b or m.params_b) * 1e9 * _bytes(dtype)


@calculator()
def flops_per_token(model_id: str) -> float:
    """Forward FLOPs per token ≈ 2 · active parameters (one multiply and one add per weight)."""
    m = model(model_id)
    return 2 * (m.active_params_b or m.params_b) * 1e9


# F4: tensor-parallel all-reduce ----------------------------------------------------------------------------


@calculator()
def allreduces_per_layer() -> float:
    """Megatron TP forward: one after the attention output projection, one after the MLP down projection."""
    return 2


@calculator(wrong_of="allreduces_per_layer", misconception="tp-allreduce-per-matmul")
def allreduces_per_layer_per_matmul() -> float:
    """Wrong: one all-reduce after every matmul (QKV, attention out, up, down)."""
    return 4


@calculator()
def allreduces_per_step(model_id: str) -> float:
    """All-reduces per forward pass (one decode step): 2 per layer · L."""
    return allreduces_per_layer() * model(model_id).layers


@calculator()
def allreduce_bytes(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Size S of one TP all-reduce: tokens · hidden · bytes."""
    return tokens * model(model_id).hidden * _bytes(dtype)


@calculator()
def ring_allreduce_factor(p: int) -> float:
    """Bytes each GPU sends in a ring all-reduce, as a multiple of S: 2(p−1)/p."""
    return 2 * (p - 1) / p


@calculator()
def ring_allreduce_bytes_per_gpu(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Ring all-reduce traffic per GPU: 2(p−1)/p · S."""
    return ring_allreduce_factor(p) * allreduce_bytes(model_id, tokens, dtype)


@calculator(wrong_of="ring_allreduce_bytes_per_gpu", misconception="ring-bytes-grow-with-p")
def ring_allreduce_bytes_per_gpu_times_p(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: p · S, as if each GPU sent the whole tensor to every peer."""
    return p * allreduce_bytes(model_id, tokens, dtype)


@calculator(wrong_of="ring_allreduce_bytes_per_gpu", misconception="ring-forgets-allgather")
def ring_allreduce_bytes_per_gpu_no_allgather(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: (p−1)/p · S, counting only the reduce-scatter half of the ring."""
    return (p - 1) / p * allreduce_bytes(model_id, tokens, dtype)


@calculator()
def tp_allreduce_bytes_per_step(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Per-GPU all-reduce traffic of one forward pass: 2L all-reduces · 2(p−1)/p · S."""
    return allreduces_per_step(model_id) * ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype)


@calculator()
def tp_allreduce_time_per_step(
    model_id: str, tokens: int, p: int, link_id: str, dtype: str = "bf16", efficiency: float = 1.0
) -> float:
    """Seconds of TP all-reduce traffic per forward pass at the link's per-direction bandwidth."""
    return tp_allreduce_bytes_per_step(model_id, tokens, p, dtype) / (link(link_id).gb_s * 1e9 * efficiency)


# F5: pipeline bubble ---------------------------------------------------------------------------------------


@calculator()
def pipeline_bubble(p: int, m: int) -> float:
    """Bubble as a fraction of wall time: (p−1)/(m+p−1) (GPipe)."""
    return (p - 1) / (m + p - 1)


@calculator(wrong_of="pipeline_bubble", misconception="bubble-vs-ideal-compute")
def pipeline_bubble_vs_ideal(p: int, m: int) -> float:
    """(p−1)/m: the bubble against ideal compute time (Megatron-PTD), not a fraction of wall time."""
    return (p - 1) / m


@calculator(wrong_of="pipeline_bubble", misconception="bubble-ignores-microbatches")
def pipeline_bubble_no_microbatches(p: int, m: int) -> float:
    """Wrong: (p−1)/p, as if micro-batching did not shrink the bubble."""
    return (p - 1) / p


# F6: MoE all-to-all ----------------------------------------------------------------------------------------


@calculator()
def moe_dispatch_bytes_per_token(model_id: str, dtype: str = "bf16", scale_group: int = 0) -> float:
    """Dispatch bytes per token: top-k · hidden · bytes, plus one FP32 scale per `scale_group` channels."""
    m = model(model_id)
    if m.top_k is None:
        raise ValueError(f"{m.name} is not a MoE model")
    payload = m.top_k * m.hidden * _bytes(dtype)
    scales = m.top_k * (m.hidden / scale_group) * 4 if scale_group else 0
    return payload + scales


@calculator()
def moe_combine_bytes_per_token(model_id: str, dtype: str = "bf16") -> float:
    """Combine bytes per token: top-k · hidden · bytes (BF16 in DeepSeek's serving)."""
    return moe_dispatch_bytes_per_token(model_id, dtype)


@calculator(wrong_of="moe_dispatch_bytes_per_token", misconception="a2a-scales-with-experts")
def moe_dispatch_bytes_per_token_all_experts(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: sends the token to every expert: experts · hidden · bytes."""
    m = model(model_id)
    if m.experts is None:
        raise ValueError(f"{m.name} is not a MoE model")
    return m.experts * m.hidden * _bytes(dtype)


@calculator()
def moe_tokens_bytes(model_id: str, tokens: int, dtype: str = "bf16", scale_group: int = 0) -> float:
    """Dispatch bytes for `tokens` tokens."""
    return tokens * moe_dispatch_bytes_per_token(model_id, dtype, scale_group)


@calculator()
def implied_bandwidth_gb_s(megabytes: float, microseconds: float) -> float:
    """GB/s implied by moving `megabytes` MB in `microseconds` µs (DeepEP cross-check, F6)."""
    return megabytes * 1e6 / (microseconds * 1e-6) / 1e9


# F7: KV transfer -------------------------------------------------------------------------------------------


@calculator()
def kv_transfer_seconds(model_id: str, tokens: int, link_id: str, dtype: str = "bf16") -> float:
    """KV transfer time: tokens · KV bytes per token / link bandwidth (per direction)."""
    return kv_cache_bytes(model_id, tokens, dtype) / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="kv_transfer_seconds", misconception="gbit-is-gbyte")
def kv_transfer_seconds_bits_as_bytes(model_id: str, tokens: int, link_id: str, dtype: str = "bf16") -> float:
    """Wrong: reads a NIC's Gb/s as GB/s, understating the time 8×."""
    return kv_transfer_seconds(model_id, tokens, link_id, dtype) / 8


@calculator()
def link_gb_s(link_id: str) -> float:
    """Per-direction bandwidth of a link in GB/s."""
    return link(link_id).gb_s


# F8: decode floor ------------------------------------------------------------------------------------------


@calculator()
def decode_step_floor_seconds(
    model_id: str,
    hw_id: str,
    dtype: str = "bf16",
    tp: int = 1,
    batch: int = 0,
    context: int = 0,
    kv_dtype: str = "bf16",
) -> float:
    """Lower bound on one decode step: (weights + batch·context·KV bytes) / (tp · HBM bandwidth)."""
    hw = hardware(hw_id)
    if hw.hbm_tb_s is None:
        raise ValueError(f"no HBM bandwidth on record for {hw.name}")
    kv = batch * context * kv_bytes_per_token(model_id, kv_dtype) if batch else 0.0
    return (weight_bytes(model_id, dtype) + kv) / (tp * hw.hbm_tb_s * 1e12)


@calculator()
def decode_tokens_per_s_bound(model_id: str, hw_id: str, dtype: str = "bf16", tp: int = 1) -> float:
    """Upper bound on batch-1 decode tokens/s from HBM bandwidth: tp · bandwidth / weight bytes."""
    return 1 / decode_step_floor_seconds(model_id, hw_id, dtype, tp)


@calculator()
def decode_aggregate_tokens_per_s(
    model_id: str, hw_id: str, batch: int, context: int, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Aggregate decode tokens/s bound at a batch: batch / step floor with the KV read included."""
    step = decode_step_floor_seconds(model_id, hw_id, dtype, 1, batch, context, kv_dtype)
    return batch / step


@calculator()
def hbm_tb_s(hw_id: str) -> float:
    """HBM bandwidth of a GPU in TB/s."""
    bw = hardware(hw_id).hbm_tb_s
    if bw is None:
        raise ValueError(f"no HBM bandwidth on record for {hw_id}")
    return bw


@calculator()
def hbm_gb(hw_id: str) -> float:
    """HBM capacity of a GPU in GB."""
    cap = hardware(hw_id).hbm_gb
    if cap is None:
        raise ValueError(f"no HBM capacity on record for {hw_id}")
    return cap


@calculator()
def model_attr(model_id: str, attr: str) -> float:
    """A numeric field of a model config (layers, hidden, q_heads, kv_heads, head_dim, ffn, experts, top_k, ...)."""
    value = getattr(model(model_id), attr)
    if not isinstance(value, int | float):
        raise ValueError(f"{attr} of {model_id} is not a number")
    return float(value)


@calculator()
def arithmetic_intensity_decode(batch: int, dtype: str = "bf16") -> float:
    """FLOPs per weight byte of a decode GEMM at a batch: 2·batch FLOPs per weight / bytes per weight."""
    return 2 * batch / _bytes(dtype)
