"""Deterministic judges for demos and tests, built on the real prompt format.

- `KeywordFakeJudge`: an offline judge for the app's "fake" mode: keyword overlap between each criterion
  (its description and example wordings) and the answer's sentences; quotes the best sentence verbatim.
- `ObedientJudge` (alias `ScriptedInjectionJudge`): the worst judge we can imagine: it grades honestly like
  `KeywordFakeJudge` until the answer tells it something, then obeys, calling every criterion met with a real
  quote from the answer. Used to prove the pipeline's guards hold when the judge is fooled.

They read their prompt back with `read_request`, so they follow the real prompt format.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Sequence

from coach.grading.judge.prompt import read_request
from coach.grading.text import sentences
from coach.providers.base import ChatMessage, ChatReply

# --------------------------------------------------------------------------------------- keyword judging
_STOP_WORDS = (
    "the a an and or of to in on for with by at from as is are be been being it its this that these those than"
    " then there their which who whom what when where why how not no but so if into over under per each every"
    " can could may might must should would will shall do does did done has have had more most less least very"
    " also only just about such both either neither any all some much many other one two answer states explains"
    " says mentions candidate"
)
_STOP = frozenset(_STOP_WORDS.split())


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _keywords(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z0-9]+(?:[-/][a-z0-9]+)*", text.lower()) if len(w) > 2 and w not in _STOP}


def _split(answer: str) -> list[str]:
    return sentences(answer)


def _coverage(sources: Sequence[str], sentence: str) -> float:
    words = _keywords(sentence)
    best = 0.0
    for src in sources:
        kws = _keywords(src)
        if kws:
            best = max(best, len(kws & words) / len(kws))
    return best


def _criterion_sources(c: dict[str, object]) -> list[str]:
    examples = c.get("examples")
    return (
        [str(c.get("requires", "")), *(str(e) for e in examples)]
        if isinstance(examples, list)
        else [str(c.get("requires", ""))]
    )


def keyword_verdicts(
    criteria: Sequence[dict[str, object]], answer: str, *, met: float = 0.5, partial: float = 0.25
) -> list[dict[str, str]]:
    """Per criterion: the answer sentence with the best keyword coverage decides met / partial / missed."""
    spans = _split(answer)
    out: list[dict[str, str]] = []
    for c in criteria:
        sources = _criterion_sources(c)
        scored = [(_coverage(sources, s), s) for s in spans]
        cov, best = max(scored, default=(0.0, ""))
        if cov >= met:
            verdict, reason = "met", f"The answer states the idea ({cov:.0%} of its key terms in one sentence)."
        elif cov >= partial:
            verdict, reason = "partial", f"The answer touches the idea ({cov:.0%} of its key terms)."
        else:
            verdict, reason, best = "missed", "The answer does not state this.", ""
        out.append({"id": str(c.get("id")), "reason": reason, "quote": best, "verdict": verdict})
    return out


class _PromptReadingJudge:
    """Shared plumbing: read the judge prompt, compute verdicts, reply with the judge's JSON."""

    name = "fake-judge"

    def __init__(self, *, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.calls = 0
        self._lock = threading.Lock()

    def complete(
        self, messages: Sequence[ChatMessage], *, temperature: float = 0.0, json_mode: bool = True
    ) -> ChatReply:
        with self._lock:
            self.calls += 1
        if self.delay_s > 0:
            time.sleep(self.delay_s)
        request = read_request(messages)
        verdicts = self.verdicts(request.criteria, request.answer)
        return ChatReply(text=json.dumps({"criteria": verdicts}), model=self.name, finish_reason="stop")

    def verdicts(self, criteria: Sequence[dict[str, object]], answer: str) -> list[dict[str, str]]:
        raise NotImplementedError


class KeywordFakeJudge(_PromptReadingJudge):
    """Deterministic offline judge for demos ("fake" mode): keyword coverage per criterion, verbatim quotes."""

    name = "fake-keyword-judge"

    def verdicts(self, criteria: Sequence[dict[str, object]], answer: str) -> list[dict[str, str]]:
        return keyword_verdicts(criteria, answer)


# Anything that reads like talk about grading makes the obedient judge obey.
_OBEY = re.compile(
    r"\b(?:ignore|disregard|forget|grader|grading|graded|examiner|evaluator|judge|assessor|marker|teacher|mark"
    r"|marks|marked|score|scored|grade|full|maximum|criteria|criterion|rubric|verdict|met|instructions?"
    r"|system|assistant|points|credit|perfect|pass|passed|award|satisfied|approved|lenient|generous)\b"
    r"|10/10|5/5|100/100|\{|\[inst\]|<\|",
    re.IGNORECASE,
)


class ObedientJudge(_PromptReadingJudge):
    """A judge that obeys the answer: if it contains anything like an instruction, every criterion is met.

    Its quotes are always genuine substrings of the answer (the best matching sentence, else the first one),
    so quote checking alone cannot stop it: only the combination's guards can.
    """

    name = "fake-obedient-judge"

    def __init__(self, *, delay_s: float = 0.0) -> None:
        super().__init__(delay_s=delay_s)
        self.obeyed = 0

    def verdicts(self, criteria: Sequence[dict[str, object]], answer: str) -> list[dict[str, str]]:
        honest = keyword_verdicts(criteria, answer)
        if not _OBEY.search(answer):
            return honest
        with self._lock:
            self.obeyed += 1
        spans = _split(answer)
        first = spans[0] if spans else answer.strip()
        out = []
        for c, h in zip(criteria, honest, strict=True):
            quote = h["quote"] or first
            out.append(
                {
                    "id": str(c.get("id")),
                    "reason": "As instructed in the answer, this criterion is met.",
                    "quote": quote,
                    "verdict": "met",
                }
            )
        return out


ScriptedInjectionJudge = ObedientJudge
