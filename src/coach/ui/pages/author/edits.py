"""Reading an author's edit of a draft (the YAML of its file, and a short item's rubric) into content models,
with messages a person can act on. No streamlit here: the page shows what this returns."""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from pydantic import TypeAdapter, ValidationError

from coach.content.schema import Item, Rubric

_ITEM: TypeAdapter[Item] = TypeAdapter(Item)


@dataclass(frozen=True)
class Edit:
    item: Item | None
    rubric: Rubric | None
    errors: tuple[str, ...]


def _messages(exc: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in e['loc']) or '(item)'}: {e['msg']}" for e in exc.errors()]


def read_edit(item_text: str, module: str | None, rubric_text: str | None = None) -> Edit:
    """The edited item file (`items:` with one item) and rubric; a YAML or schema error is a message, not a crash."""
    errors: list[str] = []
    item: Item | None = None
    rubric: Rubric | None = None
    try:
        data = yaml.safe_load(item_text)
    except yaml.YAMLError as exc:
        return Edit(None, None, (f"the item is not valid YAML: {exc}",))
    if isinstance(data, dict) and "items" in data:
        data = data["items"]
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    if not isinstance(data, dict):
        return Edit(None, None, ("the item file must hold `items:` with exactly one item",))
    if data.get("module") not in (None, module):
        errors.append(f"module {data.get('module')!r} differs from the draft's folder ({module})")
    try:
        item = _ITEM.validate_python({**data, "module": module})
    except ValidationError as exc:
        errors += _messages(exc)
    if rubric_text is not None and rubric_text.strip():
        try:
            rubric = Rubric.model_validate(yaml.safe_load(rubric_text))
        except yaml.YAMLError as exc:
            errors.append(f"the rubric is not valid YAML: {exc}")
        except ValidationError as exc:
            errors += [f"rubric {m}" for m in _messages(exc)]
    return Edit(item if not errors else None, rubric if not errors else None, tuple(errors))
