"""Serving-fleet arithmetic for the multi-gpu-serving module, part 2: heterogeneous pools, weight-load
(cold-start) time, routing and cache-hit shares, P/D goodput and queueing tails (part 1 is `serving.py`).

Names carry an `ms_` prefix so they cannot collide with other modules' calculators. Inputs that the fact sheet
does not give (arrival rates, SLOs, storage bandwidths, utilisation targets) are premises of the question.
"""

from __future__ import annotations

import math

from coach.calc.formulas import kv_bytes_per_token, kv_duplication_under_tp, weight_bytes
from coach.calc.registry import calculator
from coach.calc.serving import (
    EPS,
    hbm_bytes,
    hbm_bytes_per_s,
    ms_kv_sequence_capacity,
    ms_kv_token_capacity_ignores_weights,
    ms_tpot_floor_at_batch,
)
from coach.calc.tables import link

# Heterogeneous pools -----------------------------------------------------------------------------------------


@calculator()
def ms_hbm_bandwidth_ratio(hw_a: str, hw_b: str) -> float:
    """HBM bandwidth of hw_a over hw_b: the ratio of their memory-bound (batch-1) decode speeds."""
    return hbm_bytes_per_s(hw_a) / hbm_bytes_per_s(hw_b)


@calculator(wrong_of="ms_hbm_bandwidth_ratio", misconception="ms-capacity-sets-decode-speed")
def ms_hbm_capacity_ratio(hw_a: str, hw_b: str) -> float:
    """HBM capacity of hw_a over hw_b (wrong as a decode-speed ratio; right as a memory ratio)."""
    return hbm_bytes(hw_a) / hbm_bytes(hw_b)


@calculator()
def ms_decode_tokens_per_s(model_id: str, hw_id: str, dtype: str = "bf16", tp: int = 1) -> float:
    """Batch-1 decode tokens/s bound: tp · HBM bandwidth / weight bytes."""
    return tp * hbm_bytes_per_s(hw_id) / weight_bytes(model_id, dtype)


# Cold start --------------------------------------------------------------------------------------------------


@calculator()
def ms_weight_load_seconds(model_id: str, dtype: str, gbit_s: float) -> float:
    """Seconds to pull all weights over a link of gbit_s Gb/s: weight bytes / (gbit_s / 8 · 10⁹)."""
    return weight_bytes(model_id, dtype) / (gbit_s / 8 * 1e9)


@calculator(wrong_of="ms_weight_load_seconds", misconception="gbit-is-gbyte")
def ms_weight_load_seconds_bits_as_bytes(model_id: str, dtype: str, gbit_s: float) -> float:
    """Wrong: reads the link's Gb/s as GB/s, understating the load time 8×."""
    return weight_bytes(model_id, dtype) / (gbit_s * 1e9)


@calculator()
def ms_shard_load_seconds(model_id: str, dtype: str, tp: int, link_id: str) -> float:
    """Seconds for each of tp GPUs to copy its weight shard over its own link: (weights / tp) / link GB/s."""
    return weight_bytes(model_id, dtype) / tp / (link(link_id).gb_s * 1e9)


@calculator(wrong_of="ms_shard_load_seconds", misconception="ms-duplex-as-per-direction")
def ms_shard_load_seconds_duplex(model_id: str, dtype: str, tp: int, link_id: str) -> float:
    """Wrong: uses the duplex figure (2 × per-direction) as the copy bandwidth, halving the time."""
    return ms_shard_load_seconds(model_id, dtype, tp, link_id) / 2


@calculator()
def ms_backlog_requests(excess_rps: float, seconds: float) -> float:
    """Requests queued while capacity lags demand: (λ − μ) · t."""
    return excess_rps * seconds


@calculator()
def ms_peak_idle_share(peak: float, average: float) -> float:
    """Share of a peak-sized fleet's node-hours above the average in use: 1 − average / peak."""
    return 1 - average / peak


@calculator()
def ms_excess_node_hours(peak: float, average: float, hours: float = 24, per_node: float = 1) -> float:
    """Node-hours a fleet pinned at peak holds beyond the average in use: (peak − average) · hours (· per_node)."""
    return (peak - average) * hours * per_node


@calculator()
def ms_product(a: float, b: float) -> float:
    """a · b (e.g. nodes · hours, node-hours · GPUs per node)."""
    return a * b


# Routing and prefix caches -----------------------------------------------------------------------------------


@calculator()
def ms_random_route_prefix_hit(replicas: int) -> float:
    """Chance a random router sends a follow-up to the one replica holding its prefix: 1 / N."""
    return 1 / replicas


@calculator()
def ms_modulo_rehash_moved_share(replicas: int) -> float:
    """Keys that change replica when hash mod N becomes hash mod (N+1): N / (N+1)."""
    return replicas / (replicas + 1)


@calculator(wrong_of="ms_modulo_rehash_moved_share", misconception="ms-modulo-hash-stable")
def ms_consistent_hash_moved_share(replicas: int) -> float:
    """Keys a consistent-hash ring moves when a node joins N nodes: about 1 / (N+1) (wrong for modulo hashing)."""
    return 1 / (replicas + 1)


@calculator()
def ms_prefill_tokens_computed(total_tokens: float, hit_share: float) -> float:
    """Input tokens that still need prefill compute: total · (1 − hit share)."""
    return total_tokens * (1 - hit_share)


@calculator()
def ms_prefix_hit_tokens(total_tokens: float, hit_share: float) -> float:
    """Input tokens served from the KV cache: total · hit share."""
    return total_tokens * hit_share


@calculator()
def ms_share(part: float, whole: float) -> float:
    """part / whole."""
    return part / whole


@calculator()
def ms_difference(a: float, b: float) -> float:
    """a − b."""
    return a - b


# SLOs and goodput --------------------------------------------------------------------------------------------


@calculator()
def ms_pd_goodput_total(prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int) -> float:
    """Requests/s a P/D system sustains: min(n_prefill · prefill rate, n_decode · decode rate)."""
    return min(n_prefill * prefill_rps, n_decode * decode_rps)


@calculator()
def ms_pd_goodput_per_gpu(prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int) -> float:
    """Per-GPU goodput of a P/D system: min(n_p · prefill rate, n_d · decode rate) / (n_p + n_d)."""
    return ms_pd_goodput_total(prefill_rps, decode_rps, n_prefill, n_decode) / (n_prefill + n_decode)


@calculator(wrong_of="ms_pd_goodput_per_gpu", misconception="ms-pd-capacity-adds")
def ms_pd_goodput_per_gpu_summed(prefill_rps: float, decode_rps: float, n_prefill: int, n_decode: int) -> float:
    """Wrong: (n_p · prefill rate + n_d · decode rate) / (n_p + n_d), adding the phases' rates."""
    return (n_prefill * prefill_rps + n_decode * decode_rps) / (n_prefill + n_decode)


# Queueing and tails ------------------------------------------------------------------------------------------


@calculator()
def ms_mm1_time_in_system(service_s: float, utilisation: float) -> float:
    """M/M/1 mean time in system: W = S / (1 − ρ)."""
    if not 0 <= utilisation < 1:
        raise ValueError("utilisation must be in [0, 1)")
    return service_s / (1 - utilisation)


@calculator(wrong_of="ms_mm1_time_in_system", misconception="ms-latency-linear-in-load")
def ms_mm1_time_linear(service_s: float, utilisation: float) -> float:
    """Wrong: W = S · (1 + ρ), as if queueing delay grew linearly with load."""
    return service_s * (1 + utilisation)


@calculator()
def ms_mm1_sojourn_percentile(service_s: float, utilisation: float, percentile: float) -> float:
    """M/M/1 sojourn time is exponential with mean S/(1−ρ), so its q-quantile is −ln(1−q) · S / (1 − ρ)."""
    return -math.log(1 - percentile) * ms_mm1_time_in_system(service_s, utilisation)


@calculator()
def ms_fanout_slow_probability(fanout: int, p_slow: float) -> float:
    """Chance at least one of n independent parts is slow: 1 − (1 − p)^n."""
    return 1 - (1 - p_slow) ** fanout


@calculator(wrong_of="ms_fanout_slow_probability", misconception="ms-fanout-tail-linear")
def ms_fanout_slow_probability_linear(fanout: int, p_slow: float) -> float:
    """Wrong: n · p, the union bound read as the probability (it can exceed 1)."""
    return fanout * p_slow


@calculator(wrong_of="ms_fanout_slow_probability", misconception="ms-fanout-keeps-percentile")
def ms_fanout_slow_probability_single(fanout: int, p_slow: float) -> float:
    """Wrong: p, as if waiting for n parts were as likely to be slow as waiting for one."""
    del fanout
    return p_slow


@calculator()
def ms_queue_growth(arrival_rps: float, capacity_rps: float, seconds: float) -> float:
    """Queue growth under overload: (λ − μ) · t."""
    return max(0.0, arrival_rps - capacity_rps) * seconds


@calculator()
def ms_admission_queue_limit(capacity_rps: float, max_wait_s: float) -> float:
    """Longest queue that keeps the wait under W_max: μ · W_max (Little's law applied to the queue)."""
    return capacity_rps * max_wait_s


@calculator(wrong_of="ms_admission_queue_limit", misconception="ms-littles-law-divides")
def ms_admission_queue_limit_divided(capacity_rps: float, max_wait_s: float) -> float:
    """Wrong: μ / W_max, Little's law with the rate divided by the wait instead of multiplied."""
    return capacity_rps / max_wait_s


# Small helpers for distractor values (each a plain quantity, not a wrong formula) ------------------------------


@calculator()
def ms_random_route_prefix_miss(replicas: int) -> float:
    """Chance a random router misses the one replica holding a prefix: 1 − 1/N."""
    return 1 - 1 / replicas


@calculator()
def ms_random_route_prefix_both(replicas: int) -> float:
    """Chance two independent random picks both land on one given replica: 1 / N²."""
    return 1 / replicas**2


@calculator()
def ms_hit_capacity_gain(hit_share: float) -> float:
    """Input traffic a prefill fleet absorbs with a cache, relative to none: 1 / (1 − hit share)."""
    return 1 / (1 - hit_share)


@calculator()
def ms_one_plus(x: float) -> float:
    """1 + x."""
    return 1 + x


@calculator()
def ms_random_route_prefill_ratio(replicas: int, history_tokens: float, new_tokens: float) -> float:
    """Prefill tokens per turn, random vs sticky routing: (new + (1 − 1/N) · history) / new."""
    return (new_tokens + (1 - 1 / replicas) * history_tokens) / new_tokens


@calculator()
def ms_miss_prefill_ratio(history_tokens: float, new_tokens: float) -> float:
    """Prefill tokens of a certain miss over a hit: (new + history) / new."""
    return (new_tokens + history_tokens) / new_tokens


@calculator()
def ms_random_route_prefill_ratio_swapped(replicas: int, history_tokens: float, new_tokens: float) -> float:
    """(new + history / N) / new: the random-routing ratio with hit and miss chances swapped."""
    return (new_tokens + history_tokens / replicas) / new_tokens


@calculator()
def ms_tpot_floor_at_kv_capacity(
    model_id: str, hw_id: str, context: int, dtype: str = "bf16", kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Decode step floor with the batch at its KV-memory limit: step floor at floor(KV tokens / context) sequences."""
    batch = int(ms_kv_sequence_capacity(model_id, hw_id, context, dtype, kv_dtype, tp))
    return ms_tpot_floor_at_batch(model_id, hw_id, batch, context, dtype, kv_dtype, tp)


@calculator()
def ms_queue_growth_ramp(arrival_rps: float, capacity_rps: float, seconds: float) -> float:
    """(λ − μ) · t / 2: the backlog if demand ramped linearly to λ over t instead of stepping."""
    return ms_queue_growth(arrival_rps, capacity_rps, seconds) / 2


@calculator()
def ms_cold_start_seconds(model_id: str, dtype: str, gbit_s: float, startup_s: float) -> float:
    """Cold start = weight bytes / (link Gb/s / 8) + engine start-up time."""
    return ms_weight_load_seconds(model_id, dtype, gbit_s) + startup_s


@calculator()
def ms_cold_start_backlog(model_id: str, dtype: str, gbit_s: float, startup_s: float, excess_rps: float) -> float:
    """Requests queued during a cold start: (λ − μ) · (weight load time + start-up time)."""
    return excess_rps * ms_cold_start_seconds(model_id, dtype, gbit_s, startup_s)


@calculator(wrong_of="ms_kv_sequence_capacity", misconception="ms-kv-capacity-ignores-weights")
def ms_kv_sequence_capacity_ignores_weights(
    model_id: str, hw_id: str, context: int, kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """Wrong: floor(tp · HBM / (context · KV bytes per token)), as if the weights took no memory."""
    return math.floor(ms_kv_token_capacity_ignores_weights(model_id, hw_id, kv_dtype, tp) / context + EPS)


@calculator()
def ms_max_batch_kv_read_only(
    model_id: str, hw_id: str, tpot_s: float, context: int, kv_dtype: str = "bf16", tp: int = 1
) -> float:
    """floor(TPOT · tp · bandwidth / (context · KV bytes)): the TPOT batch cap if a step read only the KV."""
    per_seq = context * kv_bytes_per_token(model_id, kv_dtype) * kv_duplication_under_tp(model_id, tp)
    return math.floor(tpot_s * tp * hbm_bytes_per_s(hw_id) / per_seq + EPS)


@calculator()
def ms_hbm_read_seconds(hw_id: str) -> float:
    """Time to read all of a GPU's HBM once: capacity / bandwidth."""
    return hbm_bytes(hw_id) / hbm_bytes_per_s(hw_id)


@calculator()
def ms_hbm_bandwidth_times_capacity_ratio(hw_a: str, hw_b: str) -> float:
    """(bandwidth ratio) · (capacity ratio) of hw_a over hw_b: not a speed ratio, a compounding error."""
    return ms_hbm_bandwidth_ratio(hw_a, hw_b) * ms_hbm_capacity_ratio(hw_a, hw_b)


@calculator()
def ms_fanout_all_fast(fanout: int, p_slow: float) -> float:
    """Chance that none of n independent parts is slow: (1 − p)^n."""
    return (1 - p_slow) ** fanout


@calculator()
def ms_queue_wait_after(arrival_rps: float, capacity_rps: float, seconds: float) -> float:
    """Wait of a request arriving after t s of overload: (λ − μ) · t / μ (the backlog ahead of it, served at μ)."""
    return ms_queue_growth(arrival_rps, capacity_rps, seconds) / capacity_rps
