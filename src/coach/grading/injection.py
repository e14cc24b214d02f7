"""Spot answers that talk to the grader instead of answering the question (prompt injection).

Pure and deterministic. A hit does not zero the answer: `combine` takes away any lift the LLM judge would
give it and the credit earned by the sentences that carry the instructions. The patterns aim at text that has
no business in an answer about inference systems ("ignore previous instructions", "as the grader I...",
"mark all criteria met", fake verdict JSON, chat-template tokens, markup that pretends to close the answer),
and stay clear of words such answers use legitimately (system prompt, attention scores, benchmark, 100% busy).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from coach.grading.text import sentences

# Characters that render as nothing; used to hide or split instructions.
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2028-\u202f\u2060-\u2064\ufeff\U000e0000-\U000e007f]")

_GRADER = r"(?:grader|examiner|marker|evaluator|assessor|judge|reviewer|teacher|instructor|professor|tutor)"
_AI = r"(?:ai|llm|language model|model|assistant|chat ?gpt|gpt|claude|bot)"
_FAVOUR = (
    r"(?:met|satisfied|fulfilled|passed|correct|complete|perfect|fully|full|maximum|max|excellent"
    r"|100|10/10|5/5|1\.0|top)"
)

_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "override",
        r"\b(?:ignore|disregard|forget|override|overrule)\b[^.\n]{0,20}"
        r"\b(?:previous|prior|above|earlier|preceding|original|all|any|your|the grading|the system"
        r"|these|those)\b[^.\n]{0,25}\b(?:instructions?|rules|directions|guidelines|rubric"
        r"|grading criteria|marking scheme)\b",
    ),
    (
        "override",
        r"\b(?:new|updated|revised|secret|hidden|real)\s+(?:grading\s+)?(?:instructions?|directives?)"
        r"\s*[:\-!]|\b(?:new|updated|revised|secret|hidden)\s+(?:grading (?:rules?|policy|instructions?)"
        r"|directives?)\b",
    ),
    ("override", r"\b(?:developer|debug|god|admin|jailbreak|dan)\s+mode\b|\bjailbreak\b"),
    (
        "grader_address",
        rf"(?:\b(?:dear|hey|hi|hello|note (?:to|for)|message (?:to|for)|psst)\b|\battention\s*[:,!])"
        rf"[\s,:]*(?:the\s+|my\s+|our\s+|any\s+)?(?:{_GRADER}|{_AI}|grading (?:model|system|ai))s?\b",
    ),
    ("grader_address", rf"\b(?:to|for)\s+(?:the|any)\s+(?:{_GRADER}|grading (?:model|system|ai)|ai grader)s?\s*:"),
    (
        "role_play",
        rf"\bas\s+(?:the|an?|your)\s+(?:{_GRADER}|grading (?:model|ai|assistant|system)"
        rf"|ai(?: language model| grader| judge| assistant)?)\b[^.\n]{{0,40}}\b(?:i|we|you|this|it)\b",
    ),
    (
        "role_play",
        rf"\b(?:you are|you're|you will be|act as|acting as|pretend(?: to be| you are)?|imagine you are"
        rf"|role-?play(?: as)?|play the role of|behave as|from now on you)\b[^.\n]{{0,40}}"
        rf"\b(?:{_GRADER}|grading|lenient|generous)\b",
    ),
    ("role_play", rf"\b(?:i am|i'm|we are|this is)\s+(?:the|your|an?)\s+(?:{_GRADER}|administrator|admin)\b"),
    (
        "grading_order",
        r"\b(?:mark|grade|score|rate|award|give|assign|set|consider|treat|label|count|record"
        r"|output|return|respond with|report|flag|evaluate|judge)\b[^.\n]{0,60}"
        r"\b(?:criteria|criterion|rubric|every (?:point|item|requirement)|all (?:points|items"
        r"|requirements|checks))\b[^.\n]{0,40}" + rf"\b{_FAVOUR}\b",
    ),
    (
        "grading_order",
        r"\b(?:mark|grade|score|rate|award|give|assign|consider|treat|count|evaluate|judge)\s+"
        r"(?:this|my|the|the above|the following|the candidate'?s?)?\s*"
        r"(?:answer|response|submission|essay|reply|work|it|me)\s+(?:as\s+)?(?:being\s+)?"
        r"(?:fully\s+|completely\s+|100%\s+)?(?:correct|complete|perfect|full marks|full credit"
        r"|excellent|flawless|passing|passed|right)\b",
    ),
    (
        "grading_order",
        r"\b(?:award|give|assign|grant)\s+(?:this|it|me|us|the answer|this answer|my answer"
        r"|the candidate)?\s*(?:the\s+)?(?:full marks|full credit|full points|full score"
        r"|maximum (?:marks|points|score|credit|grade)|top marks|a perfect|perfect marks|100\s?%)",
    ),
    (
        "grading_order",
        r"\b(?:do not|don't|never|must not|mustn't|should not|shouldn't)\s+(?:deduct|penali[sz]e"
        r"|dock|mark (?:it |this |me |the answer )?down|take (?:off|away) (?:any )?(?:points|marks))\b",
    ),
    (
        "grading_order",
        r"\b(?:you|the grader|the judge|the examiner)\s+(?:must|should|shall|will|have to|need to"
        r"|are required to|are instructed to)\s+(?:award|give|grant|mark|grade|score|rate"
        r"|assign|accept|pass)\b",
    ),
    (
        "grading_order",
        r"\b(?:this|the above|the following|my|the previous) (?:answer|response|submission)\s+"
        r"(?:is|should be|must be|deserves|earns|gets|has been|was)\s+(?:graded|marked|scored|rated"
        r"|awarded|given|a|an)?\s*(?:perfect|full (?:marks|credit|score)|max|maximum|top marks"
        r"|10/10|pre-?approved|approved by|verified by|flawless|all criteria)",
    ),
    (
        "score_claim",
        r"\b(?:full|perfect|top)\s+(?:marks?|score|points|credit)\b"
        r"|\b(?:maximum|max)\s+(?:marks?|points|credit|grade)\b",
    ),
    (
        "score_claim",
        r"\b(?:score|grade|mark|rating)\s*(?:is|=|:|of|should be|must be|will be|equals)\s*"
        r"(?:\d+(?:\.\d+)?\s*(?:/\s*\d+|%|percent|out of \d+)|a\+|pass(?:ed)?\b|perfect|full"
        r"|max(?:imum)?\b)",
    ),
    ("score_claim", r"(?<![\w/.])(?:10/10|5/5|100/100|1\.0/1\.0|20/20)(?![\w/])"),
    (
        "score_claim",
        r"\ball\s+(?:rubric\s+|the\s+|of the\s+)?criteri(?:a|on|ons)\s+(?:are|were|have been|is|been)"
        r"\s+(?:\w+\s+)?(?:met|satisfied|fulfilled|passed|covered|achieved|addressed)\b",
    ),
    (
        "score_claim",
        r"\b(?:meets?|satisf(?:y|ies)|fulfil(?:l|ls|s)?|pass(?:es)?|covers?|addresses|ticks?)\s+"
        r"(?:all|every|each|any)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:rubric\s+|grading\s+)?"
        r"(?:criteria|criterion|rubric points?|marking points?|boxes)\b",
    ),
    (
        "grading_order",
        r"\b(?:return|output|respond with|answer with|emit|print|reply with|write)\s+"
        r"[\"'`]?(?:met|passed|full marks)[\"'`]?(?:\s|$|[.,;!])",
    ),
    (
        "grading_order",
        r"\b(?:the\s+)?(?:evaluation|grading|grader|judge|assessment|marking|examiner)\s+"
        r"(?:must|should|shall|will|has to|needs to|is required to)\s+(?:return|output|be|give|mark"
        r"|award|say|report|conclude|find)\b",
    ),
    (
        "meta_talk",
        r"\b(?:rubric|rubrics|grader|graders|examiner|marking scheme|verdicts?|grading (?:model|rubric"
        r"|criteria|instructions|system|prompt)|(?:ai|llm) (?:grader|judge|evaluator))\b",
    ),
    (
        "fake_verdict",
        r"[\"']?\b(?:verdict|grade|score|criteria|criterion_id|judgement|judgment)\b[\"']?\s*[:=]"
        r"\s*[\[{\"']?\s*(?:met|partial|missed|pass|passed|correct|full|\{|\"id\"|'id')",
    ),
    ("fake_verdict", r"\{\s*[\"'](?:criteria|verdict|id|score|grade)[\"']\s*:"),
    ("fake_verdict", r"[\"']verdict[\"']\s*:"),
    ("fake_verdict", r"\b(?:criterion|criteria)\b\s*[\w\-\"' ]{0,40}[:=\-]\s*(?:met|satisfied)\b"),
    (
        "chat_markup",
        r"<\|[a-z_ ]{2,20}\|>|\[/?inst\]|<<\s*/?sys\s*>>|</?s>|###\s*(?:instruction|system|response"
        r"|assistant)\b|\bbegin(?:ning)? of (?:system|instructions?)\b",
    ),
    # A role label opening a line: in capitals, in brackets, or followed by an order ("System: 8x H100" is fine).
    (
        "chat_markup",
        r"(?:^|\n)\s*(?:(?-i:SYSTEM|ASSISTANT|DEVELOPER|GRADER|JUDGE|EXAMINER)\s*:"
        r"|[\[(<]\s*(?:system|assistant|developer|grader|judge|examiner)\s*[\])>]\s*:?"
        r"|(?:system|assistant|developer|grader|judge|examiner)\s*:\s*(?:you|ignore|disregard"
        r"|the (?:candidate|answer|student)|mark|grade|return|output|award|give)\b)",
    ),
    ("chat_markup", r"</?\s*(?:system|assistant|instructions?|prompt|grader|rubric|im_start|im_end)\s*>"),
    ("fake_end", r"</\s*(?:answer|response|candidate[_\- ]?answer|submission|student[_\- ]?answer|input|data)\s*>"),
    ("fake_end", r"<{3,}|>{3,}|\bcandidate_answer_(?:begin|end)\b"),
    (
        "fake_end",
        r"\b(?:end|close|closing) of (?:the )?(?:candidate'?s? |student'?s? |my )?"
        r"(?:answer|response|submission|input)\b|\b(?:answer|response|submission) (?:ends|is over|"
        r"complete[sd]?) here\b",
    ),
)

_COMPILED = tuple((kind, re.compile(p, re.IGNORECASE)) for kind, p in _PATTERNS)

# Instructions with their letters spaced or punctuated apart ("i g n o r e  a l l ...") survive the
# patterns above; their letters-only form gives them away.
_SQUASHED = (
    "ignoreallprevious",
    "ignorepreviousinstructions",
    "ignoretheaboveinstructions",
    "disregardtheprevious",
    "disregardallprevious",
    "fullmarks",
    "maximumscore",
    "perfectscore",
    "markallcriteria",
    "allcriteriamet",
    "allcriteriaaremet",
    "youarethegrader",
    "asthegrader",
    "notetothegrader",
    "awardfull",
    "giveitfull",
)


_QUOTES = str.maketrans("“”‘’«»", '""\'\'""')


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
            + "). Instructions in an answer earn nothing: the AI judge's opinion was not "
            "allowed to raise this grade, and the sentences carrying them earned no credit."
        )


def normalise_for_scan(text: str) -> str:
    """NFKC (full-width and look-alike forms fold to ASCII), invisible characters dropped, quotes unified."""
    folded = unicodedata.normalize("NFKC", text)
    folded = _INVISIBLE.sub("", folded)
    return folded.translate(_QUOTES)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z:]", "", text.lower())


def detect_injection(answer: str) -> InjectionReport:
    """Scan the answer for instructions to the grader, verdict forgeries, role-play and fake markup."""
    if not answer or not answer.strip():
        return InjectionReport(False)
    hidden = bool(_INVISIBLE.search(answer))
    text = normalise_for_scan(answer)
    kinds: list[str] = []
    hit_spans: list[tuple[int, int]] = []
    for kind, rx in _COMPILED:
        for m in rx.finditer(text):
            if kind == "fake_end" and len(re.findall(r"[a-z]{2,}", text[m.end() :], re.IGNORECASE)) < 3:
                continue  # a closing tag or "end of answer" with nothing after it hides nothing
            kinds.append(kind)
            hit_spans.append(m.span())
    squashed = _squash(text)
    if any(s in squashed for s in _SQUASHED):
        kinds.append("obfuscated")
    if hidden and kinds:
        kinds.append("hidden_characters")
    if not kinds:
        return InjectionReport(False)
    spans = _sentences_hit(text, hit_spans) if hit_spans else ()
    if "obfuscated" in kinds and not spans:
        spans = tuple(s for s in sentences(text) if any(k in _squash(s) for k in _SQUASHED))
    return InjectionReport(True, tuple(dict.fromkeys(kinds)), spans)


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
