"""士喪禮 and 既夕禮: 尸 is the corpse there (GUIDE §2), a participant everywhere else."""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.actions.rites import corpse_ranges

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("YILI_SHARED", REPO.parent / "shared"))

# 士喪禮's 小斂 and 大斂 (the corpse moved, mourned over, laid in the coffin), as the XHTML punctuates it
MOVED = "士舉遷尸，反位。"
MOURNED = "主人西面馮尸，踊無筭；主婦東面馮，亦如之。"
COFFINED = "主人奉尸斂于棺，踊如初，乃蓋。"
# 特牲饋食禮 (15): the impersonator of the dead comes in and washes his hands
LIVING = "尸入門左，北面盥。"


def _corpse(out: dict) -> list[tuple[str, str]]:
    text = out["text"]
    return [(text[s["start"]:s["end"]], s["label"]) for s in out["spans"] if text[s["start"]:s["end"]] == "尸"]


def test_ranges_follow_the_record_its_file_and_its_titles():
    assert corpse_ranges("士舉遷尸", {"chapter": 12}) == [(0, 4)]
    assert corpse_ranges("士舉遷尸", {"chapter": "13"}) == [(0, 4)]
    assert corpse_ranges("尸入門左", {"chapter": "15"}) == []
    assert corpse_ranges("尸入門左", {}) == []
    assert corpse_ranges("…", {"source": "../shared/corpus/zhushu-siku/12_shisangli.txt"}) == [(0, 1)]
    # a file of several chapters: each title starts its chapter, 旣 written for 既 as the 四部叢刊 does
    text = "士喪禮第十二\n" + MOVED + "\n旣夕禮第十三\n" + COFFINED + "\n士虞禮第十四\n" + LIVING
    assert corpse_ranges(text, {}) == [(0, text.index("士虞禮第十四"))]
    assert corpse_ranges("序\n特牲饋食禮第十五\n" + LIVING, {"chapter": "12"}) == [(0, 2)]


def test_the_corpse_is_a_thing_in_the_funeral_chapters(processor):
    for passage in (MOVED, MOURNED, COFFINED):
        alone = processor.process({"text": passage, "meta": {"layer": "JING"}})
        funeral = processor.process({"text": passage, "meta": {"layer": "JING", "chapter": "12"}})
        assert _corpse(alone) == [("尸", "ACTOR")]
        assert _corpse(funeral) == [("尸", "OBJECT")]
        assert funeral["actions"] == alone["actions"]  # no act was the corpse's in these
    moved = processor.process({"text": MOVED, "meta": {"layer": "JING", "chapter": 12}})
    assert [(a["actor"], a["verb"]) for a in moved["actions"]] == [("士", "反")]


def test_a_file_of_several_chapters_reads_each_as_its_own(processor):
    text = "士喪禮第十二\n" + MOVED + "\n特牲饋食禮第十五\n" + LIVING + "\n"
    out = processor.process({"text": text, "meta": {}})
    living = text.index(LIVING)
    assert [(a["actor"], a["verb"]) for a in out["actions"]] == [("士", "反"), ("尸", "入"), ("尸", "盥")]
    assert [(s["start"] < living, s["label"]) for s in out["spans"] if out["text"][s["start"]:s["end"]] == "尸"] == [
        (True, "OBJECT"), (False, "ACTOR")]
    # under the funeral chapter's title the same words give the corpse no act
    funeral = processor.process({"text": "士喪禮第十二\n" + LIVING + "\n", "meta": {}})
    assert [a for a in funeral["actions"] if a["actor"] and "尸" in a["actor"]] == []
    assert _corpse(funeral) == [("尸", "OBJECT")]


def test_the_corpus_funeral_chapters_give_the_corpse_no_act(processor):
    """士喪禮 in the 四部叢刊 鄭注 as `yili process` reads the file (its chapter from the file name)."""
    path = SHARED / "corpus" / "zhengzhu-sbck" / "12_shisangli.txt"
    out = processor.process({"text": path.read_text(encoding="utf-8"), "meta": {"source": str(path)}})
    labels = {label for word, label in _corpse(out)}
    assert labels == {"OBJECT"}
    assert not [a for a in out["actions"] if a["actor"] and "尸" in a["actor"]]
    assert not [a for a in out["actions"] if a.get("target") and "尸" in a["target"]]
