"""Moodle XML validates and round-trips; GIFT covers every item; CSV import reports line-numbered errors."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from coach.authoring.csv_import import COLUMNS, read_csv
from coach.authoring.gift import export_gift
from coach.authoring.moodle import export_moodle, published_count, read_moodle, validate_moodle
from coach.cli import app
from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import McqItem


def test_moodle_export_validates_and_round_trips(bank: Bank, tmp_path: Path) -> None:
    out = tmp_path / "bank.xml"
    result = CliRunner().invoke(app, ["export", "moodle-xml", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert validate_moodle(text) == []
    read = read_moodle(text)
    assert len(read) == published_count(bank)
    for q in read:
        item = bank.items[q.name]
        r = render(item)
        assert q.idnumber == f"{item.id}@v{item.version}" and q.text == r.stem
        assert q.category.endswith("/" + bank.modules[item.module or ""].title)
        if isinstance(item, McqItem):
            assert q.type == "multichoice"
            assert [(t, f) for t, f, _ in q.answers] == [(o.text, 100.0 if o.correct else 0.0) for o in r.options]
            assert q.answers[item.key_index][2] == r.explanation
        else:
            assert q.type == "essay" and "Model answer" in q.graderinfo


def test_the_validator_catches_what_moodle_would_trip_on(bank: Bank) -> None:
    text = export_moodle(bank)
    two_keys = text.replace('fraction="0"', 'fraction="100"', 1)
    assert any("exactly one answer at 100%" in e for e in validate_moodle(two_keys))
    assert any("context prefix" in e for e in validate_moodle(text.replace("$course$/", "", 1)))
    assert validate_moodle("<quiz><question/></quiz>") == ["question 1: <question> without a type"]
    assert validate_moodle("<quiz>") and validate_moodle("<other/>") == ["the root is <other>, not <quiz>"]


def test_gift_covers_every_published_item(bank: Bank) -> None:
    text = export_gift(bank)
    assert text.count("\n::") + text.startswith("::") == published_count(bank)
    assert "$CATEGORY: $course$/top/" in text


def test_csv_import_errors_name_their_lines(bank: Bank, tmp_path: Path) -> None:
    good = ["if-csv-one", "inference-fundamentals", "kv-cache-sizing", "easy", "conceptual",
            "What does the KV cache store for each token?", "The keys and values of every layer",
            "The query vectors of every layer", "The output logits of the last layer", "The gradients of the weights",
            "Attention reads the keys and values of earlier tokens at every layer, so caching them avoids "
            "recomputing the whole prefix at each step; queries, logits and gradients are not reused."]
    bad = [*good[:3], "trivial", *good[4:]]
    bad[0] = "if-csv-two"
    text = ",".join(COLUMNS) + "\n" + "\n".join(",".join(f'"{v}"' for v in row) for row in (good, bad)) + "\n"
    drafts, errors = read_csv(text, bank)
    assert [d.item.id for d in drafts] == ["if-csv-one"] and drafts[0].item.status == "draft"
    assert len(errors) == 1 and errors[0].startswith("line 3: difficulty")
    assert read_csv("id,stem\n", bank)[1][0].startswith("line 1: missing column")
