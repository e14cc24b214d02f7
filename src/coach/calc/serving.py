"""Serving-fleet arithmetic for the multi-gpu-serving module, part 1: Little's law, replica counts, KV memory
per replica and the batch a TPOT target allows (part 2, `serving_fleet.py`: pools, cold starts, routing, SLOs
and queueing tails).

Names carry an `ms_` prefix so they cannot collide with other modules' calculators. Inputs that the fact sheet
does not give (arrival rates, SLOs, storage bandwidths, utilisation targets) are premises of the question.
"""

from __future__ import annotations

import math

from coach.calc.formulas import hbm_gb, hbm_tb_s, kv_bytes_per_token, kv_duplication_under_tp, weight_bytes
from coach.calc.registry import calculator
from coach.calc.tables import model

EPS = 1e-9


def hbm_bytes(hw_id: str) -> float:
    return hbm_gb(hw_id) * 1e9


def hbm_bytes_per_s(hw_id: str) -> float:
    return hbm_tb_s(hw_id) * 1e12


# Little's law and replica counts ---------------------------------------------------------------------------


@calculator()
def ms_littles_law_concurrency(rate_per_s: float, latency_s: float) -> float:
    """Little's law: requests in the system L = arrival rate λ · mean time in the system W."""
    return rate_per_s * latency_s


@calculator(wrong_of="ms_littles_law_concurrency", misconception="ms-littles-law-divides")
def ms_littles_law_concurrency_divided(rate_per_s: float, latency_s: float) -> float:
    """Wrong: λ / W, dividing the arrival rate by the latency instead of multiplying."""
    return rate_per_s / latency_s


@calculator()
def ms_replicas_needed(load_rps: float, per_replica_rps: float, utilisation: float = 1.0) -> float:
    """Replicas = ceil(load / (per-replica capacity · target utilisation))."""
    return math.ceil(load_rps / (per_replica_rps * utilisation) - EPS)


@calculator(wrong_of="ms_replicas_needed", misconception="ms-size-at-full-utilisation")
def ms_replicas_needed_full_utilisation(load_rps: float, per_replica_rps: float) -> float:
    """Wrong: ceil(load / per-replica capacity), sizing every replica to run at 100% of its capacity."""
    return math.ceil(load_rps / per_replica_rps - EPS)


@calculator(wrong_of="ms_replicas_needed", misconception="ms-replicas-round-down")
def ms_replicas_rounded_down(load_rps: float, per_replica_rps: float, utilisation: float = 1.0) -> float:
    """Wrong: floor(load / (capacity · utilisation)), dropping the fractional replica."""
    return math.floor(load_rps / (per_replica_rps * utilisation) + EPS)


@calculator()
def ms_replicas_scaled_load(load_rps: float, per_replica_rps: float, utilisation: float = 1.0) -> float:
    """ceil(load · utilisation / capacity): the load shrunk by the utilisation target (not a sizing rule)."""
    return math.ceil(load_rps * utilisation / per_replica_rps - EPS)


@calculator()
def ms_littles_law_sum(rate_per_s: float, latency_a_s: float, latency_b_s: float) -> float:
    """λ · (W_a + W_b): Little's law over two consecutive stays."""
    return rate_per_s * (latency_a_s + latency_b_s)


@calculator()
def ms_decode_concurrency(rate_per_s: float, output_tokens: float, tpot_s: float, replicas: int = 1) -> float:
    """Sequences decoding at once per replica = λ · (output tokens · TPOT) / replicas (Little's law, decode phase)."""
    return rate_per_s * output_tokens * tpot_s / replicas


@calculator()
def ms_fleet_kv_bytes(
    model_id: str,
    rate_per_s: float,
    output_tokens: float,
    tpot_s: float,
    context: int,
    kv_dtype: str = "bf16",
    replicas: int = 1,
) -> float:
    """KV held per replica = λ · output tokens · TPOT · context · KV bytes per token / replicas (full context)."""
    conc = ms_decode_concurrency(rate_per_s, output_tokens, tpot_s, replicas)
    return conc * context * kv_bytes_per_token(model_id, kv_dtype)


# KV memory left per replica ---------------------------------------------------------------------------------


@calculator()
def ms_kv_budget_bytes(model_id: str, hw_id: str, dtype: str = "bf16", tp: int = 1) -> float:
    """HBM left for KV in one replica of tp GPUs: tp · HBM − weight bytes."""
    return tp * hbm_bytes(hw_id) - weight_bytes(model_id, dtype)


@calculator(wrong_of="ms_kv_budget_bytes", misconception="ms-kv-capacity-ignores-weights")
def ms_kv_budget_all_hbm(hw_id: str, tp: int = 1) -> float:
    """Wrong: tp · HBM, as if the weights took no memory."""
    return tp * hbm_bytes(hw_id)


@calculator()
def ms_kv_token_capacity(model_id: str, hw_id: str, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1) -> float:
    """KV tokens one replica holds: (tp · HBM − weights) / (KV bytes per token · duplication under TP)."""
    per_token = kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp)
    return ms_kv_budget_bytes(model_id, hw_id, dtype, tp) / per_token


@calculator(wrong_of="ms_kv_token_capacity", misconception="ms-kv-capacity-ignores-weights")
def ms_kv_token_capacity_ignores_weights(model_id: str, hw_id: str, kv_dtype: str = "bf16", tp: int = 1) -> float:
    """Wrong: tp · HBM / KV bytes per token, as if the weights took no memory."""
    per_token = kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp)
    return tp * hbm_bytes(hw_id) / per_token


@calculator(wrong_of="ms_kv_token_capacity", misconception="kv-scales-with-q-heads")
def ms_kv_token_capacity_q_heads(
    model_id: str, hw_id: str, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Wrong: sizes each token's KV with the query-head count: (tp·HBM − weights) / (2·L·q_heads·d_head·bytes)."""
    m = model(model_id)
    per_token = kv_bytes_per_token(model_id, kv_dtype) * m.q_heads / (m.kv_heads or m.q_heads)
    return ms_kv_budget_bytes(model_id, hw_id, dtype, tp) / per_token


@calculator(wrong_of="ms_kv_token_capacity", misconception="kv-forgets-k-and-v")
def ms_kv_token_capacity_no_kv_factor(
    model_id: str, hw_id: str, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Wrong: drops the factor 2 for K and V, doubling the token count."""
    return 2 * ms_kv_token_capacity(model_id, hw_id, dtype, kv_dtype, tp)


@calculator()
def ms_kv_sequence_capacity(
    model_id: str, hw_id: str, context: int, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Full-context sequences that fit: floor(KV token capacity / context)."""
    return math.floor(ms_kv_token_capacity(model_id, hw_id, dtype, kv_dtype, tp) / context + EPS)


def _replicas_by_kv(conc: float, per_replica: float) -> float:
    if per_replica < 1:
        raise ValueError("not even one sequence fits a replica")
    return math.ceil(conc / per_replica - EPS)


@calculator()
def ms_decode_replicas_by_kv(
    model_id: str,
    hw_id: str,
    rate_per_s: float,
    output_tokens: float,
    tpot_s: float,
    context: int,
    dtype: str = "bf16",
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Replicas KV memory requires: ceil(λ · output tokens · TPOT / full-context sequences per replica)."""
    conc = ms_decode_concurrency(rate_per_s, output_tokens, tpot_s)
    return _replicas_by_kv(conc, ms_kv_sequence_capacity(model_id, hw_id, context, dtype, kv_dtype, tp))


@calculator(wrong_of="ms_decode_replicas_by_kv", misconception="ms-kv-capacity-ignores-weights")
def ms_decode_replicas_by_kv_ignores_weights(
    model_id: str,
    hw_id: str,
    rate_per_s: float,
    output_tokens: float,
    tpot_s: float,
    context: int,
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Wrong: as ms_decode_replicas_by_kv, but every GPU's whole HBM holds KV."""
    conc = ms_decode_concurrency(rate_per_s, output_tokens, tpot_s)
    per = math.floor(ms_kv_token_capacity_ignores_weights(model_id, hw_id, kv_dtype, tp) / context + EPS)
    return _replicas_by_kv(conc, per)


@calculator(wrong_of="ms_decode_replicas_by_kv", misconception="kv-scales-with-q-heads")
def ms_decode_replicas_by_kv_q_heads(
    model_id: str,
    hw_id: str,
    rate_per_s: float,
    output_tokens: float,
    tpot_s: float,
    context: int,
    dtype: str = "bf16",
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Wrong: as ms_decode_replicas_by_kv, with each token's KV sized by the query heads."""
    conc = ms_decode_concurrency(rate_per_s, output_tokens, tpot_s)
    per = math.floor(ms_kv_token_capacity_q_heads(model_id, hw_id, dtype, kv_dtype, tp) / context + EPS)
    return _replicas_by_kv(conc, per)


@calculator(wrong_of="ms_decode_replicas_by_kv", misconception="ms-littles-law-divides")
def ms_decode_replicas_by_kv_divided(
    model_id: str,
    hw_id: str,
    rate_per_s: float,
    output_tokens: float,
    tpot_s: float,
    context: int,
    dtype: str = "bf16",
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Wrong: as ms_decode_replicas_by_kv, with concurrency λ / (output tokens · TPOT)."""
    conc = rate_per_s / (output_tokens * tpot_s)
    return _replicas_by_kv(conc, ms_kv_sequence_capacity(model_id, hw_id, context, dtype, kv_dtype, tp))


@calculator()
def ms_max_batch_for_tpot(
    model_id: str,
    hw_id: str,
    tpot_s: float,
    context: int,
    dtype: str = "bf16",
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Largest decode batch whose bandwidth floor meets a TPOT SLO:
    floor((TPOT · tp · HBM bandwidth − weights) / (context · KV bytes per token))."""
    per_seq = context * kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp)
    room = tpot_s * tp * hbm_bytes_per_s(hw_id) - weight_bytes(model_id, dtype)
    return max(0, math.floor(room / per_seq + EPS))


@calculator()
def ms_max_batch_served(
    model_id: str,
    hw_id: str,
    tpot_s: float,
    context: int,
    dtype: str = "bf16",
    kv_dtype: str = "bf16",
    tp: int = 1,
) -> float:
    """Batch a replica can run within its TPOT SLO: min(memory-limited batch, TPOT-limited batch)."""
    return min(
        ms_kv_sequence_capacity(model_id, hw_id, context, dtype, kv_dtype, tp),
        ms_max_batch_for_tpot(model_id, hw_id, tpot_s, context, dtype, kv_dtype, tp),
    )


@calculator()
def ms_tpot_floor_at_batch(
    model_id: str, hw_id: str, batch: int, context: int, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Decode step floor in seconds: (weights + batch · context · KV bytes) / (tp · HBM bandwidth)."""
    kv = batch * context * kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp)
    return (weight_bytes(model_id, dtype) + kv) / (tp * hbm_bytes_per_s(hw_id))


@calculator(wrong_of="ms_tpot_floor_at_batch", misconception="kv-reads-free")
def ms_tpot_floor_weights_only(model_id: str, hw_id: str, dtype: str = "bf16", tp: int = 1) -> float:
    """Wrong: weights / (tp · HBM bandwidth) at any batch, as if the batch's KV reads took no time."""
    return weight_bytes(model_id, dtype) / (tp * hbm_bytes_per_s(hw_id))


@calculator(wrong_of="ms_tpot_floor_at_batch", misconception="tpot-divided-by-batch")
def ms_tpot_floor_per_user_divided(
    model_id: str, hw_id: str, batch: int, context: int, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Wrong: the step floor divided by the batch, read as each user's TPOT (it is the aggregate interval)."""
    return ms_tpot_floor_at_batch(model_id, hw_id, batch, context, dtype, kv_dtype, tp) / batch
