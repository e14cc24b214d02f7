"""Criterion verdicts: the cross-encoder's reading of the best spans decides, the bi-encoder's match supports.

"Contradicted" needs a span that states the opposite of the criterion, and that span is the verdict's evidence:
either the cross-encoder reads a span as the opposite while no span reads as right, and that span states a
misconception attached to the criterion (close to one of its phrasings, MISCONCEPTION_NAMED: the model also reads
many right in-domain sentences as "contradicts", so its reading alone names nothing), or a span is close to a
catalogue phrasing of such a misconception and the cross-encoder does not read it as right (it vetoes: the
bi-encoder cannot tell a statement from its opposite; on the default path the span must also read as the opposite
of the criterion's texts, `contradiction.py`). A bi-encoder match to the criterion alone earns at most "partial"
when the cross-encoder reads the span as wrong. Without a cross-encoder (fakes, other embedders) the bi-encoder
cuts decide as before. Either way, a span clearly closer to the criterion's own texts than to the misconception's
phrasing is not read as the misconception (`states_misconception`), nor is one that denies it
(`denies_misconception`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from coach.grading.guards.negation import contradiction_votes, negates, topic_stems
from coach.grading.offline.calibration import Verdicts
from coach.grading.offline.cross import CriterionReading
from coach.grading.offline.encoding import Encoded
from coach.grading.score import CriterionResult, Verdict
from coach.grading.target import CriterionSpec

MISCONCEPTION_NAMED = 0.6  # cosine of the contradicting span to a misconception phrasing that names it
# A span at least this much closer (cosine) to the criterion's own texts (its phrasings and description, and the
# model answer's sentences: `features.right_sentences`) than to the misconception's phrasings
# states the criterion, not the misconception. Chosen on the bank: no catalogue statement of an attached
# misconception comes within 0.09 of that (the bank probe), while 6 of 27 right model-answer sentences that
# matched a misconception's phrasing do.
CRITERION_MARGIN = 0.1


def judge(sim: float, reading: CriterionReading | None, v: Verdicts,
          contradiction: bool = True) -> tuple[Verdict, str]:
    """The verdict and why, from the bi-encoder's criterion match `sim` and the cross-encoder's reading
    (`contradiction=False`: the best verdict short of contradicted)."""
    if reading is None:
        if sim >= v.met:
            return Verdict.MET, ""
        return (Verdict.PARTIAL, "") if sim >= v.partial else (Verdict.MISSED, "")
    best, opposed = reading.best, reading.opposed
    # A span reads as the opposite and none reads as right: one span read as wrong beside one read as right is
    # the model's doubt, not the candidate's claim (an invented misconception costs more than a missed one).
    if (contradiction and opposed.contradicts >= v.xe_contra and opposed.contradicts > opposed.correct
            and best.correct < v.xe_right):
        return Verdict.CONTRADICTED, f"read as stating the opposite ({opposed.contradicts:.0%})"
    if best.credit >= v.xe_met or (sim >= v.met and best.credit >= v.xe_partial):
        return Verdict.MET, f"read as correct ({best.correct:.0%})"
    if best.credit >= v.xe_partial or sim >= v.met:
        return Verdict.PARTIAL, f"read as partly right ({best.credit:.0%} credit)"
    return Verdict.MISSED, ""


def phrasing_stands(span: str, reading: CriterionReading, v: Verdicts) -> bool:
    """A span close to a misconception's phrasing contradicts unless the cross-encoder reads it as right
    (the bi-encoder cannot tell a statement from its opposite; the cross-encoder vetoes)."""
    read = reading.best if reading.best.span == span else reading.opposed if reading.opposed.span == span else None
    return read is None or read.correct < v.xe_met


def claim_views(enc: Encoded) -> tuple[list[np.ndarray], np.ndarray | None]:
    """What a misconception is matched against: the answer's sentences, as one or two matrices of vectors (a row
    per sentence), and the whole answer's vector, or None where the whole answer is no claim of its own.
    With `Encoded.alone` set (the grader sets it), each sentence is read both on its own and pooled in its answer,
    and must state the misconception both ways: its neighbours can move a right sentence toward a misconception
    ("reads every weight from HBM" beside "the weights are 16 GB, so a step takes 4.8 ms", close to "a step only
    reads the KV cache"), and can keep one apart from it ("under TP each GPU computes a slice of every expert",
    which alone sits close to "EP slices each expert"). Then only a one-sentence answer is its own claim."""
    if enc.alone is not None and enc.alone.shape[0] == enc.span_vecs.shape[0] == len(enc.spans):
        return [enc.alone, enc.span_vecs], None
    return [enc.span_vecs], enc.sent


def misconception_match(phrasing_vecs: np.ndarray, enc: Encoded) -> tuple[float, int]:
    """Best cosine between a misconception's phrasings and the answer's claims (`claim_views`: a sentence read
    two ways counts its lower cosine), and the index of the sentence that matches best (the evidence)."""
    if phrasing_vecs.shape[0] == 0:
        return 0.0, 0
    views, whole = claim_views(enc)
    best = float(np.max(phrasing_vecs @ whole)) if whole is not None else -1.0
    if views[0].shape[0] == 0:
        return best, 0
    sims = np.min([(v @ phrasing_vecs.T).max(axis=1) for v in views], axis=0)
    return max(best, float(sims.max())), int(np.argmax(sims))


def named_misconception(spec: CriterionSpec, span: str, enc: Encoded,
                        misconceptions: Mapping[str, np.ndarray], own_vecs: np.ndarray | None = None) -> str | None:
    """The attached misconception the contradicting span states, if it is close enough to one of its phrasings
    (and, given the criterion's own vectors, not clearly closer to those: CRITERION_MARGIN), in every way its
    sentences are read (`claim_views`)."""
    views, whole = claim_views(enc)
    rows = [i for i, s in enumerate(enc.spans) if s in span] if views[0].shape[0] == len(enc.spans) else []
    if not rows:
        views = [(whole if whole is not None else enc.sent)[None, :]]
    spans = [view[rows] if rows else view for view in views]
    owns = [(s @ own_vecs.T).max(axis=1) if own_vecs is not None and own_vecs.size else None for s in spans]
    best, found = MISCONCEPTION_NAMED, None
    for mid in spec.misconceptions:
        vecs = misconceptions.get(mid)
        if vecs is None or not vecs.size:
            continue
        per_view = []
        for of_span, own in zip(spans, owns, strict=True):
            per_row = (of_span @ vecs.T).max(axis=1)
            per_view.append(per_row if own is None else np.where(own - per_row < CRITERION_MARGIN, per_row, -1.0))
        sim = float(np.min(per_view, axis=0).max())
        if sim >= best:
            best, found = sim, mid
    return found


def _states(vec: np.ndarray, mis_vecs: np.ndarray, own_vecs: np.ndarray, cut: float) -> bool:
    mis = float(np.max(mis_vecs @ vec))
    return mis >= cut and (own_vecs.size == 0 or float(np.max(own_vecs @ vec)) - mis < CRITERION_MARGIN)


def states_misconception(enc: Encoded, where: int, mis_vecs: np.ndarray, own_vecs: np.ndarray, cut: float) -> bool:
    """Does the answer span at `where`, in every way it is read (`claim_views`), or the whole answer, where it is
    a claim of its own, match a phrasing of the misconception at least `cut`, and not clearly more closely
    (CRITERION_MARGIN) one of the criterion's own texts (phrasings, description, the model answer's sentences)?
    The bi-encoder barely tells a statement from its opposite, so a right sentence close to both must not be read
    as the misconception ("decode is memory-bound: every step reads all the weights from HBM" against "the
    weights stay on chip, so decode only reads the KV")."""
    views, whole = claim_views(enc)
    if enc.spans and views[0].shape[0] > where and all(_states(v[where], mis_vecs, own_vecs, cut) for v in views):
        return True
    return whole is not None and _states(whole, mis_vecs, own_vecs, cut)


# Where one claim of a sentence ends and another begins: "A: B, and C, but D" makes four. A reason ("because",
# "so") stays with its claim: a misconception may lie in the two together.
_CLAIM_BREAK = re.compile(r"\s*(?:[;:]|,\s*(?:and|but|while|whereas|which)\b)\s*", re.IGNORECASE)
MIN_CLAIM_WORDS = 3


def claims(sentence: str) -> list[str]:
    """The clauses of a sentence of several claims, each long enough to make one ([] for a single claim)."""
    parts = [p for p in _CLAIM_BREAK.split(sentence) if len(p.split()) >= MIN_CLAIM_WORDS]
    return parts if len(parts) > 1 else []


def claim_states_misconception(claim_vecs: np.ndarray, mis_vecs: np.ndarray, own_vecs: np.ndarray) -> bool:
    """Of a sentence of several claims, does the clause closest to the misconception state it too (and not
    clearly more closely the criterion's own texts: CRITERION_MARGIN)? As a whole, "MLA pays in compute: the
    latent is up-projected at every step, and tensor parallelism cannot split the latent by head" is closer to
    "the latent splits by head" than to the criterion; its last clause is not. The evidence for "contradicted"
    is a claim that states the opposite, not a blend of several."""
    mis = (claim_vecs @ mis_vecs.T).max(axis=1)
    k = int(np.argmax(mis))
    own = float((claim_vecs[k] @ own_vecs.T).max()) if own_vecs.size else -1.0
    return own - float(mis[k]) < CRITERION_MARGIN


# "not only X but also Y", "does not just X: it Y" assert X
_NOT_ONLY = re.compile(r"\b(?:not|n't)\s+(?:only|just|merely|simply)\b", re.IGNORECASE)


def denies_misconception(text: str, misconception: Sequence[str], question: str) -> bool:
    """Does the text deny the misconception (its statement and phrasings): it says "no", and its clauses read,
    by polarity, as the opposite of those texts more often than as agreeing? A statement and its denial look
    alike to the bi-encoder: "a given request runs no faster" sits as close to "spreading one request over
    several replicas cuts its latency" as a statement of it would. The negation guard (`guards/negation.py`)
    marks a criterion contradicted when a sentence denies it; here it keeps a sentence that denies a
    misconception from being read as stating it. The text must itself negate: opposite polar words alone
    ("cutting TTFT" against "speeds up decoding") are how an answer restates a claim as often as how it denies
    one."""
    text = _NOT_ONLY.sub("", text)
    if not negates(text):
        return False
    topic = topic_stems(question)
    contra = agree = 0
    for phrasing in misconception:
        c, a = contradiction_votes(text, phrasing, topic)
        contra, agree = contra + c, agree + a
    return contra > agree


def consistent(results: Sequence[CriterionResult], specs: Sequence[CriterionSpec],
               fallbacks: Sequence[tuple[Verdict, str | None, str]]) -> list[CriterionResult]:
    """The verdicts, with no sentence read both ways at once: a sentence that meets one criterion, to which a
    misconception is attached, makes that criterion's point, the opposite of the misconception, so it names that
    misconception on no other criterion. Such a criterion takes its verdict short of contradicted (`fallbacks`:
    verdict, evidence and reason per criterion). Two criteria can share a misconception ("decode is
    compute-bound" against both "every step reads all the weights" and "more FLOP/s does not help"), and each
    weighs a sentence against its own texts: "decode is limited by memory bandwidth rather than FLOPs" is
    clearly the first's point, yet nearer the misconception than to anything the second says."""
    out = list(results)
    for i, r in enumerate(results):
        if r.verdict != Verdict.CONTRADICTED or r.misconception_id is None or r.evidence is None:
            continue
        if any(o.verdict == Verdict.MET and o.evidence == r.evidence and r.misconception_id in spec.misconceptions
               for k, (o, spec) in enumerate(zip(results, specs, strict=True)) if k != i):
            verdict, evidence, reason = fallbacks[i]
            out[i] = r.model_copy(update={"verdict": verdict, "evidence": evidence, "reason": reason,
                                          "misconception_id": None})
    return out
