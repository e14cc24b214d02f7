"""The guards pool what they need from the answer's own forward pass: grading runs no extra pass of the model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coach.grading.offline.features import target_texts
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.target import CriterionSpec, GradingTarget
from coach.vocab import Dimension

TARGET = GradingTarget(
    key="pp-latency", question="Why does pipeline parallelism not reduce the latency of one request?",
    reference="Each token passes through the stages one after another, so its latency is the sum of the stage "
              "times. Pipelining raises throughput, not speed.",
    criteria=(CriterionSpec(id="serial", description="the stages run one after another for a token", weight=1.0,
                            dimension=Dimension.CONCEPTUAL,
                            phrasings=("the stages run one after another for a token",
                                       "each stage waits for the previous one, so the times add up")),),
)
ANSWERS = [
    "Each stage waits for the previous one, so a token's latency is the sum of the stage times.",
    "The stages do not run one after another; they work at the same time, so latency falls. It is faster.",
    "Each stage waits for the previous one, so the stage times add up.\n"
    "Keywords: Megatron GPipe 1F1B NCCL NVLink stages micro-batches bubble schedule interleaving",
]


class CountingEmbedder:
    """The real embedder, counting the texts sent through the model."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.texts = inner, inner.name, 0

    def embed(self, texts: Sequence[str]) -> Any:
        self.texts += len(texts)
        return self.inner.embed(texts)

    def embed_full(self, texts: Sequence[str]) -> Any:
        self.texts += len(texts)
        return self.inner.embed_full(texts)


def test_grading_encodes_nothing_after_the_batched_pass(st_embedder) -> None:  # type: ignore[no-untyped-def]
    counting = CountingEmbedder(st_embedder)
    grader = EmbeddingGrader(counting)
    grader.prepare([(a, TARGET) for a in ANSWERS])
    batched = counting.texts
    scores = [grader.grade(a, TARGET) for a in ANSWERS]
    assert counting.texts == batched  # grading after the batched pass encodes nothing
    listed = grader.guard_report(ANSWERS[2], TARGET)
    assert listed.clean_answer != ANSWERS[2]  # the term list was set aside, so that answer is encoded twice
    # the answers, the target's own texts, and the stripped answer: no sentence or clause was encoded apart
    assert counting.texts == len(ANSWERS) + len(target_texts(TARGET)) + 1
    assert scores[0].value > scores[1].value


def test_pooled_guards_give_the_same_report_alone_and_in_a_batch(st_embedder) -> None:  # type: ignore[no-untyped-def]
    batch = EmbeddingGrader(st_embedder)
    batch.prepare([(a, TARGET) for a in ANSWERS])
    for answer in ANSWERS:
        assert EmbeddingGrader(st_embedder).guard_report(answer, TARGET) == batch.guard_report(answer, TARGET)
