"""Gold a scholar adds by hand under annotations/: a bad line is named (file:line: why) and left out,
and training and evaluation go on with the other records (exit status: how many were left out).

Real gold lines (chapter 03 of the dev action gold, the seeds' layer records) with faults put in
between them: a line cut short, a span whose offsets run past its text, a line not in UTF-8. And the
other input of training and evaluation, ../shared, missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.annotate.gold import GoldError, read_gold
from pipeline.cli import app

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _gold_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _faulty(lines: list[str]) -> bytes:
    """``lines`` with three bad lines after the second: cut short, a span past its text, not UTF-8."""
    record = json.loads(lines[0])
    past = dict(record, spans=[{"start": 0, "end": len(record["text"]) + 5, "label": "ACTOR"}])
    bad = [lines[1][: len(lines[1]) // 2].encode("utf-8"), json.dumps(past, ensure_ascii=False).encode("utf-8"),
           "主人拜".encode("utf-8") + b"\xe4\xb8" + b' "x"']
    out = [line.encode("utf-8") for line in lines[:2]] + bad + [line.encode("utf-8") for line in lines[2:]]
    return b"\n".join(out) + b"\n"


@pytest.fixture
def dev03() -> list[str]:
    return _gold_lines(REPO / "annotations" / "actions" / "dev" / "03.jsonl")


def test_read_gold_names_each_bad_line_and_keeps_the_others(tmp_path: Path, dev03: list[str]):
    path = tmp_path / "03.jsonl"
    path.write_bytes(_faulty(dev03))
    refused: list[str] = []
    records = read_gold(path, refused)
    assert [r["text"] for r in records] == [json.loads(line)["text"] for line in dev03]
    assert len(refused) == 3
    assert refused[0].startswith(f"{path}:3: not JSON")
    assert refused[1].startswith(f"{path}:4: span 0 (ACTOR 0-") and "outside the text" in refused[1]
    assert refused[2].startswith(f"{path}:5: not UTF-8 (byte 10 of the line, 0xE4")
    with pytest.raises(GoldError, match=rf"{path.name}:3: not JSON"):
        read_gold(path)


def test_layer_gold_with_a_bad_line(tmp_path: Path):
    from pipeline.layers.training import gold_examples

    lines = _gold_lines(REPO / "annotations" / "layers" / "seed003.jsonl")
    (tmp_path / "seed003.jsonl").write_bytes(_faulty(lines))
    refused: list[str] = []
    examples = gold_examples(tmp_path, refused)
    assert len(examples) == len([line for line in lines if json.loads(line).get("answer", "accept") == "accept"])
    assert [r.split(": ")[0] for r in refused] == [f"{tmp_path / 'seed003.jsonl'}:{n}" for n in (3, 4, 5)]


def _gold_folder(tmp_path: Path, dev03: list[str]) -> Path:
    """An annotations/actions folder whose dev split is chapter 03 with the bad lines."""
    gold = tmp_path / "actions"
    (gold / "dev").mkdir(parents=True)
    (gold / "dev" / "03.jsonl").write_bytes(_faulty(dev03))
    return gold


def test_train_spans_leaves_out_a_bad_gold_line(tmp_path: Path, dev03: list[str], monkeypatch):
    from pipeline.nlp import span_model

    monkeypatch.setattr(span_model, "GOLD_DIR", _gold_folder(tmp_path, dev03))
    out = tmp_path / "model"
    result = runner.invoke(app, ["train", "spans", "--kind", "crf", "--chapter", "03", "--out", str(out)])
    assert result.exit_code == 3, result.output
    assert "03.jsonl:3: not JSON" in result.output and "03.jsonl:5: not UTF-8" in result.output
    assert "3 gold lines left out" in result.output
    assert "training texts from chapters 03" in result.output  # trained on the other records
    assert out.is_dir() and any(out.iterdir())


def test_evaluate_actions_leaves_out_a_bad_gold_line(tmp_path: Path, dev03: list[str], monkeypatch):
    from pipeline.actions import report

    monkeypatch.setattr(report, "GOLD_DIR", _gold_folder(tmp_path, dev03))
    out = tmp_path / "figures.json"
    result = runner.invoke(app, ["evaluate", "actions", "--split", "dev", "--no-unseen", "--no-documents", "--out", str(out)])
    assert result.exit_code == 3, result.output
    assert "03.jsonl:4: span 0" in result.output
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert figures["splits"]["dev"]["passages"] == len(dev03)
    assert figures["splits"]["dev"]["punctuated"]["all"]["f1"] > 0.8


def test_evaluate_actions_with_no_gold_says_so(tmp_path: Path, monkeypatch):
    from pipeline.actions import report

    monkeypatch.setattr(report, "GOLD_DIR", tmp_path)
    result = runner.invoke(app, ["evaluate", "actions", "--split", "dev", "--no-unseen", "--no-documents",
                                 "--out", str(tmp_path / "f.json")])
    assert result.exit_code == 2
    assert "cannot evaluate the actions" in result.output and "no gold records under" in result.output


def test_evaluate_all_goes_on_after_one_evaluation_fails(monkeypatch):
    """`yili evaluate all`: layers left 2 gold lines out, actions 1; segmentation still ran after layers,
    and the status is the sum (the three evaluations themselves take minutes: their calls are recorded)."""
    import typer

    from pipeline import cli

    ran: list[str] = []

    def ends(name: str, status: int):
        def command(*_args):
            ran.append(name)
            if status:
                raise typer.Exit(status)
        return command

    monkeypatch.setattr(cli, "evaluate_layers_command", ends("layers", 2))
    monkeypatch.setattr(cli, "evaluate_segmentation_command", ends("segmentation", 0))
    monkeypatch.setattr(cli, "evaluate_actions_command", ends("actions", 1))
    result = runner.invoke(app, ["evaluate", "all"])
    assert ran == ["layers", "segmentation", "actions"]
    assert result.exit_code == 3


@pytest.mark.parametrize("command", [["train", "layers"], ["train", "punctuate"], ["evaluate", "layers"],
                                     ["evaluate", "segmentation"]])
def test_training_and_evaluation_without_the_corpus_say_where_it_should_be(tmp_path, monkeypatch, command):
    """../shared missing (an installed yili, a checkout without it): status 2 and where to put it (the
    message had been the last line of a traceback)."""
    monkeypatch.setenv("YILI_CORPUS", str(tmp_path / "nowhere"))
    out = ["--out", str(tmp_path / ("figures.json" if command[0] == "evaluate" else "model"))]
    result = runner.invoke(app, [*command, *out])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.split())
    assert "does not exist: put the shared corpus at ../shared/corpus" in said and "Traceback" not in said
