"""The key-value cache and the authoring review log, on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from coach.store.cache import KvCache, get_cached, put_cached
from coach.store.db import Database
from coach.store.decisions import DecisionStore


def test_cache_gets_what_was_put_and_the_last_write_wins(database: Database) -> None:
    assert get_cached(database, "feedback", "a1") is None
    put_cached(database, "feedback", "a1", '{"summary": "first"}')
    put_cached(database, "feedback", "a1", '{"summary": "second"}')
    put_cached(database, "judge", "a1", "other namespace")
    assert get_cached(database, "feedback", "a1") == '{"summary": "second"}'
    assert get_cached(database, "judge", "a1") == "other namespace"


def test_the_adapter_has_the_get_put_shape(database: Database) -> None:
    cache = KvCache(database, "judge")
    cache.put("key with ünïcode", "value")
    assert cache.get("key with ünïcode") == "value" and cache.get("missing") is None
    assert KvCache(database, "feedback").get("key with ünïcode") is None


def test_decisions_are_logged_and_listed_per_item(database: Database) -> None:
    log = DecisionStore(database)
    at = datetime(2026, 2, 1, tzinfo=UTC)
    first = log.record_decision(item_id="kv-1", draft_path="drafts/kv-1.yaml", action="approve", author="ana",
                                resulting_version=2, at=at)
    log.record_decision(item_id="tp-3", draft_path="drafts/tp-3.yaml", action="reject", author="bo",
                        reason="two keys")
    log.record_decision(item_id="kv-1", draft_path="drafts/kv-1b.yaml", action="edit_approve", author="ana",
                        reason="fixed the stem", resulting_version=3)
    assert [d.action for d in log.list_decisions("kv-1")] == ["approve", "edit_approve"]
    assert len(log.list_decisions()) == 3
    assert first.at == at and first.resulting_version == 2 and first.id > 0
    with pytest.raises(ValueError, match="action"):
        log.record_decision(item_id="x", draft_path="d", action="publish", author="a")  # type: ignore[arg-type]


def test_the_journey_hands_out_both_on_its_database(database: Database, bank) -> None:  # type: ignore[no-untyped-def]
    from coach.service.journey import Journey

    journey = Journey(database, bank, grader=lambda: None)  # type: ignore[arg-type,return-value]
    journey.cache("feedback").put("attempt-1", "cached")
    assert get_cached(database, "feedback", "attempt-1") == "cached"
    journey.decision_log().record_decision(item_id="i", draft_path="d", action="approve", author="a")
    assert len(DecisionStore(database).list_decisions("i")) == 1
