"""Offline distractor generators: no model needed, everything drawn from the bank and the calculators.

- numbers from the calculators (`numeric.py`): wrong formulas, steps of the derivation, misread inputs;
- the misconception catalogue: statements (and phrasings) of the misconceptions of the item's page, of its
  module's items, adapted to the form of the key;
- paired-term swaps of the key (prefill/decode, row/column, TP/PP, GB/Gb, ...);
- the keys of sibling items in the module (true statements that answer another question).
Candidates are not validated here: `validate.assess` does that for every source alike.
"""

from __future__ import annotations

import re

from coach.authoring.candidates import Candidate, Source
from coach.authoring.numeric import numeric_candidates
from coach.authoring.swaps import swaps
from coach.content.bank import Bank
from coach.content.render import Variant, render, render_text, variants
from coach.content.schema import McqItem, Misconception

MAX_CATALOGUE = 14
MAX_SIBLINGS = 8


def offline_candidates(bank: Bank, item: McqItem, variant: Variant | None = None) -> list[Candidate]:
    variant = variants(item)[0] if variant is None else variant
    key = item.options[item.key_index]
    key_text = render_text(key.text, item, variant)
    return [
        *numeric_candidates(bank, item, variant),
        *catalogue_candidates(bank, item, key_text),
        *swap_candidates(bank, item, key_text),
        *sibling_candidates(bank, item, key_text),
    ]


def _related_misconceptions(bank: Bank, item: McqItem) -> list[Misconception]:
    """The page's misconceptions first, then those the module's items are tagged with, then the rest of the
    catalogue whose page is in the same module."""
    module_pages = {p.id for p in bank.concepts.values() if p.module == item.module}
    tagged: dict[str, int] = {}
    for other in bank.items.values():
        if other.module != item.module or not isinstance(other, McqItem):
            continue
        for o in other.options:
            if o.misconception:
                tagged[o.misconception] = tagged.get(o.misconception, 0) + (3 if other.concept == item.concept else 1)

    def rank(m: Misconception) -> tuple[int, int, str]:
        return (0 if m.concept == item.concept else 1 if m.id in tagged else 2, -tagged.get(m.id, 0), m.id)

    pool = [m for m in bank.misconceptions.values() if m.concept == item.concept or m.id in tagged
            or m.concept in module_pages]
    return sorted(pool, key=rank)


def adapt(statement: str, key_text: str) -> str:
    """Give a catalogue statement the key's form: its closing punctuation and its initial case."""
    text = statement.strip()
    if key_text.rstrip().endswith(".") and not text.endswith("."):
        text += "."
    elif not key_text.rstrip().endswith((".", "?", "!")):
        text = text.rstrip(".")
    if key_text[:1].islower() and text[:2] != text[:2].upper():
        text = text[:1].lower() + text[1:]
    return text


def catalogue_candidates(bank: Bank, item: McqItem, key_text: str) -> list[Candidate]:
    out: list[Candidate] = []
    for mis in _related_misconceptions(bank, item)[:MAX_CATALOGUE]:
        # The statement, and the phrasing closest in length to the key (often the more concrete of the two).
        closest = min(mis.phrasings, key=lambda p: abs(len(p) - len(key_text)))
        for text, how in ((mis.statement, "statement"), (closest, "phrasing")):
            out.append(
                Candidate(
                    text=adapt(text, key_text),
                    source=Source.CATALOGUE,
                    why_wrong=mis.correction,
                    misconception=mis.id,
                    origin=f"{mis.id} ({how})",
                )
            )
    return out


def swap_candidates(bank: Bank, item: McqItem, key_text: str) -> list[Candidate]:
    out = []
    for s in swaps(key_text):
        mis = bank.misconceptions.get(s.pair.misconception or "")
        why = f"It swaps {s.note}: the key says {key_text!r}."
        if mis is not None:
            why = f"{why} {mis.correction}"
        out.append(
            Candidate(
                text=s.text, source=Source.SWAP, why_wrong=why, misconception=mis.id if mis else None, origin=s.note
            )
        )
    return out


_DIGIT = re.compile(r"\d")


def sibling_candidates(bank: Bank, item: McqItem, key_text: str) -> list[Candidate]:
    """Keys of other MCQs in the module, same page first; only prose keys for a prose key (numbers of another
    question would be a giveaway)."""
    siblings = sorted(
        (o for o in bank.items.values() if isinstance(o, McqItem) and o.module == item.module and o.id != item.id),
        key=lambda o: (o.concept != item.concept, o.id),
    )
    out = []
    for other in siblings:
        text = render(other).options[other.key_index].text
        if bool(_DIGIT.search(text)) != bool(_DIGIT.search(key_text)):
            continue
        out.append(
            Candidate(
                text=text,
                source=Source.SIBLING,
                why_wrong=f"True of another question ({other.id}), but it does not answer this one.",
                origin=other.id,
            )
        )
        if len(out) >= MAX_SIBLINGS:
            break
    return out
