"""Features of one answer against one grading target. Each depends only on that answer and that target.

The target side (question, references, criteria phrasings, misconceptions, examples) is encoded once into a
`TargetContext` whose word-pieces are stacked in one matrix, so an answer costs one matrix product. The
question read as if it were an answer gives each target its own zero point (the `_gain` features), so
similarities from easy and hard questions land on one scale without looking at other answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from coach.grading.offline.alignment import MATCH, QUESTION_DEMOTE, piece_weights, span_match
from coach.grading.offline.anchors import example_weights
from coach.grading.offline.encoding import Encoded, Encoder
from coach.grading.offline.lexical import content_set
from coach.grading.target import GradingTarget
from coach.grading.text import sentences


@dataclass
class TargetContext:
    target: GradingTarget
    question: Encoded
    refs: list[Encoded]
    q_stems: frozenset[str]
    ref_stems: frozenset[str]
    crit_weights: np.ndarray  # normalised criterion weights
    crit_vecs: list[np.ndarray]  # per criterion: the sentence vectors of its phrasings and its description
    crit_segments: list[list[int]]  # per criterion: the segment index of each of those texts
    # per criterion: the right texts a span is weighed against before it is read as a misconception: its
    # phrasings, its description and, for a rubric, the model answer's sentences (`right_sentences`)
    crit_own: list[np.ndarray]
    misconceptions: dict[str, np.ndarray]  # id -> phrasing vectors
    pieces: np.ndarray  # all reference and phrasing word-pieces, stacked (rows)
    align: np.ndarray  # the same rows in the embedder's alignment space (the guards keep `pieces`)
    piece_w: np.ndarray  # weight of each row, normalised within its segment
    segment: np.ndarray  # segment index of each row: references first, then phrasings
    n_segments: int
    ref_slices: list[slice]  # rows of each reference
    ref_sent: np.ndarray  # sentence vectors of the references
    examples: list[tuple[Encoded, float]] = field(default_factory=list)
    example_vecs: np.ndarray | None = None
    example_stems: list[frozenset[str]] = field(default_factory=list)
    example_weights: list[np.ndarray] = field(default_factory=list)  # word-piece weights (`anchors.token_f1`)
    baseline: dict[str, float] = field(default_factory=dict)  # the question's own features
    text_vecs: dict[str, np.ndarray] = field(default_factory=dict)  # every text of the target: its own vector


def target_texts(target: GradingTarget) -> list[str]:
    """Every text of a target the grader (and the guards) will embed, so they can be encoded in one pass."""
    refs = [t for t in (target.reference, *target.extra_references) if t.strip()] or [target.question]
    return list(dict.fromkeys([
        target.question, *refs, *(p for c in target.criteria for p in c.phrasings),
        *(p for m in target.misconceptions for p in m.phrasings), *(e.answer for e in target.examples),
        *sentences(target.reference), *(c.description for c in target.criteria),
    ]))


RIGHT_SENTENCE_WORDS = 5  # shorter sentences of the model answer ("Hence 2x.") say too little to weigh against


def right_sentences(target: GradingTarget) -> list[str]:
    """The model answer's sentences, for a rubric's target: right statements of the item, in its own words. A span
    closer to one of them than to a misconception's phrasing states it, not the misconception (CRITERION_MARGIN).
    Empty for a target built from a reference alone, which attaches no misconception."""
    if not target.from_rubric:
        return []
    return [s for s in sentences(target.reference) if len(s.split()) >= RIGHT_SENTENCE_WORDS]


def target_context(target: GradingTarget, encoder: Encoder) -> TargetContext:
    refs_text = list(dict.fromkeys(t for t in (target.reference, *target.extra_references) if t.strip()))
    refs_text = refs_text or [target.question]
    # a criterion's description states its point too: an answer close to it makes the point, in whatever words
    # the phrasings do not cover ("a token's row lives on exactly one rank; the other ranks emit zeros")
    phrasings = [list(dict.fromkeys([*c.phrasings, c.description])) for c in target.criteria]
    texts = target_texts(target)
    enc = dict(zip(texts, encoder.encode(texts), strict=True))
    q_stems = content_set(target.question)
    segments: list[Encoded] = [enc[t] for t in refs_text]
    crit_segments: list[list[int]] = []
    for ph in phrasings:
        crit_segments.append(list(range(len(segments), len(segments) + len(ph))))
        segments.extend(enc[p] for p in ph)
    rows, align_rows, weights, seg_ids, ref_slices = [], [], [], [], []
    start = 0
    for i, e in enumerate(segments):
        w = piece_weights(e, q_stems, QUESTION_DEMOTE) if e.has_tokens else np.zeros(0)
        if w.size and w.sum() > 0:
            rows.append(e.vecs)
            align_rows.append(e.align_vecs)
            weights.append(w / w.sum())
            seg_ids.append(np.full(w.size, i))
        if i < len(refs_text):
            ref_slices.append(slice(start, start + (w.size if w.size and w.sum() > 0 else 0)))
        start += w.size if w.size and w.sum() > 0 else 0
    dim = segments[0].sent.shape[0]
    total = sum(c.weight for c in target.criteria) or 1.0
    ctx = TargetContext(
        target=target, question=enc[target.question], refs=[enc[t] for t in refs_text], q_stems=q_stems,
        ref_stems=frozenset().union(*(content_set(t) for t in refs_text)),
        crit_weights=np.array([c.weight / total for c in target.criteria]),
        crit_vecs=[np.stack([enc[p].sent for p in ph]) for ph in phrasings], crit_segments=crit_segments,
        crit_own=[np.vstack([np.stack([enc[p].sent for p in ph]),  # the phrasings and the description
                             *(enc[t].sent[None, :] for t in right_sentences(target))])
                  for ph in phrasings],
        misconceptions={m.id: np.stack([enc[p].sent for p in m.phrasings]) for m in target.misconceptions},
        pieces=np.vstack(rows) if rows else np.zeros((0, dim), dtype=np.float32),
        align=np.vstack(align_rows) if align_rows else np.zeros((0, dim), dtype=np.float32),
        piece_w=np.concatenate(weights) if weights else np.zeros(0),
        segment=np.concatenate(seg_ids) if seg_ids else np.zeros(0, dtype=int),
        n_segments=len(segments), ref_slices=ref_slices,
        ref_sent=np.stack([e.sent for e in (enc[t] for t in refs_text)]),
        examples=[(enc[e.answer], e.score) for e in target.examples],
        text_vecs={t: e.sent for t, e in enc.items()},
    )
    if ctx.examples:
        ctx.example_vecs = np.stack([e.sent for e, _ in ctx.examples])
        ctx.example_stems = [content_set(e.text) for e, _ in ctx.examples]
        ctx.example_weights = [example_weights(e, q_stems) for e, _ in ctx.examples]
    ctx.baseline = Match.of(ctx.question, ctx).features()
    return ctx


@dataclass
class Match:
    """How one answer lines up with a target: token recall per segment, precision per reference, and the
    best sentence per criterion."""

    ans: Encoded
    ctx: TargetContext
    seg_recall: np.ndarray
    seg_hard: np.ndarray
    ref_precision: np.ndarray
    ref_precision_hard: np.ndarray
    crit_cos: np.ndarray
    crit_where: list[int]

    @classmethod
    def of(cls, ans: Encoded, ctx: TargetContext) -> Match:
        n = ctx.n_segments
        seg_recall, seg_hard = np.zeros(n), np.zeros(n)
        prec, prec_hard = np.zeros(len(ctx.refs)), np.zeros(len(ctx.refs))
        keep = np.flatnonzero(ans.alpha) if ans.has_tokens else np.zeros(0, dtype=int)
        if keep.size and ctx.pieces.shape[0]:
            sims = ctx.align @ ans.align_vecs[keep].T
            best = sims.max(axis=1)
            seg_recall = np.bincount(ctx.segment, weights=ctx.piece_w * best, minlength=n).astype(float)
            seg_hard = np.bincount(ctx.segment, weights=ctx.piece_w * (best >= MATCH), minlength=n).astype(float)
            aw = piece_weights(ans, ctx.q_stems, QUESTION_DEMOTE)[keep]
            if aw.sum() > 0:
                aw = aw / aw.sum()
                for i, sl in enumerate(ctx.ref_slices):
                    if sl.stop > sl.start:
                        col = sims[sl].max(axis=0)
                        prec[i], prec_hard[i] = float(aw @ col), float(aw @ (col >= MATCH))
        elif not ans.has_tokens:  # embedder without token vectors: sentence cosines stand in
            cos = float(np.max(ctx.ref_sent @ ans.sent)) if ctx.ref_sent.size else 0.0
            seg_recall[:] = cos
            prec[:] = cos
        crit_cos, crit_where = np.zeros(len(ctx.crit_vecs)), []
        for j, vecs in enumerate(ctx.crit_vecs):
            crit_cos[j], where = span_match(vecs, ans)
            crit_where.append(where)
        return cls(ans, ctx, seg_recall, seg_hard, prec, prec_hard, crit_cos, crit_where)

    def crit_recall(self) -> tuple[np.ndarray, np.ndarray]:
        """Per criterion: token recall and hard recall of its best-recalled phrasing."""
        best = [s[int(np.argmax(self.seg_recall[s]))] if s else -1 for s in self.ctx.crit_segments]
        rec = np.array([self.seg_recall[b] if b >= 0 else 0.0 for b in best])
        hard = np.array([self.seg_hard[b] if b >= 0 else 0.0 for b in best])
        return rec, hard

    def features(self) -> dict[str, float]:
        ctx, ans = self.ctx, self.ans
        n_ref = len(ctx.refs)
        rec, prec = self.seg_recall[:n_ref], self.ref_precision
        f1 = np.where(rec + prec > 0, 2 * rec * prec / np.maximum(rec + prec, 1e-9), 0.0)
        i = int(np.argmax(f1))
        a_stems = content_set(ans.text)
        new_ref, a_new = ctx.ref_stems - ctx.q_stems, a_stems - ctx.q_stems
        crit_rec, crit_hard = self.crit_recall()
        n_ans = max(1, ans.n_words)
        return {
            "cos_ref": float(np.max(ctx.ref_sent @ ans.sent)),
            "cos_q": float(ctx.question.sent @ ans.sent),
            "tok_rec": float(rec[i]),
            "tok_prec": float(prec[i]),
            "tok_f1": float(f1[i]),
            "tok_rec_max": float(rec.max()),
            "tok_rec_hard": float(self.seg_hard[i]),
            "tok_prec_hard": float(self.ref_precision_hard[i]),
            "lex_rec": len(new_ref & a_stems) / len(new_ref) if new_ref else 0.0,
            "lex_prec": len(a_new & ctx.ref_stems) / len(a_new) if a_new else 0.0,
            "crit_cos": float(ctx.crit_weights @ self.crit_cos) if crit_rec.size else 0.0,
            "crit_tok": float(ctx.crit_weights @ crit_rec) if crit_rec.size else 0.0,
            "crit_min": float(crit_rec.min()) if crit_rec.size else 0.0,
            "crit_hard": float(ctx.crit_weights @ crit_hard) if crit_rec.size else 0.0,
            "len_ratio": math.log((n_ans + 1) / (max(1, ctx.refs[i].n_words) + 1)),
            "q_copy": len(a_stems & ctx.q_stems) / len(a_stems) if a_stems else 1.0,
            "short": float(n_ans < 4),
            "n_crit": float(len(ctx.crit_vecs)),
        }


NORMALISED = ("cos_ref", "tok_rec", "tok_f1", "tok_rec_hard", "crit_cos", "crit_tok")


def features(ans: Encoded, ctx: TargetContext, match: Match | None = None) -> dict[str, float]:
    """Raw features plus, for the similarity ones, their gain over the question read as an answer."""
    f = (match or Match.of(ans, ctx)).features()
    for name in NORMALISED:
        base = ctx.baseline.get(name, 0.0)
        f[f"{name}_gain"] = (f[name] - base) / max(1e-3, 1.0 - base)
    return f
