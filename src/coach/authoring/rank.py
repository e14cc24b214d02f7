"""Plausibility: how likely a candidate is to tempt someone who holds a misconception, as a sum of named signals.

- source: a wrong formula tied to a catalogued misconception is the strongest evidence that real learners
  produce this answer; a catalogue statement of the item's own page next; swaps, then sibling keys;
- on topic: similarity to the stem (prose), or sharing the key's unit and frame (numbers);
- near the key: similarity to the key below the equivalence bar (prose), or a value within a small factor;
- length match: options of one length give nothing away;
- a misconception an existing option already embodies counts a little against (it would test the same thing).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from coach.authoring.candidates import Assessed, Candidate, Signal, Source
from coach.authoring.validate import EQUIVALENT, Context, numbers

PRIORS: dict[tuple[Source, bool], float] = {
    (Source.WRONG_FORMULA, True): 1.0,
    (Source.WRONG_FORMULA, False): 0.8,
    (Source.DERIVATION, True): 0.8,  # True: the step is in the explanation a learner would follow
    (Source.DERIVATION, False): 0.7,
    (Source.ARGUMENT, True): 0.7,  # True: a dtype slip (bytes per parameter is a classic)
    (Source.ARGUMENT, False): 0.55,
    (Source.SLIP, True): 0.45,  # True: a factor of two (the common slip); False: a decimal point
    (Source.SLIP, False): 0.3,
    (Source.LLM, True): 0.85,
    (Source.LLM, False): 0.75,
    (Source.CATALOGUE, True): 0.85,  # True: the misconception belongs to the item's own page
    (Source.CATALOGUE, False): 0.6,
    (Source.SWAP, True): 0.8,  # True: the swap is a catalogued misconception
    (Source.SWAP, False): 0.65,
    (Source.SIBLING, True): 0.5,  # True: the sibling is about the same page
    (Source.SIBLING, False): 0.35,
}
W_SOURCE, W_TOPIC, W_NEAR, W_LENGTH, W_COVERED = 0.35, 0.25, 0.2, 0.2, -0.1


def _clip(x: float) -> float:
    return max(0.0, min(1.0, x))


@dataclass(frozen=True)
class PageFacts:
    """What belongs to the item's own concept page: its misconceptions and its other items."""

    misconceptions: frozenset[str]
    items: frozenset[str]


def _strong(c: Candidate, page: PageFacts) -> bool:
    if c.source is Source.CATALOGUE:
        return c.misconception in page.misconceptions
    if c.source is Source.SIBLING:
        return c.origin in page.items
    if c.source is Source.DERIVATION:
        return True
    if c.source is Source.ARGUMENT:
        return c.origin.startswith("dtype")
    if c.source is Source.SLIP:
        return "2" in c.origin
    return c.misconception is not None


def signals(c: Candidate, ctx: Context, page: PageFacts) -> tuple[Signal, ...]:
    strong = _strong(c, page)
    prior = PRIORS[(c.source, strong)]
    found = [Signal(name="source", value=prior, weight=W_SOURCE, note=f"{c.source.value}: {c.origin}")]
    key = ctx.key_text
    kn, cn = numbers(key), numbers(c.text)
    if kn and cn:
        ratio = max(max(cn), 1e-12) / max(max(kn), 1e-12)
        near = 1 / (1 + abs(math.log10(ratio)))
        found.append(Signal(name="on topic", value=1.0, weight=W_TOPIC, note="the key's own frame and unit"))
        found.append(Signal(name="near the key", value=near, weight=W_NEAR, note=f"{ratio:.2g}× the key's value"))
    else:
        topic = ctx.cos(c.text, ctx.rendered.stem)
        near = ctx.cos(c.text, key)
        found.append(Signal(name="on topic", value=_clip((topic - 0.1) / 0.6), weight=W_TOPIC,
                            note=f"similarity to the stem {topic:.2f}"))
        found.append(Signal(name="near the key", value=_clip(near / EQUIVALENT), weight=W_NEAR,
                            note=f"similarity to the key {near:.2f}"))
    ratio = len(c.text) / max(1, len(key))
    found.append(Signal(name="length match", value=_clip(1 - abs(math.log(ratio)) / math.log(2)), weight=W_LENGTH,
                        note=f"{ratio:.2f}× the key's length"))
    covered = {o.misconception for o in ctx.rendered.options if o.misconception}
    if c.misconception and c.misconception in covered:
        found.append(Signal(name="already covered", value=1.0, weight=W_COVERED,
                            note=f"an existing option embodies {c.misconception}"))
    return tuple(found)


def assess(c: Candidate, ctx: Context, reasons: list[str], page: PageFacts) -> Assessed:
    sig = signals(c, ctx, page)
    score = _clip(sum(s.contribution for s in sig))
    return Assessed(candidate=c, reasons=tuple(reasons), plausibility=score, signals=sig)
