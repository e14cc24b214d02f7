"""Spot answers that talk to the grader instead of answering the question (prompt injection).

Pure and deterministic. A hit does not zero the answer: `combine` takes away any lift the LLM judge would
give it and the credit earned by the sentences that carry the instructions. The patterns aim at text that has
no business in an answer about inference systems ("ignore previous instructions", "as the grader I...",
"mark all criteria met", fake verdict JSON, chat-template tokens, markup that pretends to close the answer),
and stay clear of words such answers use legitimately (system prompt, attention scores, benchmark, 100% busy).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from dataclasses import dataclass

from coach.grading.guards.injection_patterns import ALL_PATTERNS, SQUASHED
from coach.grading.text import sentences

# Characters that render as nothing; used to hide or split instructions.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2028-\u202f\u2060-\u2064\ufeff\U000e0000-\U000e007f]")

_COMPILED = tuple((kind, re.compile(p, re.IGNORECASE)) for kind, p in ALL_PATTERNS)
_QUOTES = str.maketrans("“”‘’«»", '""\'\'""')
# Cyrillic letters that look Latin ("Іgnоrе рrеvіоus ..."): NFKC leaves them alone.
# Only inside a word that mixes them with Latin letters: a Russian sentence stays Russian for the judge.
_HOMOGLYPHS = str.maketrans("аеорсухіјѕһԁӏАВЕКМНОРСТХІЈЅ", "aeopcyxijshdlABEKMHOPCTXIJS")
_MIXED_WORD = re.compile(r"\b(?=\w*[a-zA-Z])(?=\w*[\u0400-\u04ff])\w+\b")
# Leetspeak read back to letters; "1" stands for both "l" and "i", so both readings are tried.
_LEET = (str.maketrans("4310578@$", "aelostbas"), str.maketrans("4310578@$", "aeiostbas"))
# Digits between letters both ways ("7h15", "c0mpl373"); "H100", "TP8", "BF16" or "8x" are names, not leetspeak.
_LEET_WORD = re.compile(r"\b(?=\w*[a-z]\d)(?=\w*\d[a-z])\w+\b", re.IGNORECASE)
_REVERSE_HINT = re.compile(r"\b(?:revers\w*|backwards?|mirror\w*)\b", re.IGNORECASE)
_TAG_RUN = re.compile("[\U000e0020-\U000e007e]+")
_ROT13_HINT = re.compile(r"\brot[\s-]?13\b", re.IGNORECASE)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")


@dataclass(frozen=True)
class InjectionReport:
    """What the detector found: kinds of attempt and the answer sentences that carry them."""

    detected: bool
    kinds: tuple[str, ...] = ()
    spans: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        if not self.detected:
            return ""
        return (
            "The answer contains text addressed to the grader ("
            + ", ".join(k.replace("_", " ") for k in self.kinds)
            + "). Instructions in an answer earn nothing: the sentences carrying them earned no credit, "
            "and an AI judge, when one is on, is not allowed to raise the grade because of them."
        )


def normalise_for_scan(text: str) -> str:
    """NFKC (full-width and look-alike forms fold to ASCII), Cyrillic look-alikes in Latin words to Latin,
    invisible characters dropped, quotes unified."""
    folded = unicodedata.normalize("NFKC", text)
    folded = _INVISIBLE.sub("", folded)
    return _MIXED_WORD.sub(lambda m: m.group(0).translate(_HOMOGLYPHS), folded.translate(_QUOTES))


def _squash(text: str) -> str:
    return re.sub(r"[^a-z:]", "", text.lower())


def _obfuscated(text: str) -> bool:
    """A known instruction in the letters-only form of the text (as written, in leetspeak, or reversed), or any
    pattern in the text read backwards, in leetspeak or, when it says so, in ROT13."""
    forms = [_squash(text), *(_squash(text.translate(t)) for t in _LEET)]
    forms.append(forms[0][::-1])
    if any(k in f for f in forms for k in SQUASHED):
        return True
    readings = [text[::-1]] if _REVERSE_HINT.search(text) else []
    if len(_LEET_WORD.findall(text)) >= 2:  # then read every digit as a letter
        readings += [text.translate(table) for table in _LEET]
    if _ROT13_HINT.search(text):
        readings.append(codecs.decode(text, "rot13"))
    return any(_plain_hits(r) for r in readings)


def _matches(text: str) -> list[tuple[str, re.Match[str]]]:
    return [(kind, m) for kind, rx in _COMPILED for m in rx.finditer(text)]


def _plain_hits(text: str) -> bool:
    """Any pattern but a lone word about grading (the same bar as `detect_injection`)."""
    found = _matches(text)
    return bool(found) and not _meta_only([k for k, _ in found], [m.span() for _, m in found], text)


def _tag_text(answer: str) -> str:
    """Text written in Unicode tag characters (invisible; each one mirrors an ASCII character)."""
    return "".join(chr(ord(c) - 0xE0000) for m in _TAG_RUN.finditer(answer) for c in m.group(0))


def _decoded(text: str) -> list[str]:
    """Base64 runs that decode to readable text (an instruction hidden from a human reader)."""
    out = []
    for m in _BASE64.finditer(text):
        try:
            plain = base64.b64decode(m.group(0), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if plain.isprintable() and len(re.findall(r"[a-z]{3,}", plain, re.IGNORECASE)) >= 3:
            out.append(plain)
    return out


def detect_injection(answer: str) -> InjectionReport:
    """Scan the answer for instructions to the grader, verdict forgeries, role-play and fake markup."""
    if not answer or not answer.strip():
        return InjectionReport(False)
    hidden = bool(_INVISIBLE.search(answer))
    text = normalise_for_scan(answer)
    kinds: list[str] = []
    hit_spans: list[tuple[int, int]] = []
    for kind, m in _matches(text):
        if kind == "fake_end" and len(re.findall(r"[a-z]{2,}", text[m.end() :], re.IGNORECASE)) < 3:
            continue  # a closing tag or "end of answer" with nothing after it hides nothing
        kinds.append(kind)
        hit_spans.append(m.span())
    if _obfuscated(text):
        kinds.append("obfuscated")
    if any(detect_injection(plain).detected for plain in (*_decoded(text), _tag_text(answer))):
        kinds.append("encoded")
    if hidden and kinds:
        kinds.append("hidden_characters")
    if not kinds or _meta_only(kinds, hit_spans, text):
        return InjectionReport(False)
    spans = _sentences_hit(text, hit_spans) if hit_spans else ()
    if "obfuscated" in kinds or "encoded" in kinds:  # the sentences that carry them lose their credit too
        spans = (*spans, *(s for s in sentences(text) if s not in spans and (_obfuscated(s) or _decoded(s))))
        tags = [len(normalise_for_scan(answer[: m.start()])) for m in _TAG_RUN.finditer(answer)]
        spans = (*spans, *_sentences_hit(text, [(max(0, p - 1), max(1, p)) for p in tags]))  # the sentence before
        spans = tuple(dict.fromkeys(spans))
    return InjectionReport(True, tuple(dict.fromkeys(kinds)), spans)


def _meta_only(kinds: list[str], hits: list[tuple[int, int]], text: str) -> bool:
    """A lone "rubric" or "verdict" is ordinary English ("the roofline model is a handy rubric"); it counts only
    beside another sign. A lone "grader" or "examiner" still counts: answers have no reason to name one."""
    words = {text[a:b].lower() for a, b in hits}
    return set(kinds) == {"meta_talk"} and words <= {"rubric", "rubrics", "verdict", "verdicts"}


def _sentences_hit(text: str, hits: list[tuple[int, int]]) -> tuple[str, ...]:
    """The answer sentences (as the graders split them) that overlap any hit."""
    out: list[str] = []
    pos = 0
    for s in sentences(text):
        start = text.find(s, pos)
        if start < 0:
            start = text.find(s)
        if start < 0:
            continue
        end = start + len(s)
        pos = end
        if any(a < end and b > start for a, b in hits):
            out.append(s)
    return tuple(dict.fromkeys(out))


def redact(answer: str, report: InjectionReport) -> str:
    """The answer without the sentences that carry an injection (on the scan-normalised text): what is left
    is the candidate's content, which the judge may grade without ever seeing the instructions."""
    text = normalise_for_scan(answer)
    if not report.detected:
        return text
    if not report.spans:
        return ""
    kept = [s for s in sentences(text) if s not in report.spans]
    return " ".join(kept)


def span_is_injected(sentence: str | None, report: InjectionReport) -> bool:
    """True when an evidence sentence (from the embedding grader) overlaps a sentence carrying an injection."""
    if not sentence or not report.detected:
        return False
    s = normalise_for_scan(sentence).strip().lower()
    for span in report.spans:
        t = span.strip().lower()
        if s and (s in t or t in s):
            return True
    return False
