"""Clauses as the negation guard reads them: each text is cut into clauses; in a clause, words of an antonym
family (increase/decrease, column/row, prefill/decode, compute-/memory-bound...) map to the family's name with a
sign, and a negation cue ("not", "never", "no", "without", "rather than") flips the next antonym word in its scope
or, if there is none, bears on the clause's next content word. What a clause leaves open is marked, not read as a
claim: a condition inside a sentence, the alternatives of an "or", a change said of something held constant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from coach.grading.guards.lexical import COORDINATORS, FUNCTION_WORDS, UNITS, is_wordlike, stem
from coach.grading.guards.negation_words import (
    ANSWER_PARTICLE,
    CLAUSE_WORDS,
    COMPARATIVES,
    CONDITIONS,
    CONVERSE_FAMILIES,
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
    STATEMENT_OPENERS,
    STEADY,
    TOKEN,
    family_of,
    is_negation,
    normalise,
)
from coach.grading.guards.relation import Sides, sides

NEG_SCOPE = 5  # tokens after a negation cue in which an antonym word absorbs the negation
UNIVERSALS, ALL = frozenset({"every", "all"}), "<all>"  # a quantifier a negation can bear on, and its stem
MIN_CLAUSE_STEMS = 2
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
    options: set[str] = field(default_factory=set)  # the words either side of an "or": alternatives, not claims
    hypothetical: bool = False  # a condition inside a sentence ("..., if the replicas are equal")

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
            adjunct = (tok == "without" and nxt.endswith("ing") and bool(groups[-1])) or (tok == "if" and i > 0)
            # "peek reads the top without removing it": the manner is a claim apart from the reading;
            # "it only works if replicas are equal": the condition is no claim at all
            if tok == "," and nxt in {"not", "no", "never"}:
                boundary = False  # "throughput, not speed" stays one clause ("..., nothing X does" is a new one)
            if tok in {"and", "or"} and _same_family(prev, nxt):
                boundary = False  # "prefill and decode GPUs" is one noun phrase
            if tok == "and" and pair_open:
                boundary = pair_open = False  # "between terminal 4 and the positive terminal" is one phrase
            if adjunct:
                groups.append([tok])
                pair_open = False
            elif boundary:
                # "..., unlike independent replicas" denies them; "because"/"but" open a statement (kept as a mark)
                groups.append(["not"] if tok == "unlike" else [tok] if tok in STATEMENT_OPENERS else [])
                pair_open = False
            else:
                groups[-1].append(tok)
                pair_open = pair_open or tok in PAIR_OPENERS
        groups = [g for g in groups if g]
        if toks and toks[0] in CONDITIONS and len(groups) > 1 and groups[1][0] not in STATEMENT_OPENERS:
            # "if the string is longer, the pitch is lower"
            groups[:2] = [[*groups[0], JOIN, *groups[1]]]  # the condition belongs to its claim
        for k in range(len(groups) - 2, -1, -1):
            if _correlative(groups[k]) and _correlative(groups[k + 1]):
                # "the closer the effort is, the more force it takes": one claim relating two quantities
                groups[k:k + 2] = [[*groups[k], JOIN, *groups[k + 1]]]
        groups = _merge_short(groups)
        parts = [_clause(words) for words in groups]
        lead = groups[:1]
        if lead and lead[0][0] == "without" and len(lead[0]) <= LEAD_WITHOUT_MAX and len(parts) > 1:
            for words, c in zip(groups[1:], parts[1:], strict=True):
                if words[0] in STATEMENT_OPENERS:
                    break  # "Without chunking, X takes long, because attention grows": the reason is a fact
                c.negated_context = True
            parts = parts[1:]
        out.extend(parts)
    return tuple(out)


def _merge_short(groups: list[list[str]]) -> list[list[str]]:
    """A clause with fewer than MIN_CLAUSE_STEMS content words ("so they are replicated") joins its neighbour."""
    out: list[list[str]] = []
    carry: list[str] = []
    for words in groups:
        # a "without ..." or "since ..." clause stays apart: merged, it lends its words to another claim
        if (sum(1 for w in words if _content(w)) < MIN_CLAUSE_STEMS and words[0] != "without"
                and words[0] not in STATEMENT_OPENERS):
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


def _correlative(words: list[str]) -> bool:
    """A "the more ..." / "the closer ..." half of a correlative comparative."""
    fam = family_of(words[1]) if len(words) > 1 and words[0] == "the" else None
    return fam is not None and fam[0] in PRODUCT_FAMILIES


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
    for pos, tok in enumerate(words):
        if tok in NEGATIVE_EVALUATIVES:
            c.neg_heads.append(_part_stems(words, pos))  # "X is a poor trigger" denies X as a whole
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
    c.hypothetical = words[0] == "if"
    if any(w in STEADY for w in words):
        for name in PRODUCT_FAMILIES & c.signs.keys():  # "keeps the work constant as the context grows"
            del c.signs[name]
            c.stems.discard(name)
    c.options = {o for k, w in enumerate(words) if w == "or" for o in _neighbours(words, k)}
    arguments = _argument_stems(words)
    c.subject = next((a for a in arguments if a is not None and a != JOIN), None)
    for name in CONVERSE_FAMILIES & c.signs.keys():
        if len(c.signs[name]) == 1 and words[c.signs[name][0][0]] in RELATION_WORDS:
            c.sides[name] = sides(arguments, c.signs[name][0][0])
    return c


def _part_stems(words: list[str], pos: int) -> set[str]:
    """Content stems of the part of a merged clause that holds `words[pos]` (parts meet at JOIN)."""
    start = max((k + 1 for k in range(pos) if words[k] == JOIN), default=0)
    end = next((k for k in range(pos, len(words)) if words[k] == JOIN), len(words))
    return {stem(w) for w in words[start:end] if _content(w)}


def _universal(words: list[str], k: int) -> bool:
    return words[k] in UNIVERSALS and not (k and words[k - 1] == "at")  # "not forwarding it at all" is emphasis


def _argument_stems(words: list[str]) -> list[str | None]:
    """Each token's stem if it can be what a relation relates (a content word, not a polar one), else None. A
    comparative stands for its adjective: "shorter jobs before longer ones" relates short and long jobs."""
    return [JOIN if w == JOIN else stem(COMPARATIVES.get(w, w)) if w in COMPARATIVES
            else stem(w) if _content(w) and family_of(w) is None and not is_negation(w) else None for w in words]


def _neighbours(words: list[str], pos: int) -> set[str]:
    """The nearest content word (not a number, not another polar word) on each side of `words[pos]`, within
    ARG_WINDOW tokens and the same clause part: what a change word is about. A unit right beside it counts:
    "fewer tokens" is about tokens, not about the next noun."""
    out: set[str] = set()
    for step in (-1, 1):
        k = pos + step
        while 0 <= k < len(words) and abs(k - pos) <= ARG_WINDOW and words[k] != JOIN:
            w = words[k]
            if (k == pos + 1 and w in UNITS) or (
                    _content(w) and not w[:1].isdigit() and family_of(w) is None and not is_negation(w)):
                out.add(stem(w))
                break
            k += step
    return out
