"""Offline short-answer grading: features of the answer against the target, combined by a fitted model.

Per answer: one forward pass of the embedder gives token and sentence vectors; the answer is soft-aligned to
the reference(s) token by token (BERTScore-style, question words demoted), matched to each criterion
(sentence cosine and token recall of its phrasings), compared lexically, and, when the target carries graded
examples, to its nearest examples. With a cross-encoder (`cross.py`), each rubric criterion is read against the
answer spans closest to it, which decides the criterion verdicts (`criteria.py`), and, when the fitted model
weights its features, the whole answer against the reference. Otherwise the cross-encoder may check only the
spans close to an attached misconception (`contradiction.py`): a statement and its opposite look alike to the
bi-encoder. A small logistic model fitted on training data (`calibration.py`) turns these features into the
score; criterion verdicts explain it. The anti-gaming guards cap the result.

An answer's grade depends only on that answer and its target: nothing is computed across the answers graded
together (`grade_many` only batches the forward passes, which `embed_full` keeps bit-identical).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from coach.grading.guards.vectors import PooledVectors
from coach.grading.numeric.verdict import review_numbers
from coach.grading.offline import contradiction
from coach.grading.offline import criteria as crit
from coach.grading.offline.anchors import anchor_features
from coach.grading.offline.calibration import GraderParams, shipped_params
from coach.grading.offline.cross import CrossReading, batch_pairs, cross_features, read
from coach.grading.offline.encoding import Encoded, Encoder
from coach.grading.offline.features import Match, TargetContext, features, target_context, target_texts
from coach.grading.score import VERDICT_CREDIT, CriterionResult, Flag, Score, Verdict
from coach.grading.target import GradingTarget
from coach.providers.base import Embedder, PairScorer

RUBRIC_BLEND = 0.5  # rubric targets: share of the score from criterion credit (the rest: the fitted model)
LOW_CONFIDENCE = 0.5
TOSS_UP_MARGIN = 0.08  # a score within 0.5 +- this is a toss-up: confidence falls below LOW_CONFIDENCE


# A point stated the wrong way round costs its own weight and this share of it again: an expert marks a reversed
# key claim lower than a silent one (issue 19: flipped answers deserve 0-0.2, not a plain missed point's credit)
CONTRADICTION_COST = 1.0
CONTRADICTION_NOTE = ("A point stated the wrong way round costs more than one left out: each contradicted point "
                      "takes its own weight off the score again.")


def rubric_credit(results: Sequence[CriterionResult]) -> tuple[float, float]:
    """(credit, factor) of the criterion verdicts. Credit: the weighted verdict credit, less CONTRADICTION_COST
    times the contradicted share, floored at 0. Factor: the share of the fitted model's value that stands, 1 less
    (1 + CONTRADICTION_COST) times the contradicted share, floored at 0 (the model reads the words, so a reversed
    point would otherwise keep its similarity credit)."""
    total = sum(r.weight for r in results) or 1.0
    contradicted = sum(r.weight for r in results if r.verdict == Verdict.CONTRADICTED) / total
    credit = sum(r.weight * VERDICT_CREDIT[r.verdict] for r in results) / total
    return (max(0.0, credit - CONTRADICTION_COST * contradicted),
            max(0.0, 1.0 - (1.0 + CONTRADICTION_COST) * contradicted))


def confidence_of(value: float, credit: float, knn_vote: float | None = None, rubric: bool = False) -> float:
    """How sure the offline grade is. Lowest near the toss-up point 0.5, where the grader errs most: on 2,000
    SemEval-2013 and 1,476 SAF training answers the band 0.42-0.58 held 20% of the answers, with 1.4x and 1.5x
    the error of the rest (1.1-1.6x on the domain dev sets and the DigiKlausur exam). Lowered too where graded
    examples, or an author's rubric verdicts, disagree with the score. (The verdicts of criteria built
    automatically from a reference did not predict the error on SAF or DigiKlausur, so they are left out.)"""
    conf = abs(value - 0.5) / (2 * TOSS_UP_MARGIN)
    gaps = [abs(value - knn_vote)] if knn_vote is not None else []
    if rubric:
        gaps.append(abs(value - credit))
    if gaps:
        conf = min(conf, 1.0 - 1.5 * max(gaps))
    return float(round(min(1.0, max(0.05, conf)), 4))


def criterion_score(cos: float, recall: float, hard: float) -> float:
    """One number per criterion: the mean of the best sentence cosine to its phrasings, the token recall of
    its best phrasing, and the share of that phrasing's words matched near-exactly (hard recall)."""
    return (cos + recall + hard) / 3


@dataclass(frozen=True)
class Trace:
    """What the score was made of, so a protocol can refit the model on training data and recombine."""

    features: dict[str, float]
    model: float  # the fitted model's output
    factor: float  # share of the model value that stands after contradictions (`rubric_credit`)
    cap: float  # the guards' cap
    credit: float  # criterion credit (weighted verdict credit, less the contradictions' cost)
    rubric: bool
    scale: float = 1.0  # the guards' share of the grade that stands (off-topic answers)

    def combine(self, model_value: float) -> float:
        """The final score from a model output: rubric targets blend in criterion credit; contradictions
        scale the model part down; the guards' scale and cap apply last."""
        if self.rubric:
            value = (1 - RUBRIC_BLEND) * model_value * self.factor + RUBRIC_BLEND * self.credit
        else:
            value = model_value * self.factor
        return float(min(1.0, max(0.0, min(value * self.scale, self.cap))))


def _guards() -> Any:
    from coach.grading.guards import assess

    return assess


class EmbeddingGrader:
    def __init__(self, embedder: Embedder, params: GraderParams | None = None, *, use_guards: bool = True,
                 context_cache: int = 512, check_numbers: bool = True, pair_scorer: PairScorer | None = None,
                 skip_guards: frozenset[str] = frozenset(), read_whole: bool | None = None,
                 checker: PairScorer | None = None) -> None:
        self.embedder = embedder
        self.check_numbers = check_numbers  # off only to measure what the numeric check changes
        self.pair_scorer = pair_scorer  # the cross-encoder reading every criterion (COACH_CROSS_ENCODER)
        # the cross-encoder checking contradiction candidates only, when it does not read everything
        self.checker = checker if pair_scorer is None else None
        self.skip_guards = skip_guards  # guards not to run (the per-guard ablation)
        self.params = params or shipped_params(cross=pair_scorer is not None)
        # the cross-encoder reads the whole answer only for a model that weights those readings (calibration
        # asks for them to fit one): it is the longest pair, a fifth of the reading time of a check
        self.read_whole = self.params.weights_whole_reading if read_whole is None else read_whole
        self.encoder = Encoder(embedder)
        self.use_guards = use_guards
        self._contexts: OrderedDict[GradingTarget, TargetContext] = OrderedDict()
        self._reports: OrderedDict[tuple[str, GradingTarget], Any] = OrderedDict()
        self._context_cache = context_cache

    def context(self, target: GradingTarget) -> TargetContext:
        ctx = self._contexts.get(target)
        if ctx is None:
            ctx = target_context(target, self.encoder)
            self._contexts[target] = ctx
            if len(self._contexts) > self._context_cache:
                self._contexts.popitem(last=False)
        return ctx

    def grade_many(self, rows: Sequence[tuple[str, GradingTarget]]) -> list[Score]:
        """Grade each row on its own; the forward passes are batched (results do not depend on the batch)."""
        self.prepare(rows)
        return [self.grade(answer, target) for answer, target in rows]

    def prepare(self, rows: Sequence[tuple[str, GradingTarget]]) -> None:
        """Encode in one batched pass what grading these rows needs: the answers and every new target's texts
        (the guards pool what they need from these), then each answer's sentences that could state a
        misconception, each on its own (`_with_alone`). Changes speed only, never a grade."""
        texts = [a for a, _ in rows if a.strip()]
        if not texts:
            return
        new = [t for t in dict.fromkeys(t for _, t in rows) if t not in self._contexts]
        self.encoder.encode([*texts, *(x for t in new for x in target_texts(t))])
        graded = [(a, t) for a, t in rows if a.strip()]
        if self.use_guards:  # answers the guards strip of a term list are graded without it too: encode those
            reports = [(a, t, self.guard_report(a, t)) for a, t in graded]
            cleans = [(r.clean_answer.strip(), t) for a, t, r in reports if r is not None
                      and r.clean_answer.strip() and r.clean_answer.strip() != a.strip()]
            if cleans:
                self.encoder.encode([c for c, _ in cleans])
                graded += cleans
        # the sentences misconceptions are read in, each on its own (`_with_alone`), in one batched pass too
        encoded = [(self.encoder.encode_one(a), self.context(t)) for a, t in graded]
        self.encoder.encode([e.spans[i] for e, ctx in encoded for i in self._near_misconception(e, ctx)])
        if self.pair_scorer is None and self.checker is None:
            return
        rows_enc = [(self._with_alone(e, ctx), ctx) for e, ctx in encoded]
        if self.pair_scorer is not None:  # every pair the readings need, the stripped answers' too, in one call
            self.pair_scorer.score_pairs(batch_pairs(rows_enc, self.read_whole))
        elif self.checker is not None:  # only the contradiction candidates' pairs
            self.checker.score_pairs(list(dict.fromkeys(
                p for enc, ctx in rows_enc for p in contradiction.pairs_for(enc, ctx, self._denies))))

    def _near_misconception(self, enc: Encoded, ctx: TargetContext) -> list[int]:
        """The answer's sentences that, pooled in context, come within a naming cut of an attached misconception's
        phrasing: only those can state one, since a sentence must do so read both ways (`criteria.claim_views`)."""
        if len(enc.spans) <= 1 or not ctx.misconceptions or enc.span_vecs.shape[0] != len(enc.spans):
            return []
        floor = min(crit.MISCONCEPTION_NAMED, self.params.verdicts.misconception)
        best = (enc.span_vecs @ np.vstack(list(ctx.misconceptions.values())).T).max(axis=1)
        return [i for i, b in enumerate(best) if b >= floor]

    def _with_alone(self, enc: Encoded, ctx: TargetContext) -> Encoded:
        """`enc` with the sentences near a misconception (`_near_misconception`) encoded each on its own; the
        others cannot state one, so their vectors in context stand for both readings."""
        return self.encoder.with_alone(enc, self._near_misconception(enc, ctx))

    def guard_report(self, answer: str, target: GradingTarget, enc: Encoded | None = None) -> Any:
        """What the anti-gaming guards make of an answer (a `GuardReport`), or None with the guards off.
        Kept for the answers of the last batch, so that `prepare` and `grade` assess each answer once."""
        guards = _guards() if self.use_guards else None
        if guards is None:
            return None
        key = (answer, target)
        if key not in self._reports:
            enc = enc or self.encoder.encode_one(answer)
            ctx = self.context(target)
            vectors = PooledVectors(self.encoder, enc, ctx.text_vecs)
            self._reports[key] = guards.assess(answer, target, vectors, self.skip_guards)
            if len(self._reports) > self._context_cache * 8:
                self._reports.popitem(last=False)
        return self._reports[key]

    def grade(self, answer: str, target: GradingTarget) -> Score:
        return self.grade_detailed(answer, target)[0]

    def grade_detailed(self, answer: str, target: GradingTarget) -> tuple[Score, Trace]:
        """The score and how it was reached (features, model output, contradiction factor, guard cap).

        When the guards set a bare term-list sentence aside, the answer is graded both without it and whole, and
        the higher grade stands: setting a sentence aside must never cost the candidate."""
        if not answer.strip():
            empty = Score(value=0.0, source="embedding", flags=(Flag.EMPTY,), notes=("No answer was given.",))
            return empty, Trace(features={}, model=0.0, factor=0.0, cap=0.0, credit=0.0, rubric=target.from_rubric)
        enc = self.encoder.encode_one(answer)
        ctx = self.context(target)
        report = self.guard_report(answer, target, enc)
        clean = (report.clean_answer or "").strip() if report is not None else ""
        if report is None or not clean or clean == answer.strip():
            return self._scored(enc, ctx, report)
        core = self._scored(self.encoder.encode_one(clean), ctx, report)
        whole = self._scored(enc, ctx, report.graded_whole(answer))
        return core if core[0].value >= whole[0].value else whole

    def _scored(self, enc: Encoded, ctx: TargetContext, report: Any) -> tuple[Score, Trace]:
        """Grade the encoded text against the target; the guard report (or None) caps and flags it."""
        target = ctx.target
        enc = self._with_alone(enc, ctx)  # misconceptions are read sentence by sentence (`claim_views`)
        match = Match.of(enc, ctx)
        feats = self._features(enc, ctx, match)
        reading = read(enc, ctx, self.pair_scorer, self.read_whole) if self.pair_scorer is not None else None
        if reading is not None:
            feats.update(cross_features(reading))
        model = self.params.anchored if ctx.examples and self.params.anchored else self.params.base
        value = model.predict(feats)
        negated = {p.criterion_id: p.span for p in report.negated} if report is not None else {}
        results = self._criteria(match, negated, reading)
        numeric_notes: tuple[str, ...] = ()
        if self.check_numbers:  # quantitative criteria: the numbers decide with the words (numeric/verdict.py)
            review = review_numbers(results, enc.text, target)
            results, numeric_notes = list(review.criteria), review.notes
        credit, factor = rubric_credit(results)
        trace = Trace(features=feats, model=value, factor=factor, credit=credit,
                      cap=report.cap if report is not None else 1.0, rubric=target.from_rubric,
                      scale=report.scale if report is not None else 1.0)
        value = trace.combine(value)
        confidence = confidence_of(value, credit, feats.get("knn_vote"), target.from_rubric)
        flags: list[Flag] = [Flag.MISCONCEPTION] if any(r.misconception_id for r in results) else []
        notes: list[str] = list(numeric_notes)
        if factor < 1.0:
            notes.append(CONTRADICTION_NOTE)
        if report is not None:
            flags.extend(report.flags)
            notes.extend(report.notes)
        if confidence < LOW_CONFIDENCE:
            flags.append(Flag.LOW_CONFIDENCE)
        score = Score(value=value, source="embedding", confidence=confidence,
                      criteria=tuple(results), flags=tuple(dict.fromkeys(flags)), notes=tuple(notes))
        return score, trace

    def features(self, answer: str, target: GradingTarget) -> dict[str, float]:
        """The model's inputs for one answer (for calibration and inspection)."""
        ctx = self.context(target)
        return self._features(self.encoder.encode_one(answer), ctx)

    def _features(self, enc: Encoded, ctx: TargetContext, match: Match | None = None) -> dict[str, float]:
        f = features(enc, ctx, match)
        f.update(anchor_features(enc, ctx.examples, ctx.example_vecs, ctx.example_stems, ctx.q_stems,
                                 ctx.example_weights))
        return f

    def _states_misconception(self, enc: Encoded, where: int, mis_vecs: np.ndarray, own_vecs: np.ndarray) -> bool:
        """The answer span at `where` states the misconception (`criteria.states_misconception`) and, when it
        makes several claims, so does its clause closest to it (`criteria.claim_states_misconception`)."""
        if not crit.states_misconception(enc, where, mis_vecs, own_vecs, self.params.verdicts.misconception):
            return False
        parts = crit.claims(enc.spans[where]) if len(enc.spans) > where else []
        if not parts:
            return True
        claim_vecs = np.stack([e.sent for e in self.encoder.encode(parts)])  # one batched pass for the clauses
        return crit.claim_states_misconception(claim_vecs, mis_vecs, own_vecs)

    @staticmethod
    def _denies(text: str, mid: str, ctx: TargetContext) -> bool:
        """Does the text deny misconception `mid` (`criteria.denies_misconception`)?"""
        spec = next((m for m in ctx.target.misconceptions if m.id == mid), None)
        return spec is not None and crit.denies_misconception(text, (spec.statement, *spec.phrasings),
                                                              ctx.target.question)

    def _criteria(self, match: Match, negated: dict[str, str], reading: CrossReading | None = None,
                  ) -> list[CriterionResult]:
        """Per criterion: a verdict with its evidence (the answer span, and what the cross-encoder judged).
        With a cross-encoder, a span it reads as the opposite, or a misconception phrasing matched by the
        bi-encoder that it does not read as right, contradicts (`criteria.py`); without one, the phrasing match
        alone does, as before."""
        v, enc, ctx = self.params.verdicts, match.ans, match.ctx
        mis_hits: dict[str, tuple[float, int]] = {}
        for mid, vecs in ctx.misconceptions.items():  # spans close to a catalogue misconception's phrasing
            sim, where = crit.misconception_match(vecs, enc)
            if sim >= v.misconception:
                mis_hits[mid] = (sim, where)
        results, fallbacks = [], []
        recalls, hards = match.crit_recall()
        found = contradiction.find(enc, ctx, self._denies) if self.checker is not None and reading is None else None
        for j, spec in enumerate(ctx.target.criteria):
            sim = criterion_score(float(match.crit_cos[j]), float(recalls[j]), float(hards[j]))
            where = match.crit_where[j]
            near = [m for m in spec.misconceptions if m in mis_hits]
            hit = next((m for m in near if self._states_misconception(enc, mis_hits[m][1], ctx.misconceptions[m],
                                                                      ctx.crit_own[j])
                        # the whole answer: the match may be the answer's vector, not its closest span's
                        and not self._denies(enc.text, m, ctx)), None)
            phrased = enc.spans[mis_hits[hit][1]] if hit is not None and enc.spans else None  # the span matching it
            evidence = enc.spans[where] if enc.spans else None
            reason = ""
            if reading is not None and reading.criteria:
                read_j = reading.criteria[j]
                verdict, reason = crit.judge(sim, read_j, v)
                short, short_reason = (verdict, reason) if verdict != Verdict.CONTRADICTED else crit.judge(
                    sim, read_j, v, contradiction=False)
                fallbacks.append((short, read_j.best.span if short != Verdict.MISSED else None, short_reason))
                named = crit.named_misconception(spec, read_j.opposed.span, enc, ctx.misconceptions,
                                                 ctx.crit_own[j]) if verdict == Verdict.CONTRADICTED else None
                if named is not None and self._denies(read_j.opposed.span, named, ctx):
                    named = None  # the span read as the opposite denies the misconception it is near
                if named is not None:  # read as the opposite, on a span that states a known misconception
                    hit, evidence = named, read_j.opposed.span
                elif hit is not None and (verdict == Verdict.CONTRADICTED or crit.phrasing_stands(
                        phrased or enc.text, read_j, v)):
                    if verdict != Verdict.CONTRADICTED:
                        reason = "close to a catalogue statement of this misconception"
                    verdict, evidence = Verdict.CONTRADICTED, phrased
                else:  # not contradicted (nor read as the opposite of a known misconception): nothing is named
                    verdict, evidence, reason = fallbacks[-1]
                    hit = None
            else:
                unconfirmed = False  # a phrasing match the cross-encoder neither vetoes nor reads as the opposite
                if hit is not None and self.checker is not None:
                    confirmed = contradiction.confirms(phrased or enc.text, spec, self.checker, v)
                    if not confirmed:  # read as right (a veto), or a doubt
                        hit, unconfirmed = None, confirmed is None
                short, _ = crit.judge(sim, None, v)
                if unconfirmed and short == Verdict.MET:  # close to a misconception, and the doubt stays
                    short = Verdict.PARTIAL
                fallbacks.append((short, evidence if short != Verdict.MISSED else None, ""))
                # the negation guard reads a sentence as stating the opposite of this point: that one is the
                # evidence, and another sentence the models place near a misconception names nothing
                guard_span = negated.get(spec.id)
                if hit is not None and guard_span not in (None, phrased):
                    hit = None
                checked = contradiction.check(found, ctx, j, self.checker, v) \
                    if hit is None and found is not None and self.checker is not None else None
                if checked is not None and guard_span not in (None, checked[1]):
                    checked = None
                if hit is not None:
                    verdict, evidence = Verdict.CONTRADICTED, phrased
                elif checked is not None:
                    verdict, (hit, evidence, reason) = Verdict.CONTRADICTED, checked
                elif spec.id in negated:  # the negation guard: its sentence is the evidence
                    verdict, evidence = Verdict.CONTRADICTED, negated[spec.id]
                    reason = "states the opposite of this point"
                else:
                    verdict, evidence, _ = fallbacks[-1]
            results.append(CriterionResult(
                criterion_id=spec.id, description=spec.description, weight=spec.weight, dimension=spec.dimension,
                verdict=verdict, similarity=round(sim, 4), evidence=evidence, misconception_id=hit, reason=reason,
            ))
        return crit.consistent(results, ctx.target.criteria, fallbacks)
