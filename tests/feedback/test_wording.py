"""Counts in the feedback read as English: one question, two questions (not 'question(s)')."""

from coach.feedback.coach import questions


def test_question_counts_are_pluralised() -> None:
    assert questions(1) == "1 question"
    assert [questions(n) for n in (0, 2, 5)] == ["0 questions", "2 questions", "5 questions"]
