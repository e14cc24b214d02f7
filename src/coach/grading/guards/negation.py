"""Negation and swapped-relation detection between an answer sentence and a criterion phrasing.

Embeddings score "decode is compute-bound" almost as high as "decode is memory-bound". This module reads
polarity instead, on the clauses of `clauses.py`: two clauses about the same thing (shared content words)
whose signs differ contradict each other. For ordered families (column then row, first/second, prefill then
decode) that appear with both members in one clause, the order of the members is the sign.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from coach.grading.guards.clauses import Clause, clauses
from coach.grading.guards.negation_words import ENTITY_FAMILIES, ORDERED_FAMILIES, PRODUCT_FAMILIES
from coach.grading.guards.relation import orientation

NEG_MIN_SHARED = 2  # content stems two clauses must share to be compared
NEG_MIN_OVERLAP = 0.3  # ... and that share of the smaller clause's stems
PROPERTY_JACCARD = 0.35  # an opposite property word (grows/shrinks) only contradicts a clause about as much
NEG_ONLY_JACCARD = 0.5  # a bare "not" denies a clause only if the two clauses say nearly the same words ...
NEG_ONLY_JACCARD_WIDE = 0.65  # ... nearer still when the negated clause is the one saying more: its "not" may
# bear on what the other leaves out ("the bulb is not in the path with the battery" vs "the battery is in a path")
NEG_ONLY_MIN_STEMS = 3  # ... and say something: "no flow control" against a fragment "flow control" is unclear
MAX_FAMILY_WORDS = 2  # a clause naming one family three times ("less prefill, fewer decode...") is not read


_NAME = re.compile(r"\b[A-Za-z]+\d+[A-Za-z\d]*\b")  # a named configuration or part: TP16, PP2, H100, FP8


def _names(c: Clause) -> frozenset[str]:
    return frozenset(n.upper() for n in _NAME.findall(c.text))


def _comparable(family: str, a: Clause, b: Clause) -> bool:
    """Whether two clauses say something polar about a family they both name."""
    na, nb = len(a.signs[family]), len(b.signs[family])
    if na > MAX_FAMILY_WORDS or nb > MAX_FAMILY_WORDS:
        return False
    if family in ORDERED_FAMILIES:
        if a.mixed(family) and b.mixed(family):  # their order is a claim only where a word orders them:
            return a.ordered and b.ordered  # "a long prompt prefilled in a step stalls every running decode" does not
        return a.mixed(family) == b.mixed(family)
    if family in PRODUCT_FAMILIES:  # a relation ("more X, less Y") compares only with a relation
        # "cwnd less than ss_thresh" (a comparison) and "cwnd grows" (a change) are two claims
        return na == nb and a.same_subject(b, family) and (family in a.compared) == (family in b.compared)
    # "1.8 TB/s bidirectional or 900 GB/s per direction" names both members: a conversion, not a polarity
    return not any(c.mixed(family) and not any(neg for _, _, neg in c.signs[family]) for c in (a, b))


def clause_verdict(a: Clause, b: Clause, topic: frozenset[str] = frozenset()) -> int:
    """+1 agree, -1 contradict, 0 not comparable (different claims, or nothing polar about what they share).

    `topic` holds the question's stems: sharing only those is not the same claim, and a negation must bear on
    something beyond the topic ("no KV savings" does not deny "KV heads"). A clause about prefill and one about
    decode are different claims, not opposite ones, unless a property (compute-/memory-bound, larger/smaller)
    or a second subject ties them together.
    """
    if a.hypothetical or b.hypothetical:
        return 0
    names_a, names_b = _names(a), _names(b)
    if names_a and names_b and not names_a & names_b:
        return 0  # "TP8 × PP2 keeps all-reduces inside each node" is about TP8 × PP2, not the opposite of a TP16 claim
    shared = a.stems & b.stems
    small = min(len(a.stems), len(b.stems))
    if len(shared) < NEG_MIN_SHARED or small == 0 or len(shared) / small < NEG_MIN_OVERLAP:
        return 0
    families = {f for f in shared & a.signs.keys() & b.signs.keys() if _comparable(f, a, b)}
    # how a converse's arguments stand (+1 same sides, -1 swapped, 0 unclear), read once per family
    turns = {f: orientation(a.sides[f], b.sides[f]) for f in families if f in a.sides and f in b.sides}
    claim = {s for s in shared - topic if not s[:1].isdigit()}  # "instead of the 8 KV heads" is about KV, not 8
    neg_a = sum(1 for head in a.neg_heads if head & claim)
    neg_b = sum(1 for head in b.neg_heads if head & claim)
    if max(neg_a, neg_b) > 1:
        return 0  # "no flow control, no connect or disconnect": negated items of a list, not a double negation
    if _denies_option(a, b, claim) or _denies_option(b, a, claim):
        return 0  # "an array instead of a linked list" picks one of "an array or a linked list"
    properties = families - ENTITY_FAMILIES
    orders = {f for f in families & ORDERED_FAMILIES if a.mixed(f)}
    if not (properties or orders or neg_a or neg_b or len(families) >= 2):
        return 0
    if properties and not orders and not neg_a + neg_b and len(shared) / len(a.stems | b.stems) < PROPERTY_JACCARD:
        return 0  # "the KV cache grows with the sequence" vs "GQA shrinks the cache": two claims about the cache
    fa, fb = _family_values(families, a, b, turns)
    if _negation_alone(families, topic, a, b, neg_a, neg_b, fa == fb) and small < NEG_ONLY_MIN_STEMS:
        return 0  # "a deep copy instead of a shallow copy" does not deny the fragment "(a shallow copy)"
    negating = a if neg_a else b
    wide = bool(negating.stems - (b if negating is a else a).stems)
    if not (properties or orders) and (
        len(shared) / len(a.stems | b.stems) < (NEG_ONLY_JACCARD_WIDE if wide else NEG_ONLY_JACCARD)
        or small < NEG_ONLY_MIN_STEMS
        or (a.stems - b.stems and b.stems - a.stems)
    ):
        # "connected to the positive" vs "not connected to the negative": each says something the other does
        # not, so they are two claims, not one claim and its denial
        return 0
    va = -1 if (neg_a + a.negated_context) % 2 else 1
    vb = -1 if (neg_b + b.negated_context) % 2 else 1
    if len(a.neg_heads) > neg_a or len(b.neg_heads) > neg_b or _negated_alone(a, b) or _negated_alone(b, a):
        # "no gap between 4 and the positive" vs "not separated by a gap from 4": the other side is negated
        # too, only on another word; the polarities cannot be compared
        return 0
    if 0 in turns.values():
        return 0  # which way the converse points is unclear
    swapped = -1 in turns.values()
    if swapped and a.subject not in b.stems and b.subject not in a.stems:
        return 0  # "postorder visits children before the parent" vs "preorder visits a node before its children"
    va, vb = va * fa, vb * fb
    if va != vb and families & PRODUCT_FAMILIES and (a.signs.keys() | b.signs.keys()) & PRODUCT_FAMILIES - families:
        # a relation with a term the other side lacks or says of something else: "learning is slow" (said of a
        # small rate) does not deny "a larger rate speeds up learning"
        return 0
    return 1 if va == vb else -1


def _negation_alone(families: set[str], topic: frozenset[str], a: Clause, b: Clause, neg_a: int, neg_b: int,
                    families_agree: bool) -> bool:
    """Whether only a bare negation sets the clauses apart: the polar words they share are the question's own
    and agree (asked about a copy constructor, "a deep copy instead of a shallow copy" denies "shallow", not
    "copy"). Such a negation needs a claim to deny, not a fragment."""
    if not families <= topic or (neg_a + a.negated_context) % 2 == (neg_b + b.negated_context) % 2:
        return False
    return families_agree


def _family_values(families: set[str], a: Clause, b: Clause, turns: dict[str, int]) -> tuple[int, int]:
    """The product of each clause's signs over the families; a converse word ("after" for "before") counts with
    the orientation of its arguments (`turns`): "A before B" and "B after A" agree."""
    va = vb = 1
    for fam in families:
        va *= a.family_value(fam)
        vb *= b.family_value(fam) * turns.get(fam, 1)
    return va, vb


def _denies_option(a: Clause, b: Clause, claim: set[str]) -> bool:
    return any(head & claim & b.options for head in a.neg_heads)


def _negated_alone(a: Clause, b: Clause) -> bool:
    """Whether `a` holds a negation absorbed by a polar word `b` does not use: "Y and A are not in the same
    path" (= different) against "Y is not in the path of A" says "not" once on each side."""
    return any(neg for fam in a.signs.keys() - b.signs.keys() for _, _, neg in a.signs[fam])


def contradiction_votes(
    answer_sentence: str,
    phrasing: str,
    topic: frozenset[str] = frozenset(),
    same_claim: Callable[[Clause, Clause], bool] | None = None,
) -> tuple[int, int]:
    """(contradicting, agreeing) clause pairs; each phrasing clause is compared with its closest answer clause.

    `same_claim` (e.g. clause embeddings above a floor) can veto pairs that share words but not a subject.
    """
    a_clauses = clauses(answer_sentence)
    contra = agree = 0
    for pc in clauses(phrasing):
        best_shared = max((len(ac.stems & pc.stems) for ac in a_clauses), default=0)
        if not best_shared:
            continue
        votes = []
        for ac in a_clauses:  # the closest answer clauses; on a tie, one that agrees wins
            if len(ac.stems & pc.stems) == best_shared:
                v = clause_verdict(ac, pc, topic)
                if v and same_claim is not None and not same_claim(ac, pc):
                    v = 0
                votes.append(v)
        v = max(votes) if 1 in votes else min(votes)
        contra += v < 0
        agree += v > 0
    return contra, agree


def negates(text: str) -> bool:
    """Does the text say "no" anywhere: a negation that bears on a word, absorbed by a polar one ("no faster"),
    or a leading "without"?"""
    return any(c.neg_heads or c.negated_context or any(neg for signs in c.signs.values() for _, _, neg in signs)
               for c in clauses(text))


@lru_cache(maxsize=4096)
def topic_stems(question: str) -> frozenset[str]:
    """Stems of the question, in the same normal form as clause stems."""
    out: set[str] = set()
    for c in clauses(question):
        out |= c.stems
    return frozenset(out)
