"""Writes content files the way an author would: small text edits that keep comments and layout, so a git diff
shows only what changed. Every write is read back and validated before it replaces the file; a failed edit
leaves the file as it was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from coach.content.schema import Item, Rubric
from coach.errors import ContentError

_ITEM = TypeAdapter(Item)


class WriteError(ContentError):
    def __init__(self, path: Path, message: str) -> None:
        super().__init__(str(path), message)


def item_yaml(item: Item, *, indent: int = 2) -> str:
    """One item as a YAML list entry (`- id: ...`), indented for an `items:` list; defaults are left out, but
    `status` is always written (a reviewer reads `status: published` in the diff of an approval)."""
    data = item.model_dump(mode="json", exclude_defaults=True, exclude={"module"})
    data.pop("status", None)
    data = {"id": data.pop("id"), "type": item.type, "status": item.status.value, **data}
    text = yaml.safe_dump([data], sort_keys=False, allow_unicode=True, width=110)
    pad = " " * indent
    return "".join(pad + line if line.strip() else line for line in text.splitlines(keepends=True))


def write_rubric_file(path: Path, rubric: Rubric) -> None:
    text = yaml.safe_dump(rubric.model_dump(mode="json", exclude_defaults=True), sort_keys=False, allow_unicode=True,
                          width=110)
    try:
        Rubric.model_validate(yaml.safe_load(text))
    except ValidationError as exc:
        raise WriteError(path, f"the rubric would not load: {exc}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_item_file(path: Path, items: list[Item]) -> None:
    """A new file holding `items:` (drafts: one item per file)."""
    text = "items:\n" + "".join(item_yaml(i) for i in items)
    _replace(path, text, [i.id for i in items])


def append_item(path: Path, item: Item) -> None:
    """Add an item at the end of a topic file (created when missing), keeping the rest of the file as it is."""
    if not path.exists():
        write_item_file(path, [item])
        return
    text = path.read_text(encoding="utf-8")
    indent = _list_indent(text)
    if not text.endswith("\n"):
        text += "\n"
    _replace(path, text + item_yaml(item, indent=indent), [*_ids(text), item.id])


def set_item_fields(path: Path, item_id: str, fields: dict[str, str], *, after: str = "concept") -> None:
    """Set one-line scalar fields of one item in place (replace the line, or insert it after `after:`)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    start, end, field_indent = _block(lines, item_id, path)
    for name, value in fields.items():
        pattern = re.compile(rf"^ {{{field_indent}}}{re.escape(name)}:")
        found = next((i for i in range(start, end) if pattern.match(lines[i])), None)
        new_line = f"{' ' * field_indent}{name}: {value}\n"
        if found is not None:
            if found + 1 < end and _indent(lines[found + 1]) > field_indent and lines[found + 1].strip():
                raise WriteError(path, f"item {item_id}: {name} spans lines; edit it by hand")
            lines[found] = new_line
            continue
        anchor = re.compile(rf"^ {{{field_indent}}}{re.escape(after)}:")
        at = next((i for i in range(start, end) if anchor.match(lines[i])), start)
        lines.insert(at + 1, new_line)
        end += 1
    _replace(path, "".join(lines), _ids(text))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _list_indent(text: str) -> int:
    match = re.search(r"^( *)- id:", text, flags=re.MULTILINE)
    return len(match.group(1)) if match else 2


def _ids(text: str) -> list[str]:
    data = yaml.safe_load(text) or {}
    return [str(r.get("id")) for r in data.get("items", []) if isinstance(r, dict)]


def _block(lines: list[str], item_id: str, path: Path) -> tuple[int, int, int]:
    """Line range of the item's list entry and the indent of its fields."""
    head = re.compile(rf"^( *)- id:\s*[\"']?{re.escape(item_id)}[\"']?\s*(#.*)?$")
    for i, line in enumerate(lines):
        match = head.match(line.rstrip("\n"))
        if match:
            dash = len(match.group(1))
            end = i + 1
            while end < len(lines):
                nxt = lines[end]
                if nxt.strip() and not nxt.lstrip().startswith("#") and _indent(nxt) <= dash:
                    break
                end += 1
            return i, end, dash + 2
    raise WriteError(path, f"item {item_id} is not in this file")


def _replace(path: Path, text: str, expected_ids: list[str]) -> None:
    """Validate the new text (YAML, every item, the same ids) before it replaces the file."""
    try:
        data: Any = yaml.safe_load(text)
        items = [_ITEM.validate_python(raw) for raw in data["items"]]
    except (yaml.YAMLError, ValidationError, KeyError, TypeError) as exc:
        raise WriteError(path, f"the edit would not load, file left unchanged: {exc}") from None
    if [i.id for i in items] != expected_ids:
        raise WriteError(path, "the edit changed which items the file holds; file left unchanged")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
