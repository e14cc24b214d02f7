"""Dataset readers on tiny files written here (no dataset is copied into the repo)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from coach.evals.datasets import DIGIKLAUSUR_REFERENCES, DatasetError, read_digiklausur
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
