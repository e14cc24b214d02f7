"""Moodle XML export, our own validator of the structure Moodle's importer reads, and a reader for round trips.

Moodle has no variants: each item is exported once, as its first variant (the canonical one). Exporting every
variant would put near-identical questions in one category, and a random-question draw could give two to one
student. The idnumber keeps `item@vN` so a re-import can be matched to the bank.
MCQs are single-answer multichoice with per-option feedback (the misconception's correction for a distractor,
the explanation for the key); short answers are essays whose grader information is the rubric. Categories are
$course$/top/<path title>/<module title>.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import McqItem, ShortItem, Status

FORMATS = {"html", "moodle_auto_format", "plain_text", "markdown", "wiki_like"}
RESPONSE_FORMATS = {"editor", "editorfilepicker", "plain", "monospaced", "noinline"}


def _text(parent: ET.Element, tag: str, value: str, fmt: str | None = "html") -> ET.Element:
    node = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
    ET.SubElement(node, "text").text = value
    return node


def _html(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


def _common(q: ET.Element, name: str, stem: str, general: str, idnumber: str) -> None:
    _text(q, "name", name, None)
    _text(q, "questiontext", _html(stem))
    _text(q, "generalfeedback", _html(general))
    for tag, value in (("defaultgrade", "1"), ("penalty", "0"), ("hidden", "0"), ("idnumber", idnumber)):
        ET.SubElement(q, tag).text = value


def export_moodle(bank: Bank) -> str:
    quiz = ET.Element("quiz")
    for module_id in bank.path.modules:
        module = bank.modules.get(module_id)
        items = bank.published(module_id)
        if module is None or not items:
            continue
        cat = ET.SubElement(quiz, "question", {"type": "category"})
        _text(cat, "category", f"$course$/top/{bank.path.title}/{module.title}", None)
        _text(cat, "info", _html(module.summary))
        for item in sorted(items, key=lambda i: i.id):
            r = render(item)
            if isinstance(item, McqItem):
                q = ET.SubElement(quiz, "question", {"type": "multichoice"})
                _common(q, item.id, r.stem, r.explanation, f"{item.id}@v{item.version}")
                for tag, value in (("single", "true"), ("shuffleanswers", "true"), ("answernumbering", "abc"),
                                   ("showstandardinstruction", "0")):
                    ET.SubElement(q, tag).text = value
                for option in r.options:
                    mis = bank.misconceptions.get(option.misconception or "")
                    feedback = r.explanation if option.correct else (mis.correction if mis else
                                                                      "Not this one: " + r.explanation)
                    a = ET.SubElement(q, "answer", {"fraction": "100" if option.correct else "0", "format": "html"})
                    ET.SubElement(a, "text").text = _html(option.text)
                    _text(a, "feedback", _html(feedback))
            elif isinstance(item, ShortItem):
                q = ET.SubElement(quiz, "question", {"type": "essay"})
                _common(q, item.id, r.stem, r.model_answer or "", f"{item.id}@v{item.version}")
                for tag, value in (("responseformat", "editor"), ("responserequired", "1"),
                                   ("responsefieldlines", "10"), ("attachments", "0"), ("attachmentsrequired", "0")):
                    ET.SubElement(q, tag).text = value
                _text(q, "graderinfo", _rubric_html(bank, item))
                _text(q, "responsetemplate", "")
            tags = ET.SubElement(q, "tags")
            for tag in (item.difficulty.value, *(d.value for d in item.dimensions), item.concept):
                ET.SubElement(ET.SubElement(tags, "tag"), "text").text = tag
    ET.indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, encoding="unicode") + "\n"


def _rubric_html(bank: Bank, item: ShortItem) -> str:
    rubric = bank.rubrics.get(item.rubric)
    rows = [f"<li><b>{c.weight:.0%} {html.escape(c.id)}</b> ({c.dimension.value}): {html.escape(c.description)}"
            f"<br>e.g. {html.escape(c.phrasings[0])}</li>" for c in (rubric.criteria if rubric else ())]
    return f"<p>Model answer: {html.escape(item.model_answer)}</p><ul>{''.join(rows)}</ul>"


def validate_moodle(xml_text: str) -> list[str]:
    """Problems Moodle's XML importer would trip on (empty: it reads the file as intended)."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        return [f"not XML: {exc}"]
    if root.tag != "quiz":
        return [f"the root is <{root.tag}>, not <quiz>"]
    errors: list[str] = []
    for n, q in enumerate(root, 1):
        where = f"question {n}"
        kind = q.get("type")
        if q.tag != "question" or kind is None:
            errors.append(f"{where}: <{q.tag}> without a type")
            continue
        if kind == "category":
            path = q.findtext("category/text") or ""
            if not path.startswith(("$course$/", "$system$/", "$module$/", "$cat1$/")):
                errors.append(f"{where}: category path {path!r} has no context prefix")
            continue
        name = q.findtext("name/text") or ""
        where = f"question {n} ({name or 'no name'})"
        if not name.strip():
            errors.append(f"{where}: no name")
        for tag in ("questiontext", "generalfeedback"):
            node = q.find(tag)
            if node is None or node.find("text") is None or node.get("format") not in FORMATS:
                errors.append(f"{where}: <{tag}> needs a known format and a <text>")
        if kind == "multichoice":
            errors += [f"{where}: {e}" for e in _check_answers(q)]
        elif kind == "essay":
            if q.findtext("responseformat") not in RESPONSE_FORMATS:
                errors.append(f"{where}: unknown responseformat")
            info = q.find("graderinfo")
            if info is None or info.find("text") is None or info.get("format") not in FORMATS:
                errors.append(f"{where}: <graderinfo> needs a known format and a <text>")
        else:
            errors.append(f"{where}: type {kind!r} is not one this export writes")
    return errors


def _check_answers(q: ET.Element) -> list[str]:
    answers = q.findall("answer")
    if len(answers) < 2:
        return ["a multichoice needs at least two answers"]
    errors = []
    fractions = []
    for a in answers:
        try:
            fractions.append(float(a.get("fraction", "")))
        except ValueError:
            errors.append(f"answer fraction {a.get('fraction')!r} is not a number")
        if not (a.findtext("text") or "").strip():
            errors.append("an answer has no <text>")
        if a.get("format") not in FORMATS:
            errors.append("an answer needs a known format")
    single = (q.findtext("single") or "true").strip() == "true"
    if single and fractions.count(100.0) != 1:
        errors.append(f"a single-answer multichoice needs exactly one answer at 100%, has {fractions.count(100.0)}")
    if any(f < -100 or f > 100 for f in fractions):
        errors.append("fractions lie in [-100, 100]")
    return errors


@dataclass
class ReadQuestion:
    category: str
    type: str
    name: str
    idnumber: str
    text: str
    answers: list[tuple[str, float, str]] = field(default_factory=list)  # (text, fraction, feedback), unescaped
    graderinfo: str = ""


def _plain(value: str | None) -> str:
    s = (value or "").strip()
    return html.unescape(s.removeprefix("<p>").removesuffix("</p>"))


def read_moodle(xml_text: str) -> list[ReadQuestion]:
    """Read the questions back as Moodle would (categories apply to the questions after them)."""
    out, category = [], ""
    for q in ET.fromstring(xml_text):
        if q.get("type") == "category":
            category = q.findtext("category/text") or ""
            continue
        answers = [(_plain(a.findtext("text")), float(a.get("fraction", "0")), _plain(a.findtext("feedback/text")))
                   for a in q.findall("answer")]
        out.append(ReadQuestion(category, q.get("type", ""), q.findtext("name/text") or "",
                                q.findtext("idnumber") or "", _plain(q.findtext("questiontext/text")), answers,
                                q.findtext("graderinfo/text") or ""))
    return out


def published_count(bank: Bank) -> int:
    return sum(1 for i in bank.items.values() if i.status == Status.PUBLISHED and i.module in bank.path.modules)
