"""Lexical signals for the anti-gaming guards: function words, term lists, non-words and language.

Everything here is plain string work (no model): the embedding-based checks live in `assess.py`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache


def _words(text: str) -> list[str]:
    return text.split()


# Function words of English. Coordinators ("and", "or", "plus") are kept apart: a term list glued with
# "and" is still a term list, so they do not count as relating words.
FUNCTION_WORDS = frozenset(_words("""
a about above across after again against all almost along also although always am among an another any are
around as at be because been before being below between both but by can cannot could did do does doing done
down during each either enough even ever every few for from further had has have having he her here hers him
his how however i if in into is it its itself just least less like may me might mine more most much must my
near neither never no nor not now of off often on once one only onto other otherwise our out over own per
rather same several shall she should since so some such than that the their theirs them then there therefore
these they this those though through thus till to too toward towards under unless until up upon us very via
was we were what whatever when where whereas whether which while who whom whose why will with within without
would yet you your get gets got need needs needed make makes made take takes let lets keep keeps stay stays
"""))
COORDINATORS = frozenset({"and", "or", "plus", "&", "vs", "versus"})


def _verb_forms(bases: str, irregular: str) -> frozenset[str]:
    out = set(_words(irregular))
    for v in _words(bases):
        if v.endswith("y") and v[-2] not in "aeiou":  # carry: carries, carried, carrying
            out |= {v, v[:-1] + "ies", v[:-1] + "ied", v + "ing"}
            continue
        stem_ = v[:-1] if v.endswith("e") else v
        out |= {v, v + ("es" if v.endswith(("s", "sh", "ch", "x")) else "s"), stem_ + "ed", stem_ + "ing"}
    return frozenset(out)


# Verbs that relate two terms in technical prose ("duplicates waste processing power and consume storage"):
# they count as relating words in `list_stats` in segments longer than a term, and in a short one only with a
# word after them ("TP splits matrices"), since many are nouns too ("row split", "memory cost"). Not in
# FUNCTION_WORDS: the negation reader treats those as empty.
RELATING_VERBS = _verb_forms(
    "reduce increase decrease lower raise waste consume cause lead allow prevent require use send receive store "
    "contain depend provide create avoid ensure enable improve limit determine produce transmit forward move "
    "compute hold carry share reach block drop lose delay detect assign return mean cost save fill exceed add "
    "remove replace copy map hide overlap slow speed govern dominate grow shrink fit scale halve double stall pass "
    "route serve need change sync join leave keep stay wait start finish arrive",
    "sent held led lost ran wrote written read reads meant split splits hid hidden dropped dropping mapped "
    "mapping set sets setting cut cuts cutting run runs running",
)
# Extra words counted as English when guessing the language (common verbs of technical prose).
ENGLISH_EXTRA = frozenset({"and", "or", "is", "are", "the", "of", "to", "it", "that", "this", "which", "each",
                           "uses", "used", "sends", "moves", "reads", "splits", "split"})

# Stopwords of the languages a candidate is most likely to switch to. Words that are also English are left out.
FOREIGN_STOPWORDS: dict[str, frozenset[str]] = {
    "fr": frozenset(_words("le la les des du un une et est sont pour par avec dans sur que qui pas ne plus donc car "
                    "ce cette ces il elle ils au aux entre chaque fait deux aussi mais ou très être leur")),
    "es": frozenset(_words("el la los las del un una y es son para por con en que no más pero como cada entre "
                    "porque así sí solo también su sus se lo al muy hace dos")),
    "de": frozenset(_words("der die das den dem des ein eine einer und ist sind für mit von zu auf nicht auch wird "
                    "werden bei pro nur oder über etwa weil jede jeder zwei sich es")),
    "it": frozenset(_words("il lo la gli le di del della un una e è sono per con che non più ma come ogni tra "
                    "perché quindi solo anche dal dalla deve")),
    "pt": frozenset(_words("o os as do da dos das um uma e é são para por com em que não mais mas como cada entre "
                    "porque então só também seu sua ao pelo pela")),
    "nl": frozenset(_words("de het een en is zijn voor met van op dat niet ook wordt bij alleen maar omdat elke "
                    "twee")),
}

# Units are repeated by any quantitative answer ("812 GB, 101 GB per GPU..."): not evidence of stuffing.
UNITS = frozenset({"gb", "mb", "kb", "tb", "gib", "mib", "kib", "ms", "us", "persec", "gbps", "x", "b", "bytes",
                   "tok", "tokens"})
# Words that fill a restated question without adding anything ("X is something, for a reason").
VAGUE_WORDS = frozenset({"something", "somehow", "thing", "things", "certain", "reason", "reasons", "way", "ways",
                         "stuff", "matter", "matters", "factor", "factors", "happens", "happen", "aspect",
                         "various", "relevant", "appropriate", "needed", "important", "depends", "depending"})

_TOKEN = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*", re.UNICODE)
STEM_LEN = 6


@lru_cache(maxsize=1 << 14)  # pure; each guard asks again for the same answer's words
def tokens(text: str) -> tuple[str, ...]:
    """Lower-cased word tokens (unicode letters and digits; hyphenated words stay whole)."""
    return tuple(t.lower() for t in _TOKEN.findall(text))


def is_number(tok: str) -> bool:
    """Numbers and quantities ("320", "8x", "400g", "2s")."""
    return tok[:1].isdigit()


@lru_cache(maxsize=1 << 16)  # pure, and called for every token of every answer
def is_wordlike(tok: str) -> bool:
    """A token that carries language (not a number, not a lone letter)."""
    return any(ch.isalpha() for ch in tok) and len(tok) > 1


def stem(tok: str) -> str:
    return tok.replace("-", "")[:STEM_LEN]


@lru_cache(maxsize=1 << 16)
def base_form(tok: str) -> str:
    """The word without its inflection, then cut to a stem: "orders", "ordered", "ordering" and "order" meet, as
    do "comes" and "come" (a prefix alone keeps "orders" and "ordering" apart)."""
    w = tok.replace("-", "")
    if len(w) > 4 and w.isalpha():
        if w.endswith("ies"):
            w = w[:-3] + "y"
        elif (w.endswith("ing") and len(w) >= 6) or w.endswith("ed"):
            w = w[:-3] if w.endswith("ing") else w[:-2]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "ls":
                w = w[:-1]  # running -> run, but not called -> cal
        elif w.endswith("es") and (w[-3] in "sxz" or w[-4:-2] in ("ch", "sh")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
    return w[:STEM_LEN]


@lru_cache(maxsize=4096)
def base_forms(text: str) -> frozenset[str]:
    return frozenset(
        base_form(t) for t in tokens(text) if t not in FUNCTION_WORDS and t not in COORDINATORS and is_wordlike(t)
    )


@lru_cache(maxsize=4096)  # target texts are asked for once per answer
def content_stems(text: str) -> frozenset[str]:
    return frozenset(
        stem(t) for t in tokens(text) if t not in FUNCTION_WORDS and t not in COORDINATORS and is_wordlike(t)
    )


@dataclass(frozen=True)
class ListStats:
    words: int  # word-like tokens
    function_ratio: float  # relating words (function words, relating verbs) / word-like tokens
    term_segments: int  # comma/newline separated segments that are bare terms
    term_words: int  # the words in those segments
    segments: int
    top_repeat: int  # occurrences of the most repeated content token
    repeat_share: float  # that count / content tokens


# A symbol beside a term defines it ("$x_i$ input i", "w_ji weight from i to j"): a glossary, not a term list.
_NOTATION = re.compile(r"\$|\\[a-z]+|\b[a-z]_\{?\w")


def _list_words(text: str) -> list[str]:
    # the article "a" is a lone letter but relates words like "the" does: "a RBM is a two layer network"
    return [t for t in tokens(text) if is_wordlike(t) or t == "a"]


# Code and formulas: an operator between two operands, or a name applied to arguments. A hyphen counts only
# spaced ("n - 1": "memory-bound" is a word), a slash only spaced or before a number ("TB/s" is a unit).
FORMULA_OPERATIONS = 2  # operations that make a text code or a formula rather than words
OPERATION = re.compile(
    r"[\w\])]\s*(?:==|!=|<=|>=|->|\+\+|\+=|-=|[+*^%<>=∧∨≡⊕↔≠≤≥∈∪∩]|\s[-/]\s|/(?=\s*[\d(]))\s*[\w(\[$\\&*¬]"
    r"|\b[A-Za-z_]\w*\((?=[^()]*\))"
)


def is_formula(text: str) -> bool:
    """Code or a formula: at least FORMULA_OPERATIONS operations ("alpha = n/m", "a[i] += x")."""
    return len(OPERATION.findall(text)) >= FORMULA_OPERATIONS


LIST_TERM_WORDS = 3  # a list item of up to this many words is a term
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_RELATION_SYMBOLS = re.compile(r"[=≠≈<>≤≥→←⇒]")


@lru_cache(maxsize=4096)  # pure; the stuffing check asks twice for the same text
def list_stats(text: str) -> ListStats:
    toks = _list_words(text)
    fw = sum(1 for t in toks if t in FUNCTION_WORDS)
    # a comma inside brackets separates arguments, not items: "(Bob,3) (Ann,1)", "f(a, b)"
    flat = _BRACKETED.sub(lambda m: m.group(0).replace(",", " "), text)
    segs = [s for s in re.split(r"[,;\n|•]+", flat) if s.strip()]
    term_segs = term_words = 0
    for seg in segs:
        st = _list_words(seg)
        if len(st) > LIST_TERM_WORDS:  # a clause, where a verb relates ("reduce bandwidth"), not a term ("row split")
            fw += sum(1 for t in st if t in RELATING_VERBS)
            continue
        # a short item relates too when a verb has an object after it ("TP splits matrices", "cuts latency"); last,
        # the word is more likely a noun ("row split", "memory cost")
        verbs = sum(1 for t in st[:-1] if t in RELATING_VERBS)
        fw += verbs
        if st and not verbs and not any(t in FUNCTION_WORDS for t in st) and not _NOTATION.search(seg):
            term_segs += 1
            term_words += len(st)
    fw += len(_RELATION_SYMBOLS.findall(text))  # "equal counts ≠ equal tokens"
    content = [t for t in toks if t not in FUNCTION_WORDS and t not in COORDINATORS and t not in UNITS]
    counts = Counter(content)
    top = max(counts.values()) if counts else 0
    return ListStats(
        words=len(toks), function_ratio=fw / len(toks) if toks else 0.0, term_segments=term_segs, term_words=term_words,
        segments=len(segs), top_repeat=top, repeat_share=top / len(content) if content else 0.0,
    )


@dataclass(frozen=True)
class LanguageStats:
    non_latin_ratio: float  # letters outside the Latin script / all letters
    english_hits: int
    foreign_hits: int
    foreign_language: str | None


def language_stats(text: str) -> LanguageStats:
    letters = [ch for ch in text if ch.isalpha()]
    non_latin = sum(1 for ch in letters if not unicodedata.name(ch, "LATIN").startswith("LATIN"))
    toks = tokens(text)
    en = sum(1 for t in toks if t in FUNCTION_WORDS or t in ENGLISH_EXTRA)
    best_lang, best = None, 0
    for lang, words in FOREIGN_STOPWORDS.items():
        # one letter is as often a variable or big-O ("O(n)", "edge e") as an article: it is not counted
        hits = sum(1 for t in toks if len(t) > 1 and t in words and t not in FUNCTION_WORDS)
        if hits > best:
            best_lang, best = lang, hits
    # accented letters are strong evidence of a Romance/Germanic language in running prose
    accents = sum(1 for ch in letters if ch in "àâäáãçéèêëíìîïñóòôöõúùûüßœ")
    return LanguageStats(
        non_latin_ratio=non_latin / len(letters) if letters else 0.0,
        english_hits=en, foreign_hits=best + accents // 2, foreign_language=best_lang,
    )
