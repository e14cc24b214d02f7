"""The layers are real: streamlit only under ui/, the SDKs only under providers/, and `import coach` is cheap."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "coach"
SDKS = {"openai", "langchain_core", "sentence_transformers", "transformers", "torch"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_only_ui_imports_streamlit_and_only_providers_import_sdks() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).parts
        found = imports_of(path)
        if "streamlit" in found and rel[0] != "ui":
            offenders.append(f"{path}: streamlit")
        if found & SDKS and rel[0] != "providers":
            offenders.append(f"{path}: {sorted(found & SDKS)}")
    assert offenders == []


def test_app_py_only_wires() -> None:
    app = SRC.parents[1] / "app.py"
    assert imports_of(app) <= {"coach"}
    assert len(app.read_text().splitlines()) < 15


def test_importing_coach_does_not_load_sdks_or_the_model() -> None:
    code = (
        "import sys, coach, coach.grading.attempt, coach.session.assembly, coach.content.loader, coach.cli;"
        f"print(sorted(m for m in {sorted(SDKS | {'streamlit'})!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
