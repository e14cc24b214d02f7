"""Anti-gaming guards for offline short-answer grading.

Embedding similarity rewards answers that *sound* like the reference: term lists, negated statements, the
question read back. `assess` inspects an answer before (or beside) the scorer and
returns a `GuardReport`: flags, a cap on the score (and, for off-topic answers, the share of it that stands),
plain notes for the candidate, the answer with a bare term list removed (`clean_answer`, which the scorer may
grade instead), and the criteria the answer contradicts.

Guards: off-topic, keyword stuffing (stuffing.py), question copy, negation (negation.py), other language.
The gibberish and padding guards and the swapped-relation vote were deleted after the per-guard ablation
(`coach eval guards`, docs/guard-ablation.md): without them the scorer gave noise, filler and swapped orders
grades within 0.03 of what the guards gave. All thresholds are named constants; nothing is random. They
were tuned on the development sets (/work/heldout/dev.csv, dev2.csv, dev3.csv) and the unit tests for catching
gaming; on correct answers written to probe for false alarms (/work/heldout/probes); and on training answers for
false alarms: those graded correct (800 SemEval-2013 train, 500 SAF train; a guard that
fires there punishes a right answer) and the Pearson of 2,000 SemEval-2013 and 1,476 SAF training answers with
and without each guard; and the 663 DigiKlausur neural-network exam answers (`coach eval digiklausur`). Never on
the held-out file or on Mohler.

The grader runs the guards on `PooledVectors` (vectors.py): the answer's sentences and clauses are
pooled from its own forward pass, so the guards cost no extra pass of the model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from coach.grading.guards.clauses import Clause
from coach.grading.guards.lexical import (
    VAGUE_WORDS,
    base_form,
    base_forms,
    content_stems,
    is_formula,
    is_number,
    language_stats,
    list_stats,
    stem,
    tokens,
)
from coach.grading.guards.negation import contradiction_votes, topic_stems
from coach.grading.guards.stuffing import (
    STUFF_LIST_SENTENCE_WORDS,
    STUFF_SENTENCE_FUNCTION_RATIO,
    asks_for_list,
    is_labelled_contrast,
    is_term_list,
)
from coach.grading.guards.vectors import GuardVectors, StandaloneVectors
from coach.grading.score import Flag
from coach.grading.target import CriterionSpec, GradingTarget
from coach.grading.text import sentences
from coach.providers.base import Embedder

VAGUE_STEMS = frozenset(stem(w) for w in VAGUE_WORDS)
VAGUE_BASES = frozenset(base_form(w) for w in VAGUE_WORDS)

# off-topic: best cosine of the answer (whole or any sentence) to the question, reference or phrasings
OFF_TOPIC_SIM = 0.2  # below this the answer is off-topic whatever words it shares
OFF_TOPIC_SIM_SOFT = 0.3  # below this it is off-topic unless it shares a content word with the target
OFF_TOPIC_SIM_NON_ENGLISH = 0.15  # (Latin-script languages; other scripts are not judged by an English model)
OFF_TOPIC_MIN_WORDS = 6  # shorter answers ("Nothing will happen.") are too short to judge by embeddings
# an off-topic answer keeps the share (relevance - ZERO) / (SOFT - ZERO) of its grade: none at or below ZERO, and no
# cliff where the flag starts. Chosen on training data (SemEval, SAF, DigiKlausur, dev sets) against a cap at zero.
OFF_TOPIC_ZERO = 0.1
# keyword stuffing
# question copy
QC_MIN_STEMS = 3
QC_COPY_SHARE = 0.6  # share of the answer's content words taken from the question
QC_MAX_NEW = 1  # content words or numbers the answer adds beyond the question (vague words excluded)
QC_SIM = 0.85  # cosine of the answer to the question
# negation
NEG_MIN_SIM = 0.45  # an answer sentence must be about the criterion to contradict it
NEG_CLAUSE_SIM = 0.6  # ... and the two clauses compared (pooled from their own texts) must make one claim
NEG_WEIGHT_PENALTY = 3.0  # cap = 1 - penalty * (share of criterion weight contradicted) ...
NEG_CAP_MAX = 0.5  # ... and never above this: stating the opposite of a key point is a serious error
# non-English
NONEN_SCRIPT_SHARE = 0.3
NONEN_MIN_HITS = 3
NONEN_HIT_RATIO = 1.5
# caps
CAP_STUFFING = 0.2
CAP_QUESTION_COPY = 0.1
CAP_NON_ENGLISH = 0.5
CAP_ZERO = 0.0

NOTES = {
    Flag.OFF_TOPIC: "Your answer does not address this question, so it scored zero.",
    Flag.STUFFING: "Your answer lists terms without relating them; it was capped.",
    Flag.QUESTION_COPY: "Your answer mostly restates the question without adding an explanation; it was capped.",
    Flag.NON_ENGLISH: ("Your answer does not seem to be in English: only the technical terms could be matched, so "
                       "the grade is capped at half marks. Answer in English for a full grade."),
}
LIST_STRIPPED = "A bare list of terms in your answer was not graded; the rest was."
OFF_TOPIC_REDUCED = "Your answer is mostly about something other than this question, so its grade was reduced."


@dataclass(frozen=True)
class NegatedPoint:
    """A criterion the answer states the opposite of, and the answer sentence that does (the evidence)."""

    criterion_id: str
    span: str


@dataclass(frozen=True)
class GuardReport:
    flags: tuple[Flag, ...] = ()
    cap: float = 1.0  # the highest score the answer may receive
    scale: float = 1.0  # the share of the grade that stands (off-topic answers keep less the further off they are)
    notes: tuple[str, ...] = ()
    clean_answer: str = ""  # the answer without a bare term-list sentence; grade this one
    negated: tuple[NegatedPoint, ...] = ()  # the criteria the answer contradicts, each with its sentence
    signals: tuple[tuple[str, float], ...] = ()  # the measurements behind the flags, for debugging and tuning

    @property
    def clean(self) -> bool:
        return not self.flags

    @property
    def negated_criteria(self) -> tuple[str, ...]:
        return tuple(p.criterion_id for p in self.negated)

    def graded_whole(self, answer: str) -> GuardReport:
        """The same report for grading the whole answer, the stripped list included: no note that it was not."""
        kept = [(f, n) for f, n in zip(self.flags, self.notes, strict=True) if n != LIST_STRIPPED]
        return replace(self, clean_answer=answer, flags=tuple(f for f, _ in kept), notes=tuple(n for _, n in kept))


class _Builder:
    def __init__(self, answer: str) -> None:
        self.flags: list[Flag] = []
        self.notes: list[str] = []
        self.cap = 1.0
        self.scale = 1.0
        self.clean_answer = answer
        self.negated: list[NegatedPoint] = []
        self.signals: dict[str, float] = {}

    def flag(self, flag: Flag, cap: float, note: str | None = None, scale: float = 1.0) -> None:
        if flag not in self.flags:
            self.flags.append(flag)
            self.notes.append(note or NOTES[flag])
        self.cap = min(self.cap, cap)
        self.scale = min(self.scale, scale)

    def report(self) -> GuardReport:
        return GuardReport(
            flags=tuple(self.flags), cap=round(self.cap, 4), scale=round(self.scale, 4), notes=tuple(self.notes),
            clean_answer=self.clean_answer,
            negated=tuple(self.negated), signals=tuple(sorted(self.signals.items())),
        )


def _topic_texts(target: GradingTarget) -> list[str]:
    """What an on-topic answer comes close to: question, references and criteria. A subset of
    `features.target_texts`, so the grader has them encoded once per target."""
    texts = [target.question, target.reference, *sentences(target.reference), *target.extra_references]
    for c in target.criteria:
        texts.extend([c.description, *c.phrasings])
    return [t for t in dict.fromkeys(texts) if t.strip()]


def _language(answer: str) -> tuple[bool, bool]:
    """(not English, in a non-Latin script)."""
    ls = language_stats(answer)
    if ls.non_latin_ratio >= NONEN_SCRIPT_SHARE:
        return True, True
    return ls.foreign_hits >= NONEN_MIN_HITS and ls.foreign_hits >= NONEN_HIT_RATIO * ls.english_hits, False


def _check_stuffing(target: GradingTarget, b: _Builder) -> None:
    if asks_for_list(target.question) or is_labelled_contrast(b.clean_answer, target.question):
        return
    text = b.clean_answer
    st = list_stats(text)
    b.signals.update(function_ratio=st.function_ratio, repeat_share=st.repeat_share)
    if is_term_list(text):
        b.flag(Flag.STUFFING, CAP_STUFFING)
        return
    spans = sentences(text)
    lists = [s for s in spans if len(tokens(s)) >= STUFF_LIST_SENTENCE_WORDS
             and is_term_list(s, STUFF_SENTENCE_FUNCTION_RATIO)]
    if lists and len(lists) < len(spans):
        b.clean_answer = " ".join(s for s in spans if s not in lists)
        b.flag(Flag.STUFFING, 1.0, LIST_STRIPPED)


def _check_question_copy(target: GradingTarget, q_sim: float, b: _Builder) -> None:
    a = content_stems(b.clean_answer)
    q = content_stems(target.question)
    if len(a) < QC_MIN_STEMS:
        return
    copied = len(a & q) / len(a)
    q_numbers = {t for t in tokens(target.question) if is_number(t)}
    new = {s for s in a - q if s not in VAGUE_STEMS} | ({t for t in tokens(b.clean_answer) if is_number(t)} - q_numbers)
    b.signals.update(question_copy_share=copied, new_words=float(len(new)), question_sim=q_sim)
    # The one new word may be the answer itself ("because the rubber band vibrates"): not a copy if the
    # reference says it.
    answers = new & content_stems(" ".join([target.reference, *target.extra_references]))
    if copied >= QC_COPY_SHARE and len(new) <= QC_MAX_NEW and q_sim >= QC_SIM and not answers:
        b.flag(Flag.QUESTION_COPY, CAP_QUESTION_COPY)


def _negating_span(c: CriterionSpec, spans: list[str], span_vecs: np.ndarray, vectors: GuardVectors,
                   topic: frozenset[str]) -> str | None:
    """The answer sentence that states the opposite of the criterion (its clauses outvote those that agree,
    over every sentence close to one of its texts), or None."""
    phrasings = list(dict.fromkeys([*c.phrasings, c.description]))
    sims = span_vecs @ vectors.embed(phrasings).T
    pairs = [(spans[int(i)], phrasings[int(j)]) for i, j in zip(*np.nonzero(sims >= NEG_MIN_SIM), strict=True)]
    vecs: dict[tuple[str, str], np.ndarray] = {}

    def vec(source: str, clause: Clause) -> np.ndarray:
        key = (source, clause.text)
        if key not in vecs:
            vecs[key] = vectors.words(source, clause.text)
        return vecs[key]

    contra = agree = 0
    by_span: dict[str, int] = {}
    for span, phrasing in pairs:
        def same_claim(a: Clause, b: Clause, span: str = span, phrasing: str = phrasing) -> bool:
            return float(vec(span, a) @ vec(phrasing, b)) >= NEG_CLAUSE_SIM

        cv, av = contradiction_votes(span, phrasing, topic, same_claim)
        contra += cv
        agree += av
        by_span[span] = by_span.get(span, 0) + cv
    return max(by_span, key=lambda s: by_span[s]) if contra > agree else None


def _check_negation(target: GradingTarget, vectors: GuardVectors, b: _Builder) -> None:
    spans = sentences(b.clean_answer)
    if not spans or not target.criteria:
        return
    span_vecs = vectors.embed(spans)
    total = sum(c.weight for c in target.criteria) or 1.0
    topic = topic_stems(target.question)
    found = [(c, _negating_span(c, spans, span_vecs, vectors, topic)) for c in target.criteria]
    negated = [(c, span) for c, span in found if span is not None]
    if not negated:
        return
    b.negated = [NegatedPoint(c.id, span) for c, span in negated]
    share = sum(c.weight for c, _ in negated) / total
    b.signals["negated_share"] = share
    points = "; ".join(c.description.rstrip(".") for c, _ in negated[:2])
    b.flag(Flag.NEGATION, max(CAP_ZERO, min(NEG_CAP_MAX, 1.0 - NEG_WEIGHT_PENALTY * share)),
           f"Your answer states the opposite of a key point ({points}); that point counts as contradicted.")


GUARDS = ("off_topic", "non_english", "stuffing", "question_copy", "negation")


def assess(answer: str, target: GradingTarget, vectors: GuardVectors | Embedder,
           skip: frozenset[str] = frozenset()) -> GuardReport:
    """Inspect an answer for gaming before it is scored. Deterministic. The grader passes `PooledVectors`
    (no forward pass beyond the answer's own); any plain embedder works too, encoding every text on its own.
    `skip` names guards (of GUARDS) not to run, for the per-guard ablation."""
    v: GuardVectors = vectors if isinstance(vectors, GuardVectors) else StandaloneVectors(vectors)
    b = _Builder(answer.strip())
    if not b.clean_answer:
        return b.report()
    non_english, other_script = _language(b.clean_answer)

    spans = sentences(b.clean_answer)
    texts = _topic_texts(target)
    vecs = v.embed([b.clean_answer, *spans])
    sims = vecs @ v.embed(texts).T  # rows: whole answer, then sentences
    rel = sims.max(axis=1)
    best = float(rel.max())
    shared = base_forms(b.clean_answer) & base_forms(" ".join(texts)) - VAGUE_BASES
    b.signals.update(relevance=best, shared_words=float(len(shared)))
    if non_english:
        off = not other_script and best < OFF_TOPIC_SIM_NON_ENGLISH
    else:
        # a worked formula ("alpha = n/m; chain length = alpha") shares its words in symbols an English model
        # misses; far from every target text ("grade = 10/10 -> full marks"), it is off-topic all the same
        off = len(tokens(b.clean_answer)) >= OFF_TOPIC_MIN_WORDS and (
            best < OFF_TOPIC_SIM or (best < OFF_TOPIC_SIM_SOFT and not shared and not is_formula(b.clean_answer)))
    if off and "off_topic" not in skip:
        kept = 0.0 if non_english else (best - OFF_TOPIC_ZERO) / (OFF_TOPIC_SIM_SOFT - OFF_TOPIC_ZERO)
        if kept > 0:
            b.flag(Flag.OFF_TOPIC, 1.0, OFF_TOPIC_REDUCED, scale=min(1.0, kept))
        else:
            b.flag(Flag.OFF_TOPIC, CAP_ZERO)
        return b.report()
    if non_english and "non_english" not in skip:
        b.flag(Flag.NON_ENGLISH, CAP_NON_ENGLISH)
        return b.report()

    if "stuffing" not in skip:
        _check_stuffing(target, b)
    if "question_copy" not in skip:
        q_sim = float(v.embed([b.clean_answer])[0] @ v.embed([target.question])[0])
        _check_question_copy(target, q_sim, b)
    if "negation" not in skip:
        _check_negation(target, v, b)
    return b.report()
