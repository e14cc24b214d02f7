"""The issue-16 rubric rules: rubrics attach the misconceptions they must, and those carry statements."""

from __future__ import annotations

from pathlib import Path

from coach.content.bank import Bank
from coach.content.checks import check_bank
from coach.content.checks_misconceptions import (
    addressed_misconceptions,
    check_rubric_misconceptions,
    check_statements,
    heldout_statements,
)
from coach.content.schema import Misconception, Option, Rubric, ShortItem
from tests.factories import make_bank, mcq, short

STATEMENTS = (
    "Four pipeline stages make one request finish four times sooner than on one GPU.",
    "Splitting the layers over more GPUs is how you cut the latency of a single request.",
)


def _mis(mid: str, statements: tuple[str, ...] = STATEMENTS, concept: str | None = "page") -> Misconception:
    return Misconception(id=mid, statement="PP lowers latency.", correction="Stages run in sequence.",
                         phrasings=("PP4 cuts the time per token to a quarter",), statements=statements,
                         source="test", concept=concept)


def _bank() -> tuple[Bank, ShortItem, Rubric]:
    """One short item on concept "page" whose rubric attaches nothing, and an MCQ on "page" with no tags."""
    bank = make_bank(0, 0, 0, 0)
    bank.misconceptions["pp-lowers-latency"] = _mis("pp-lowers-latency")
    item, rubric = short(1, "easy")
    plain = mcq(1, "easy")
    bank.items[plain.id] = plain.model_copy(update={"options": tuple(o.model_copy(update={"misconception": None})
                                                                     for o in plain.options)})
    bank.items[item.id], bank.rubrics[rubric.id] = item, rubric
    return bank, item, rubric


def _attach(rubric: Rubric, mid: str, criterion: int = 0) -> Rubric:
    crits = list(rubric.criteria)
    crits[criterion] = crits[criterion].model_copy(update={"misconceptions": (mid,)})
    return rubric.model_copy(update={"criteria": tuple(crits)})


def _messages(bank: Bank) -> list[str]:
    return [p.message for p in check_rubric_misconceptions(bank)]


def test_a_rubric_with_no_misconception_and_no_note_is_an_error() -> None:
    bank, _, _ = _bank()
    msgs = _messages(bank)
    assert len(msgs) == 1 and "no criterion carries a misconception" in msgs[0]
    assert "serial, why" in msgs[0] and "none, because" in msgs[0]  # names the criteria and the way out


def test_a_none_because_note_with_a_reason_excuses_it() -> None:
    bank, _, rubric = _bank()
    bank.rubrics[rubric.id] = rubric.model_copy(update={
        "misconceptions": "none, because the question asks only for a definition with no trap in it"})
    assert _messages(bank) == []


def test_the_note_must_have_the_none_because_form() -> None:
    bank, _, rubric = _bank()
    for bad in ("not needed", "none", "none, because easy", "because it is obvious to everyone here"):
        bank.rubrics[rubric.id] = rubric.model_copy(update={"misconceptions": bad})
        msgs = _messages(bank)
        assert any("must read 'none, because" in m for m in msgs), bad
        assert any("no criterion carries" in m for m in msgs), bad  # an invalid note excuses nothing


def test_a_declared_misconception_must_be_attached_even_with_a_note() -> None:
    bank, item, rubric = _bank()
    bank.items[item.id] = item.model_copy(update={"tags": ("misconception:pp-lowers-latency",)})
    bank.rubrics[rubric.id] = rubric.model_copy(update={
        "misconceptions": "none, because the question asks only for a definition with no trap in it"})
    msgs = _messages(bank)
    assert len(msgs) == 1 and "stem is built on misconception 'pp-lowers-latency'" in msgs[0]
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency")
    assert _messages(bank) == []


def test_tags_naming_misconceptions_are_checked() -> None:
    bank, item, rubric = _bank()
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency")
    bank.items[item.id] = item.model_copy(update={"tags": ("pp-lowers-latency", "misconception:no-such-thing")})
    msgs = _messages(bank)
    assert any("write it as 'misconception:pp-lowers-latency'" in m for m in msgs)
    assert any("'misconception:no-such-thing': no such misconception" in m for m in msgs)


def test_the_concepts_tested_misconceptions_must_be_attached() -> None:
    bank, item, rubric = _bank()
    bank.misconceptions["other-error"] = _mis("other-error", concept="elsewhere")
    bank.rubrics[rubric.id] = _attach(rubric, "other-error")  # attaches one, but not the concept's
    assert _messages(bank) == []  # no MCQ on the concept tests pp-lowers-latency yet
    q = bank.items["q01"]
    assert not isinstance(q, ShortItem)
    opts = list(q.options)
    opts[1] = Option(text="wrong answer 1a", misconception="pp-lowers-latency")
    bank.items["q01"] = q.model_copy(update={"options": tuple(opts)})
    assert addressed_misconceptions(bank, item, rubric) == {"pp-lowers-latency": "a distractor of q01 on concept page"}
    msgs = _messages(bank)
    assert len(msgs) == 1 and "attaches none of the misconceptions its concept's questions test" in msgs[0]
    assert "pp-lowers-latency (a distractor of q01 on concept page)" in msgs[0]
    bank.rubrics[rubric.id] = _attach(_attach(rubric, "other-error"), "pp-lowers-latency", criterion=1)
    assert _messages(bank) == []


def test_a_distractor_tag_of_another_concept_is_not_expected() -> None:
    bank, item, rubric = _bank()
    bank.misconceptions["other-error"] = _mis("other-error", concept="elsewhere")
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency")
    q = bank.items["q01"]
    assert not isinstance(q, ShortItem)
    tagged = Option(text="x y", misconception="other-error")
    bank.items["q01"] = q.model_copy(update={"options": (*q.options[:1], tagged, *q.options[2:])})
    assert addressed_misconceptions(bank, item, rubric) == {}


def test_a_wrong_formula_a_numeric_criterion_checks_is_addressed() -> None:
    from coach.calc.registry import load_all
    from coach.content.schema import ExpectedQuantity, NumericCheck, ValueSpec

    calcs = load_all()
    wrong = next(c for c in calcs.values() if c.wrong_of and c.misconception)
    bank, item, rubric = _bank()
    bank.misconceptions[str(wrong.misconception)] = _mis(str(wrong.misconception), concept="elsewhere")
    bank.items[item.id] = item.model_copy(update={"values": {"v": ValueSpec(calc=wrong.wrong_of, args={})}})
    crits = list(rubric.criteria)
    crits[0] = crits[0].model_copy(update={"numeric": NumericCheck(quantities=(ExpectedQuantity(value="v"),))})
    bank.rubrics[rubric.id] = rubric.model_copy(update={"criteria": tuple(crits)})
    found = addressed_misconceptions(bank, bank.items[item.id], bank.rubrics[rubric.id])  # type: ignore[arg-type]
    assert wrong.misconception in found and wrong.name in found[str(wrong.misconception)]


def test_a_stale_note_is_an_error() -> None:
    bank, item, rubric = _bank()
    bank.items[item.id] = item.model_copy(update={"tags": ("misconception:pp-lowers-latency",)})
    q = bank.items["q01"]
    assert not isinstance(q, ShortItem)
    tagged = Option(text="w", misconception="pp-lowers-latency")
    bank.items["q01"] = q.model_copy(update={"options": (*q.options[:1], tagged, *q.options[2:])})
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency").model_copy(update={
        "misconceptions": "none, because the question asks only for a definition with no trap in it"})
    assert any("remove the note" in m for m in _messages(bank))


# --- statements ---------------------------------------------------------------------------------------------

def test_an_attached_misconception_needs_two_statements() -> None:
    bank, _, rubric = _bank()
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency")
    assert check_statements(bank) == []
    bank.misconceptions["pp-lowers-latency"] = _mis("pp-lowers-latency", statements=STATEMENTS[:1])
    problems = check_statements(bank)
    assert len(problems) == 1 and problems[0].record == "pp-lowers-latency"
    assert "attached to s01/serial but has 1 statement(s)" in problems[0].message


def test_an_unattached_misconception_needs_none() -> None:
    bank, _, _ = _bank()
    bank.misconceptions["pp-lowers-latency"] = _mis("pp-lowers-latency", statements=())
    assert check_statements(bank) == []


def test_statements_copy_no_phrasing_no_heldout_and_no_each_other() -> None:
    bank, _, rubric = _bank()
    bank.rubrics[rubric.id] = _attach(rubric, "pp-lowers-latency")
    held = "Going to a deeper pipeline makes every single request come back sooner."
    copies = ("PP4 cuts the time per token to a quarter.",  # the phrasing, punctuation aside
              held.replace("sooner", "sooner!"), STATEMENTS[0], STATEMENTS[0].lower(), "Too short a claim.")
    bank.misconceptions["pp-lowers-latency"] = _mis("pp-lowers-latency", statements=copies)
    msgs = [p.message for p in check_statements(bank, heldout=(held,))]
    assert sum("copies the phrasing" in m for m in msgs) == 1
    assert sum("copies the held-out dev-set statement" in m for m in msgs) == 1
    assert sum("repeats an earlier statement" in m for m in msgs) == 1
    assert sum("at least 6 words" in m for m in msgs) == 1


def test_heldout_statements_are_read_from_the_devsets(tmp_path: Path) -> None:
    assert heldout_statements(tmp_path) == ()
    (tmp_path / "devsets").mkdir()
    (tmp_path / "devsets" / "misconceptions_heldout.yaml").write_text(
        "- misconception: a\n  statements: [one sentence here, another one]\n", encoding="utf-8")
    assert heldout_statements(tmp_path) == ("one sentence here", "another one")


def test_check_bank_runs_the_rules() -> None:
    bank, _, _ = _bank()
    assert any("no criterion carries a misconception" in p.message
               for p in check_bank(bank, enforce_counts=False))

