"""bench/corpus_diff.py: a change's effect on the whole corpus, with the test chapters counted, not shown."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TEXT = "主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。"  # 04 p1


def _module():
    spec = importlib.util.spec_from_file_location("corpus_diff", REPO / "bench" / "corpus_diff.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record(source: str, actor: str) -> dict:
    return {"text": TEXT, "meta": {"source": source},
            "actions": [{"start": 0, "end": 4, "actor": "主人", "verb": "戒"}, {"start": 5, "end": 8, "actor": actor, "verb": "拜"}],
            "spans": [{"start": 0, "end": 2, "label": "ACTOR", "text": "主人"}]}


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_changes_are_counted_everywhere_and_shown_for_dev_chapters_and_seeds_only(tmp_path, capsys):
    dev, test, seed = "corpus/zhushu-siku/04_xiangyinjiuli.txt", "corpus/zhushu-siku/17_yousiche.txt", "x/seeds/000_a.txt"
    before = _write(tmp_path / "a.jsonl", [_record(dev, "賓"), _record(test, "賓"), _record(seed, "賓")])
    after = _write(tmp_path / "b.jsonl", [_record(dev, "主人"), _record(test, "主人"), _record(seed, "賓")])
    assert _module().main([str(before), str(after)]) == 0
    out = capsys.readouterr().out
    assert f"{dev}: tuples −1 +1, spans −0 +0" in out and f"{test}: tuples −1 +1, spans −0 +0" in out
    assert "− 賓 拜  賓拜辱" in out and "+ 主人 拜  賓拜辱" in out  # the dev chapter's change, shown once
    assert out.count("賓拜辱") == 2  # the test chapter's is counted, never printed
    assert seed not in out and "2 of 3 documents changed" in out


def test_a_bad_line_names_the_file_and_line(tmp_path):
    good = _write(tmp_path / "a.jsonl", [_record("x/seeds/000_a.txt", "賓")])
    bad = tmp_path / "b.jsonl"
    bad.write_text(json.dumps(_record("x/seeds/000_a.txt", "賓"), ensure_ascii=False) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=f"{bad}:2:"):
        _module().main([str(good), str(bad)])
