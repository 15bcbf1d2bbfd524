"""bench/errors_diff.py: what a change fixed and broke, from two ``--errors`` files."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TEXT = "主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。主人再拜，賓答拜。"  # 04 p1 as the gold has it


def _module():
    spec = importlib.util.spec_from_file_location("errors_diff", REPO / "bench" / "errors_diff.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _error(verb: str, gold: str, read, clause: str, carried=None) -> dict:
    return {"kind": "actor_wrong" if read else "actor_none", "verb": verb, "negated": False, "gold_actor": gold,
            "actor": read, "actor_inferred": True, "carried": carried, "clause": clause, "start": TEXT.index(clause)}


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_errors_fixed_and_new_are_told_with_their_passage(tmp_path, capsys):
    diff = _module()
    request = _error("請", "主人", "賓", "乃請賓", "reader_kept")
    consent = _error("許", "賓", None, "許", "both_changed")
    span = {"kind": "boundary", "label": "ACTOR", "start": 0, "end": 2, "text": "主人",
            "read": {"label": "ACTOR", "start": 1, "end": 2, "text": "人"}}
    record = {"split": "dev", "form": "punctuated", "chapter": "04", "doc": "04_xiangyinjiuli.xhtml#p1", "text": TEXT}
    before = _write(tmp_path / "before.jsonl", [{**record, "errors": [request], "span_errors": [span]},
                                                {**record, "form": "unpunctuated", "errors": [request], "span_errors": []}])
    after = _write(tmp_path / "after.jsonl", [{**record, "errors": [consent], "span_errors": [span]},
                                              {**record, "form": "unpunctuated", "errors": [request], "span_errors": []}])
    assert diff.main([str(before), str(after), "--form", "punctuated"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 errors before, 1 after: 1 fixed, 1 new")
    fixed, new = out.split("## new")
    assert "(reader_kept) 請: gold 主人 / read 賓 | 乃請賓" in fixed and TEXT[:30] in fixed
    assert "actor_none (both_changed) 許: gold 賓 / read None | 許" in new
    # the span errors: the same in both
    diff.main([str(before), str(after), "--spans", "--summary"])
    assert capsys.readouterr().out.strip() == "1 errors before, 1 after: 0 fixed, 0 new"
    # both forms: the unpunctuated form's error is in both files
    diff.main([str(before), str(after), "--summary"])
    assert capsys.readouterr().out.strip() == "2 errors before, 2 after: 1 fixed, 1 new"


def test_errors_of_the_held_out_split_are_refused_with_file_and_line(tmp_path):
    diff = _module()
    good = {"split": "dev", "form": "punctuated", "doc": "d", "text": TEXT, "errors": []}
    before = _write(tmp_path / "before.jsonl", [good])
    after = _write(tmp_path / "after.jsonl", [good, {**good, "split": "test"}])
    with pytest.raises(SystemExit, match=r"after\.jsonl:2: a record of the held-out test split"):
        diff.main([str(before), str(after)])
    (tmp_path / "broken.jsonl").write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"broken\.jsonl:2: not JSON: .* column 2"):
        diff.main([str(before), str(tmp_path / "broken.jsonl")])
