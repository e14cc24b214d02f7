"""A misconception is read sentence by sentence, each sentence both on its own and pooled in its answer: its
neighbours alone must not make it state one.

Pooled in context, "reads every weight from HBM" beside a right figure ("the weights are 16 GB, so a step takes
4.8 ms") sat close enough to "a decode step only reads the KV cache" to be quoted as stating it."""

from __future__ import annotations

import numpy as np

from coach.content.bank import Bank
from coach.content.render import render
from coach.grading.attempt import target_for
from coach.grading.offline.grader import EmbeddingGrader
from coach.grading.score import Verdict
from tests.grading.test_guard_vectors import CountingEmbedder

MECHANISM = ("Each decode step reads every weight from HBM to make one token, about one FLOP per byte, so decode is "
             "memory-bandwidth-bound.")
LEVERS = "What helps is more HBM bandwidth, fewer weight bytes such as FP8 weights, or batching several requests."
FIGURES = "The weights are 16 GB, so a step takes 4.8 ms."


def test_each_sentence_is_encoded_on_its_own(grader) -> None:  # type: ignore[no-untyped-def]
    enc = grader.encoder.with_alone(grader.encoder.encode_one(f"{MECHANISM} {LEVERS} {FIGURES}"))
    assert enc.alone is not None and enc.alone.shape[0] == len(enc.spans) == 3
    for row, sentence in zip(enc.alone, enc.spans, strict=True):
        assert np.allclose(row, grader.encoder.encode_one(sentence).sent)
    one = grader.encoder.encode_one(MECHANISM)
    assert grader.encoder.with_alone(one) is one  # one sentence is already its own


def test_a_right_figure_beside_a_right_sentence_states_no_misconception(bank: Bank, default_path) -> None:  # type: ignore[no-untyped-def]
    target = target_for(bank, render(bank.items["if-dm-why"]))
    score = default_path.grade(f"{MECHANISM} {LEVERS} {FIGURES}", target)
    verdicts = {c.criterion_id: c for c in score.criteria}
    assert verdicts["weights-every-step"].verdict == Verdict.MET, verdicts["weights-every-step"]
    assert verdicts["floor-estimate"].verdict == Verdict.MET, verdicts["floor-estimate"]
    assert not [c for c in score.criteria if c.verdict == Verdict.CONTRADICTED or c.misconception_id], score.criteria


def test_only_sentences_near_a_misconception_are_read_alone_and_in_the_batched_pass(bank: Bank, st_embedder) -> None:  # type: ignore[no-untyped-def]
    counting = CountingEmbedder(st_embedder)
    grader = EmbeddingGrader(counting)
    target = target_for(bank, render(bank.items["if-dm-why"]))
    answer = f"{MECHANISM} {LEVERS} {FIGURES} I wrote this answer on the train home."
    grader.prepare([(answer, target)])
    batched = counting.texts
    grader.grade(answer, target)
    assert counting.texts == batched  # the sentences read alone were in the batched pass
    enc = grader.encoder.encode_one(answer)
    near = grader._near_misconception(enc, grader.context(target))
    assert near and len(near) < len(enc.spans)  # the train is near no attached misconception
    alone = grader._with_alone(enc, grader.context(target)).alone
    assert alone is not None
    for i in range(len(enc.spans)):
        expected = grader.encoder.encode_one(enc.spans[i]).sent if i in near else enc.span_vecs[i]
        assert np.allclose(alone[i], expected)
