"""The words the negation guard reads: phrase rewrites, antonym families, negation cues, clause boundaries, and
the small functions that apply them to a word or a text (normalise, family_of, is_negation, phrase_matches).

Kept apart from the clause logic in negation.py so that vocabulary changes are reviewed as such.
"""

from __future__ import annotations

import re
from functools import lru_cache

PHRASES: tuple[tuple[str, str], ...] = (
    (r"\bone after (?:the )?(?:an)?other\b|\bin (?:series|sequence)\b|\bback[- ]to[- ]back\b", " sequentially "),
    (r"\bat the same time\b|\bsimultaneously\b|\bconcurrently\b|\bin parallel\b", " concurrently "),
    (r"\bcompute[\s-]*(?:bound|limited)\b|\bflops?[\s-]*bound\b", " compute-bound "),
    (
        r"\bmemory[\s-]*(?:bandwidth[\s-]*)?(?:bound|limited)\b|\bhbm[\s-]*bound\b|\bmemory[\s-]access[\s-]bound\b",
        " memory-bound ",
    ),
    (r"\bbandwidth[\s-]*(?:bound|dominated|limited)\b", " bandwidth-bound "),
    (r"\bspeed\s+of\b", " pace of "),  # the noun names a quantity ("controls the speed of convergence"), not "fast"
    (r"\blatency[\s-]*(?:bound|dominated|limited)\b", " latency-bound "),
    (r"\b(?:in )?each (?:way|direction)\b|\bper[\s-]direction\b|\bone way\b", " perdirection "),
    (r"\bbi-?directional\b|\bduplex\b|\bbidir\b", " bidirectional "),
    (r"\bper second\b|\b/\s?s\b", " persec "),
    (r"\bwhether or not\b", " whether "),
    (r"\brather than\b|\binstead of\b|\bas opposed to\b|\bno longer\b|\bno need to\b|\bfails? to\b", " not "),
    (r"\bintra[\s-]?node\b", " within node "),
    (r"\binter[\s-]?node\b", " across node "),
    (r"\blast[\s-]+in,?[\s-]+first[\s-]+out\b", " lifo "),
    (r"\bfirst[\s-]+in,?[\s-]+first[\s-]+out\b", " fifo "),
    (r"\bby[\s-]+value\b", " byvalue "),  # the two ways to pass a parameter, named apart from "values"
    (r"\bby[\s-]+reference\b", " byreference "),
    # "further" as distance only ("goes further", "further from"); "further reduces" means "also reduces"
    (r"\bfurther(?=\s+(?:from|away|out)\b)|(?<=\bgoes )further\b|(?<=\bgo )further\b|(?<=\btravels )further\b",
     "farther"),
    (r"\btime[\s-]+to[\s-]+(?:the[\s-]+)?first[\s-]+token\b", " ttft "),  # the two latency metrics, named apart
    (r"\btime[\s-]+per[\s-]+output[\s-]+token\b|\binter[\s-]?token[\s-]+latency\b|\bitl\b|\btbt\b", " tpot "),
    (r"\btensor[\s-]*parallel(?:ism)?\b", " tp "),
    (r"\bpipeline[\s-]*parallel(?:ism)?\b", " pp "),
    (r"\bdoes\s+not\b|\bdo\s+not\b|\bdid\s+not\b", " not "),
    (r"\s*(?:->|→|=>|⇒)\s*", " so "),  # "negative edge -> shorter path found later": a consequence, a new clause
    (r"\s[-–—]+\s", " , "),
)

# family name -> (words with sign +1, words with sign -1), as full-token regexes
FAMILIES: dict[str, tuple[str, str]] = {
    "up": (
        r"increas\w*|grow\w*|grew|rises?|rising|rose|raises?|raising|more|higher|larger|bigger|greater|longer|"
        r"doubles?|doubling|twice|exceeds?|overstates?|farther|farthest",
        r"decreas\w*|reduc\w*|shrinks?|shrinking|shrank|cuts?|cutting|lowers|lowered|lowering|drops?|"
        r"falls?|fell|halves|halved|halving|less|fewer|lower|smaller|saves?|saving|removes?|removing|"
        r"eliminat\w*|understates?|shorter|closer|nearer",
    ),
    "faster": (r"faster|quicker|speeds?|speed-up|speedup|accelerat\w*", r"slower|slows?|delays?|stalls?"),
    "before": (r"before|earlier|precedes?|preceding", r"after|afterwards|later|follows?|following"),
    "first": (r"first|1st", r"second|2nd"),
    "column": (r"columns?|column-\w+|col", r"rows?|row-\w+"),
    "prefill": (r"prefill\w*|pre-fill\w*|prompt-processing", r"decod\w*"),
    "compute-bound": (r"compute-bound", r"memory-bound"),
    "latency-bound": (r"latency-bound", r"bandwidth-bound"),
    "latency": (r"latency|latencies", r"throughput|goodput"),
    "ttft": (r"ttfts?", r"tpots?"),
    "sequential": (r"sequential\w*|serial\w*|serialized", r"concurrently|parallel|overlap\w*"),
    "within": (r"within|inside|intra", r"across"),
    "tp": (r"tp|tp\d+|tensor", r"pp|pp\d+|pipeline"),
    "bidirectional": (r"bidirectional", r"perdirection"),
    "symmetric": (r"symmetric\w*", r"asymmetric\w*"),
    "independent": (r"independent\w*", r"dependent|depends?|depending"),
    "replicated": (r"replicat\w*|duplicat\w*|copied|copies|copy", r"shard\w*|partition\w*"),
    "same": (r"same|identical|equal\w*|uniform\w*", r"different|differs?|differing|vary|varies|unequal\w*"),
    "left": (r"left|leftmost", r"right|rightmost"),
    "lifo": (r"lifo", r"fifo"),
    "byvalue": (r"byvalue", r"byreference"),
}
ORDERED_FAMILIES = frozenset({"column", "first", "prefill", "before"})
# Words that order what a clause names: only with one does the order of an ordered family's members count.
ORDER_CUES = frozenset({"then", "first", "second", "before", "after", "followed", "follows", "follow",
                        "precedes", "preceded", "precede", "next", "finally", "sequentially"})
# Comparatives as the arguments of an order word: "shorter jobs run before longer ones"
COMPARATIVES = {w + "er": w for w in ("long", "short", "small", "high", "low", "great", "fast", "slow", "quick")}
COMPARATIVES |= {"larger": "large", "bigger": "big"}
# Families whose two words are converses: "A before B" says what "B after A" says.
CONVERSE_FAMILIES = frozenset({"before"})
# ... when the word relates two things (not "later elements", "the following step")
RELATION_WORDS = frozenset({"before", "after", "precede", "precedes", "preceded", "follow", "follows",
                            "followed"})
# Families whose words combine by sign: "fewer micro-batches grow the bubble" relates two quantities.
PRODUCT_FAMILIES = frozenset({"up", "faster"})
# Families that name what a clause is about rather than what it says about it.
ENTITY_FAMILIES = frozenset({"prefill", "tp", "first", "column", "latency", "left", "byvalue", "ttft"})
PAIR_OPENERS = frozenset({"between", "both"})  # their "and" joins two nouns: "between X and Y"
JOIN = "|"  # where a short clause was merged into its neighbour: negation scope stops here
LIGHT_VERBS = frozenset(
    {
        "come",
        "comes",
        "came",
        "happen",
        "happens",
        "occur",
        "occurs",
        "sit",
        "sits",
        "lie",
        "lies",
        "seem",
        "seems",
        "become",
        "becomes",
        "use",
        "uses",
        "used",
        "have",
        "has",
        "had",
        "get",
        "gets",
        "make",
        "makes",
        "need",
        "needs",
        "do",
        "does",
        "be",
        "take",
        "takes",
        "give",
        "gives",
        "hold",
        "holds",
        "keep",
        "keeps",
        "go",
        "goes",
        "run",
        "runs",
        "really",
        "actually",
        "always",
        "even",
        "ever",
    }
)
FAMILY_RES = {name: (re.compile(f"(?:{p})"), re.compile(f"(?:{m})")) for name, (p, m) in FAMILIES.items()}
NEG_CUES = frozenset(
    {
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "neither",
        "nor",
        "without",
        "cannot",
        "avoid",  # "replicas avoid communication" = they do not communicate
        "avoids",
        "avoided",
        "avoiding",
        "nobody",
        "stops",
        "stop",
        "stopped",
        "ceases",
        "rarely",
        "seldom",
        "hardly",
    }
)
CLAUSE_WORDS = frozenset(
    {
        "and",
        "but",
        "while",
        "whereas",
        "so",
        "because",
        "since",
        "although",
        "though",
        "unlike",
        "which",
        "thus",
        "therefore",
        "hence",
        "whilst",
        "yet",
        "means",
        "if",
        "when",
    }
)
# a clause with one of these says what does not change, so its change words are about something else
STEADY = frozenset({"constant", "unchanged", "steady", "flat", "fixed"})
# Clause words after which a sentence states a fact or a contrast, outside a leading "Without X, ..."
STATEMENT_OPENERS = frozenset({"because", "since", "but", "although", "though", "whereas", "while", "yet"})
CONDITIONS = frozenset({"if", "when", "once"})  # a sentence led by one states a claim under a condition
HALT_CUES = frozenset({"stops", "stop", "stopped", "ceases"})
NEGATIVE_EVALUATIVES = frozenset(
    {
        "poor",
        "bad",
        "wrong",
        "misleading",
        "useless",
        "unreliable",
        "inadequate",
        "unreasonable",
        "unrealistic",
        "incorrect",
        "invalid",
    }
)
ANSWER_PARTICLE = re.compile(r"^\s*(?:no|yes|nope|yep|correct|right|wrong)\s*[,:;.!]\s*")
FILLER = frozenset(
    {
        "roughly",
        "approximately",
        "around",
        "nearly",
        "essentially",
        "basically",
        "simply",
        "really",
        "actually",
        "still",
        "indirectly",
        "directly",
        "times",
    }
)
TOKEN = re.compile(r"\d+(?:[.,]\d+)+|[a-z0-9][a-z0-9'’\-]*|[,;:.!?()]")


def normalise(text: str) -> str:
    """Lower-case the text and apply the phrase rewrites."""
    out = text.lower().replace("’", "'")
    for pat, rep in PHRASES:
        out = re.sub(pat, rep, out)
    return out


@lru_cache(maxsize=1 << 16)  # pure; tried against every family's patterns
def family_of(tok: str) -> tuple[str, int] | None:
    for name, (plus, minus) in FAMILY_RES.items():
        if plus.fullmatch(tok):
            return name, 1
        if minus.fullmatch(tok):
            return name, -1
    return None


def is_negation(tok: str) -> bool:
    return tok in NEG_CUES or tok.endswith("n't") or tok.endswith("n’t")


@lru_cache(maxsize=4096)  # asked once per clause of the same answer or phrasing
def phrase_matches(text: str) -> tuple[tuple[int, int, str], ...]:
    """Where `normalise` rewrites a phrase of `text`: (start, end, the words it becomes). The last rewrite (a
    dash to a comma) carries no words and is left out."""
    low = text.lower().replace("’", "'")
    return tuple((m.start(), m.end(), rep.strip()) for pat, rep in PHRASES[:-1] for m in re.finditer(pat, low))
