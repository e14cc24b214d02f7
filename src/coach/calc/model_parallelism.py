"""Calculators for the model-parallelism module: shard shapes, pipeline hand-offs, sequence and context
parallelism, expert parallelism, vocabulary-parallel embeddings and KV-head replication under TP.

Every formula builds on domain-facts.md §1-§4 (F1, F3, F4, F5, F6) and the core calculators in formulas.py.
"""

from __future__ import annotations

from coach.calc.formulas import (
    _bytes,
    allreduce_bytes,
    kv_bytes_per_token,
    kv_duplication_under_tp,
    ring_allreduce_bytes_per_gpu,
    weight_bytes,
)
from coach.calc.registry import calculator
from coach.calc.tables import hardware, link, model

# Tensor-parallel shard shapes (Megatron, §4) ---------------------------------------------------------------


@calculator()
def tp_ffn_shard(model_id: str, tp: int) -> float:
    """Columns of the up/gate projection (rows of the down projection) per GPU: ffn / tp."""
    return model(model_id).ffn / tp


@calculator()
def tp_hidden_shard(model_id: str, tp: int) -> float:
    """A hidden-dimension slice per GPU: hidden / tp (the split Megatron does NOT use for the MLP input)."""
    return model(model_id).hidden / tp


@calculator()
def q_heads_per_gpu(model_id: str, tp: int) -> float:
    """Query heads per GPU under TP: q_heads / tp."""
    return model(model_id).q_heads / tp


@calculator()
def kv_heads_per_gpu(model_id: str, tp: int) -> float:
    """KV heads each GPU stores under TP: n_kv / tp, but never fewer than one (heads are replicated past n_kv)."""
    m = model(model_id)
    if m.kv_heads is None:
        raise ValueError(f"{m.name} uses MLA")
    return max(1.0, m.kv_heads / tp)


@calculator(wrong_of="allreduces_per_step", misconception="tp-allreduce-per-matmul")
def allreduces_per_step_per_matmul(model_id: str) -> float:
    """Wrong: one all-reduce after each of the four matmuls of every layer: 4·L."""
    return 4 * model(model_id).layers


@calculator(wrong_of="allreduces_per_step", misconception="tp-one-allreduce-per-layer")
def allreduces_per_step_one_per_layer(model_id: str) -> float:
    """Wrong: a single all-reduce per layer, as if attention and MLP partials were summed together: L."""
    return model(model_id).layers


@calculator(wrong_of="allreduces_per_step", misconception="tp-allreduces-divide-by-p")
def allreduces_per_step_over_tp(model_id: str, tp: int) -> float:
    """Wrong: 2·L/tp, as if each GPU took part in only its share of the all-reduces."""
    return 2 * model(model_id).layers / tp


# Ring all-reduce with a latency term (F4) ------------------------------------------------------------------


@calculator()
def ring_allreduce_time_alpha_beta(
    model_id: str, tokens: int, p: int, link_id: str, alpha_us: float, dtype: str = "bf16"
) -> float:
    """Seconds for one ring all-reduce: 2(p−1)·α + 2(p−1)/p·S / B (α = fixed cost per ring step)."""
    steps = 2 * (p - 1)
    return steps * alpha_us * 1e-6 + ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype) / (
        link(link_id).gb_s * 1e9
    )


@calculator(wrong_of="ring_allreduce_time_alpha_beta", misconception="allreduce-ignores-latency")
def ring_allreduce_time_bandwidth_only(
    model_id: str, tokens: int, p: int, link_id: str, alpha_us: float = 0.0, dtype: str = "bf16"
) -> float:
    """Wrong: bytes / bandwidth only, 2(p−1)/p·S / B, dropping the 2(p−1)·α step latency."""
    return ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype) / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="ring_allreduce_time_alpha_beta", misconception="allreduce-ignores-latency")
def ring_allreduce_time_latency_once(
    model_id: str, tokens: int, p: int, link_id: str, alpha_us: float, dtype: str = "bf16"
) -> float:
    """Wrong: charges the fixed latency α once instead of once per ring step: α + 2(p−1)/p·S / B."""
    return alpha_us * 1e-6 + ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype) / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="ring_allreduce_time_alpha_beta", misconception="ring-bytes-grow-with-p")
def ring_allreduce_time_bytes_times_p(
    model_id: str, tokens: int, p: int, link_id: str, alpha_us: float, dtype: str = "bf16"
) -> float:
    """Wrong: 2(p−1)·α + p·S / B, as if per-GPU bytes grew in proportion to p (p whole copies of S)."""
    return 2 * (p - 1) * alpha_us * 1e-6 + p * allreduce_bytes(model_id, tokens, dtype) / (link(link_id).gb_s * 1e9)


@calculator()
def tp_allreduce_time_per_step_alpha_beta(
    model_id: str, tokens: int, p: int, link_id: str, alpha_us: float, dtype: str = "bf16"
) -> float:
    """Seconds of all-reduce per forward pass with the latency term: 2L · (2(p−1)·α + 2(p−1)/p·S / B)."""
    return 2 * model(model_id).layers * ring_allreduce_time_alpha_beta(model_id, tokens, p, link_id, alpha_us, dtype)


# Sequence parallelism (§4 Megatron-SP) ---------------------------------------------------------------------


@calculator(wrong_of="ring_allreduce_bytes_per_gpu", misconception="sp-adds-volume")
def sp_bytes_per_gpu_doubled(model_id: str, tokens: int, p: int, dtype: str = "bf16") -> float:
    """Wrong: counts a full all-reduce's 2(p−1)/p·S for each of the reduce-scatter and the all-gather."""
    return 2 * ring_allreduce_bytes_per_gpu(model_id, tokens, p, dtype)


# Pipeline parallelism (F5) ---------------------------------------------------------------------------------


@calculator()
def pp_activation_bytes(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Bytes one stage hands the next for a micro-batch: tokens · hidden · bytes (one hidden state per token)."""
    return tokens * model(model_id).hidden * _bytes(dtype)


@calculator(wrong_of="pp_activation_bytes", misconception="pp-sends-kv-cache")
def pp_activation_bytes_as_kv(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Wrong: tokens · KV bytes per token of the whole model, as if stages shipped the KV cache."""
    return tokens * kv_bytes_per_token(model_id, dtype)


@calculator(wrong_of="pp_activation_bytes", misconception="pp-sends-ffn-activation")
def pp_activation_bytes_ffn_width(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Wrong: tokens · ffn · bytes, as if the MLP's intermediate activation crossed the stage boundary."""
    return tokens * model(model_id).ffn * _bytes(dtype)


@calculator(wrong_of="pipeline_bubble", misconception="bubble-off-by-one")
def pipeline_bubble_p_fill(p: int, m: int) -> float:
    """Wrong: p/(m+p−1), counting p fill steps instead of p − 1."""
    return p / (m + p - 1)


@calculator(wrong_of="pipeline_bubble", misconception="bubble-spread-over-stages")
def pipeline_bubble_spread_over_stages(p: int, m: int) -> float:
    """Wrong: (p−1)/(p·(m+p−1)), as if the p − 1 idle slots were shared by all p stages, not idle on each."""
    return (p - 1) / (p * (m + p - 1))


@calculator()
def pipeline_busy_fraction(p: int, m: int) -> float:
    """Fraction of wall time a stage computes: m/(m+p−1) = 1 − bubble."""
    return m / (m + p - 1)


# Data-parallel replicas and KV capacity (F1, F3) -----------------------------------------------------------


@calculator()
def kv_capacity_tokens(
    model_id: str, hw_id: str, tp: int = 1, replicas: int = 1, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """KV tokens held by `replicas` instances of tp GPUs: replicas·(tp·HBM − weights)/(KV/token · replication)."""
    free = free_hbm_bytes(model_id, hw_id, tp, dtype)
    if free <= 0:
        raise ValueError(f"{model_id} in {dtype} does not fit on {tp} × {hw_id}")
    return replicas * free / (kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp))


@calculator(wrong_of="kv_capacity_tokens", misconception="kv-scales-with-q-heads")
def kv_capacity_tokens_q_heads(
    model_id: str, hw_id: str, tp: int = 1, replicas: int = 1, dtype: str = "bf16", kv_dtype: str = "bf16"
) -> float:
    """Wrong: sizes each token's KV with the query-head count: replicas·free / (2·L·q_heads·d_head·bytes)."""
    m = model(model_id)
    per_token = 2 * m.layers * m.q_heads * m.head_dim * _bytes(kv_dtype)
    return replicas * free_hbm_bytes(model_id, hw_id, tp, dtype) / per_token


@calculator()
def free_hbm_bytes(model_id: str, hw_id: str, tp: int = 1, dtype: str = "bf16") -> float:
    """HBM left after the weights in an instance of tp GPUs: tp·HBM − weights."""
    hw = hardware(hw_id)
    if hw.hbm_gb is None:
        raise ValueError(f"no HBM capacity on record for {hw.name}")
    return tp * hw.hbm_gb * 1e9 - weight_bytes(model_id, dtype)


# Expert parallelism (F6) -----------------------------------------------------------------------------------


@calculator()
def experts_per_gpu(model_id: str, ep: int) -> float:
    """Routed experts each GPU holds per MoE layer under expert parallelism: experts / ep."""
    m = model(model_id)
    if m.experts is None:
        raise ValueError(f"{m.name} is not a MoE model")
    return m.experts / ep


@calculator(wrong_of="moe_dispatch_bytes_per_token", misconception="dispatch-ignores-top-k")
def moe_dispatch_bytes_per_token_one_copy(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: hidden · bytes, as if a token were sent once however many experts it picks."""
    m = model(model_id)
    if m.top_k is None:
        raise ValueError(f"{m.name} is not a MoE model")
    return m.hidden * _bytes(dtype)


@calculator(wrong_of="moe_dispatch_bytes_per_token", misconception="dispatch-sends-expert-width")
def moe_dispatch_bytes_per_token_expert_width(model_id: str, dtype: str = "bf16") -> float:
    """Wrong: top-k · expert FFN width · bytes, as if the expert's intermediate activation were sent."""
    m = model(model_id)
    if m.top_k is None:
        raise ValueError(f"{m.name} is not a MoE model")
    return m.top_k * m.ffn * _bytes(dtype)


# Megatron vocabulary-parallel embedding (§4 Megatron-LM) ---------------------------------------------------


@calculator()
def embedding_bytes(model_id: str, dtype: str = "bf16") -> float:
    """Input embedding table: vocab · hidden · bytes."""
    m = model(model_id)
    return m.vocab * m.hidden * _bytes(dtype)


@calculator()
def vocab_rows_per_gpu(model_id: str, tp: int) -> float:
    """Vocabulary rows each GPU holds in a vocab-parallel embedding: vocab / tp."""
    return model(model_id).vocab / tp


@calculator()
def embedding_bytes_per_gpu(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """Vocab-parallel embedding shard: vocab/tp rows · hidden · bytes."""
    return embedding_bytes(model_id, dtype) / tp


@calculator()
def embedding_bytes_2d_tile(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """A (vocab/tp) × (hidden/tp) tile of the embedding: vocab·hidden·bytes/tp² (covers only 1/tp of the table)."""
    return embedding_bytes(model_id, dtype) / (tp * tp)


@calculator()
def logits_bytes(model_id: str, tokens: int, dtype: str = "bf16") -> float:
    """Full-vocabulary logits for `tokens` tokens: tokens · vocab · bytes."""
    return tokens * model(model_id).vocab * _bytes(dtype)


# KV-head replication under TP (§4 vLLM, §1 notes) ----------------------------------------------------------


@calculator()
def kv_bytes_per_token_per_gpu_tp(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """KV bytes per token on one TP rank: 2·L·max(n_kv/tp, 1)·d_head·bytes; MLA's latent is whole on each rank."""
    m = model(model_id)
    if m.kv_heads is None:
        return kv_bytes_per_token(model_id, dtype)
    return 2 * m.layers * kv_heads_per_gpu(model_id, tp) * m.head_dim * _bytes(dtype)


@calculator(wrong_of="kv_bytes_per_token_per_gpu_tp", misconception="tp-exceeds-kv-heads-free")
def kv_bytes_per_token_per_gpu_tp_no_replication(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """Wrong: KV bytes per token / tp, as if TP past the KV-head count still split the cache evenly."""
    return kv_bytes_per_token(model_id, dtype) / tp


@calculator()
def kv_bytes_per_token_per_gpu(model_id: str, tp: int = 1, pp: int = 1, dtype: str = "bf16") -> float:
    """KV bytes per token on one GPU under TP×PP: 2·(L/pp)·max(n_kv/tp, 1)·d_head·bytes."""
    return kv_bytes_per_token_per_gpu_tp(model_id, tp, dtype) / pp


@calculator()
def kv_bytes_per_token_tp_group(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """KV bytes per token summed over the TP group: per-rank bytes · tp = KV bytes · replication factor."""
    return kv_bytes_per_token_per_gpu_tp(model_id, tp, dtype) * tp


@calculator(wrong_of="kv_bytes_per_token_per_gpu", misconception="tp-exceeds-kv-heads-free")
def kv_bytes_per_token_per_gpu_split_heads(model_id: str, tp: int = 1, pp: int = 1, dtype: str = "bf16") -> float:
    """Wrong when tp > KV heads: KV bytes / (tp · pp), as if a KV head split across ranks with nothing replicated."""
    return kv_bytes_per_token(model_id, dtype) / (tp * pp)


@calculator(wrong_of="kv_bytes_per_token_tp_group", misconception="tp-exceeds-kv-heads-free")
def kv_bytes_per_token_tp_group_one_copy(model_id: str, tp: int, dtype: str = "bf16") -> float:
    """Wrong when tp > KV heads: one copy of the KV cache over the group, as if no head were replicated."""
    return kv_bytes_per_token(model_id, dtype)


@calculator()
def max_decode_context_parallel(model_id: str, tp: int) -> float:
    """Largest decode context-parallel size that removes KV replication: max(1, tp / n_kv) (MLA: tp)."""
    return kv_duplication_under_tp(model_id, tp)


# Context parallelism (§4 ring attention) -------------------------------------------------------------------


@calculator()
def count(n: float) -> float:
    """A count given as an item parameter, returned unchanged so that it renders with a thousands separator."""
    return n


@calculator()
def cp_tokens_per_gpu(tokens: int, cp: int) -> float:
    """Prompt tokens each GPU owns under context parallelism: tokens / cp."""
    return tokens / cp


@calculator()
def ring_attention_steps(cp: int) -> float:
    """K/V chunks a GPU receives from its peers in ring attention: cp − 1."""
    return cp - 1
