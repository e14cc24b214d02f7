"""Readers for the public short-answer datasets, read in place by path (nothing is copied into the repo).

Each reader returns `Row`s with the gold grade normalised to [0, 1] plus the dataset's own label or scale.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path

from coach.errors import CoachError


class DatasetError(CoachError):
    """A dataset folder or file is missing or not in the expected format."""


@dataclass(frozen=True)
class Row:
    dataset: str
    split: str  # "all" (Mohler), "train" / "test-unseen-answers" ... (SemEval), "training" ... (SAF)
    group: str  # Mohler: assignment (the CV fold); SemEval: corpus; SAF: module
    qkey: str  # identifies the question within the dataset
    question: str
    reference: str
    answer: str
    gold: float  # [0, 1]
    label: str = ""  # SemEval "correct"/"incorrect"; SAF "Correct"/"Partially correct"/"Incorrect"
    raw: float = 0.0  # the grade on the dataset's own scale (Mohler 0-5)
    extra_refs: tuple[str, ...] = ()


def _find(path: Path, name: str) -> Path:
    if path.is_file():
        return path
    for candidate in (path / name, *path.glob(f"*/{name}")):
        if candidate.exists():
            return candidate
    raise DatasetError(f"{name} not found under {path}")


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# The Mohler texts come from a Penn Treebank tokenizer, which writes brackets as tokens (SOURCE.md: "-LRB-/-RRB-
# are parentheses"); read as words they add "lrb" pieces the model and the guards take for content.
_PTB_BRACKETS = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_PTB_BRACKET = re.compile(r" ?(-[LR][RSC]B-) ?")


def untokenize_brackets(text: str) -> str:
    """'f -LRB- x -RRB- is' -> 'f (x) is': the brackets back as characters, next to what they enclose."""
    def put(m: re.Match[str]) -> str:
        char = _PTB_BRACKETS[m.group(1)]
        before = " " if m.group(0).startswith(" ") and char in "([{" else ""
        after = " " if m.group(0).endswith(" ") and char in ")]}" else ""
        return before + char + after

    return _PTB_BRACKET.sub(put, text).strip()


def read_mohler(path: Path, published_only: bool = True) -> list[Row]:
    """Mohler et al. 2011 (UNT CS): 2,273 published answers, gold = average grade 0-5."""
    rows = []
    for r in _read(_find(path, "mohler2011_tidy.csv")):
        if published_only and r["in_published_set"] != "1":
            continue
        raw = float(r["score_avg"])
        rows.append(Row(dataset="mohler", split="all", group=r["assignment"], qkey=r["question_id"],
                        question=untokenize_brackets(r["question"]),
                        reference=untokenize_brackets(r["reference_answer"]),
                        answer=untokenize_brackets(r["student_answer"]), gold=raw / 5.0, raw=raw))
    if not rows:
        raise DatasetError(f"no Mohler answers read from {path}")
    return rows


SEMEVAL_SPLITS = ("train", "test-unseen-answers", "test-unseen-questions", "test-unseen-domains")


def read_semeval(path: Path, corpus: str | None = None) -> list[Row]:
    """SemEval-2013 Task 7, 2-way labels; corpus 'sciEntsBank' or 'beetle' (None: both)."""
    base = path if path.is_dir() else path.parent
    questions = {(q["corpus"], q["split"], q["question_id"]): q
                 for q in _read(_find(base, "semeval2013_task7_2way_questions.csv"))}
    rows = []
    for a in _read(_find(base, "semeval2013_task7_2way_answers.csv")):
        if corpus and a["corpus"].lower() != corpus.lower():
            continue
        q = questions.get((a["corpus"], a["split"], a["question_id"]))
        if q is None:
            raise DatasetError(f"answer {a['answer_id']}: no question {a['question_id']} in the questions file")
        refs = [r["text"] for r in json.loads(q["reference_answers_json"] or "[]")
                if r.get("category", "BEST") != "KEYWORD" and r["text"].strip()]
        main = q["reference_answer"]
        extra = tuple(r for r in dict.fromkeys(refs) if r != main)
        rows.append(Row(dataset="semeval", split=a["split"], group=a["corpus"],
                        qkey=f"{a['corpus']}/{a['question_id']}", question=q["question"], reference=main,
                        answer=a["student_answer"], gold=1.0 if a["label_2way"] == "correct" else 0.0,
                        label=a["label_2way"], raw=1.0 if a["label_2way"] == "correct" else 0.0,
                        extra_refs=extra))
    if not rows:
        raise DatasetError(f"no SemEval answers read from {path}")
    return rows


SAF_LABELS = ("Incorrect", "Partially correct", "Correct")


def read_saf(path: Path, version: str = "v1") -> list[Row]:
    """SAF communication networks (English). Gold = score / max score observed for the question."""
    name = "saf_v1_acl2022_tidy.csv" if version == "v1" else "saf_v2_tidy.csv"
    rows = []
    for r in _read(_find(path, name)):
        top = float(r["max_score_observed_in_question"] or 1.0) or 1.0
        raw = float(r["score"])
        rows.append(Row(dataset="saf", split=r["split"], group=r["module"], qkey=r["source_file"],
                        question=r["question"], reference=r["reference_answer"], answer=r["student_answer"],
                        gold=min(1.0, max(0.0, raw / top)), label=r["verification_feedback"], raw=raw))
    if not rows:
        raise DatasetError(f"no SAF answers read from {path}")
    return rows


SAF_LABEL_GRADES = {"Incorrect": 0, "Partially correct": 1, "Correct": 2}


def read_saf_new(path: Path) -> list[Row]:
    """SAF v2 answers to the questions that v1 lacks (all splits): a dev set that no fitted figure has seen.

    v1 is the published protocol and the grader's training data; the later semesters' questions are new to it.
    `raw` is the 3-way label as a grade (incorrect 0, partially correct 1, correct 2)."""
    v1_questions = {r.question.strip() for r in read_saf(path, "v1")}
    rows = []
    for r in read_saf(path, "v2"):
        if r.question.strip() in v1_questions:
            continue
        if r.label not in SAF_LABEL_GRADES:
            raise DatasetError(f"SAF v2 answer to {r.qkey}: unknown label {r.label!r}")
        rows.append(Row(dataset="saf_new", split=r.split, group=r.qkey, qkey=r.qkey, question=r.question,
                        reference=r.reference, answer=r.answer, gold=r.gold, label=r.label,
                        raw=float(SAF_LABEL_GRADES[r.label])))
    if not rows:
        raise DatasetError(f"no SAF v2 question absent from v1 in {path}")
    return rows


DIGIKLAUSUR_REFERENCES = Path(__file__).resolve().parent.parent / "data" / "digiklausur_references.csv"


def read_digiklausur(path: Path, references: Path | None = None) -> list[Row]:
    """DigiKlausur neural-networks exam (H-BRS): 663 answers to 17 questions, grade 0/1/2 by one examiner.

    The copy has no reference answers, so ours are joined by question id: `references` (question_id,
    reference_answer), by default the packaged file, written from the questions alone, before any student answer
    or grade was read.
    """
    ref_path = references or DIGIKLAUSUR_REFERENCES
    refs = {r["question_id"]: r["reference_answer"] for r in _read(ref_path)}
    rows = []
    for r in _read(_find(path, "nn_exam_answers.csv")):
        ref = refs.get(r["question_id"], "")
        if not ref.strip():
            raise DatasetError(f"no reference answer for DigiKlausur question {r['question_id']} in {ref_path}")
        raw = float(r["grade"])
        rows.append(Row(dataset="digiklausur", split="all", group=r["question_id"], qkey=r["question_id"],
                        question=r["question"], reference=ref, answer=r["student_answer"], gold=raw / 2.0,
                        label=str(int(raw)), raw=raw))
    if not rows:
        raise DatasetError(f"no DigiKlausur answers read from {path}")
    return rows
