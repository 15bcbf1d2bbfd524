"""Bad input through the real `yili process`: each case fails alone, clearly, and loses nothing else.

(Invalid JSONL lines, records without `text`, a missing file, binary and empty files, an
unwritable output, Kanripo entities and astral characters, and a file vanishing mid-run are in
tests/test_process.py, tests/test_batch.py and tests/test_bad_input.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from offsets import check_offsets
import srsly
from typer.testing import CliRunner

from pipeline.cli import app

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()

# 鄉飲酒禮 經 as seed 003 prints it (traditional), and the same in simplified
JING = "主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。主人再拜，賓答拜。主人退，賓拜辱。"
JING_SIMPLIFIED = "主人戒宾，宾拜辱。主人答拜，乃请宾，宾礼辞，许。主人再拜，宾答拜。"


def process(*args: str, tmp_path: Path) -> tuple[int, list[dict], str]:
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", *args, "-o", str(out), "-q", "--no-resume"])
    lines = list(srsly.read_jsonl(out)) if out.exists() else []
    return result.exit_code, lines, result.output


def test_gb18030_and_big5_files_are_decoded_and_the_encoding_reported(tmp_path):
    gb = tmp_path / "simplified-gb.txt"
    gb.write_bytes(JING_SIMPLIFIED.encode("gb18030"))
    big5 = tmp_path / "traditional-big5.txt"
    big5.write_bytes(JING.encode("big5"))
    code, lines, output = process(str(gb), str(big5), tmp_path=tmp_path)
    assert code == 0, output
    assert lines[0]["meta"]["encoding"] == "gb18030" and lines[0]["text"] == JING_SIMPLIFIED
    assert lines[1]["meta"]["encoding"] == "big5" and lines[1]["text"] == JING
    for rec in lines:
        check_offsets(rec)
        # the same acts are read from both scripts: 主人 and 賓/宾 bow to each other
        bows = [(a["actor"], a["verb"]) for a in rec["actions"] if a["verb"] == "拜"]
        assert ("主人", "拜") in bows and len(bows) >= 4


def test_ten_megabytes_without_a_newline(tmp_path):
    """One line of 10 MB (a concatenated dump of seed 004: 經, 注 and 疏, its markers no use on one
    line) is one document whose copies all read alike: size changes nothing within it. Over
    ``SPLIT_BUDGET`` undecided characters it is classified a sentence at a time; the same copy alone
    goes through the run-together splitter and reads as the lines of seed 004 do, its anchors
    deciding (what the splitter was held back from on such a dump had read 0.44 of it so)."""
    from pipeline.process import SPLIT_BUDGET

    copy = next((REPO / "pipeline" / "samples").glob("004_*.txt")).read_text(encoding="utf-8")
    line = copy.replace("\n", "")
    big = tmp_path / "one-line.txt"
    n = 10_000_000 // len(line.encode("utf-8")) + 1
    big.write_text(line * n, encoding="utf-8")
    assert big.stat().st_size >= 10_000_000 and b"\n" not in big.read_bytes() and len(line) * n > SPLIT_BUDGET
    small = tmp_path / "small.txt"
    small.write_text(line, encoding="utf-8")
    lines_file = tmp_path / "lines.txt"
    lines_file.write_text(copy, encoding="utf-8")
    code, lines, output = process(str(big), str(small), str(lines_file), tmp_path=tmp_path)
    assert code == 0, output
    assert len(lines) == 3 and "error" not in lines[0]
    rec, alone, marked = lines
    assert len(rec["text"]) == len(line) * n
    check_offsets(rec)
    check_offsets(alone)

    def copy_at(k: int, key: str) -> list[tuple]:
        lo, hi = k * len(line), (k + 1) * len(line)
        return [(x["start"] - lo, x["end"] - lo, x.get("layer") or x.get("verb")) for x in rec[key] if lo <= x["start"] and x["end"] <= hi]

    for key in ("segments", "sentences", "actions"):
        assert len(copy_at(1, key)) > 20 and copy_at(1, key) == copy_at(n - 2, key), key

    def layers(record: dict, skip_newlines: bool) -> list:
        read = [None] * len(record["text"])
        for s in record["segments"]:
            read[s["start"]:s["end"]] = [s["layer"]] * (s["end"] - s["start"])
        return [x for ch, x in zip(record["text"], read) if not (skip_newlines and ch == "\n")]

    from pipeline.layers.features import is_han

    han = [is_han(ch) for ch in line]
    gold, got = layers(marked, True), layers(alone, False)
    assert len(gold) == len(got) == len(line)
    right = sum(g == x for g, x, h in zip(gold, got, han) if h and g)
    assert right / sum(1 for g, h in zip(gold, han) if h and g) > 0.85
    assert len(alone["actions"]) > 50


@pytest.mark.parametrize("section,folder,fix", [
    ("layers", "layers", "yili train layers"),
    ("sentences", "punctuate", "yili train punctuate"),
])
def test_a_corrupt_model_stops_the_run_naming_the_file_and_the_fix(tmp_path, section, folder, fix):
    import shutil

    broken = tmp_path / folder
    shutil.copytree(REPO / "models" / folder, broken)
    # the largest file the loader reads (the layer model's runtime form, when there is one, not its joblib)
    loaded = [p for p in broken.iterdir() if p.suffix in (".joblib", ".npz", ".json") and p.name != "training.json"
              and not (p.suffix == ".joblib" and (broken / "runtime.json").exists())]
    victim = max(loaded, key=lambda p: p.stat().st_size)
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 3])  # truncated mid-file
    cfg = tmp_path / "broken.cfg"
    cfg.write_text(f'[{section}]\nmodel = "{broken}"\n', encoding="utf-8")
    src = tmp_path / "a.txt"
    src.write_text(JING, encoding="utf-8")
    out = tmp_path / "o.jsonl"
    result = runner.invoke(app, ["process", str(src), "-o", str(out), "-c", str(cfg), "-q"])
    assert result.exit_code == 2
    assert str(broken) in result.output and fix in result.output
    assert not out.exists()
