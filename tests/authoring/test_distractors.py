"""Distractor generation: the CLI contract, the validator's reasons, and the whole bank offline."""

from __future__ import annotations

import json
import statistics

import pytest
from typer.testing import CliRunner

from coach.authoring.candidates import Candidate, Source
from coach.authoring.distractors import assess_candidates, prime_embeddings, suggest_distractors
from coach.authoring.swaps import swaps
from coach.authoring.validate import same_text
from coach.cli import app
from coach.content.bank import Bank
from coach.content.render import render
from coach.content.schema import McqItem

runner = CliRunner()


def test_swaps_exchange_roles_and_keep_case() -> None:
    out = {s.note: s.text for s in swaps("Prefill is compute-bound; decode reads 450 GB/s per direction")}
    assert out["prefill <-> decode"] == "Decode is compute-bound; prefill reads 450 GB/s per direction"
    assert out["GB/s <-> Gb/s"].endswith("450 Gb/s per direction")
    assert out["per direction <-> bidirectional"].endswith("bidirectional")


def test_cli_json_contract(bank: Bank) -> None:
    result = runner.invoke(app, ["author", "distractors", "--item", "if-kv-per-token", "--offline", "--n", "4",
                                 "--json"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    assert 1 <= len(records) <= 4
    assert all(set(r) == {"text", "misconception", "why_wrong", "plausibility", "source"} for r in records)
    scores = [r["plausibility"] for r in records]
    assert scores == sorted(scores, reverse=True)


def test_a_short_item_is_refused_clearly() -> None:
    result = runner.invoke(app, ["author", "distractors", "--item", "mp-kvrep-405b-tp16-short", "--offline"])
    assert result.exit_code == 1 and "distractors are for MCQs" in result.output


def test_rejections_say_why(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    item = bank.items["mp-tp-weights-per-gpu"]
    assert isinstance(item, McqItem)
    shown = render(item).options
    key = shown[item.key_index].text  # "About 35.3 GB"
    made = [
        Candidate(text=key, source=Source.CATALOGUE, why_wrong="-"),
        Candidate(text=shown[1].text, source=Source.CATALOGUE, why_wrong="-"),
        Candidate(text="About 36.0 GB", source=Source.SLIP, why_wrong="-"),  # within 15% under "About"
        Candidate(text="Tensor parallelism splits every matrix", source=Source.CATALOGUE, why_wrong="-"),
        Candidate(text="About 1,000,000 GB", source=Source.SLIP, why_wrong="-", value=1e15),
    ]
    found = assess_candidates(bank, item, made, embedder)
    why = {a.candidate.text: " ".join(a.reasons) for a in found.rejected}
    assert "it is the key" in why[key]
    assert "duplicates option 2" in why[shown[1].text]
    assert "within 15%" in why["About 36.0 GB"]
    assert "the key is a number" in why["Tensor parallelism splits every matrix"]
    assert "orders of magnitude" in why["About 1,000,000 GB"]
    assert found.accepted == ()


def test_prose_too_close_to_the_key_is_refused(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    item = bank.items["mp-kvrep-mp16-checkpoint"]
    assert isinstance(item, McqItem)
    key = render(item).options[item.key_index].text
    para = key.replace("Each of the", "Every one of the").replace("is copied onto", "gets copied to")
    found = assess_candidates(bank, item, [Candidate(text=para, source=Source.CATALOGUE, why_wrong="-")], embedder)
    (rejected,) = found.rejected
    assert "too close to the key" in rejected.reasons[0]


def test_more_kv_heads_than_the_model_has_is_implausible(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    item = bank.items["mp-kvrep-mp16-checkpoint"]
    assert isinstance(item, McqItem)
    text = "Each of the 64 KV heads is copied onto two ranks, so every one of the sixteen ranks holds a whole head"
    found = assess_candidates(bank, item, [Candidate(text=text, source=Source.SWAP, why_wrong="-")], embedder)
    assert any("more than the model has (8)" in r for r in found.rejected[0].reasons)


def test_ranking_is_explained(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    best = suggest_distractors(bank, "ms-replicas-needed", embedder).best(3)
    assert best and all("source" in a.explain() and "length match" in a.explain() for a in best)


@pytest.mark.timeout(1800)
def test_every_mcq_gets_three_valid_offline_candidates(bank: Bank, embedder) -> None:  # type: ignore[no-untyped-def]
    """The done-when figure: >= 3 valid candidates per MCQ, none the key or an existing option."""
    mcqs = [i for i in bank.items.values() if isinstance(i, McqItem)]
    assert prime_embeddings(bank, [i.id for i in mcqs], embedder) > 0  # one batch: the cost of this test
    counts = {}
    for item in mcqs:
        best = suggest_distractors(bank, item.id, embedder, n=5).best(5)
        options = [o.text for o in render(item).options]
        # same_text: equal but for case and punctuation, except units (42.9 GB/s and 42.9 Gb/s differ 8×)
        assert not [a for a in best for o in options if same_text(a.candidate.text, o)], item.id
        counts[item.id] = len(best)
    low = {k: v for k, v in counts.items() if v < 3}
    print(f"\nvalid candidates (top 5) per MCQ: min {min(counts.values())}, "
          f"median {statistics.median(counts.values())}, items {len(counts)}")
    assert low == {}
