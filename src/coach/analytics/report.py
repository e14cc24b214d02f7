"""Statistics for every item with responses, in the shape `coach analytics items --json` prints."""

from __future__ import annotations

from collections import defaultdict

from coach.analytics.items import MIN_RESPONSES, ItemStats, item_stats
from coach.analytics.records import ResponseRecord, ResponseSource
from coach.content.bank import Bank
from coach.content.render import render, variants
from coach.content.schema import McqItem


def option_texts(item: McqItem) -> tuple[list[str], str]:
    """Every option text of every variant (a response stores the text it saw), and the key's first text."""
    texts: list[str] = []
    for v in variants(item):
        texts += [o.text for o in render(item, v).options]
    return list(dict.fromkeys(texts)), render(item).options[item.key_index].text


def items_report(source: ResponseSource, bank: Bank | None = None, *,
                 min_responses: int = MIN_RESPONSES) -> list[ItemStats]:
    grouped: dict[str, list[ResponseRecord]] = defaultdict(list)
    for r in source.responses():
        grouped[r.item_id].append(r)
    out = []
    for item_id in sorted(grouped):
        item = bank.items.get(item_id) if bank else None
        texts, key = option_texts(item) if isinstance(item, McqItem) and not item.params else ([], None)
        out.append(item_stats(grouped[item_id], key_text=key, option_texts=texts, min_responses=min_responses))
    return out
