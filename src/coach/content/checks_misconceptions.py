"""Rules that make a rubric's misconceptions fire (issue 16).

A short-answer rubric must attach the misconceptions its item is about, and every attached misconception must
carry plain statements of the error for the bank test (`tests/evals/test_bank_probe.py`) to grade.

Which misconceptions a rubric is *expected* to attach is defined so that it is checkable without a model:
- declared: the item's stem is built on a misconception when the item says so with a tag
  `misconception:<id>`; each declared one must be attached to a criterion, with no exception;
- addressed: the catalogue misconceptions the bank already ties to the item's concept *and* tests: a distractor
  tag of a published MCQ on the same concept, or the misconception of a wrong formula of a value a criterion's
  `numeric:` check expects. The rubric must attach at least one of them, unless it says why not
  (`misconceptions: "none, because …"`).
A rubric that attaches no misconception at all needs the same "none, because …" note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from pathlib import Path

import yaml

from coach.calc.registry import wrong_formulas_of
from coach.content.bank import Bank, Problem
from coach.content.schema import McqItem, Rubric, ShortItem, Status

TAG_PREFIX = "misconception:"
NONE_NOTE = re.compile(r"^none, because\s+(?P<reason>.+)$", re.IGNORECASE | re.DOTALL)
MIN_REASON_WORDS = 4
MIN_STATEMENTS = 2
MIN_STATEMENT_WORDS = 6
NEAR_DUPLICATE = 0.9
HELDOUT_FILE = Path("devsets") / "misconceptions_heldout.yaml"


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def _near(a: str, b: str) -> bool:
    x, y = _norm(a), _norm(b)
    return x == y or SequenceMatcher(None, x, y).ratio() >= NEAR_DUPLICATE


def heldout_statements(root: Path) -> tuple[str, ...]:
    """The held-out statements of devsets/misconceptions_heldout.yaml (empty when the file is absent), which
    catalogue statements must never copy: that set measures the grader on errors it has not seen."""
    path = root / HELDOUT_FILE
    if not path.exists():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return tuple(s for record in data for s in record.get("statements", ()))


def declared_misconceptions(item: ShortItem) -> tuple[str, ...]:
    """The misconceptions an item's stem is built on, from its `misconception:<id>` tags."""
    return tuple(t[len(TAG_PREFIX):].strip() for t in item.tags if t.startswith(TAG_PREFIX))


def addressed_misconceptions(bank: Bank, item: ShortItem, rubric: Rubric) -> dict[str, str]:
    """Catalogue misconceptions this rubric's criteria address, each with the reason it counts (see the module
    docstring): misconceptions of the item's concept that a published MCQ on that concept uses as a
    distractor, and the misconceptions of wrong formulas that a criterion's numeric check recognises."""
    found: dict[str, str] = {}
    for other in bank.items.values():
        if not isinstance(other, McqItem) or other.concept != item.concept or other.status != Status.PUBLISHED:
            continue
        for opt in other.options:
            mis = bank.misconceptions.get(opt.misconception or "")
            if mis is not None and mis.concept == item.concept:
                found.setdefault(mis.id, f"a distractor of {other.id} on concept {item.concept}")
    for c in rubric.criteria:
        for q in c.numeric.quantities if c.numeric else ():
            spec = item.values.get(q.value)
            if spec is None or not spec.calc:
                continue
            for w in wrong_formulas_of(spec.calc):
                if w.misconception in bank.misconceptions:
                    found.setdefault(str(w.misconception), f"wrong formula {w.name} of value {q.value!r}, "
                                     f"which criterion {c.id} checks")
    return found


def _attached(rubric: Rubric) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in rubric.criteria:
        for m in c.misconceptions:
            out.setdefault(m, []).append(c.id)
    return out


def check_rubric_misconceptions(bank: Bank) -> list[Problem]:
    problems: list[Problem] = []
    for item in bank.items.values():
        if not isinstance(item, ShortItem) or item.rubric not in bank.rubrics:
            continue
        rubric = bank.rubrics[item.rubric]
        src = bank.sources.get("rubric" + rubric.id, "?")
        item_src = bank.sources.get("item" + item.id, "?")
        problems += [Problem(item_src, item.id, m) for m in _check_tags(bank, item)]
        problems += [Problem(src, rubric.id, m) for m in _check_rubric(bank, item, rubric)]
    return problems


def _check_tags(bank: Bank, item: ShortItem) -> list[str]:
    msgs = []
    for tag in item.tags:
        if tag in bank.misconceptions:
            msgs.append(f"tag {tag!r} names a misconception: write it as '{TAG_PREFIX}{tag}' to declare that "
                        "the stem is built on it")
    for mid in declared_misconceptions(item):
        if mid not in bank.misconceptions:
            msgs.append(f"tag '{TAG_PREFIX}{mid}': no such misconception in the catalogue")
    return msgs


def _check_rubric(bank: Bank, item: ShortItem, rubric: Rubric) -> list[str]:
    msgs: list[str] = []
    attached = _attached(rubric)
    note = (rubric.misconceptions or "").strip()
    excused = False
    if note:
        m = NONE_NOTE.match(note)
        if m is None or len(m.group("reason").split()) < MIN_REASON_WORDS:
            msgs.append(f"`misconceptions: {note!r}` must read 'none, because <a reason of at least "
                        f"{MIN_REASON_WORDS} words>' (or be removed and misconceptions attached to criteria)")
        else:
            excused = True
    criteria = ", ".join(c.id for c in rubric.criteria)
    if not attached and not excused:
        msgs.append(f"rubric for {item.id}: no criterion carries a misconception, so an answer that states the "
                    f"error is never marked contradicted. Attach the catalogue misconception(s) each criterion "
                    f"({criteria}) rules out under its `misconceptions:`, or add `misconceptions: \"none, because "
                    "…\"` to the rubric saying why none applies")
    for mid in declared_misconceptions(item):
        if mid in bank.misconceptions and mid not in attached:
            msgs.append(f"item {item.id}'s stem is built on misconception {mid!r} (tag '{TAG_PREFIX}{mid}') but no "
                        f"criterion attaches it: add it to the `misconceptions:` of the criterion it contradicts "
                        f"(one of {criteria})")
    addressed = addressed_misconceptions(bank, item, rubric)
    overlap = sorted(set(addressed) & set(attached))
    if addressed and not overlap and not excused:
        listed = "; ".join(f"{m} ({why})" for m, why in sorted(addressed.items()))
        msgs.append(f"rubric for {item.id} attaches none of the misconceptions its concept's questions test: "
                    f"{listed}. Attach each that an answer to this stem could state to the criterion it "
                    "contradicts, or add `misconceptions: \"none, because …\"` saying why none applies")
    if excused and overlap:
        msgs.append(f"the rubric says `misconceptions: none, because …` yet attaches {overlap}: remove the note")
    return msgs


def check_statements(bank: Bank, heldout: Sequence[str] = ()) -> list[Problem]:
    """Every misconception attached to a criterion has at least two plain statements; no statement copies a
    phrasing of its misconception, another statement, or a held-out dev-set statement."""
    attached_to: dict[str, list[str]] = {}
    for rubric in bank.rubrics.values():
        for c in rubric.criteria:
            for m in c.misconceptions:
                attached_to.setdefault(m, []).append(f"{rubric.id}/{c.id}")
    problems: list[Problem] = []
    for mis in bank.misconceptions.values():
        src = bank.sources.get("misconception" + mis.id, "?")
        msgs: list[str] = []
        where = attached_to.get(mis.id)
        if where and len({_norm(s) for s in mis.statements}) < MIN_STATEMENTS:
            msgs.append(f"attached to {', '.join(where[:3])}{' …' if len(where) > 3 else ''} but has "
                        f"{len(mis.statements)} statement(s): write at least {MIN_STATEMENTS} under `statements:`, "
                        "each a whole sentence stating the error as a candidate would (not a phrasing), so the "
                        "bank test can check that the grader marks it contradicted")
        msgs += _statement_copies(mis.statements, mis.phrasings, heldout)
        problems += [Problem(src, mis.id, m) for m in msgs]
    return problems


def _statement_copies(statements: Sequence[str], phrasings: Iterable[str], heldout: Sequence[str]) -> list[str]:
    msgs = []
    phrasings = tuple(phrasings)
    for i, s in enumerate(statements):
        if len(s.split()) < MIN_STATEMENT_WORDS:
            msgs.append(f"statement {s!r}: write a whole sentence of at least {MIN_STATEMENT_WORDS} words")
        p = next((p for p in phrasings if _near(s, p)), None)
        if p is not None:
            msgs.append(f"statement {s!r} copies the phrasing {p!r}: the grader matches phrasings, so a copy "
                        "proves nothing; say the error in other words")
        h = next((h for h in heldout if _near(s, h)), None)
        if h is not None:
            msgs.append(f"statement {s!r} copies the held-out dev-set statement {h!r} "
                        f"({HELDOUT_FILE}, kept out of the catalogue): write a different one")
        if any(_near(s, t) for t in statements[:i]):
            msgs.append(f"statement {s!r} repeats an earlier statement")
    return msgs
