"""The only reader of questions/, rubrics/ and concepts/. Every problem names its file and record id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from coach.content.bank import Bank, Problem
from coach.content.schema import (
    ConceptPage,
    Item,
    LearningPath,
    Misconception,
    Module,
    Rubric,
    Status,
)
from coach.errors import ContentError

_ITEM = TypeAdapter(Item)
DRAFTS_DIR = "drafts"  # questions/<module>/drafts/<item-id>.yaml


class BankLoadError(ContentError):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("content", f"{len(problems)} problem(s)\n" + "\n".join(map(str, problems)))
        self.problems = problems


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _format(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"] if not (isinstance(x, str) and x in ("mcq", "short")))
        parts.append(f"{loc}: {err['msg']}" if loc else err["msg"])
    return "; ".join(parts)


def _read_yaml(path: Path, root: Path, problems: list[Problem]) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        problems.append(Problem(_rel(path, root), None, f"cannot read YAML: {exc}"))
        return None


def _parse(
    model: type[BaseModel] | TypeAdapter[Any], data: Any, where: str, record: str | None, problems: list[Problem]
) -> Any:
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_python(data)
        return model.model_validate(data)
    except ValidationError as exc:
        problems.append(Problem(where, record, _format(exc)))
        return None


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        raise ValueError("a concept page starts with YAML front matter between --- lines")
    _, head, body = text.split("---", 2)
    data = yaml.safe_load(head) or {}
    if not isinstance(data, dict):
        raise ValueError("front matter is not a mapping")
    return data, body.strip()


def load_bank(root: Path) -> Bank:
    """Load and validate every content file under `root`; raise BankLoadError listing all problems."""
    bank, problems = load_bank_collecting(root)
    if problems:
        raise BankLoadError(problems)
    return bank


def load_bank_collecting(root: Path) -> tuple[Bank, list[Problem]]:
    problems: list[Problem] = []
    questions = root / "questions"
    path_file = questions / "path.yaml"
    raw_path = _read_yaml(path_file, root, problems) if path_file.exists() else None
    if raw_path is None and not path_file.exists():
        problems.append(Problem(_rel(path_file, root), None, "missing learning path"))
    path = _parse(LearningPath, raw_path, _rel(path_file, root), None, problems) or LearningPath(
        title="(invalid)", modules=("missing",)
    )
    bank = Bank(path=path)

    def remember(kind: str, record_id: str, where: str, store: dict[str, Any], value: Any) -> None:
        if record_id in store:
            problems.append(
                Problem(where, record_id, f"duplicate {kind} id (also in {bank.sources[kind + record_id]})")
            )
            return
        store[record_id] = value
        bank.sources[kind + record_id] = where

    for module_file in sorted(questions.glob("*/module.yaml")):
        where = _rel(module_file, root)
        data = _read_yaml(module_file, root, problems)
        module = _parse(Module, data, where, (data or {}).get("id") if isinstance(data, dict) else None, problems)
        if module is None:
            continue
        if module.id != module_file.parent.name:
            problems.append(Problem(where, module.id, f"module id must match its folder {module_file.parent.name!r}"))
        remember("module", module.id, where, bank.modules, module)
        for item_file in sorted(module_file.parent.glob("*.yaml")):
            if item_file.name == "module.yaml":
                continue
            _load_items(item_file, root, module.id, bank, problems, remember)
        # Drafts under review live beside the module's items, one file per draft, never published from there.
        for draft_file in sorted((module_file.parent / DRAFTS_DIR).glob("*.yaml")):
            _load_items(draft_file, root, module.id, bank, problems, remember, drafts=True)

    rubric_files = [*(root / "rubrics").glob("*.yaml"), *(root / "rubrics" / DRAFTS_DIR).glob("*.yaml")]
    for rubric_file in sorted(rubric_files):
        where = _rel(rubric_file, root)
        data = _read_yaml(rubric_file, root, problems)
        record = data.get("id") if isinstance(data, dict) else None
        rubric = _parse(Rubric, data, where, record, problems)
        if rubric is not None:
            remember("rubric", rubric.id, where, bank.rubrics, rubric)

    for concept_file in sorted((root / "concepts").glob("*.md")):
        where = _rel(concept_file, root)
        try:
            meta, body = split_front_matter(concept_file.read_text(encoding="utf-8"))
        except (OSError, ValueError, yaml.YAMLError) as exc:
            problems.append(Problem(where, concept_file.stem, str(exc)))
            continue
        page = _parse(ConceptPage, {**meta, "body": body}, where, meta.get("id"), problems)
        if page is not None:
            if page.id != concept_file.stem:
                problems.append(Problem(where, page.id, "concept id must match the file name"))
            remember("concept", page.id, where, bank.concepts, page)

    for mis_file in sorted((questions / "misconceptions").glob("*.yaml")):
        data = _read_yaml(mis_file, root, problems)
        for raw in (data or {}).get("misconceptions", []) if isinstance(data, dict) else []:
            record = raw.get("id") if isinstance(raw, dict) else None
            mis = _parse(Misconception, raw, _rel(mis_file, root), record, problems)
            if mis is not None:
                remember("misconception", mis.id, _rel(mis_file, root), bank.misconceptions, mis)
    return bank, problems


def _load_items(
    item_file: Path,
    root: Path,
    module_id: str,
    bank: Bank,
    problems: list[Problem],
    remember: Any,
    *,
    drafts: bool = False,
) -> None:
    where = _rel(item_file, root)
    data = _read_yaml(item_file, root, problems)
    if data is None:
        return
    if not isinstance(data, dict) or set(data) != {"items"} or not isinstance(data["items"], list):
        problems.append(Problem(where, None, "an item file holds one key, `items`, with a list of items"))
        return
    for index, raw in enumerate(data["items"]):
        record = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(raw, dict):
            if raw.get("module") not in (None, module_id):
                problems.append(Problem(where, record, f"module {raw.get('module')!r} differs from folder"))
            raw = {**raw, "module": module_id}
        item = _parse(_ITEM, raw, where, record or f"#{index}", problems)
        if item is not None and drafts and item.status == Status.PUBLISHED:
            problems.append(
                Problem(where, item.id, "a file under drafts/ must say `status: draft` or `review`: approve it instead")
            )
            continue
        if item is not None:
            remember("item", item.id, where, bank.items, item)
