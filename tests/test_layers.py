"""The layers are real: each package imports only the layers below it, SDKs stay in their corners, and
`import coach` is cheap.

Tiers, bottom to top (see ../shared/reference/design.md): vocab, units, errors, config and calc; providers; content
and store; session and grading; feedback, authoring and analytics; the service layer; evals (tools over the
library); ui and cli on top. A package may import its own tier's listed peers and anything below.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "coach"

BOTTOM = {"vocab", "errors", "config", "calc", "data", "units"}
ALLOWED: dict[str, set[str]] = {
    "vocab": set(),
    "units": set(),
    "errors": set(),
    "config": set(),
    "calc": {"errors", "vocab"},
    "providers": {"errors", "config", "vocab"},
    "content": BOTTOM,
    "store": BOTTOM,
    "session": BOTTOM | {"content"},
    "grading": BOTTOM | {"providers", "content", "session"},
    "feedback": BOTTOM | {"providers", "content", "session", "grading", "store"},
    "analytics": BOTTOM | {"content", "session", "grading", "store"},
    "authoring": BOTTOM | {"providers", "content", "session", "grading", "store", "analytics"},
    "service": BOTTOM | {"providers", "content", "session", "grading", "store", "feedback", "analytics", "authoring"},
    "evals": BOTTOM | {"providers", "content", "session", "grading", "store", "feedback", "service", "analytics"},
    "ui": {"*"},
    "cli": {"*"},
}
# Third-party SDKs and the only layers (or sub-packages) that may import them.
SDK_HOMES: dict[str, tuple[str, ...]] = {
    "streamlit": ("ui",),
    "starlette": ("ui",),  # the app's own HTTP route (HttpOnly cookies)
    "openai": ("providers",),
    "sentence_transformers": ("providers",),
    "transformers": ("providers",),
    "torch": ("providers",),
    "peft": ("providers",),
    # prompts are built and replies parsed only where an LLM is asked something
    "langchain_core": ("providers", "grading/judge", "feedback", "authoring"),
    "pint": ("units",),  # the domain's unit registry is defined once
    "sqlalchemy": ("store",),
    "alembic": ("store",),
}


def layer_of(path: Path) -> str:
    rel = path.relative_to(SRC).parts
    head = rel[0].removesuffix(".py")
    if head.startswith("cli"):
        return "cli"
    return head


def imports_of(path: Path) -> set[str]:
    """Every module an import names, dotted (`coach.grading.score`, `streamlit`), absolute or relative."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def coach_layers(modules: set[str]) -> set[str]:
    layers = set()
    for m in modules:
        parts = m.split(".")
        if parts[0] == "coach" and len(parts) > 1:
            head = parts[1]
            layers.add("cli" if head.startswith("cli") else head)
    return layers


def sources() -> list[Path]:
    return [p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC]


LEGACY: set[str] = set()  # imports allowed against the table while something moves (none now)


def test_every_layer_imports_only_what_is_below_it() -> None:
    offenders = []
    for path in sources():
        layer = layer_of(path)
        assert layer in ALLOWED, f"{path}: layer {layer!r} is not in the layer table: add it"
        allowed = ALLOWED[layer]
        if "*" in allowed:
            continue
        for used in coach_layers(imports_of(path)) - {layer}:
            if used in {"__version__"}:
                continue
            if used not in allowed:
                offenders.append(f"{path.relative_to(SRC)}: {layer} imports {used}")
    assert sorted(set(offenders) - LEGACY) == []


def test_sdks_stay_in_their_layers() -> None:
    offenders = []
    for path in sources():
        rel = "/".join(path.relative_to(SRC).parts)
        roots = {m.split(".")[0] for m in imports_of(path)}
        for sdk, homes in SDK_HOMES.items():
            if sdk in roots and not any(rel.startswith(h + "/") or rel == h + ".py" for h in homes):
                offenders.append(f"{rel}: {sdk}")
    assert offenders == []


def test_the_layer_table_catches_an_upward_import(tmp_path: Path) -> None:
    # the checker itself must be able to fail: a grading module importing the evals is caught
    bad = tmp_path / "bad.py"
    bad.write_text("from coach.evals.metrics import pearson\nimport streamlit\n")
    assert coach_layers(imports_of(bad)) == {"evals"}
    assert "evals" not in ALLOWED["grading"] and "streamlit" in {m.split(".")[0] for m in imports_of(bad)}


def test_app_py_only_wires() -> None:
    # streamlit is imported only to declare the `st.App` (`streamlit run` finds it by reading the file)
    app = SRC.parents[1] / "app.py"
    assert {m.split(".")[0] for m in imports_of(app)} <= {"coach", "streamlit"}
    assert "App(" in app.read_text() and "main()" not in app.read_text()
    assert len(app.read_text().splitlines()) < 15


SDKS = {"openai", "langchain_core", "sentence_transformers", "transformers", "torch", "peft", "sqlalchemy"}


def test_importing_coach_does_not_load_sdks_or_the_model() -> None:
    code = (
        "import sys, coach, coach.grading.attempt, coach.session.assembly, coach.content.loader, coach.cli;"
        f"print(sorted(m for m in {sorted(SDKS | {'streamlit'})!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
