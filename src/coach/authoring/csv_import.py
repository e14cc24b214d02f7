"""`coach import csv`: a simple CSV of MCQs into draft items, every error naming its line.

Columns: id, module, concept, difficulty, dimensions (';'-separated), stem, key, distractor1, distractor2,
distractor3, explanation. Each row becomes a draft with csv-import provenance, stamped with its page's version.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from pydantic import ValidationError

from coach.authoring.drafts import Draft
from coach.content.bank import Bank
from coach.content.schema import McqItem, Option, Provenance, Status

COLUMNS = ("id", "module", "concept", "difficulty", "dimensions", "stem", "key", "distractor1", "distractor2",
           "distractor3", "explanation")


def read_csv(text: str, bank: Bank, now: datetime | None = None) -> tuple[list[Draft], list[str]]:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        return [], [f"line 1: missing column(s): {', '.join(missing)}"]
    drafts, errors = [], []
    for row in reader:
        line = reader.line_num
        page = bank.concepts.get(row["concept"] or "")
        if page is None:
            errors.append(f"line {line}: unknown concept page {row['concept']!r}")
            continue
        if row["id"] in bank.items:
            errors.append(f"line {line}: item id {row['id']!r} already exists")
            continue
        try:
            item = McqItem(
                id=row["id"], module=row["module"], concept=page.id, concept_version=page.version,
                difficulty=row["difficulty"], dimensions=tuple(d.strip() for d in row["dimensions"].split(";")),
                stem=row["stem"], explanation=row["explanation"], status=Status.DRAFT,
                options=(Option(text=row["key"], correct=True),
                         *(Option(text=row[f"distractor{k}"]) for k in (1, 2, 3) if row[f"distractor{k}"])),
                provenance=Provenance(source_page=page.id, page_version=page.version, generator="csv-import",
                                      created=now or datetime.now(UTC)),
            )
        except ValidationError as exc:
            detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            errors.append(f"line {line}: {detail}")
            continue
        if item.module not in bank.modules:
            errors.append(f"line {line}: unknown module {item.module!r}")
            continue
        drafts.append(Draft(item))
    return drafts, errors
