"""Cross-file rules over a loaded bank. Pure: takes the bank (and the fact sheet's text), returns problems."""

from __future__ import annotations

import inspect
import re
from collections import defaultdict
from collections.abc import Sequence
from difflib import SequenceMatcher
from statistics import median

from coach.calc.registry import load_all, wrong_formulas_of
from coach.content.bank import Bank, Problem
from coach.content.checks_misconceptions import check_rubric_misconceptions, check_statements
from coach.content.checks_options import check_option_numbers
from coach.content.checks_pages import check_page_versions
from coach.content.numbers import NUMBER, bare_numbers, normalise, sheet_numbers
from coach.content.render import RenderedOption, format_value, render, value_of, variants, wrong_calcs_in
from coach.content.schema import Criterion, Difficulty, Item, McqItem, ModuleStatus, ShortItem, Status
from coach.units import parse_unit
from coach.vocab import Dimension

# Counts a ready module must reach (issue: question bank).
MIN_ITEMS = 30
MIN_BY_DIFFICULTY = {Difficulty.EASY: 10, Difficulty.MEDIUM: 12, Difficulty.HARD: 8}
MIN_SHORT_SHARE = 0.30
MAX_KEY_LONGEST_SHARE = 0.40
MAX_OPTION_LENGTH_RATIO = 2.5
MIN_EXPLANATION_WORDS = 25
NEAR_DUPLICATE = 0.9
_BANNED_OPTION = re.compile(r"\b(all|none|both|neither) of the (above|options|answers)\b", re.IGNORECASE)


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def check_bank(bank: Bank, facts_text: str | None = None, *, enforce_counts: bool = True,
               heldout: Sequence[str] = ()) -> list[Problem]:
    """Every cross-file rule. `heldout`: the dev set's held-out misconception statements, which catalogue
    statements must not copy (`checks_misconceptions.heldout_statements`)."""
    problems: list[Problem] = []
    where = bank.sources.get
    sheet = sheet_numbers(facts_text) if facts_text is not None else None

    problems += _check_path(bank)
    for item in bank.items.values():
        src = where("item" + item.id, "?")
        problems += [Problem(src, item.id, msg) for msg in _check_item(bank, item, sheet)]
    for rubric in bank.rubrics.values():
        src = where("rubric" + rubric.id, "?")
        owner = bank.items.get(rubric.item)
        if owner is None or not isinstance(owner, ShortItem) or owner.rubric != rubric.id:
            problems.append(Problem(src, rubric.id, f"rubric names item {rubric.item!r}, which does not use it"))
        for c in rubric.criteria:
            for mis in c.misconceptions:
                if mis not in bank.misconceptions:
                    problems.append(Problem(src, rubric.id, f"criterion {c.id}: unknown misconception {mis!r}"))
            if len({_norm(p) for p in c.phrasings}) < 2:
                problems.append(Problem(src, rubric.id, f"criterion {c.id}: needs 2 distinct phrasings"))
            if c.numeric is not None and owner is not None:
                problems += [Problem(src, rubric.id, f"criterion {c.id}: {m}") for m in _check_numeric(bank, owner, c)]
            elif c.dimension == Dimension.QUANTITATIVE and owner is not None and owner.values:
                problems.append(Problem(src, rubric.id, f"criterion {c.id} is quantitative: declare the numbers it "
                                        "expects under `numeric:` (docs/authoring.md)"))
            elif owner is not None and (quoted := _quoted_values(owner, c.description)):
                problems.append(Problem(src, rubric.id, f"criterion {c.id} quotes the item's computed "
                                        f"{', '.join(quoted)}: declare them under `numeric:` (need: 0 if optional)"))
    for module in bank.modules.values():
        src = where("module" + module.id, "?")
        for sample in module.samples:
            s = bank.items.get(sample)
            if s is None or s.module != module.id:
                problems.append(Problem(src, module.id, f"sample {sample!r} is not an item of this module"))
        if module.status == ModuleStatus.READY:
            problems += [Problem(src, module.id, m) for m in _check_module(bank, module.id, enforce_counts)]
    problems += _check_unique_stems(bank)
    for page in bank.concepts.values():
        if page.module not in bank.modules:
            problems.append(Problem(where("concept" + page.id, "?"), page.id, f"unknown module {page.module!r}"))
    problems += check_page_versions(bank)
    problems += check_rubric_misconceptions(bank)
    problems += check_statements(bank, heldout)
    return problems


def _check_path(bank: Bank) -> list[Problem]:
    problems = []
    for module_id in bank.path.modules:
        if module_id not in bank.modules:
            problems.append(Problem("questions/path.yaml", module_id, "module on the path has no module.yaml"))
    for module_id, prereqs in bank.path.prerequisites.items():
        for p in prereqs:
            if p not in bank.path.modules:
                problems.append(Problem("questions/path.yaml", module_id, f"unknown prerequisite {p!r}"))
    return problems


def _check_item(bank: Bank, item: Item, sheet: set[str] | None) -> list[str]:
    msgs: list[str] = []
    if item.concept not in bank.concepts:
        msgs.append(f"concept page {item.concept!r} does not exist")
    if len(item.explanation.split()) < MIN_EXPLANATION_WORDS:
        msgs.append(f"explanation has under {MIN_EXPLANATION_WORDS} words: derive the answer, do not restate it")
    calcs = load_all()
    for name, spec in item.values.items():
        if spec.calc and spec.calc not in calcs:
            msgs.append(f"value {name}: unknown calculator {spec.calc!r}")
    if msgs:
        return msgs
    texts = [item.stem, item.explanation]
    if isinstance(item, McqItem):
        texts += [o.text for o in item.options]
    if isinstance(item, ShortItem):
        texts.append(item.model_answer)
    declared = {n for lit in item.literals for n in bare_numbers(lit.text) or [lit.text]}
    for text in texts:
        for number in bare_numbers(text):
            if number not in declared:
                msgs.append(f"number {number} is neither computed ({{value}}) nor declared in `literals`")
    if sheet is not None:
        for lit in item.literals:
            if lit.source.strip().lower() == "example":
                continue
            for number in bare_numbers(lit.text) or []:
                if number not in sheet:
                    msgs.append(f"literal {lit.text!r} ({lit.source}): {number} is not in domain-facts.md")
    for variant in variants(item):
        try:
            rendered = render(item, variant)
        except (KeyError, ValueError, TypeError) as exc:
            msgs.append(f"variant {variant}: cannot render: {exc}")
            continue
        if isinstance(item, McqItem):
            msgs += [f"variant {variant}: {m}" if variant else m for m in _check_options(rendered.options)]
    if isinstance(item, McqItem):
        msgs += check_option_numbers(item)
        for opt in item.options:
            wrong = wrong_calcs_in(opt.text, item)
            if opt.correct and wrong:
                msgs.append(f"the key shows a wrong formula's value ({', '.join(wrong)})")
            if opt.misconception and opt.misconception not in bank.misconceptions:
                msgs.append(f"option misconception {opt.misconception!r} is not in the catalogue")
            if not opt.correct and wrong:
                expected = {calcs[w].misconception for w in wrong}
                if opt.misconception not in expected:
                    msgs.append(
                        f"distractor from {wrong[0]} should be tagged misconception {sorted(map(str, expected))}"
                    )
    if isinstance(item, ShortItem):
        rubric = bank.rubrics.get(item.rubric)
        if rubric is None:
            msgs.append(f"rubric {item.rubric!r} does not exist")
        else:
            fed = {c.dimension for c in rubric.criteria}
            if set(item.dimensions) != fed:
                msgs.append(f"dimensions {sorted(item.dimensions)} differ from those its rubric feeds {sorted(fed)}")
    return msgs


def _quoted_values(item: Item, text: str) -> list[str]:
    """The item's computed values, as the model answer shows them, that `text` writes out (a number above 10 or
    with a fraction, so that no small count is taken for one): the numbers the grader can check and swap-test."""
    if not isinstance(item, ShortItem) or not item.values:
        return []
    written = {float(n) for n in bare_numbers(text)}
    variant = variants(item)[0]
    quoted = []
    for name, spec in item.values.items():
        if spec.calc is None or "{" + name + "}" not in (item.model_answer or ""):
            continue
        shown = [float(normalise(n)) for n in NUMBER.findall(format_value(spec, value_of(spec, variant)))]
        if shown and (shown[0] > 10 or not shown[0].is_integer()) and shown[0] in written:
            quoted.append(f"{{{name}}}")
    return quoted


def _check_numeric(bank: Bank, item: Item, criterion: Criterion) -> list[str]:
    """A criterion's expected quantities: values the item computes, units the registry knows, wrong-formula
    arguments some wrong formula takes, and misconceptions the catalogue states."""
    assert criterion.numeric is not None
    msgs: list[str] = []
    for q in criterion.numeric.quantities:
        spec = item.values.get(q.value)
        if spec is None:
            msgs.append(f"expects value {q.value!r}, which item {item.id} does not define")
            continue
        if parse_unit(q.unit) is None:
            msgs.append(f"value {q.value}: unknown unit {q.unit!r} (see coach/units.py)")
        if spec.fmt.endswith("%") and q.unit != "%":
            msgs.append(f"value {q.value}: shown as a percent (fmt {spec.fmt!r}), so its unit is '%', not {q.unit!r}")
        wrongs = wrong_formulas_of(spec.calc) if spec.calc else []
        for arg in q.wrong_args:
            if not any(arg in inspect.signature(w.fn).parameters for w in wrongs):
                msgs.append(f"value {q.value}: no wrong formula of {spec.calc} takes wrong_args {arg!r}")
        for w in wrongs:
            if w.misconception and w.misconception not in bank.misconceptions:
                msgs.append(f"value {q.value}: wrong formula {w.name} names misconception {w.misconception!r}, "
                            "which the catalogue lacks")
    return msgs


def _check_options(options: tuple[RenderedOption, ...]) -> list[str]:
    msgs = []
    texts = [o.text for o in options]
    for t in texts:
        if _BANNED_OPTION.search(t):
            msgs.append(f"option {t!r}: no 'all/none of the above'")
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            a, b = _norm(texts[i]), _norm(texts[j])
            # Options that state different numbers are different answers, however alike their words.
            differ_in_numbers = NUMBER.findall(texts[i]) != NUMBER.findall(texts[j])
            if a == b or (not differ_in_numbers and SequenceMatcher(None, a, b).ratio() >= NEAR_DUPLICATE):
                msgs.append(f"options {i + 1} and {j + 1} are duplicates or near-duplicates")
    lengths = [len(t) for t in texts]
    if max(lengths) > MAX_OPTION_LENGTH_RATIO * min(lengths):
        msgs.append(f"option lengths {lengths} differ too much (longest > {MAX_OPTION_LENGTH_RATIO}× shortest)")
    return msgs


def _check_module(bank: Bank, module_id: str, enforce_counts: bool) -> list[str]:
    msgs = []
    items = bank.published(module_id)
    mcqs = [i for i in items if isinstance(i, McqItem)]
    if mcqs:
        longest_key = 0
        for item in mcqs:
            lengths = [len(o.text) for o in render(item).options]
            key_len = lengths[item.key_index]
            others = [n for k, n in enumerate(lengths) if k != item.key_index]
            if key_len > max(others) and key_len > 1.05 * median(others):
                longest_key += 1
        share = longest_key / len(mcqs)
        if share > MAX_KEY_LONGEST_SHARE:
            msgs.append(f"the key is the longest option in {share:.0%} of MCQs (at most {MAX_KEY_LONGEST_SHARE:.0%})")
    if not enforce_counts:
        return msgs
    if len(items) < MIN_ITEMS:
        msgs.append(f"{len(items)} published items; a module needs {MIN_ITEMS}")
    by_diff = bank.pool_by_difficulty(module_id)
    for diff, need in MIN_BY_DIFFICULTY.items():
        if by_diff[diff] < need:
            msgs.append(f"{by_diff[diff]} {diff} items; needs {need}")
    shorts = sum(isinstance(i, ShortItem) for i in items)
    if items and shorts / len(items) < MIN_SHORT_SHARE:
        msgs.append(f"short answers are {shorts / len(items):.0%} of items; needs {MIN_SHORT_SHARE:.0%}")
    return msgs


def _check_unique_stems(bank: Bank) -> list[Problem]:
    seen: dict[str, list[str]] = defaultdict(list)
    for item in bank.items.values():
        if item.status != Status.DRAFT:
            seen[_norm(item.stem)].append(item.id)
    return [
        Problem(bank.sources.get("item" + ids[1], "?"), ids[1], f"stem repeats item {ids[0]}")
        for ids in seen.values()
        if len(ids) > 1
    ]
