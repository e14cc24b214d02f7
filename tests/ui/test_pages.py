"""Every page renders, and a candidate can complete a practice test and a readiness check."""

from __future__ import annotations

import pytest

from coach.config import get_settings
from coach.content.loader import load_bank
from coach.ui.state import CANDIDATE_KEY
from tests.ui.driver import answer_all, button, open_page

MODULE = "model-parallelism"


def test_home_lists_the_learning_path_with_prerequisites_and_coming_modules() -> None:
    at = open_page("home")
    assert not at.exception
    text = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
    for title in (
        "Inference Fundamentals",
        "Model Parallelism for Inference",
        "Distributed & Disaggregated Inference",
        "Multi-GPU Serving & Load Balancing",
    ):
        assert title in text
    assert "Prerequisites:" in text
    assert any("LLM judge is off" in i.value for i in at.sidebar.info)


def test_module_page_has_samples_faq_and_path() -> None:
    at = open_page("module", MODULE)
    assert not at.exception
    assert at.title[0].value == "Model Parallelism for Inference"
    assert any(e.label.startswith("How is it scored") for e in at.expander)
    samples = [r for r in at.radio if r.label == "Your choice"]
    if samples:
        samples[0].set_value(samples[0].options[0]).run()
        assert at.success or at.error


def test_practice_shows_pool_and_estimate_then_runs_to_results() -> None:
    at = open_page("practice", MODULE)
    assert not at.exception
    assert any("Pool:" in c.value for c in at.caption)
    assert any("min" in i.value for i in at.info)
    at.number_input[0].set_value(3).run()
    at.radio(key="practice-reveal").set_value("at the end").run()
    at = button(at, "Start practice test").click().run()
    at = answer_all(at)
    assert any(m.label == "Overall" for m in at.metric)
    assert any(s.value == "Coach feedback" for s in at.subheader)
    marks = (":material/check_circle:", ":material/adjust:", ":material/cancel:")
    assert any(e.label.startswith(marks) for e in at.expander)


def test_practice_count_out_of_range_says_what_happens() -> None:
    at = open_page("practice", MODULE)
    pool = int(next(c.value for c in at.caption if "Pool:" in c.value).split("·")[1].split()[0])
    at.number_input[0].set_value(pool + 5).run()
    assert any(f"Only {pool} " in w.value and f"will have {pool}" in w.value for w in at.warning), at.warning
    assert any(i.value.startswith(f"{pool} questions") for i in at.info), "the summary shows the count it will use"
    assert not button(at, "Start practice test").disabled
    at.number_input[0].set_value(0).run()
    assert any("at least one question" in e.value for e in at.error)
    assert button(at, "Start practice test").disabled
    assert not any("questions ·" in i.value for i in at.info), "no summary for a test that cannot start"


def test_practice_with_reveal_after_each_question() -> None:
    at = open_page("practice", MODULE)
    at.number_input[0].set_value(2).run()
    at.radio(key="practice-reveal").set_value("after each question").run()
    at = button(at, "Start practice test").click().run()
    radios = [r for r in at.radio if r.label == "Choose one"]
    if radios:
        radios[0].set_value(radios[0].options[0])
    else:
        at.text_area[0].input("Stages run in sequence for each token.")
    at = button(at, "Submit answer").click().run()
    assert any(m.value.startswith("**Why:**") for m in at.markdown), "the explanation is revealed"
    at = answer_all(at)
    assert any(s.value == "Your result" for s in at.subheader)


def test_readiness_check_runs_to_dimension_scores_and_feedback() -> None:
    at = open_page("readiness", MODULE)
    assert not at.exception
    at = button(at, "Start the readiness check").click().run()
    at = answer_all(at)
    assert any(m.label == "Band" for m in at.metric)
    labels = " ".join(m.value for m in at.markdown)
    for dim in (
        "Conceptual understanding",
        "Trade-off reasoning",
        "Quantitative / applied knowledge",
        "Explanation quality",
    ):
        assert dim in labels


def test_empty_and_overlong_answers_get_clear_messages_and_keep_the_text() -> None:
    bank = load_bank(get_settings().content_dir)
    if not any(i.type == "short" for i in bank.published(MODULE)):
        pytest.skip("the module has no short-answer items")
    at = open_page("practice", MODULE)
    at.segmented_control(key="practice-diff").set_value("any").run()
    at.number_input[0].set_value(999).run()  # more than the pool: the test takes them all
    at.radio(key="practice-reveal").set_value("at the end").run()
    at = button(at, "Start practice test").click().run()
    for _ in range(60):  # skip MCQs until a short answer shows up
        if [t for t in at.text_area if t.label.startswith("Your answer")]:
            break
        at = button(at, "Skip").click().run()
    areas = [t for t in at.text_area if t.label.startswith("Your answer")]
    areas[0].input("   ")
    at = button(at, "Submit answer").click().run()
    assert any("empty" in e.value for e in at.error)
    long_text = "tensor parallelism " * 400
    at.text_area[0].input(long_text)
    at = at.run()  # before Submit: the box already says how much to cut
    over = len(long_text.strip()) - 4000
    assert any(f"cut at least {over:,}" in w.value for w in at.warning), [w.value for w in at.warning]
    at = button(at, "Submit answer").click().run()
    assert any("limit is 4,000" in e.value for e in at.error)
    assert at.text_area[0].value == long_text


def test_a_reload_mid_test_resumes_from_the_url_and_nobody_else_can_open_it() -> None:
    at = open_page("practice", MODULE)
    at.number_input[0].set_value(2).run()
    at = button(at, "Start practice test").click().run()
    attempt_id = at.query_params["attempt"]
    attempt_id = attempt_id[0] if isinstance(attempt_id, list) else attempt_id
    key = at.session_state[CANDIDATE_KEY]
    fresh = open_page("practice", MODULE, browser_key=key, attempt=attempt_id)  # a new session, same browser
    assert not fresh.exception
    stem = next(m.value for m in at.markdown if m.value.startswith("####"))
    assert any(m.value == stem for m in fresh.markdown), "the running attempt is shown again"
    assert any(b.label == "Submit answer" for b in fresh.button)
    stranger = open_page("practice", MODULE, attempt=attempt_id)  # another browser: another candidate
    assert any("not found" in w.value for w in stranger.warning)
    assert not any(m.value == stem for m in stranger.markdown)
    gone = open_page("practice", MODULE, browser_key=key, attempt="0123456789ab")
    assert any("not found" in w.value for w in gone.warning)


@pytest.mark.parametrize("module", ["inference-fundamentals", "distributed-inference", "multi-gpu-serving"])
def test_a_readiness_check_can_be_sat_in_every_module(module: str) -> None:
    at = open_page("readiness", module)
    at = button(at, "Start the readiness check").click().run()
    at = answer_all(at)
    assert any(m.label == "Overall" for m in at.metric)


def test_with_the_fake_judge_on_the_ui_says_so_and_grading_still_completes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COACH_LLM_MODE", "fake")
    get_settings.cache_clear()
    at = open_page("readiness", MODULE)
    assert any("fake judge" in s.value for s in at.sidebar.success)
    at = button(at, "Start the readiness check").click().run()
    at = answer_all(at)
    assert any(m.label == "Overall" for m in at.metric)
