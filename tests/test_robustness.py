"""Bad input through the real `yili process`: each case fails alone, clearly, and loses nothing else.

(Invalid JSONL lines, records without `text`, a missing file, binary and empty files and an
unwritable output are in tests/test_process.py and tests/test_batch.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import srsly
from typer.testing import CliRunner

from pipeline.cli import app

REPO = Path(__file__).resolve().parents[1]
runner = CliRunner()

# 鄉飲酒禮 經 with its 注, as seed 003 prints them (traditional), and the same in simplified
JING = "主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。主人再拜，賓答拜。主人退，賓拜辱。"
ZHU = "戒，警也，告也。拜辱，出拜其自屈辱至己門也。"
JING_SIMPLIFIED = "主人戒宾，宾拜辱。主人答拜，乃请宾，宾礼辞，许。主人再拜，宾答拜。"


def process(*args: str, tmp_path: Path) -> tuple[int, list[dict], str]:
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", *args, "-o", str(out), "-q", "--no-resume"])
    lines = list(srsly.read_jsonl(out)) if out.exists() else []
    return result.exit_code, lines, result.output


def check_offsets(record: dict) -> None:
    text = record["text"]
    for key in ("segments", "sentences", "clauses", "spans", "removed"):
        for item in record[key]:
            assert 0 <= item["start"] <= item["end"] <= len(text), (key, item)
            if "text" in item:
                assert text[item["start"]:item["end"]] == item["text"], (key, item)
    for act in record["actions"]:
        assert 0 <= act["start"] <= act["end"] <= len(text)


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


def test_astral_characters_and_kanripo_entities_keep_offsets(tmp_path):
    # a Kanripo-style 經 line with an entity and two astral characters (𧰼 U+27C3C, 𧃊 U+270CA)
    text = "主人升&KR0925;席自北方，坐取𧰼𧃊于篚，降洗。賓降，主人辭降。\n"
    src = tmp_path / "kr.jsonl"
    src.write_text(json.dumps({"text": text, "meta": {"layer": "JING"}}, ensure_ascii=False) + "\n", encoding="utf-8")
    code, lines, output = process(str(src), tmp_path=tmp_path)
    assert code == 0, output
    rec = lines[0]
    check_offsets(rec)
    assert rec["text"] == text
    # offsets are code points: the span after the astral characters still lands on 篚
    spans = {rec["text"][s["start"]:s["end"]] for s in rec["spans"]}
    assert "篚" in spans and "賓" in spans
    acts = [(a["actor"], a["verb"]) for a in rec["actions"]]
    assert ("賓", "降") in acts and ("主人", "辭") in acts
    # no sentence or span cuts the entity in two
    entity = (text.index("&"), text.index(";") + 1)
    for s in rec["sentences"] + rec["spans"]:
        for edge in (s["start"], s["end"]):
            assert not entity[0] < edge < entity[1]


def test_ten_megabytes_without_a_newline(tmp_path):
    """One line of 10 MB (a concatenated dump): processed as one document, offsets valid."""
    unit = JING + ZHU
    big = tmp_path / "one-line.txt"
    n = 10_000_000 // len(unit.encode("utf-8")) + 1
    big.write_text(unit * n, encoding="utf-8")
    assert big.stat().st_size >= 10_000_000 and b"\n" not in big.read_bytes()
    small = tmp_path / "small.txt"
    small.write_text(JING, encoding="utf-8")
    code, lines, output = process(str(big), str(small), tmp_path=tmp_path)
    assert code == 0, output
    assert len(lines) == 2 and "error" not in lines[0]
    rec = lines[0]
    assert len(rec["text"]) == len(unit) * n
    check_offsets(rec)
    assert len(rec["sentences"]) >= 6 * n  # every 。 of every copy ends a sentence
    assert lines[1]["actions"]


def test_a_file_that_disappears_mid_run(tmp_path):
    """The file is listed when the run starts and deleted before its turn: one error, the rest kept."""
    from pipeline.batch.runner import BatchRunner
    from pipeline.config import load_config

    files = []
    for k in range(3):
        path = tmp_path / "in" / f"{k}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(JING, encoding="utf-8")
        files.append(path)
    doomed = files[2]

    def on_result(stats) -> None:
        if doomed.exists():
            doomed.unlink()

    out = tmp_path / "o.jsonl"
    report = BatchRunner(load_config(), jobs=1, resume=False, on_result=on_result).run([str(tmp_path / "in")], out)
    lines = list(srsly.read_jsonl(out))
    assert report.failed == 1 and len(lines) == 3
    assert "error" not in lines[0] and "error" not in lines[1] and lines[1]["actions"]
    assert str(doomed) in lines[2]["error"]


@pytest.mark.parametrize("section,folder,fix", [
    ("layers", "layers", "yili train layers"),
    ("sentences", "punctuate", "yili train punctuate"),
])
def test_a_corrupt_model_stops_the_run_naming_the_file_and_the_fix(tmp_path, section, folder, fix):
    import shutil

    broken = tmp_path / folder
    shutil.copytree(REPO / "models" / folder, broken)
    victim = max((p for p in broken.iterdir() if p.suffix in (".joblib", ".npz", ".json") and p.name != "training.json"),
                 key=lambda p: p.stat().st_size)
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
