"""Fixtures for the judge tests: a KV-cache grading target, the real embedder and its grader."""

from __future__ import annotations

import pytest

from coach.grading.target import CriterionSpec, GradingTarget, MisconceptionSpec
from coach.vocab import Dimension

QUESTION = "What determines the size of the KV cache during LLM inference, and how does it scale?"
REFERENCE = (
    "Per token the KV cache stores a key and a value vector for every layer and KV head: "
    "2 x layers x KV heads x head dimension x bytes per element. It grows linearly with sequence length and "
    "batch size. Grouped-query attention shrinks it by letting several query heads share one K/V head."
)

FULL_ANSWER = (
    "For every token the cache holds a key and a value for each layer and each KV head, so the bytes per token "
    "are 2 times layers times KV heads times head dimension times bytes per element. "
    "The total grows linearly with the sequence length and with the batch size. "
    "Grouped-query attention reduces it because several query heads share one key/value head."
)
PARTIAL_CONTENT = "The KV cache grows linearly with the sequence length and the batch size."
WEAK_CONTENT = "The KV cache is a memory buffer that the GPU uses during inference."


def make_target(key: str = "kv-cache-size@1") -> GradingTarget:
    return GradingTarget(
        key=key,
        question=QUESTION,
        reference=REFERENCE,
        criteria=(
            CriterionSpec(
                id="kv-per-token",
                weight=0.4,
                dimension=Dimension.QUANTITATIVE,
                description="Bytes per token = 2 (K and V) x layers x KV heads x head dim x bytes per element",
                phrasings=(
                    "each token stores a key and a value vector in every layer for every KV head",
                    "bytes per token equal 2 times layers times KV heads times head dimension times bytes per value",
                    "the cache per token is two tensors, K and V, per layer and per key-value head",
                ),
                misconceptions=("kv-only-keys",),
            ),
            CriterionSpec(
                id="kv-linear",
                weight=0.3,
                dimension=Dimension.CONCEPTUAL,
                description="KV cache memory grows linearly with sequence length and batch size",
                phrasings=(
                    "the KV cache grows linearly with the sequence length and the batch size",
                    "doubling the context length doubles the KV cache memory",
                    "memory for the cache scales with tokens in flight: batch times sequence length",
                ),
            ),
            CriterionSpec(
                id="gqa",
                weight=0.3,
                dimension=Dimension.TRADEOFF,
                description="Grouped-query attention shrinks the cache by sharing K/V heads across query heads",
                phrasings=(
                    "grouped-query attention shares one key/value head among several query heads",
                    "GQA reduces the number of KV heads, so the cache gets smaller",
                    "with fewer KV heads than query heads the KV cache shrinks proportionally",
                ),
            ),
        ),
        misconceptions=(
            MisconceptionSpec(
                id="kv-only-keys",
                statement="The KV cache stores only the keys",
                phrasings=("the cache only stores the keys, values are recomputed",),
            ),
        ),
    )


@pytest.fixture(scope="session")
def target() -> GradingTarget:
    return make_target()
