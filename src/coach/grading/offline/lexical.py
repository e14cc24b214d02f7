"""Word-level helpers for the offline grader: a fixed stoplist, a light stemmer and content-word sets.

Weights come from this fixed list and from the question/reference only, never from other answers, so an
answer's grade cannot depend on which other answers are graded with it.
"""

from __future__ import annotations

import re
from functools import lru_cache

_STOP_TEXT = """
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing done down during each either etc even ever every few for from further
had has have having he her here hers herself him himself his how however i if in into is it its itself just
let may me might more most much must my myself neither no nor not now of off often on once only or other ought
our ours ourselves out over own per rather same shall she should since so some such than that the their theirs
them themselves then there these they this those though through thus to too under until up upon us very via
was we were what whatever when where whether which while who whom whose why will with within without would yet
you your yours yourself yourselves one ones thing things something way ways get gets got use used uses using
make makes made like e g ie eg i.e e.g say says said
"""
STOPWORDS = frozenset(_STOP_TEXT.split())

# Words that carry the polarity of a statement; never treated as stopwords when checking for negation.
_NEG_TEXT = "no not never none nothing neither nor cannot cant don't doesn't isn't aren't wasn't won't without n't"
NEGATIONS = frozenset(_NEG_TEXT.split())

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SUFFIXES = ("ational", "ization", "fulness", "iveness", "ations", "nesses", "ments", "ation", "ities", "ingly",
             "ement", "ness", "ment", "able", "ible", "ings", "ives", "ing", "ity", "ies", "ive", "ed", "es", "ly",
             "er", "al", "s")


@lru_cache(maxsize=50000)
def stem(word: str) -> str:
    """A deliberately light suffix stripper: enough to match 'allocates' with 'allocation', no more."""
    w = word.lower()
    if len(w) <= 3 or w.isdigit():
        return w
    for suf in _SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            break
    if len(w) > 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # running -> runn -> run
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def is_content(word: str) -> bool:
    return word not in STOPWORDS and (len(word) > 1 or word.isdigit())


def content_stems(text: str) -> list[str]:
    return [stem(w) for w in tokens(text) if is_content(w)]


def content_set(text: str) -> frozenset[str]:
    return frozenset(content_stems(text))
