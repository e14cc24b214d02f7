"""The dev sets stay out of training: none of their texts is a training pair or a catalogue phrasing, and every
attached misconception has its two held-out statements."""

from __future__ import annotations

import random

from coach.content.bank import Bank
from coach.evals import devsets
from coach.evals.xenc_pairs import bank_pairs
from coach.grading.text import sentences


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .")


def test_no_dev_text_is_a_training_pair_or_a_catalogue_phrasing(bank: Bank) -> None:
    seen = set()
    for seed in range(3):  # the pairs' random choices vary with the seed; the texts they draw on do not
        for a, b, _ in bank_pairs(bank, random.Random(seed)):
            seen |= {_norm(a), _norm(b), *(_norm(s) for s in sentences(a))}
    for m in bank.misconceptions.values():
        seen |= {_norm(t) for t in (m.statement, *m.phrasings, *getattr(m, "statements", ()))}
    dev = devsets.texts()
    assert len(dev) > 100
    overlap = [t for t in dev if _norm(t) in seen or any(_norm(s) in seen for s in sentences(t))]
    assert not overlap


def test_every_attached_misconception_has_two_held_out_statements(bank: Bank) -> None:
    held = {r["misconception"]: r["statements"] for r in devsets.load(devsets.DEFAULT_DIR, "misconceptions_heldout")}
    attached = {m for r in bank.rubrics.values() for c in r.criteria for m in c.misconceptions}
    assert attached <= set(held)
    assert all(len(held[m]) == 2 for m in attached)


def test_dev_answers_name_existing_items(bank: Bank) -> None:
    for name in ("paraphrases", "flipped", "gaming", "numeric_swaps"):
        assert all(r["item"] in bank.items for r in devsets.load(devsets.DEFAULT_DIR, name))


def test_dev_set_targets_carry_the_numeric_checks_the_app_grades_with(bank: Bank) -> None:
    """The dev sets are graded as the app grades (`target_for`): a criterion that declares quantities keeps them,
    so a flipped answer's wrong number is measured (the targets once lacked them)."""
    targets = devsets._targets(bank)
    declared = {(item_id, c.id) for item_id, (_, rubric) in targets.items() for c in rubric.criteria if c.numeric}
    assert declared
    carried = {(item_id, c.id) for item_id, (target, _) in targets.items() for c in target.criteria
               if c.numeric is not None}
    assert carried == declared


class _Scripted:
    """Marks criterion c1 contradicted on any sentence that says "wrongly", naming misconception `mid` there (when
    given), and contradicted without a name on "oddly"."""

    def __init__(self, mid: str | None = None) -> None:
        self.mid = mid

    def grade_many(self, rows):  # type: ignore[no-untyped-def]
        from coach.grading.score import CriterionResult, Score, Verdict
        from coach.vocab import Dimension

        def verdict(answer: str) -> tuple[Verdict, str | None]:
            if "wrongly" in answer:
                return Verdict.CONTRADICTED, self.mid
            return (Verdict.CONTRADICTED, None) if "oddly" in answer else (Verdict.MET, None)

        return [Score(value=0.5, source="embedding", criteria=(CriterionResult(
            criterion_id="c1", description="d", weight=1.0, dimension=Dimension.CONCEPTUAL,
            verdict=verdict(a)[0], misconception_id=verdict(a)[1]),)) for a, _ in rows]


def test_sentence_precision_counts_each_model_answer_sentence_read_as_contradicted(bank: Bank) -> None:
    targets = devsets._targets(bank)
    first = next(iter(targets))
    target, rubric = targets[first]
    one = {first: (target.model_copy(update={"reference": "This sentence is right and long. This one is wrongly "
                                             "read by the grader. Short one."}), rubric)}
    result = devsets.sentence_precision(_Scripted(), one)
    assert result["n"] == 2  # sentences under five words are left out
    assert result["share_with_a_contradicted_criterion"] == 0.5
    assert result["contradicted"] == [f"{target.key}/c1"]


def test_paraphrase_sentences_are_read_alone_against_their_items_target(bank: Bank) -> None:
    targets = devsets._targets(bank)
    first = next(iter(targets))
    recs = [{"item": first, "answer": "This paraphrase sentence is right. It is wrongly read by the grader. Short."}]
    result = devsets.paraphrase_sentences(_Scripted(), targets, recs)
    assert result["n"] == 2 and result["share_with_a_contradicted_criterion"] == 0.5
    assert result["contradicted"] == [f"{targets[first][0].key}/c1"]


def test_every_attached_misconception_has_a_negated_and_a_corrected_denial(bank: Bank) -> None:
    denials = {r["misconception"]: r for r in devsets.load(devsets.DEFAULT_DIR, "denials")}
    attached = {m for r in bank.rubrics.values() for c in r.criteria for m in c.misconceptions}
    assert attached <= set(denials)
    assert all(denials[m][form].strip() for m in attached for form in devsets.DENIAL_FORMS)


def test_denials_count_the_denied_misconception_named_on_every_item_that_attaches_it(bank: Bank) -> None:
    targets = devsets._targets(bank)
    item = next(i for i, (_, r) in targets.items() if r.criteria[0].misconceptions)
    mid = targets[item][1].criteria[0].misconceptions[0]
    one = {item: targets[item]}
    recs = [{"misconception": mid, "negated": "It is wrongly read.", "corrected": "It is oddly read."}]
    result = devsets.denials(_Scripted(mid), one, recs)
    assert result["negated"]["n"] == 1
    assert result["negated"]["names_the_denied_misconception"] == 1.0
    assert result["negated"]["named"] == [f"{item}/{mid}"]
    # contradicted without naming it: counted apart
    assert result["corrected"]["names_the_denied_misconception"] == 0.0
    assert result["corrected"]["with_a_contradicted_criterion"] == 1.0


def test_answers_that_state_no_misconception_count_each_one_named() -> None:
    recs = [{"item": "a", "answer": "It is wrongly read."}, {"item": "b", "answer": "It is oddly read."},
            {"item": "c", "answer": "It is read well."}, {"item": "d", "answer": "Also wrongly read."}]
    graded = _Scripted("some-mis").grade_many([(r["answer"], None) for r in recs])
    result = devsets.misconceptions_named(recs, graded)
    # contradicted without a name ("oddly") is not counted: no misconception was put in the candidate's mouth
    assert result["share_naming_a_misconception"] == 0.5
    assert result["named"] == ["a/c1/some-mis", "d/c1/some-mis"]


def test_numeric_swaps_name_criteria_that_expect_two_figures_and_quantities_they_declare(bank: Bank) -> None:
    recs = devsets.load(devsets.DEFAULT_DIR, "numeric_swaps")
    assert {r["kind"] for r in recs} == {"right", "swapped"}
    for r in recs:
        criterion = next(c for c in bank.rubric_for(bank.items[r["item"]]).criteria if c.id == r["criterion"])
        names = {q.value for q in criterion.numeric.quantities}
        assert len(names) >= 2 and set(r.get("swapped", ())) <= names, r["item"]
        assert (r["kind"] == "swapped") == (len(r.get("swapped", ())) == 2), r["item"]


def test_numeric_swaps_count_the_named_criterion_contradicted_for_each_kind(bank: Bank) -> None:
    targets = devsets._targets(bank)
    first = next(iter(targets))
    recs = [{"item": first, "criterion": "c1", "kind": "right", "answer": "All in place."},
            {"item": first, "criterion": "c1", "kind": "right", "answer": "It is oddly read."},
            {"item": first, "criterion": "c1", "kind": "swapped", "answer": "It is wrongly placed."},
            {"item": first, "criterion": "c2", "kind": "swapped", "answer": "It is wrongly placed, on c1 only."}]
    result = devsets.numeric_swaps(_Scripted(), targets, recs)
    assert result["right"] == {"n": 2, "contradicted_on_criterion": 0.5, "misses": [first]}
    assert result["swapped"] == {"n": 2, "contradicted_on_criterion": 0.5, "misses": [first]}
