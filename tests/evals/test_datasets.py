"""Dataset readers on tiny files written here (no dataset is copied into the repo)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from coach.evals.datasets import DIGIKLAUSUR_REFERENCES, DatasetError, read_digiklausur, read_mohler, read_saf_new
from tests.factories import write_csv

ANSWERS = ["student_id", "question_id", "question", "student_answer", "grade"]


def test_digiklausur_joins_our_references_and_scales_the_grade(tmp_path: Path) -> None:
    write_csv(tmp_path / "nn_exam_answers.csv", ANSWERS, [["usb1", "4", "Explain classification and regression",
                                                        "Classes versus a continuous output.", "1"]])
    refs = write_csv(tmp_path / "refs.csv", ["question_id", "reference_answer"], [["4", "Classification predicts..."]])
    (row,) = read_digiklausur(tmp_path, refs)
    assert (row.reference, row.gold, row.raw, row.qkey) == ("Classification predicts...", 0.5, 1.0, "4")


def test_digiklausur_names_a_question_without_a_reference(tmp_path: Path) -> None:
    write_csv(tmp_path / "nn_exam_answers.csv", ANSWERS, [["usb1", "18", "A new question?", "An answer.", "2"]])
    with pytest.raises(DatasetError, match="question 18"):
        read_digiklausur(tmp_path)


def test_the_packaged_references_cover_the_17_questions() -> None:
    with DIGIKLAUSUR_REFERENCES.open(encoding="utf-8") as f:
        refs = {r["question_id"]: r["reference_answer"] for r in csv.DictReader(f)}
    assert sorted(refs, key=int) == [str(i) for i in range(1, 18)]
    assert all(len(text.split()) >= 30 for text in refs.values())


SAF = ["split", "source_file", "question_id", "module", "question", "reference_answer", "answer_id",
       "student_answer", "score", "max_score_observed_in_question", "verification_feedback", "response_feedback"]


def _saf(question: str, source: str, answer: str, score: str, label: str) -> list[str]:
    return ["training", source, "1", "", question, "A reference.", "a1", answer, score, "2.0", label, "ok"]


def test_saf_new_keeps_only_the_questions_v1_lacks(tmp_path: Path) -> None:
    old = "What does TCP add to IP?"
    write_csv(tmp_path / "saf_v1_acl2022_tidy.csv", SAF, [_saf(old, "1.1.xml", "Reliability.", "1", "Correct")])
    write_csv(tmp_path / "saf_v2_tidy.csv", SAF, [
        _saf(old + " ", "1.1.xml", "Reliability.", "1", "Correct"),  # the same question, re-exported
        _saf("Why can duplicate packets be a problem?", "5.11.xml", "They waste bandwidth.", "1.0",
             "Partially correct"),
    ])
    (row,) = read_saf_new(tmp_path)
    assert (row.qkey, row.raw, row.gold, row.dataset) == ("5.11.xml", 1.0, 0.5, "saf_new")


def test_saf_new_names_an_unknown_label(tmp_path: Path) -> None:
    write_csv(tmp_path / "saf_v1_acl2022_tidy.csv", SAF, [_saf("Q1?", "1.xml", "A.", "1", "Correct")])
    write_csv(tmp_path / "saf_v2_tidy.csv", SAF, [_saf("Q2?", "2.xml", "A.", "1", "Mostly right")])
    with pytest.raises(DatasetError, match=r"2\.xml: unknown label 'Mostly right'"):
        read_saf_new(tmp_path)


MOHLER = ["question_id", "assignment", "question_no", "answer_idx", "in_published_set", "question",
          "reference_answer", "student_answer", "grader1_ta_raw", "grader2_mohler_raw", "raw_scale_max", "score_avg"]


def test_mohler_reads_treebank_brackets_as_brackets(tmp_path: Path) -> None:
    write_csv(tmp_path / "mohler2011_tidy.csv", MOHLER, [
        ["1.1", "1", "1", "1", "1", "What is f -LRB- n -RRB- ?", "O -LRB- n log n -RRB- time",
         "it runs in O -LRB- n log n -RRB- , see a -LSB- i -RSB-", "5", "4", "5", "4.5"],
        ["4.6", "4", "6", "1", "0", "Order these.", "a b", "b a", "1", "1", "5", "1"]])
    (row,) = read_mohler(tmp_path)
    assert (row.question, row.reference) == ("What is f (n) ?", "O (n log n) time")
    assert row.answer == "it runs in O (n log n) , see a [i]"
    assert (row.gold, row.raw, row.group, row.qkey) == (0.9, 4.5, "1", "1.1")
