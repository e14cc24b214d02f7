"""Keyword stuffing: when an answer is a bare list of terms rather than claims that relate them.

A list is the answer when the question asks for one ("Name the 3 ...", "What operations does a stack
support?") or when each term is tied by a colon to a thing the question names ("TP: ...; EP: ..."). Otherwise a
text poor in relating words (function words, verbs, relation symbols), or made of short bare items, or repeating
one term, is a term list; a calculation or code is not.
"""

from __future__ import annotations

import re
from functools import lru_cache

from coach.grading.guards.lexical import content_stems, is_formula, list_stats

STUFF_MIN_WORDS = 6
STUFF_FUNCTION_RATIO = 0.12  # relating words (of, is, the, because...) per word; prose is ~0.3-0.5
STUFF_TERM_SEGMENTS = 4
STUFF_TERM_SEGMENT_SHARE = 0.7
STUFF_TERM_WORD_SHARE = 0.5  # ... holding this share of the words ("it's SYN, SYN-ACK, ACK, and its point is ...")
STUFF_REPEAT = 4
STUFF_REPEAT_SHARE = 0.3
STUFF_REPEAT_FUNCTION_RATIO = 0.2  # repetition counts only in text this poor in relating words
STUFF_ARITHMETIC_EXEMPT = 2  # operators (x, ·, =, ≈, →, vs) that make a text a calculation, not a list
STUFF_LIST_SENTENCE_WORDS = 8  # a sentence this long that is a bare term list is stripped from a longer answer
STUFF_SENTENCE_FUNCTION_RATIO = 0.06  # ... judged stricter: terse prose ("ESN provides structure for RNNs") is no list

# Operators and comparisons that relate quantities: a calculation or a terse comparison, not a term list.
_ARITHMETIC = re.compile(r"\s[x×·*/]\s|[·×=≈~→<>≤≥]|\bvs\b|\d\s?x\b|\d/\d|\s/\s")


def is_term_list(text: str, function_ratio: float = STUFF_FUNCTION_RATIO) -> bool:
    st = list_stats(text)
    if st.words < STUFF_MIN_WORDS or len(_ARITHMETIC.findall(text)) >= STUFF_ARITHMETIC_EXEMPT or is_formula(text):
        return False  # a worked calculation ("2 x 80 layers x 8 KV heads x ...") or a formula is no term list
    if st.function_ratio <= function_ratio:
        return True
    if (st.segments >= STUFF_TERM_SEGMENTS and st.term_segments / st.segments >= STUFF_TERM_SEGMENT_SHARE
            and st.term_words >= STUFF_TERM_WORD_SHARE * st.words):
        return True
    return (st.top_repeat >= STUFF_REPEAT and st.repeat_share >= STUFF_REPEAT_SHARE
            and st.function_ratio <= STUFF_REPEAT_FUNCTION_RATIO)


# "Name the 3 service classes", "State at least 4 differences", "List the phases", "Discuss 3 methods", "What
# are the main advantages of X?", "Write down all reserved addresses", "Write it in pseudo code": a list (or
# terse code lines) is the answer asked for.
# "list" the verb, not the noun: "What is a linked list?" asks for an explanation.
_ASKS_FOR_LIST = re.compile(
    r"(?:^|[.?!:]\s+)(?:please\s+)?(?:list|enumerate)\b|\bat least (?:\d+|two|three|four|five)\b"
    r"|\b(?:name|state|give|mention|identify|list|discuss|describe|explain|compare)\s+(?:the\s+)?"
    r"(?:\d+|two|three|four|five|six|several)\b|\bwrite[\s-]+down\b"
    r"|\bpseudo[\s-]?code\b|\b(?:what|which)\s+are\s+(?:the\s+)?(?:\d+|two|three|four|five|six)\b"
    r"|\b(?:what|which)\s+are\s+(?:the\s+)?(?:\w+\s+){0,2}(?:advantages|disadvantages|benefits|drawbacks|"
    r"types|kinds|steps|stages|phases|components|properties|characteristics|operations|examples)\b"
    # "What operations does a stack support?", "Which tensors does TP shard?": a plural asked for. The verb after
    # it says it is a noun ("which parallelism needs" is not); no "-ing" word before it ("what adding replicas
    # does"), and not "axis", "bus", "class".
    r"|\b(?:what|which)\s+(?:[a-z-]+(?<!ing)\s+)?[a-z-]{2,}[^siu\W]s\s+(?:does|do|did|can|could|should|must|will|"
    r"would|are|were|have)\b",
    re.IGNORECASE,
)


def asks_for_list(question: str) -> bool:
    return _ASKS_FOR_LIST.search(question) is not None


# "stack: automatic, local variables; heap: dynamic, new/delete": each term tied to a thing the question names
_LABEL = re.compile(r"(?:^|[;.\n]\s*)([A-Za-z][\w\- ]{0,30}?)\s*:\s")


@lru_cache(maxsize=4096)  # one question, many answers
def _names_in(question: str) -> tuple[frozenset[str], frozenset[str]]:
    """The question's content stems, and the initials of its runs of two or three words ("tp" for "tensor
    parallelism")."""
    words = re.findall(r"[a-z]+", question.lower())
    initials = {"".join(w[0] for w in words[i:i + n]) for n in (2, 3) for i in range(len(words) - n + 1)}
    return content_stems(question), frozenset(initials)


def is_labelled_contrast(text: str, question: str) -> bool:
    """Whether the answer sets out two or more things the question names, each with its terms after a colon: the
    colon relates them, so it is a terse contrast, not a list of terms."""
    asked, initials = _names_in(question)
    named: set[frozenset[str]] = set()  # the things named, not the labels: "hop 1:", "hop 2:" name one
    for m in _LABEL.finditer(text):
        label = m.group(1).strip().lower()
        stems = content_stems(label)
        if stems and stems <= asked:
            named.add(stems)
        elif label in initials:
            named.add(frozenset({label}))
    return len(named) >= 2  # "TP: ..., EP: ..." names "tensor parallelism" and "expert parallelism"


