"""The cross-encoder's training pairs: public TRAINING splits and pairs built from the bank (see
docs/cross-encoder-data-card.md). Pure: it takes dataset rows and the loaded bank, never reads a file itself,
and never sees a test split, Mohler, or the dev sets under `devsets/`.

Pairs are (candidate text, reference or criterion text, label) with labels indexing `PAIR_LABELS`:
correct / partial / contradicts / irrelevant.

- Public answers: SemEval-2013 (SciEntsBank, Beetle) `train` and SAF v1 `training`, answer against the
  reference. "correct" stays correct; every other label (incorrect, partially correct) becomes "partial": the
  2-way labels lump contradictory, partial and irrelevant answers together, so they say only "not right".
  Only the training questions of half A (`in_half_a`) go to the cross-encoder: half B stays unseen by it, so the
  fitted combination (`coach calibrate grader`) reads its verdicts on answers it never trained on.
- Bank: each criterion's phrasings and the model answer's sentence closest to it, against its description
  (correct); a phrasing and a model-answer sentence of other items against it (irrelevant); each catalogue
  misconception (statement, phrasings) against the criteria it is attached to (contradicts); model-answer
  sentences and phrasings with a pair of terms swapped (row/column, prefill/decode, ...) against their criterion
  (contradicts); whole answers (one phrasing per criterion) against the model answer, and swapped (correct /
  contradicts), and other items' model answers (irrelevant).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import ShortItem
from coach.evals.datasets import Row
from coach.grading.offline.lexical import content_set
from coach.grading.text import sentences
from coach.providers.base import PAIR_LABELS

CORRECT, PARTIAL, CONTRADICTS, IRRELEVANT = range(len(PAIR_LABELS))
Pair = tuple[str, str, int]

# Terms whose swap turns a true statement of this domain into a false one (both directions are swapped).
SWAPS: tuple[tuple[str, str], ...] = (
    ("row", "column"), ("rows", "columns"), ("row-wise", "column-wise"), ("row-parallel", "column-parallel"),
    ("prefill", "decode"), ("increases", "decreases"), ("increase", "decrease"), ("grows", "shrinks"),
    ("within a node", "across nodes"), ("intra-node", "inter-node"), ("inside the node", "across nodes"),
    ("per-direction", "bidirectional"), ("per direction", "in both directions"),
    ("memory-bound", "compute-bound"), ("higher", "lower"), ("more", "fewer"), ("larger", "smaller"),
    ("before", "after"), ("all-reduce", "all-to-all"),
)
_SWAP_RE = re.compile(r"\b(" + "|".join(re.escape(t) for pair in SWAPS for t in sorted(pair, key=len, reverse=True))
                      + r")\b", re.IGNORECASE)
_SWAP_OF = {a.lower(): b for x, y in SWAPS for a, b in ((x, y), (y, x))}


def swap_terms(text: str) -> str:
    """The text with every swappable term replaced by its opposite, all at once ("" when none occurs)."""
    if not _SWAP_RE.search(text):
        return ""

    def flip(m: re.Match[str]) -> str:
        word = m.group(0)
        new = _SWAP_OF[word.lower()]
        return new[0].upper() + new[1:] if word[0].isupper() else new

    return _SWAP_RE.sub(flip, text)


def in_half_a(qkey: str) -> bool:
    """A fixed half of the public training questions (by hash of the question key): the cross-encoder's."""
    return int(hashlib.sha1(qkey.encode()).hexdigest(), 16) % 2 == 0


def public_pairs(rows: Iterable[Row], per_dataset: int, rng: random.Random) -> list[Pair]:
    """Training-split answers of half-A questions against their reference, at most `per_dataset` per corpus."""
    by_corpus: dict[str, list[Pair]] = {}
    for r in rows:
        if r.split not in ("train", "training") or r.dataset not in ("semeval", "saf") or not in_half_a(r.qkey):
            continue
        if not r.answer.strip():
            continue
        correct = r.label.lower() == "correct"
        by_corpus.setdefault(f"{r.dataset}/{r.group if r.dataset == 'semeval' else ''}", []).append(
            (r.answer.strip(), r.reference.strip(), CORRECT if correct else PARTIAL))
    out: list[Pair] = []
    for key in sorted(by_corpus):
        pairs = by_corpus[key]
        rng.shuffle(pairs)
        out.extend(pairs[:per_dataset])
    return out


@dataclass(frozen=True)
class BankTarget:
    item_id: str
    answer: str  # the rendered model answer
    criteria: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...]  # (id, description, phrasings, mis ids)


def bank_targets(bank: Bank) -> list[BankTarget]:
    out = []
    for item in bank.items.values():
        if not isinstance(item, ShortItem) or item.rubric not in bank.rubrics:
            continue
        rendered = render(item)
        crits = tuple((c.id, c.description, tuple(c.phrasings), tuple(c.misconceptions))
                      for c in bank.rubrics[item.rubric].criteria)
        out.append(BankTarget(item.id, rendered.model_answer or "", crits))
    return sorted(out, key=lambda t: t.item_id)


def closest_sentence(text: str, to: str) -> str:
    """The sentence of `text` sharing the most content words with `to` (lexical: the pairs need no model)."""
    want = content_set(to)
    spans = sentences(text)
    return max(spans, key=lambda s: len(content_set(s) & want) / (1 + len(content_set(s)) ** 0.5)) if spans else ""


def misconception_texts(bank: Bank, mid: str) -> list[str]:
    m = bank.misconceptions.get(mid)
    if m is None:
        return []
    return list(dict.fromkeys([m.statement, *getattr(m, "statements", ()), *m.phrasings]))


def answer_spans(text: str, to: str, k: int = 2) -> list[str]:
    """The `k` sentences of `text` closest to `to` (lexically), and, when two, both joined in the answer's order:
    the shape of what the grader reads against a criterion (`grading.offline.cross.criterion_spans`)."""
    spans = sentences(text)
    want = content_set(to)
    top = sorted(sorted(range(len(spans)), key=lambda i: -len(content_set(spans[i]) & want))[:k])
    out = [spans[i] for i in top]
    return [*out, " ".join(out)] if len(out) > 1 else out


def bank_pairs(bank: Bank, rng: random.Random) -> list[Pair]:
    """Pairs from the bank. The second text is the criterion's description or, so the model does not learn that
    "correct" means "shares the description's words", another of its phrasings; contradicting texts are
    paired with both too, and term swaps keep nearly every word, so overlap alone tells no label."""
    targets = bank_targets(bank)
    pairs: list[Pair] = []
    for t in targets:
        others = [o for o in targets if o.item_id != t.item_id]
        for _cid, desc, phrasings, mis in t.criteria:
            right = list(dict.fromkeys([*answer_spans(t.answer, desc), *phrasings]))
            for text in right:
                refs = [desc, *rng.sample([p for p in phrasings if p != text], max(0, min(1, len(phrasings) - 1)))]
                for ref in refs:
                    pairs.append((text, ref, CORRECT))
                    swapped = swap_terms(text)
                    if swapped:
                        pairs.append((swapped, ref, CONTRADICTS))
            for mid in mis:
                for text in misconception_texts(bank, mid):
                    pairs.append((text, desc, CONTRADICTS))
                    if phrasings:
                        pairs.append((text, rng.choice(phrasings), CONTRADICTS))
            if others:
                other = rng.choice(others)
                pairs.append((rng.choice(rng.choice(other.criteria)[2]), desc, IRRELEVANT))
                pairs.append((closest_sentence(rng.choice(others).answer, desc), desc, IRRELEVANT))
        whole = " ".join(rng.choice(c[2]) for c in t.criteria)
        pairs.append((whole, t.answer, CORRECT))
        swapped_whole = " ".join(swap_terms(s) or s for s in sentences(t.answer))
        if swapped_whole != t.answer and swap_terms(t.answer):
            pairs.append((swapped_whole, t.answer, CONTRADICTS))
        if others:
            pairs.append((rng.choice(others).answer, t.answer, IRRELEVANT))
    return [p for p in dict.fromkeys(pairs) if p[0].strip() and p[1].strip()]


def shuffled_irrelevant(pairs: Sequence[Pair], n: int, rng: random.Random, max_shared: int = 2) -> list[Pair]:
    """`n` irrelevant pairs: a first text of one pair against the second text of another, sharing at most
    `max_shared` content words (public answers meet bank criteria and the reverse, so "irrelevant" is learnt
    from text that is plainly about something else, not only from the bank's neighbouring items)."""
    if len(pairs) < 2:
        return []
    out: list[Pair] = []
    for _ in range(n * 4):
        if len(out) >= n:
            break
        a, b = rng.choice(pairs)[0], rng.choice(pairs)[1]
        if len(content_set(a) & content_set(b)) <= max_shared:
            out.append((a, b, IRRELEVANT))
    return out


def training_pairs(public: Sequence[Row], bank: Bank, per_dataset: int, seed: int,
                   irrelevant: int = 0) -> tuple[list[Pair], dict[str, int]]:
    """All pairs, shuffled with `seed`, and how many came from each source (`irrelevant`: shuffled pairs added)."""
    rng = random.Random(seed)
    pub = public_pairs(public, per_dataset, rng)
    own = bank_pairs(bank, rng)
    shuffled = shuffled_irrelevant(pub + own, irrelevant, rng)
    pairs = pub + own + shuffled
    rng.shuffle(pairs)
    counts = {"public_train_splits": len(pub), "bank": len(own), "shuffled_irrelevant": len(shuffled)}
    counts.update({f"label/{PAIR_LABELS[k]}": sum(1 for p in pairs if p[2] == k) for k in range(len(PAIR_LABELS))})
    return pairs, counts
