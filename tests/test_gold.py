"""The hand-made action gold (annotations/actions/): well-formed, consistent with its sources,
with the labels and verbs of the contract, and split by chapter as SPLITS.md says.

Gold is read, never produced, here; the few content checks below were written from reading
the passages (e.g. 有司徹 p42 主人東楹東，北面拜至).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import srsly

from pipeline.labels import SPAN_LABELS, VERBS

REPO = Path(__file__).resolve().parents[1]
GOLD = REPO / "annotations" / "actions"
sys.path.insert(0, str(REPO / "annotations" / "tools"))

import build  # noqa: E402
from passages import read_passages  # noqa: E402

SPLIT_FILES = {split: sorted((GOLD / split).glob("*.jsonl")) for split in ("test", "dev")}
ALL_FILES = SPLIT_FILES["test"] + SPLIT_FILES["dev"] + sorted((GOLD / "agreement").glob("*.jsonl"))
MINIMUM = {"test": 170, "dev": 250}
TUPLE_FIELDS = {"actor", "actor_inferred", "verb", "surface", "count", "response", "negated",
                "purpose", "object", "target", "location", "facing", "start", "end"}


def records(path: Path) -> list[dict]:
    return list(srsly.read_jsonl(path))


@pytest.fixture(scope="module")
def gold() -> dict[Path, list[dict]]:
    return {path: records(path) for path in ALL_FILES}


def test_gold_files_exist():
    assert SPLIT_FILES["test"] and SPLIT_FILES["dev"]
    assert (GOLD / "agreement" / "A2.jsonl").is_file()


def test_records_are_prodigy_shaped(gold):
    for path, recs in gold.items():
        assert recs, path
        for rec in recs:
            assert {"text", "meta", "tokens", "spans", "actions", "answer"} <= rec.keys()
            assert rec["answer"] == "accept"
            meta = rec["meta"]
            assert meta["layer"] == "JING" and meta["source"] == "zhushu-xhtml"
            assert meta["doc"] == f"{meta['doc'].split('#')[0]}#p{meta['passage_index']}"
            assert meta["doc"].startswith(meta["chapter"] + "_")
            assert meta["annotator"] in ("A1", "A2", "B1", "B2")


def test_tokens_align_one_per_character(gold):
    for recs in gold.values():
        for rec in recs:
            text, tokens = rec["text"], rec["tokens"]
            assert len(tokens) == len(text)
            for i, tok in enumerate(tokens):
                assert tok == {"text": text[i], "start": i, "end": i + 1, "id": i, "ws": False}


def test_spans_in_range_labelled_and_matching(gold):
    for recs in gold.values():
        for rec in recs:
            text, tokens = rec["text"], rec["tokens"]
            ends = []
            for span in rec["spans"]:
                assert span["label"] in SPAN_LABELS
                assert 0 <= span["start"] < span["end"] <= len(text)
                assert span["text"] == text[span["start"]:span["end"]]
                assert tokens[span["token_start"]]["start"] == span["start"]
                assert tokens[span["token_end"]]["end"] == span["end"]  # inclusive, as Prodigy
                ends.append((span["start"], span["end"]))
            ends.sort()
            assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:])), rec["meta"]["doc"]


def test_tuples_in_range_with_closed_list_verbs(gold):
    for recs in gold.values():
        for rec in recs:
            text = rec["text"]
            verb_spans = [s for s in rec["spans"] if s["label"] == "VERB"]
            assert len(verb_spans) == len(rec["actions"]), rec["meta"]["doc"]
            for t, vs in zip(rec["actions"], verb_spans):
                assert set(t) == TUPLE_FIELDS
                assert t["verb"] in VERBS
                assert 0 <= t["start"] <= vs["start"] < vs["end"] <= t["end"] <= len(text)
                clause = text[t["start"]:t["end"]]
                assert not any(ch in clause for ch in "，。；︰")
                assert t["surface"] in text
                assert t["count"] is None or t["count"] in (1, 2, 3)
                assert isinstance(t["negated"], bool) and isinstance(t["response"], bool)
                if t["actor"] is None:
                    assert t["actor_inferred"] is True
                for role in ("object", "target", "location", "facing", "purpose"):
                    assert t[role] is None or t[role] in text


def test_passage_text_is_the_xhtml_paragraph(gold):
    cache: dict[str, dict] = {}
    for recs in gold.values():
        for rec in recs:
            ch = rec["meta"]["chapter"]
            if ch not in cache:  # not setdefault: its argument would parse the chapter for every record
                cache[ch] = read_passages(ch)
            assert cache[ch][rec["meta"]["passage_index"]].text == rec["text"]


def test_jsonl_is_what_the_sources_build(gold):
    """The JSONL files are outputs of build.py, never hand-edited."""
    for src in sorted(build.SRC.rglob("*.txt")):
        out = build.target_path(src)
        assert build.build_file(src) == gold[out], src.name


def test_split_sizes_and_disjoint_chapters(gold):
    chapters = {}
    for split, paths in SPLIT_FILES.items():
        n = sum(len(gold[p]) for p in paths)
        assert n >= MINIMUM[split], (split, n)
        chapters[split] = {r["meta"]["chapter"] for p in paths for r in gold[p]}
    assert chapters["test"] == {"12", "13", "14", "17"}
    assert chapters["dev"] <= {"03", "04", "05", "07", "10", "15"}
    assert not chapters["test"] & chapters["dev"]
    docs = [r["meta"]["doc"] for split in SPLIT_FILES.values() for p in split for r in gold[p]]
    assert len(docs) == len(set(docs))


def test_agreement_sample_is_half_test_half_dev(gold):
    a2 = gold[GOLD / "agreement" / "A2.jsonl"]
    test = [r for r in a2 if r["meta"]["chapter"] in {"12", "13", "14", "17"}]
    assert len(a2) == 50 and len(test) == 25
    assert all(r["meta"]["annotator"] == "A2" for r in a2)


def _find(gold, doc: str) -> dict:
    for split in SPLIT_FILES.values():
        for path in split:
            for rec in gold[path]:
                if rec["meta"]["doc"] == doc:
                    return rec
    raise KeyError(doc)


def test_read_content_yousiche_bai_zhi(gold):
    # 主人東楹東，北面拜至，尸答拜。: 拜 with purpose 至, facing 北面; the 尸 answers.
    rec = _find(gold, "17_yousiche.xhtml#p42")
    first, second = rec["actions"][:2]
    assert (first["actor"], first["verb"], first["purpose"], first["facing"], first["location"]) == (
        "主人", "拜", "至", "北面", "東楹東")
    assert first["surface"] == "拜至" and not first["actor_inferred"]
    assert (second["actor"], second["verb"], second["response"]) == ("尸", "拜", True)


def test_read_content_xiangyin_three_bows_and_negation(gold):
    # 主人與賓三揖，至於階，三讓。
    rec = _find(gold, "04_xiangyinjiuli.xhtml#p46")
    yi = rec["actions"][0]
    assert (yi["actor"], yi["verb"], yi["count"], yi["target"]) == ("主人", "揖", 3, "賓")
    # 賓不辭洗 → 辭, negated, object 洗
    rec = _find(gold, "04_xiangyinjiuli.xhtml#p134")
    ci = [t for t in rec["actions"] if t["verb"] == "辭" and t["negated"]]
    assert [(t["actor"], t["object"]) for t in ci] == [("賓", "洗")]


def test_read_content_quoted_speech_gives_no_acts(gold):
    # 主人對曰︰「某也既得見矣，敢辭。」: only 對, nothing from inside the quote
    rec = _find(gold, "03_shixiangjianli.xhtml#p34")
    assert [(t["actor"], t["verb"]) for t in rec["actions"]] == [("主人", "對")]


def test_build_fails_loudly(tmp_path):
    src = tmp_path / "bad.txt"
    src.write_text("@ 17 p44\n乃<舉>。\n舉 -\n", encoding="utf-8")  # 舉 is not a closed-list verb
    with pytest.raises(build.GoldError, match="closed list"):
        build.build_file(src)
    src.write_text("@ 17 p44\n乃舉了。\n", encoding="utf-8")  # text differs from the XHTML
    with pytest.raises(build.GoldError, match="differs"):
        build.build_file(src)
    src.write_text("@ 17 p71\n{主人}(東楹東)，|北面|<拜>。\n拜 主人 l=西楹西\n", encoding="utf-8")
    with pytest.raises(build.GoldError, match="not in the passage"):
        build.build_file(src)
