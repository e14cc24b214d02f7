"""Calculators of the distributed-inference module: TP all-reduce bytes per layer, MoE all-to-all per step,
MLA cache capacity under TP vs DP attention, KV streaming and transfer, disaggregated goodput, and
DeepSeek-V3's expert placement. Built on the core formulas of domain-facts.md §2 (F1-F7) and §4.
"""

from __future__ import annotations

from coach.calc.formulas import (
    _bytes,
    allreduce_bytes,
    kv_bytes_per_token,
    kv_bytes_per_token_no_kv_factor,
    kv_bytes_per_token_q_heads,
    kv_transfer_seconds,
    moe_dispatch_bytes_per_token,
    ring_allreduce_bytes_per_gpu,
)
from coach.calc.model_parallelism import (
    moe_dispatch_bytes_per_token_expert_width,
    moe_dispatch_bytes_per_token_one_copy,
)
from coach.calc.registry import calculator
from coach.calc.tables import link, model

# Leading dense (non-MoE) layers, where the sheet states them: DeepSeek-V3 "61 (the first 3 dense)" [DSC].
DENSE_LAYERS: dict[str, int] = {"deepseek-v3": 3}


# F4: TP all-reduce per layer -------------------------------------------------------------------------------


@calculator()
def di_tp_allreduce_bytes_per_layer(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Per-GPU TP traffic of one layer's forward pass: 2 all-reduces · 2(p−1)/p · S, S = tokens·hidden·bytes."""
    return 2 * ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype)


@calculator(wrong_of="allreduce_bytes", misconception="di-allreduce-carries-ffn-width")
def di_allreduce_bytes_ffn_width(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Wrong: sizes the MLP all-reduce by the intermediate width: tokens · ffn · bytes."""
    return tokens * model(model_id).ffn * _bytes(dtype)


@calculator(wrong_of="allreduce_bytes", misconception="di-allreduce-only-own-shard")
def di_allreduce_bytes_own_shard(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: takes the all-reduced tensor to be each GPU's 1/p slice: tokens · hidden · bytes / p."""
    return allreduce_bytes(model_id, tokens, dtype) / p


@calculator(wrong_of="tp_allreduce_bytes_per_step", misconception="ring-bytes-grow-with-p")
def di_tp_allreduce_bytes_per_step_times_p(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: 2L all-reduces · p · S, as if each GPU sent the whole tensor to every peer."""
    return 2 * model(model_id).layers * p * allreduce_bytes(model_id, tokens, dtype)


@calculator(wrong_of="tp_allreduce_bytes_per_step", misconception="ring-forgets-allgather")
def di_tp_allreduce_bytes_per_step_no_allgather(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: 2L all-reduces · (p−1)/p · S, counting only the reduce-scatter half of each ring."""
    return 2 * model(model_id).layers * (p - 1) / p * allreduce_bytes(model_id, tokens, dtype)


@calculator(wrong_of="tp_allreduce_bytes_per_step", misconception="tp-allreduce-per-matmul")
def di_tp_allreduce_bytes_per_step_per_matmul(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: 4L all-reduces (one per matmul) · 2(p−1)/p · S."""
    return 4 * model(model_id).layers * ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype)


@calculator()
def di_allreduce_fixed_cost_seconds(model_id: str, alpha_us: float) -> float:
    """Fixed (latency) cost of one step's TP all-reduces: 2L · α, α = per-call startup cost in µs."""
    return 2 * model(model_id).layers * alpha_us * 1e-6


# F6: MoE all-to-all ----------------------------------------------------------------------------------------


@calculator()
def di_moe_layers(model_id: str) -> float:
    """MoE layers of a model: all layers minus the leading dense ones (DeepSeek-V3: 61 − 3 = 58)."""
    if model_id not in DENSE_LAYERS:
        raise ValueError(f"the sheet does not state the dense-layer count of {model_id}")
    return model(model_id).layers - DENSE_LAYERS[model_id]


@calculator(wrong_of="moe_dispatch_bytes_per_token", misconception="di-a2a-carries-expert-width")
def di_moe_dispatch_bytes_per_token_expert_width(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: sends the expert's intermediate activation: top-k · expert ffn · bytes."""
    return moe_dispatch_bytes_per_token_expert_width(model_id, dtype)  # same formula, this module's misconception


@calculator(wrong_of="moe_dispatch_bytes_per_token", misconception="di-dispatch-once-per-token")
def di_moe_dispatch_bytes_per_token_once(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: sends each token once whatever its top-k: hidden · bytes."""
    return moe_dispatch_bytes_per_token_one_copy(model_id, dtype)  # same formula, this module's misconception


@calculator(wrong_of="moe_tokens_bytes", misconception="di-fp8-dispatch-forgets-scales")
def di_moe_tokens_bytes_no_scales(model_id: str, tokens: int, dtype: str = "fp8") -> float:
    """Wrong: FP8 dispatch bytes without the per-128-channel FP32 scales: tokens · top-k · hidden · 1."""
    return tokens * moe_dispatch_bytes_per_token(model_id, dtype)


@calculator()
def di_moe_a2a_bytes_per_token(
    model_id: str, dispatch_dtype: str = "fp8", combine_dtype: str = "bf16", scale_group: int = 128
) -> float:
    """Dispatch + combine bytes per token per MoE layer: top-k·hidden·(dispatch bytes) + scales + top-k·hidden·2."""
    return moe_dispatch_bytes_per_token(model_id, dispatch_dtype, scale_group) + moe_dispatch_bytes_per_token(
        model_id, combine_dtype
    )


# (Combine assumed to move dispatch's FP8 bytes gives 2 · 59,136 = 118,272 B, within 5% of the BF16 combine's own
# 114,688 B: a number the check must read as that right value, so no wrong formula is declared for it.)
@calculator(wrong_of="di_moe_a2a_bytes_per_token", misconception="dispatch-combine-symmetric")
def di_moe_a2a_bytes_per_token_symmetric(model_id: str) -> float:
    """Wrong: dispatch assumed to move combine's BF16 bytes, so the two are equal: 2 · top-k · hidden · 2."""
    return 2 * moe_dispatch_bytes_per_token(model_id, "bf16")


@calculator()
def di_moe_a2a_seconds_per_layer(
    model_id: str, tokens: int, link_id: str, dispatch_dtype: str = "fp8", combine_dtype: str = "bf16",
    scale_group: int = 128,
) -> float:
    """One MoE layer's dispatch + combine time: tokens · (dispatch + combine bytes) / link bandwidth."""
    per_token = di_moe_a2a_bytes_per_token(model_id, dispatch_dtype, combine_dtype, scale_group)
    return tokens * per_token / (link(link_id).gb_s * 1e9)


@calculator()
def di_moe_a2a_seconds_per_step(
    model_id: str, tokens: int, link_id: str, dispatch_dtype: str = "fp8", combine_dtype: str = "bf16",
    scale_group: int = 128,
) -> float:
    """All-to-all time of one forward pass: MoE layers · tokens · (dispatch + combine bytes) / bandwidth."""
    return di_moe_layers(model_id) * di_moe_a2a_seconds_per_layer(
        model_id, tokens, link_id, dispatch_dtype, combine_dtype, scale_group
    )


@calculator(wrong_of="di_moe_a2a_seconds_per_step", misconception="dispatch-combine-symmetric")
def di_moe_a2a_seconds_per_step_symmetric(model_id: str, tokens: int, link_id: str, scale_group: int = 128) -> float:
    """Wrong: combine assumed to move the same FP8 bytes as dispatch: MoE layers · tokens · 2 · dispatch / B."""
    per_token = 2 * moe_dispatch_bytes_per_token(model_id, "fp8", scale_group)
    return di_moe_layers(model_id) * tokens * per_token / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="di_moe_a2a_seconds_per_step", misconception="di-a2a-once-per-step")
def di_moe_a2a_seconds_per_step_one_layer(model_id: str, tokens: int, link_id: str, scale_group: int = 128) -> float:
    """Wrong: one dispatch + combine per forward pass instead of one per MoE layer."""
    return di_moe_a2a_seconds_per_layer(model_id, tokens, link_id, "fp8", "bf16", scale_group)


@calculator(wrong_of="di_moe_a2a_seconds_per_step", misconception="gbit-is-gbyte")
def di_moe_a2a_seconds_per_step_bits_as_bytes(
    model_id: str, tokens: int, link_id: str, scale_group: int = 128
) -> float:
    """Wrong: reads the NIC's Gb/s as GB/s, understating the time 8×."""
    return di_moe_a2a_seconds_per_step(model_id, tokens, link_id, "fp8", "bf16", scale_group) / 8


# F2 / §4 SGLang: MLA cache under TP vs DP attention -------------------------------------------------------


@calculator()
def di_kv_capacity_tokens_tp_attention(model_id: str, free_gb: float, dtype: str = "bf16") -> float:
    """Distinct tokens a TP attention group can cache when each GPU has free_gb GB for KV.

    MLA's latent is replicated on every TP rank, so the group holds free / (KV bytes per token) tokens.
    """
    m = model(model_id)
    if m.kv_heads is not None:
        raise ValueError(f"{m.name} is not an MLA model")
    return free_gb * 1e9 / kv_bytes_per_token(model_id, dtype)


@calculator()
def di_kv_capacity_tokens_dp_attention(model_id: str, free_gb: float, gpus: int, dtype: str = "bf16") -> float:
    """Distinct tokens a DP-attention group caches: each rank keeps only its own requests, gpus · free / KV."""
    return gpus * free_gb * 1e9 / kv_bytes_per_token(model_id, dtype)


@calculator(wrong_of="di_kv_capacity_tokens_tp_attention", misconception="mla-shards-by-head")
def di_kv_capacity_tokens_tp_sharded(model_id: str, free_gb: float, gpus: int, dtype: str = "bf16") -> float:
    """Wrong: assumes TP splits the MLA latent by head, so the group holds gpus · free / KV tokens."""
    return gpus * free_gb * 1e9 / kv_bytes_per_token(model_id, dtype)


# F7: KV transfer and streaming -----------------------------------------------------------------------------


@calculator(wrong_of="kv_transfer_seconds", misconception="kv-scales-with-q-heads")
def di_kv_transfer_seconds_q_heads(model_id: str, tokens: int, link_id: str, dtype: str = "bf16") -> float:
    """Wrong: sizes the KV with query heads instead of KV heads."""
    return tokens * kv_bytes_per_token_q_heads(model_id, dtype) / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="kv_transfer_seconds", misconception="kv-forgets-k-and-v")
def di_kv_transfer_seconds_no_kv_factor(model_id: str, tokens: int, link_id: str, dtype: str = "bf16") -> float:
    """Wrong: forgets the factor 2 for K and V, halving the payload."""
    return tokens * kv_bytes_per_token_no_kv_factor(model_id, dtype) / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="kv_transfer_seconds", misconception="nvlink-bidir-as-per-direction")
def di_kv_transfer_seconds_bidir(model_id: str, tokens: int, link_id: str, dtype: str = "bf16") -> float:
    """Wrong: divides by the bidirectional figure (2 × per direction), halving the time."""
    return kv_transfer_seconds(model_id, tokens, link_id, dtype) / 2


@calculator()
def di_kv_request_bytes(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """KV bytes one request of `tokens` prompt tokens hands from prefill to decode: tokens · KV bytes/token."""
    return tokens * kv_bytes_per_token(model_id, dtype)


@calculator()
def di_kv_stream_gbps(model_id: str, tokens: int, rps: float, dtype: str = "bf16") -> float:
    """Network rate (Gb/s) to ship every request's KV: rps · tokens · KV bytes/token · 8 / 10^9 (DistServe)."""
    return rps * di_kv_request_bytes(model_id, tokens, dtype) * 8 / 1e9


@calculator(wrong_of="di_kv_stream_gbps", misconception="gbit-is-gbyte")
def di_kv_stream_gbps_bytes(model_id: str, tokens: int, rps: float, dtype: str = "bf16") -> float:
    """Wrong: reports the GB/s figure as Gb/s (forgets the ×8 from bytes to bits)."""
    return rps * di_kv_request_bytes(model_id, tokens, dtype) / 1e9


@calculator(wrong_of="di_kv_stream_gbps", misconception="kv-scales-with-q-heads")
def di_kv_stream_gbps_q_heads(model_id: str, tokens: int, rps: float, dtype: str = "bf16") -> float:
    """Wrong: sizes each request's KV with query heads instead of KV heads."""
    return rps * tokens * kv_bytes_per_token_q_heads(model_id, dtype) * 8 / 1e9


@calculator(wrong_of="di_kv_stream_gbps", misconception="kv-per-layer-only")
def di_kv_stream_gbps_one_layer(model_id: str, tokens: int, rps: float, dtype: str = "bf16") -> float:
    """Wrong: counts one layer's K and V per token instead of all L layers."""
    return di_kv_stream_gbps(model_id, tokens, rps, dtype) / model(model_id).layers


# §4 DistServe: disaggregated goodput ----------------------------------------------------------------------


@calculator()
def di_disagg_rps_per_gpu(prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int) -> float:
    """Requests/s per GPU of an xPyD deployment: min(x·prefill rate, y·decode rate) / (x + y).

    Every request needs both phases, so the slower pool caps the rate (DistServe: 2P1D gives 10/3 = 3.3).
    """
    return min(n_prefill * prefill_rps, n_decode * decode_rps) / (n_prefill + n_decode)


@calculator(wrong_of="di_disagg_rps_per_gpu", misconception="di-pd-rates-add")
def di_disagg_rps_per_gpu_summed(prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int) -> float:
    """Wrong: adds the two pools' rates, as if prefill and decode served different requests."""
    return (n_prefill * prefill_rps + n_decode * decode_rps) / (n_prefill + n_decode)


@calculator()
def di_ratio(a: float, b: float) -> float:
    """a / b (e.g. a disaggregated per-GPU rate over the colocated one)."""
    return a / b


# §4 DeepSeek: expert placement -----------------------------------------------------------------------------


@calculator()
def di_expert_slots(gpus: int, routed_per_gpu: int) -> float:
    """Routed-expert copies hosted by an EP group: gpus · routed experts per GPU."""
    return gpus * routed_per_gpu


@calculator()
def di_redundant_expert_copies(model_id: str, gpus: int, routed_per_gpu: int) -> float:
    """Routed-expert copies beyond one per expert: gpus · routed per GPU − routed experts (DeepSeek: 288 − 256)."""
    m = model(model_id)
    if m.experts is None:
        raise ValueError(f"{m.name} is not a MoE model")
    return di_expert_slots(gpus, routed_per_gpu) - m.experts


@calculator()
def di_nvlink_domain_tb_s(gpus: int, per_gpu_bidir_gb_s: float) -> float:
    """Aggregate NVLink bandwidth of a domain in TB/s: gpus · per-GPU bidirectional GB/s / 1000."""
    return gpus * per_gpu_bidir_gb_s / 1000


@calculator()
def di_disagg_gain(
    prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int, colocated_rps: float
) -> float:
    """Per-GPU rate of an xPyD deployment over the colocated per-GPU rate (DistServe 2P1D: 3.3 / 1.6 = 2.1×)."""
    return di_disagg_rps_per_gpu(prefill_rps, decode_rps, n_prefill, n_decode) / colocated_rps


@calculator(wrong_of="kv_transfer_seconds", misconception="di-domain-aggregate-per-pair")
def di_kv_transfer_seconds_domain_aggregate(model_id: str, tokens: int, gpus: int = 72, dtype: str = "bf16") -> float:
    """Wrong: divides by a whole NVLink domain's aggregate (gpus · 1.8 TB/s), as if one GPU pair could use it."""
    return di_kv_request_bytes(model_id, tokens, dtype) / (di_nvlink_domain_tb_s(gpus, 1800) * 1e12)


@calculator()
def di_link_ratio(link_a: str, link_b: str) -> float:
    """How many times faster link_a is than link_b, per direction (NVLink 5 vs one 400 Gb/s NIC: 900/50 = 18)."""
    return link(link_a).gb_s / link(link_b).gb_s


@calculator()
def di_count(n: float) -> float:
    """The number n itself: lets an item show a parameter with thousands separators (131072 → 131,072)."""
    return n


@calculator()
def di_percent(part: float, whole: float) -> float:
    """part as a percentage of whole (DeepSeek: 20 of 132 SMs = 15.2%)."""
    return 100 * part / whole
