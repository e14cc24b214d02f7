"""Negation and swapped-relation detection between an answer sentence and a criterion phrasing.

Embeddings score "decode is compute-bound" almost as high as "decode is memory-bound". This module reads
polarity instead: each text is cut into clauses; in a clause, words of an antonym family (increase/decrease,
column/row, prefill/decode, compute-/memory-bound...) map to the family's name with a sign, and a negation cue
("not", "never", "no", "without", "rather than") flips the next antonym word in its scope or, if there is none,
the whole clause. Two clauses about the same thing (shared content words) whose signs differ contradict each
other. For ordered families (column then row, first/second, prefill then decode) that appear with both members
in one clause, the order of the members is the sign.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from coach.grading.guards_lexical import COORDINATORS, FUNCTION_WORDS, UNITS, is_wordlike, stem
from coach.grading.guards_negation_words import (
    ANSWER_PARTICLE,
    CLAUSE_WORDS,
    CONDITIONS,
    CONVERSE_FAMILIES,
    ENTITY_FAMILIES,
    FILLER,
    HALT_CUES,
    JOIN,
    LIGHT_VERBS,
    NEGATIVE_EVALUATIVES,
    ORDER_CUES,
    ORDERED_FAMILIES,
    PAIR_OPENERS,
    PRODUCT_FAMILIES,
    RELATION_WORDS,
    TOKEN,
    family_of,
    is_negation,
    normalise,
)
from coach.grading.guards_relation import Sides, orientation, sides

NEG_SCOPE = 5  # tokens after a negation cue in which an antonym word absorbs the negation
UNIVERSALS, ALL = frozenset({"every", "all"}), "<all>"  # a quantifier a negation can bear on, and its stem
NEG_MIN_SHARED = 2  # content stems two clauses must share to be compared
NEG_MIN_OVERLAP = 0.3  # ... and that share of the smaller clause's stems
PROPERTY_JACCARD = 0.35  # an opposite property word (grows/shrinks) only contradicts a clause about as much
NEG_ONLY_JACCARD = 0.5  # a bare "not" denies a clause only if the two clauses say nearly the same words ...
NEG_ONLY_JACCARD_WIDE = 0.65  # ... nearer still when the negated clause is the one saying more: its "not" may
# bear on what the other leaves out ("the bulb is not in the path with the battery" vs "the battery is in a path")
NEG_ONLY_MIN_STEMS = 3  # ... and say something: "no flow control" against a fragment "flow control" is unclear
MIN_CLAUSE_STEMS = 2
MAX_FAMILY_WORDS = 2  # a clause naming one family three times ("less prefill, fewer decode...") is not read
LEAD_WITHOUT_MAX = 5  # "Without a KV cache, ..." (at most this many tokens) negates the rest of the sentence
ARG_WINDOW = 3  # tokens either side of a change word ("increases") searched for what changes




@dataclass
class Clause:
    stems: set[str] = field(default_factory=set)
    signs: dict[str, list[tuple[int, int, bool]]] = field(default_factory=dict)  # family -> [(pos, sign, negated)]
    neg_heads: list[set[str]] = field(default_factory=list)  # what each negation no antonym absorbed bears on
    negated_context: bool = False  # under a leading "Without a cache, ..." of the same sentence
    text: str = ""
    args: dict[str, set[str]] = field(default_factory=dict)  # change family -> stems next to its words
    compared: set[str] = field(default_factory=set)  # families used as "less than": a relation, not a change
    sides: dict[str, Sides] = field(default_factory=dict)  # converse family named once -> what stands either side
    subject: str | None = None  # the first word that can be an argument
    ordered: bool = False  # has a word that orders things ("then", "first", "before", "followed")

    def same_subject(self, other: Clause, family: str) -> bool:
        """Whether the two clauses' change words (increase/decrease) bear on a common word: "increase the
        speed" and "the diameter decreases" are two claims about two quantities."""
        return bool(self.args.get(family, set()) & other.args.get(family, set()))

    def mixed(self, family: str) -> bool:
        return len({s for _, s, _ in self.signs[family]}) > 1

    def family_value(self, family: str) -> int:
        occ = self.signs[family]
        signs = {s for _, s, _ in occ}
        if len(signs) == 1 and any(neg for _, _, neg in occ):
            return occ[0][1]  # "X rather than Y": one assertion stated twice
        if family in ORDERED_FAMILIES and signs == {1, -1}:
            return occ[0][1]  # both members present: the one named first gives the direction
        if family not in PRODUCT_FAMILIES and len(signs) == 1:
            return occ[0][1]  # "different materials, different solubility" says "different" once, not twice
        value = 1
        for _, s, _ in occ:
            value *= s  # "fewer micro-batches grow the bubble": the relation between the two words
        return value


def clauses(text: str) -> tuple[Clause, ...]:
    """Clauses of a text, sentence by sentence; a leading "Without X," negates the rest of its sentence.
    Cached: a target's phrasings are cut once, not once per answer (callers must not change the clauses)."""
    return _clauses(text)


@lru_cache(maxsize=8192)
def _clauses(text: str) -> tuple[Clause, ...]:
    out: list[Clause] = []
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+", normalise(text)):
        sentence = ANSWER_PARTICLE.sub("", sentence)
        toks = TOKEN.findall(sentence)
        groups: list[list[str]] = [[]]
        pair_open = False  # inside "between X and Y" / "both X and Y": the next "and" joins, not splits
        for i, tok in enumerate(toks):
            prev = toks[i - 1] if i else ""
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            boundary = tok in ",;:.!?()" or tok in CLAUSE_WORDS
            if tok == "," and is_negation(nxt):
                boundary = False  # "throughput, not speed" stays one clause
            if tok in {"and", "or"} and _same_family(prev, nxt):
                boundary = False  # "prefill and decode GPUs" is one noun phrase
            if tok == "and" and pair_open:
                boundary = pair_open = False  # "between terminal 4 and the positive terminal" is one phrase
            if boundary:
                groups.append(["not"] if tok == "unlike" else [])  # "..., unlike independent replicas" denies them
                pair_open = False
            else:
                groups[-1].append(tok)
                pair_open = pair_open or tok in PAIR_OPENERS
        groups = [g for g in groups if g]
        if toks and toks[0] in CONDITIONS and len(groups) > 1:  # "if the string is longer, the pitch is lower"
            groups[:2] = [[*groups[0], JOIN, *groups[1]]]  # the condition belongs to its claim
        groups = _merge_short(groups)
        parts = [_clause(words) for words in groups]
        lead = groups[:1]
        if lead and lead[0][0] == "without" and len(lead[0]) <= LEAD_WITHOUT_MAX and len(parts) > 1:
            for c in parts[1:]:
                c.negated_context = True
            parts = parts[1:]
        out.extend(parts)
    return tuple(out)


def _merge_short(groups: list[list[str]]) -> list[list[str]]:
    """A clause with fewer than MIN_CLAUSE_STEMS content words ("so they are replicated") joins its neighbour."""
    out: list[list[str]] = []
    carry: list[str] = []
    for words in groups:
        if sum(1 for w in words if _content(w)) < MIN_CLAUSE_STEMS and words[0] != "without":
            if out:
                out[-1] = [*out[-1], JOIN, *words]
            else:
                carry.extend([*words, JOIN])
            continue
        out.append([*carry, *words])
        carry = []
    if carry:
        out.append(carry)
    return out


def _same_family(a: str, b: str) -> bool:
    fa, fb = family_of(a), family_of(b)
    return fa is not None and fb is not None and fa[0] == fb[0]


def _content(tok: str) -> bool:
    return tok[:1].isdigit() or (
        tok not in FUNCTION_WORDS
        and tok not in COORDINATORS
        and tok not in UNITS
        and tok not in FILLER
        and is_wordlike(tok)
    )


def _clause(words: list[str]) -> Clause:
    # the text compared by embeddings leaves the negations out: it should say what the clause is about
    c = Clause(text=" ".join(w for w in words if w != JOIN and not is_negation(w)))
    absorbed: set[int] = set()  # antonym words that took a negation ("not after" = before)
    content = {stem(w) for w in words if _content(w)}
    for pos, tok in enumerate(words):
        if tok in NEGATIVE_EVALUATIVES:
            c.neg_heads.append(content)  # "X is a poor trigger" denies X as a whole
            continue
        if not is_negation(tok):
            continue
        if tok in HALT_CUES and not (pos + 1 < len(words) and words[pos + 1].endswith("ing")):
            continue  # "stops shrinking" denies shrinking; "stops at 8 GPUs" denies nothing
        # The negation bears on its head: the first content word, read past light verbs ("do not come after").
        # An antonym word as head absorbs it ("not after" = before); a bare number is a quantity contrast
        # ("0.8% instead of 3%"), which is the scorer's business, not a change of polarity.
        window = [k for k in range(pos + 1, min(len(words), pos + 1 + NEG_SCOPE)) if k not in absorbed]
        head: set[str] = set()
        for k in window:
            if words[k] in (JOIN, "then"):  # "if not, then the packet is dropped": an elliptical "not"
                break
            if family_of(words[k]) is not None:
                if all(h[:1].isdigit() for h in head):  # "not 100% independent" = dependent
                    absorbed.add(k)
                break
            if _content(words[k]):
                head.add(stem(words[k]))
                if words[k] not in LIGHT_VERBS and not words[k][:1].isdigit():
                    break
        if head and any(_universal(words, k) for k in range(pos + 2, min(len(words), pos + 1 + NEG_SCOPE))):
            head = {ALL}  # "isn't sent to every expert" denies "every", not the sending
        if any(not h[:1].isdigit() for h in head):
            c.neg_heads.append(head)
    for pos, tok in enumerate(words):
        fam = family_of(tok)
        if fam is not None:
            name, sign = fam
            negated = pos in absorbed
            c.signs.setdefault(name, []).append((pos, -sign if negated else sign, negated))
            c.stems.add(name)
            if name in PRODUCT_FAMILIES:
                c.args.setdefault(name, set()).update(_neighbours(words, pos))
                if pos + 1 < len(words) and words[pos + 1] == "than":
                    c.compared.add(name)
        elif not is_negation(tok) and tok not in NEGATIVE_EVALUATIVES and _content(tok):
            c.stems.add(stem(tok))
        elif _universal(words, pos):
            c.stems.add(ALL)
    c.ordered = any(w in ORDER_CUES for w in words)
    arguments = _argument_stems(words)
    c.subject = next((a for a in arguments if a is not None and a != JOIN), None)
    for name in CONVERSE_FAMILIES & c.signs.keys():
        if len(c.signs[name]) == 1 and words[c.signs[name][0][0]] in RELATION_WORDS:
            c.sides[name] = sides(arguments, c.signs[name][0][0])
    return c


def _universal(words: list[str], k: int) -> bool:
    return words[k] in UNIVERSALS and not (k and words[k - 1] == "at")  # "not forwarding it at all" is emphasis


def _argument_stems(words: list[str]) -> list[str | None]:
    """Each token's stem if it can be what a relation relates (a content word, not a polar one), else None."""
    return [JOIN if w == JOIN else stem(w) if _content(w) and family_of(w) is None and not is_negation(w) else None
            for w in words]


def _neighbours(words: list[str], pos: int) -> set[str]:
    """The nearest content word (not a number, not another polar word) on each side of `words[pos]`, within
    ARG_WINDOW tokens and the same clause part: what a change word is about."""
    out: set[str] = set()
    for step in (-1, 1):
        k = pos + step
        while 0 <= k < len(words) and abs(k - pos) <= ARG_WINDOW and words[k] != JOIN:
            w = words[k]
            if _content(w) and not w[:1].isdigit() and family_of(w) is None and not is_negation(w):
                out.add(stem(w))
                break
            k += step
    return out


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
    shared = a.stems & b.stems
    small = min(len(a.stems), len(b.stems))
    if len(shared) < NEG_MIN_SHARED or small == 0 or len(shared) / small < NEG_MIN_OVERLAP:
        return 0
    families = {f for f in shared & a.signs.keys() & b.signs.keys() if _comparable(f, a, b)}
    claim = {s for s in shared - topic if not s[:1].isdigit()}  # "instead of the 8 KV heads" is about KV, not 8
    neg_a = sum(1 for head in a.neg_heads if head & claim)
    neg_b = sum(1 for head in b.neg_heads if head & claim)
    if max(neg_a, neg_b) > 1:
        return 0  # "no flow control, no connect or disconnect": negated items of a list, not a double negation
    properties = families - ENTITY_FAMILIES
    orders = {f for f in families & ORDERED_FAMILIES if a.mixed(f)}
    if not (properties or orders or neg_a or neg_b or len(families) >= 2):
        return 0
    if properties and not orders and not neg_a + neg_b and len(shared) / len(a.stems | b.stems) < PROPERTY_JACCARD:
        return 0  # "the KV cache grows with the sequence" vs "GQA shrinks the cache": two claims about the cache
    if _negation_alone(families, topic, a, b, neg_a, neg_b) and min(len(a.stems), len(b.stems)) < NEG_ONLY_MIN_STEMS:
        return 0  # "a deep copy instead of a shallow copy" does not deny the fragment "(a shallow copy)"
    negating = a if neg_a else b
    wide = bool(negating.stems - (b if negating is a else a).stems)
    if not (properties or orders) and (
        len(shared) / len(a.stems | b.stems) < (NEG_ONLY_JACCARD_WIDE if wide else NEG_ONLY_JACCARD)
        or min(len(a.stems), len(b.stems)) < NEG_ONLY_MIN_STEMS
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
    swapped = any(f in a.sides and f in b.sides and orientation(a.sides[f], b.sides[f]) < 0 for f in families)
    if swapped and a.subject not in b.stems and b.subject not in a.stems:
        return 0  # "postorder visits children before the parent" vs "preorder visits a node before its children"
    fa, fb = _family_values(families, a, b)
    va, vb = va * fa, vb * fb
    if va != vb and families & PRODUCT_FAMILIES and (a.signs.keys() | b.signs.keys()) & PRODUCT_FAMILIES - families:
        # a relation with a term the other side lacks or says of something else: "learning is slow" (said of a
        # small rate) does not deny "a larger rate speeds up learning"
        return 0
    return 1 if va == vb else -1


def _negation_alone(families: set[str], topic: frozenset[str], a: Clause, b: Clause, neg_a: int, neg_b: int) -> bool:
    """Whether only a bare negation sets the clauses apart: the polar words they share are the question's own
    and agree (asked about a copy constructor, "a deep copy instead of a shallow copy" denies "shallow", not
    "copy"). Such a negation needs a claim to deny, not a fragment."""
    if not families <= topic or (neg_a + a.negated_context) % 2 == (neg_b + b.negated_context) % 2:
        return False
    va, vb = _family_values(families, a, b)
    return va == vb


def _family_values(families: set[str], a: Clause, b: Clause) -> tuple[int, int]:
    """The product of each clause's signs over the families; a converse word ("after" for "before") counts with
    the orientation of its arguments: "A before B" and "B after A" agree."""
    va = vb = 1
    for fam in families:
        va *= a.family_value(fam)
        vb *= b.family_value(fam)
        if fam in a.sides and fam in b.sides:
            vb *= orientation(a.sides[fam], b.sides[fam])
    return va, vb


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


@lru_cache(maxsize=4096)
def topic_stems(question: str) -> frozenset[str]:
    """Stems of the question, in the same normal form as clause stems."""
    out: set[str] = set()
    for c in clauses(question):
        out |= c.stems
    return frozenset(out)
