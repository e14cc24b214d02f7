"""Item analysis reads every candidate's graded answers from the database, on both backends."""

from __future__ import annotations

from coach.analytics.items import item_stats
from coach.analytics.store_source import StoreResponseSource
from coach.service.identity import new_local_key
from coach.service.journey import Journey, Policy
from tests.service.sitting import MODULE, answer_all


def test_graded_answers_of_all_candidates_become_response_records(database, bank, grader) -> None:  # type: ignore[no-untyped-def]
    journey = Journey(database, bank, grader, policy=Policy())
    good, weak = (journey.local_candidate(new_local_key(), name) for name in ("Ada", "Eve"))
    for who, well in ((good, True), (weak, False)):
        attempt = journey.start_practice(who, MODULE, count=4, seed=3)
        journey.submit_and_grade(who, answer_all(journey, who, attempt, good=well).id)
    open_attempt = journey.start_practice(good, MODULE, count=2, seed=4)  # not graded: not counted
    journey.record_answer(good, open_attempt.id, skip=True)

    records = StoreResponseSource(database).responses()
    assert len(records) == 8 and {r.candidate_id for r in records} == {good.id, weak.id}
    by_candidate = {c.id: [r for r in records if r.candidate_id == c.id] for c in (good, weak)}
    assert all(r.attempt_total == sum(x.score for x in by_candidate[good.id]) for r in by_candidate[good.id])
    mcq = next(r for r in by_candidate[weak.id] if r.type == "mcq")
    assert mcq.score == 0.0 and mcq.chosen_text and mcq.chosen_index is not None
    short = [r for r in records if r.type == "short"]
    assert all(r.criteria for r in short)
    stats = item_stats([r for r in records if r.item_id == mcq.item_id])
    assert stats.responses == 2 and stats.facility == 0.5
