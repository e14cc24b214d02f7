"""`coach --help` reads plainly, and `coach grade --help` and the README agree on the --examples columns."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from coach.cli import app
from coach.cli_grading import EXAMPLE_COLUMNS

README = Path(__file__).resolve().parents[1] / "README.md"


def _help(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_flags_are_not_shown_with_a_bool_placeholder() -> None:
    for args in ((), ("grade",), ("bank", "check"), ("db",)):
        out = _help(*args)
        assert "<bool>" not in out, out
        assert re.search(r"--help\s+Show this message and exit", out)


def test_grade_help_and_readme_name_the_columns_the_reader_requires() -> None:
    columns = ",".join(EXAMPLE_COLUMNS)
    assert columns in " ".join(_help("grade").split())
    readme = README.read_text(encoding="utf-8")
    described = re.search(r"`--examples` takes human-graded answers \(`([a-z_,]+)`", readme)
    assert described, "the README describes --examples"
    assert described.group(1) == columns
