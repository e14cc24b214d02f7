"""Every candidate distractor is checked before anyone sees it; a rejected one says why.

- not equivalent to the key: for prose, embedding similarity below EQUIVALENT (a term swap is a different
  claim by construction, so it is only refused when it is the key's own words rearranged); for numbers, a
  different value, at least APPROX_GAP apart when the key or stem says "about/roughly/approximately";
- not a duplicate of an existing option;
- similar in length and form to the key (so the key does not stand out, and a number answers a number);
- not trivially implausible (more KV heads than the model has, a share above 100%, orders of magnitude off).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from coach.authoring.candidates import Candidate, Source
from coach.authoring.swaps import same_words
from coach.calc.tables import MODELS, ModelConfig
from coach.content.numbers import bare_numbers
from coach.content.render import RenderedItem
from coach.content.schema import McqItem
from coach.providers.base import Embedder, Matrix

EQUIVALENT = 0.85  # prose at or above this cosine to the key may be read as right (paraphrases score ~0.75)
NEAR_COPY = 0.97  # even a swap this close to the key changed too little to matter
DUPLICATE = 0.93  # cosine to an existing option above which it is the same distractor again
APPROX_GAP = 0.15
MIN_LENGTH_RATIO, MAX_LENGTH_RATIO = 0.5, 2.0
MAX_OPTION_SPREAD = 2.5  # longest / shortest over all options, as `coach bank check` enforces
MAX_MAGNITUDE = 1e4
_APPROX = re.compile(r"\b(roughly|about|approximately|around|nearly)\b|[~≈]", re.IGNORECASE)
_BANNED = re.compile(r"\b(all|none|both|neither) of the (above|options|answers)\b", re.IGNORECASE)
_UNIT = re.compile(r"\d[\d,.]*\s*(%|[A-Za-z][A-Za-z/]*)")


def numbers(text: str) -> list[float]:
    return [float(n) for n in bare_numbers(text)]


def norm(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def same_text(a: str, b: str) -> bool:
    """Equal but for case and punctuation; units keep their case (GB is not Gb)."""
    return norm(a) == norm(b) and units(a) == units(b)


def same_numbers(a: list[float], b: list[float], approx: bool) -> bool:
    if len(a) != len(b) or not a:
        return False
    tol = APPROX_GAP if approx else 1e-9
    return all(abs(x - y) <= tol * max(abs(x), abs(y), 1e-12) for x, y in zip(sorted(a), sorted(b), strict=True))


def units(text: str) -> set[str]:
    return {m.group(1) for m in _UNIT.finditer(text)}


def number_led(text: str) -> bool:
    """A key whose answer is a number ("About 160 GB", "{n} replicas, since ..."): it starts with one, or has
    hardly any words besides its numbers and units."""
    if not numbers(text):
        return False
    words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\d[\d,.]*\s*(%|[A-Za-z][A-Za-z/]*)", " ", text))
    leads = re.match(r"^\W*(about|roughly|approximately|around|nearly)?\W*\d", text, re.IGNORECASE)
    return bool(leads) or len(words) <= 3


@dataclass(frozen=True)
class Context:
    """What the checks compare a candidate with: the rendered item, its models, and the embeddings.

    The semantic context embeds, in one batch, only the texts a prose comparison can reach (numbers are
    compared as numbers); a text it did not foresee is embedded when first compared."""

    item: McqItem
    rendered: RenderedItem
    models: tuple[ModelConfig, ...]
    approx: bool
    vectors: dict[str, np.ndarray]
    page_text: str = ""
    embedder: Embedder | None = None  # None: the first, cheap pass, whose checks need no embeddings

    @property
    def semantic(self) -> bool:
        return self.embedder is not None

    @property
    def key_text(self) -> str:
        return self.rendered.options[self.rendered.key_index or 0].text

    def vector(self, text: str) -> np.ndarray:
        found = self.vectors.get(text)
        if found is None:
            if self.embedder is None:
                raise ValueError("the cheap context has no embeddings")
            found = self.vectors[text] = self.embedder.embed([text])[0]
        return found

    def cos(self, a: str, b: str) -> float:
        return float(self.vector(a) @ self.vector(b))


def models_of(item: McqItem, rendered: RenderedItem) -> tuple[ModelConfig, ...]:
    ids = {str(v) for _, v in rendered.variant} | {
        str(a) for spec in item.values.values() for a in spec.args.values() if isinstance(a, str)
    }
    return tuple(MODELS[i] for i in sorted(ids) if i in MODELS)


def context(
    item: McqItem,
    rendered: RenderedItem,
    candidates: list[Candidate],
    embedder: Embedder | None = None,
    page_text: str = "",
) -> Context:
    """Without an embedder: the cheap context of the first pass. With one: the texts that prose comparisons
    will need (see `texts_to_embed`) embedded in one batch."""
    key = rendered.options[rendered.key_index or 0].text
    approx = bool(_APPROX.search(key) or _APPROX.search(rendered.stem))
    vectors: dict[str, np.ndarray] = {}
    if embedder is not None:
        texts = texts_to_embed(rendered, candidates)
        if texts:
            matrix: Matrix = embedder.embed(texts)
            vectors = dict(zip(texts, matrix, strict=True))
    return Context(item, rendered, models_of(item, rendered), approx, vectors, page_text, embedder)


def texts_to_embed(rendered: RenderedItem, candidates: list[Candidate]) -> list[str]:
    """A candidate with numbers beside a key with numbers is judged by its numbers, so only prose candidates
    (or every candidate, when the key is prose) are embedded, with the stem, the key and the prose options
    they are compared with. A number-led item whose candidates are all numbers embeds nothing."""
    key = rendered.options[rendered.key_index or 0].text
    numeric_key = bool(numbers(key))
    prose = [c.text for c in candidates if not (numeric_key and numbers(c.text))]
    if not prose:
        return []
    options = [o.text for o in rendered.options if o.correct or not numbers(o.text)]
    return list(dict.fromkeys([rendered.stem, key, *options, *prose]))


def problems(c: Candidate, ctx: Context) -> list[str]:
    """Why this candidate cannot be offered (empty: it can). A cheap context runs the text and number rules;
    a semantic one (with embeddings) runs only the rules that need them."""
    if not ctx.semantic:
        text = c.text.strip()
        if len(text) < 3:
            return ["empty"]
        reasons = ["'all/none of the above' is not allowed"] if _BANNED.search(text) else []
        if c.source is Source.LLM and not grounded(c.page_quote, ctx.page_text):
            reasons.append("its quote is not in the concept page, so why it is wrong is not grounded")
        return reasons + _equivalence(c, ctx) + _duplicates(c, ctx) + _form(c, ctx) + _implausible(c, ctx)
    return _equivalence(c, ctx) + _duplicates(c, ctx)


def grounded(quote: str | None, page: str) -> bool:
    """The quote, whitespace and case aside, is in the page (and long enough to mean something)."""
    q = " ".join((quote or "").split()).lower().strip(" .\"'")
    return len(q) >= 12 and q in " ".join(page.split()).lower()


def _equivalence(c: Candidate, ctx: Context) -> list[str]:
    key = ctx.key_text
    if same_text(c.text, key):
        return [] if ctx.semantic else ["it is the key"]
    kn, cn = numbers(key), numbers(c.text)
    if kn and cn:
        if not same_numbers(kn, cn, ctx.approx) or units(key) != units(c.text):
            return []  # a different value (or unit: GB vs Gb) is a different answer, however alike the words
        if number_led(key):
            gap = f"within {APPROX_GAP:.0%} of" if ctx.approx else "the same as"
            return [] if ctx.semantic else [f"its numbers are {gap} the key's ({', '.join(map(_fmt, cn))})"]
    if c.source is Source.SWAP:  # same numbers (or none): the words decide
        if same_words(c.text, key) and not ctx.semantic:
            return ["the swap only rearranges the key's words, so it may say the same thing"]
        return []
    if not ctx.semantic:
        return []
    sim = ctx.cos(c.text, key)
    if sim >= EQUIVALENT:
        return [f"too close to the key (similarity {sim:.2f} >= {EQUIVALENT}): it may be read as right"]
    return []


def _fmt(x: float) -> str:
    return f"{x:g}"


def _duplicates(c: Candidate, ctx: Context) -> list[str]:
    for k, option in enumerate(ctx.rendered.options):
        if option.correct:
            continue
        if duplicate_of(c.text, option.text, ctx):
            return [f"duplicates option {k + 1} ({option.text!r})"]
    return []


def duplicate_of(a: str, b: str, ctx: Context) -> bool:
    """Cheap context: same text, or same numbers in nearly the same words. Semantic: a close paraphrase."""
    an, bn = numbers(a), numbers(b)
    if not ctx.semantic:
        if same_text(a, b):
            return True
        if an or bn:  # the cheap tests first: difflib's ratio is the costly one
            if not (same_numbers(an, bn, ctx.approx) and units(a) == units(b)):
                return False
            return _similar(norm(re.sub(r"[\d,.]+", "", a)), norm(re.sub(r"[\d,.]+", "", b)), 0.8)
        return _similar(norm(a), norm(b), 0.9)
    return not (an or bn) and ctx.cos(a, b) >= DUPLICATE


def _similar(a: str, b: str, bar: float) -> bool:
    """difflib's ratio >= bar, skipped when its cheap upper bounds already fall short."""
    matcher = SequenceMatcher(None, a, b)
    return matcher.real_quick_ratio() >= bar and matcher.quick_ratio() >= bar and matcher.ratio() >= bar


def _form(c: Candidate, ctx: Context) -> list[str]:
    key = ctx.key_text
    reasons = []
    ratio = len(c.text) / max(1, len(key))
    if ratio < MIN_LENGTH_RATIO:
        reasons.append(f"much shorter than the key ({ratio:.2f}× its length): the key would stand out")
    elif ratio > MAX_LENGTH_RATIO:
        reasons.append(f"much longer than the key ({ratio:.2f}× its length)")
    lengths = [len(o.text) for o in ctx.rendered.options] + [len(c.text)]
    if ratio >= MIN_LENGTH_RATIO and max(lengths) > MAX_OPTION_SPREAD * min(lengths):
        reasons.append(f"option lengths would spread beyond {MAX_OPTION_SPREAD}× (the bank check's limit)")
    kn, cn = numbers(key), numbers(c.text)
    led = number_led(key)
    if led and not cn:
        reasons.append("the key is a number and this is not")
    elif cn and not kn:
        reasons.append(f"states numbers ({', '.join(map(_fmt, cn))}) the key does not: they would need a source")
    elif led and c.source is not Source.SWAP and units(key) != units(c.text):
        reasons.append(f"different units from the key ({sorted(units(c.text))} vs {sorted(units(key))})")
    return reasons


_COUNTS = (
    (re.compile(r"(\d+)\s+KV heads", re.IGNORECASE), "kv_heads", "KV heads"),
    (re.compile(r"(\d+)\s+(?:query|attention|Q) heads", re.IGNORECASE), "q_heads", "query heads"),
    (re.compile(r"(\d+)\s+layers", re.IGNORECASE), "layers", "layers"),
    (re.compile(r"(\d+)\s+(?:routed )?experts", re.IGNORECASE), "experts", "experts"),
)


def _implausible(c: Candidate, ctx: Context) -> list[str]:
    reasons = []
    for pattern, attr, label in _COUNTS:
        for m in pattern.finditer(c.text):
            n = int(m.group(1))
            limits = [getattr(mc, attr) for mc in ctx.models if getattr(mc, attr)]
            if limits and n > max(limits):
                reasons.append(f"{n} {label} is more than the model has ({max(limits)})")
    key_numbers, cand_numbers = numbers(ctx.key_text), numbers(c.text)
    if "%" in ctx.key_text and all(x <= 100 for x in key_numbers):
        reasons += [f"{x:g}% is more than the whole" for x in cand_numbers if x > 100 and "%" in c.text]
    if c.value is not None and (not math.isfinite(c.value) or c.value <= 0):
        reasons.append(f"the value {c.value:g} cannot be a size, time or rate")
    if key_numbers and cand_numbers and c.value is not None:
        ratio = max(cand_numbers) / max(max(key_numbers), 1e-12)
        if ratio > MAX_MAGNITUDE or ratio < 1 / MAX_MAGNITUDE:
            reasons.append(f"{ratio:.0e}× the key: orders of magnitude off, nobody would pick it")
    return reasons
