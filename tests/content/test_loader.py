"""The loader validates every record and names the file and record id of each problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from coach.content.checks import check_bank
from coach.content.loader import BankLoadError, load_bank, load_bank_collecting

MODULE = "id: demo\ntitle: Demo\nsummary: A demo module.\n"
MCQ = """
  - id: demo-q1
    type: mcq
    difficulty: easy
    concept: demo-page
    concept_version: 4319bbb0a28e
    dimensions: [conceptual]
    stem: Which GPU interconnect joins the GPUs of one HGX node?
    options:
      - {text: "NVLink through NVSwitch chips", correct: true}
      - {text: "InfiniBand through a leaf switch"}
      - {text: "Ethernet through the host's NIC"}
      - {text: "PCIe through the host's CPU root"}
    explanation: >-
      Inside an HGX node every GPU connects to NVSwitch chips over NVLink, which gives each GPU a
      full-bandwidth path to every other GPU in the node; InfiniBand and Ethernet are the scale-out networks.
"""
PAGE = "---\nid: demo-page\ntitle: Demo page\nmodule: demo\nsummary: A page.\n---\nBody text.\n"


def write_tree(root: Path, items: str = MCQ, module: str = MODULE, page: str = PAGE) -> Path:
    (root / "questions" / "demo").mkdir(parents=True)
    (root / "rubrics").mkdir()
    (root / "concepts").mkdir()
    (root / "questions" / "path.yaml").write_text("title: Demo path\nmodules: [demo]\n")
    (root / "questions" / "demo" / "module.yaml").write_text(module)
    (root / "questions" / "demo" / "topic.yaml").write_text("items:" + items)
    (root / "concepts" / "demo-page.md").write_text(page)
    return root


def test_a_valid_tree_loads(tmp_path: Path) -> None:
    bank = load_bank(write_tree(tmp_path))
    assert list(bank.items) == ["demo-q1"]
    assert bank.items["demo-q1"].module == "demo"
    assert check_bank(bank, enforce_counts=False) == []


def test_an_unknown_field_is_an_error_naming_file_and_id(tmp_path: Path) -> None:
    write_tree(tmp_path, MCQ.replace("difficulty: easy", "difficulty: easy\n    colour: blue"))
    with pytest.raises(BankLoadError) as err:
        load_bank(tmp_path)
    (problem,) = err.value.problems
    assert problem.path == "questions/demo/topic.yaml"
    assert problem.record == "demo-q1"
    assert "colour" in problem.message


def test_two_keys_are_rejected(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        MCQ.replace('"InfiniBand through a leaf switch"}', '"InfiniBand through a leaf switch", correct: true}'),
    )
    _, problems = load_bank_collecting(tmp_path)
    assert any("exactly one correct option, found 2" in p.message and p.record == "demo-q1" for p in problems)


def test_broken_yaml_and_bad_front_matter_are_reported(tmp_path: Path) -> None:
    write_tree(tmp_path, page="no front matter here")
    (tmp_path / "questions" / "demo" / "broken.yaml").write_text("items: [unclosed\n")
    _, problems = load_bank_collecting(tmp_path)
    messages = {str(p) for p in problems}
    assert any("broken.yaml" in m and "cannot read YAML" in m for m in messages)
    assert any("concepts/demo-page.md" in m and "front matter" in m for m in messages)


def test_a_missing_concept_page_fails_the_checks(tmp_path: Path) -> None:
    write_tree(tmp_path, MCQ.replace("concept: demo-page", "concept: nowhere"))
    problems = check_bank(load_bank(tmp_path), enforce_counts=False)
    assert [p.record for p in problems] == ["demo-q1"]
    assert "nowhere" in problems[0].message


def test_hand_written_numbers_must_be_computed_or_sourced(tmp_path: Path, facts_text: str) -> None:
    write_tree(tmp_path, MCQ.replace("full-bandwidth path", "450 GB/s path"))
    problems = check_bank(load_bank(tmp_path), facts_text, enforce_counts=False)
    assert any("number 450" in p.message for p in problems)
    sourced = MCQ.replace("full-bandwidth path", "450 GB/s path").replace(
        "    explanation:", '    literals:\n      - {text: "450 GB/s", source: "§3 NVLink 4"}\n    explanation:'
    )
    other = tmp_path / "sourced"
    write_tree(other, sourced)
    assert check_bank(load_bank(other), facts_text, enforce_counts=False) == []
    invented = sourced.replace("450", "777")
    third = tmp_path / "invented"
    write_tree(third, invented)
    problems = check_bank(load_bank(third), facts_text, enforce_counts=False)
    assert any("777 is not in domain-facts.md" in p.message for p in problems)


def test_option_rules(tmp_path: Path) -> None:
    bad = MCQ.replace('"PCIe through the host\'s CPU root"', '"None of the above"').replace(
        '"Ethernet through the host\'s NIC"', '"InfiniBand through a leaf switch."'
    )
    write_tree(tmp_path, bad)
    messages = [p.message for p in check_bank(load_bank(tmp_path), enforce_counts=False)]
    assert any("all/none of the above" in m for m in messages)
    assert any("near-duplicates" in m for m in messages)


def test_counts_are_enforced_for_ready_modules(tmp_path: Path) -> None:
    problems = check_bank(load_bank(write_tree(tmp_path)))
    assert any("1 published items; a module needs 30" in p.message for p in problems)


def test_options_that_differ_only_in_their_numbers_are_not_duplicates() -> None:
    from coach.content.checks import _check_options
    from coach.content.render import RenderedOption

    opts = tuple(
        RenderedOption(text=t, correct=i == 0)
        for i, t in enumerate(["About 8 FLOP/byte", "About 4 FLOP/byte", "About 16 FLOP/byte", "About 2 FLOP/byte"])
    )
    assert _check_options(opts) == []
    same = tuple(
        RenderedOption(text=t, correct=i == 0)
        for i, t in enumerate(["About 8 FLOP/byte", "About 8 FLOP/byte.", "About 16 FLOP/byte", "About 2 FLOP/byte"])
    )
    assert any("near-duplicates" in m for m in _check_options(same))


def test_schema_export_matches_the_models(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from coach.cli import app

    result = CliRunner().invoke(app, ["bank", "schema", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    items = json.loads((tmp_path / "items.schema.json").read_text())
    assert "McqItem" in items["$defs"] and items["$defs"]["McqItem"]["additionalProperties"] is False


def test_the_committed_schemas_are_the_exported_ones(tmp_path: Path) -> None:
    # editors validate the YAML against docs/schema/: a stale file there accepts fields the loader refuses
    from typer.testing import CliRunner

    from coach.cli import app

    assert CliRunner().invoke(app, ["bank", "schema", "--out", str(tmp_path)]).exit_code == 0
    committed = Path(__file__).resolve().parents[2] / "docs" / "schema"
    for exported in sorted(tmp_path.glob("*.schema.json")):
        assert (committed / exported.name).read_text() == exported.read_text(), (
            f"docs/schema/{exported.name} is stale: run `coach bank schema`")
