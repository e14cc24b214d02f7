"""Paired terms whose swap turns a right statement into a classic wrong one."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    misconception: str | None = None  # the catalogue id a learner making this swap shows, when there is one
    case_sensitive: bool = False  # units and acronyms: GB vs Gb differ only by case


PAIRS: tuple[Pair, ...] = (
    Pair("row-parallel", "column-parallel"),
    Pair("row", "column"),
    Pair("rows", "columns"),
    Pair("prefill", "decode"),
    Pair("compute-bound", "memory-bound", "decode-compute-bound"),
    Pair("TP", "PP", case_sensitive=True),
    Pair("tensor parallelism", "pipeline parallelism"),
    Pair("dispatch", "combine"),
    Pair("per direction", "bidirectional", "nvlink-bidir-as-per-direction"),
    Pair("per-direction", "bidirectional", "nvlink-bidir-as-per-direction"),
    Pair("GB/s", "Gb/s", "gbit-is-gbyte", case_sensitive=True),
    Pair("GB", "Gb", "gbit-is-gbyte", case_sensitive=True),
    Pair("bytes", "bits", "gbit-is-gbyte"),
    Pair("KV heads", "query heads", "kv-scales-with-q-heads"),
    Pair("reduce-scatter", "all-gather"),
    Pair("all-reduce", "all-to-all"),
    Pair("TTFT", "TPOT", case_sensitive=True),
    Pair("latency", "throughput"),
    Pair("intra-node", "inter-node"),
    Pair("NVLink", "InfiniBand", case_sensitive=True),
    Pair("weights", "activations"),
    Pair("input", "output"),
)


def _pattern(term: str, case_sensitive: bool) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", 0 if case_sensitive else re.IGNORECASE)


def _match_case(found: str, replacement: str, case_sensitive: bool) -> str:
    """A capitalised word stays capitalised ("Prefill" -> "Decode"); acronyms and units are kept as written."""
    if not case_sensitive and found[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


@dataclass(frozen=True)
class Swapped:
    text: str
    pair: Pair
    note: str  # "prefill <-> decode"


def swaps(text: str) -> list[Swapped]:
    """Every text made by swapping one pair's terms throughout (both directions at once, so roles exchange)."""
    out: list[Swapped] = []
    for pair in PAIRS:
        pa, pb = _pattern(pair.a, pair.case_sensitive), _pattern(pair.b, pair.case_sensitive)
        if not (pa.search(text) or pb.search(text)):
            continue
        both = re.compile(f"{pa.pattern}|{pb.pattern}", 0 if pair.case_sensitive else re.IGNORECASE)

        def flip(m: re.Match[str], pair: Pair = pair) -> str:
            word = m.group(0)
            is_a = word == pair.a if pair.case_sensitive else word.lower() == pair.a.lower()
            return _match_case(word, pair.b if is_a else pair.a, pair.case_sensitive)

        swapped = both.sub(flip, text)
        if swapped != text:
            out.append(Swapped(swapped, pair, f"{pair.a} <-> {pair.b}"))
    return out


def same_words(a: str, b: str) -> bool:
    """True when two texts use the same words in another order: a swap that may say the same thing."""
    def bag(t: str) -> list[str]:
        return sorted(re.findall(r"[\w/-]+", t.lower()))

    return bag(a) == bag(b)
