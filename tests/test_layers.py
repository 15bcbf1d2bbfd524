"""Layer segments of the seeds and the corpus, checked against what the texts say.

The numbers here were counted on the files with grep and by reading them:

- seed 003 (the 注疏 of 鄉飲酒禮, ctext-like): 162 疏 paragraphs (160 lines opening with a space and
  a head 「…」/注「/○, one opening with a space and 釋曰, one opening 「疏 」); 344 經 and 注 paragraphs.
  It is the text of corpus/zhushu-xhtml/04, whose 173 p.strong and 172 zhushi give, after the
  e-book's three faults (p22 is a 疏, p289 a 經, p76 「復盥，為手坋汙。」 the 注 that its 疏 cites),
  173 經 and 171 注.
- seed 004 (覲禮, simplified): 23 ``[疏]`` lines, each after one line of 經 with its 注 run on.
- seed 001 (儀禮集釋): 180 lines open with 鄭注; seed 002 (儀禮述註): 214 with 註曰, and 疏曰
  occurs 82 times (81 as ○疏曰) once line breaks are joined; 楊氏曰 6 times, 張子曰 once.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pipeline.corpus import edition_files, units_of_file
from pipeline.layers import LayerResult, segment_layers
from pipeline.text.view import TextView

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "pipeline" / "samples"
CORPUS = REPO.parent / "shared" / "corpus"


def seed(n: str) -> str:
    return next(SAMPLES.glob(f"{n}_*.txt")).read_text(encoding="utf-8")


def view(text: str, result: LayerResult, seg) -> str:
    return TextView.of(text, seg.start, seg.end, drop=[(r.start, r.end) for r in result.removed],
                       drop_chars=str.isspace).text


def layered(n: str) -> tuple[str, LayerResult, list[tuple[str, str, str]]]:
    text = seed(n)
    result = segment_layers(text)
    return text, result, [(s.layer, view(text, result, s), s.evidence) for s in result.segments]


def check_offsets(text: str, result: LayerResult) -> None:
    last = 0
    for s in result.segments:
        assert 0 <= s.start <= s.end <= len(text)
        assert text[s.start:s.end] == s.text
        assert s.start >= last, "segments overlap or are unsorted"
        assert s.start < s.end and not text[s.start].isspace() and not text[s.end - 1].isspace()
        assert s.layer in ("JING", "ZHU", "SHU", "OTHER")
        assert s.evidence in ("marker", "anchor", "layout", "default")
        assert 0.0 <= s.score <= 1.0
        last = s.end


# --- seed 003: 經 / 注 / 疏 paragraphs -------------------------------------------------------------

def test_seed_003_counts_match_the_paragraphs():
    text, result, segs = layered("003")
    lines = [l for l in text.split("\n") if l.strip()]
    title_at = lines.index("鄉飲酒禮第四")
    body = lines[title_at + 1:]
    shu_lines = [l for l in body if l.startswith(" ") or l.startswith("疏 ")]
    assert len(shu_lines) == 162
    assert len(body) - len(shu_lines) == 344
    counts = Counter(layer for layer, _, _ in segs)
    assert counts == {"JING": 173, "ZHU": 171, "SHU": 162, "OTHER": 3}
    assert all(ev == "marker" for layer, _, ev in segs if layer == "SHU")


def test_seed_003_alternation_and_heads():
    _, _, segs = layered("003")
    pairs = [(layer, v) for layer, v, _ in segs]

    def after(v: str) -> tuple[str, str]:
        i = next(i for i, (_, t) in enumerate(pairs) if t == v)
        return pairs[i + 1]

    assert ("JING", "鄉飲酒之禮。主人就先生而謀賓、介。") in pairs
    # 「主人」至「東西」。○注「主人」至「堂上」: the head's 經 end is miswritten, its 注 start decides
    assert ("JING", "主人揖,降。賓降,立于階西,當序,東面。") in pairs
    assert after("主人揖,降。賓降,立于階西,當序,東面。") == ("ZHU", "主人將與介為禮,賓謙,不敢居堂上。")
    # 注「鄉樂」至「君也」: the 注 is the paragraph opening 鄉樂, the 經 before it 鄉樂唯欲
    assert ("JING", "鄉樂唯欲。") in pairs
    assert after("鄉樂唯欲。")[0] == "ZHU"
    # a 經 with its 注 and no 疏, then the next 經
    assert after("不洗者不祭。") == ("ZHU", "不甚潔也。")
    assert after("不甚潔也。") == ("JING", "既旅,士不入。")
    # the paragraph its 疏 cites as 注 (○注「復盥為手坋汙」)
    assert ("ZHU", "復盥,為手坋汙。") in pairs
    assert after("賓拜洗。主人坐奠爵,遂拜,降盥。") == ("ZHU", "復盥,為手坋汙。")
    # 「疏 」 written out: a 疏, the marker removed
    assert any(layer == "SHU" and v.startswith("「設洗」至「南肆」") for layer, v in pairs)


# --- seed 004: 經+注 lines cut by their 疏 heads ---------------------------------------------------

def test_seed_004_heads_fix_the_jing():
    _, _, segs = layered("004")
    counts = Counter(layer for layer, _, _ in segs)
    assert counts["SHU"] == 23
    pairs = [(layer, v) for layer, v, _ in segs]
    expected_jing = [
        "四享,皆束帛加璧,庭实唯国所有。",  # “四享”至“所有”
        "奉束帛,匹马卓上,九马随之,中庭西上,奠币,再拜稽首。",  # “奉束”至“稽首”
        "乃右肉袒于庙门之东。乃人门右,北面立,告听事。",  # “乃右”至“听事”
        # “侯氏”至“降出”: not the 侯氏 of 天子辞於侯氏, the one that opens a sentence
        "侯氏再拜稽首,出,自屏南適门西,遂入门左,北面立,王劳之。再拜稽首。摈者延之曰:“升。”升成拜,降出。",
        "升成拜。",  # “升成拜”
        "同姓大国,则曰“伯父”,其异姓,则曰“伯舅”。同姓小邦,则曰“叔父”,其异姓小邦,则曰“叔舅”。",
        "飨礼,乃归。",  # “飨礼乃归”
        "记。几俟于东箱。",  # “记几”… the 記 is 經
    ]
    for text in expected_jing:
        assert ("JING", text) in pairs, text
    i = pairs.index(("JING", "升成拜。"))
    assert pairs[i + 1] == ("ZHU", "大史辞之降也。《春秋传》曰:且有后命,以伯舅耋老,毋下拜。此辞之类。")
    i = pairs.index(("JING", "四享,皆束帛加璧,庭实唯国所有。"))
    assert pairs[i + 1][0] == "ZHU" and pairs[i + 1][1].startswith("四当为三。") and pairs[i + 2][0] == "SHU"
    i = pairs.index(("JING", "同姓大国,则曰“伯父”,其异姓,则曰“伯舅”。同姓小邦,则曰“叔父”,其异姓小邦,则曰“叔舅”。"))
    assert pairs[i + 1] == ("ZHU", "据此礼云伯父,同姓大邦而言。")


def test_seed_004_what_no_head_reaches():
    _, _, segs = layered("004")
    by_text = {v: (layer, ev) for layer, v, ev in segs}
    # 摈者谒诸天子…: before the head's 經; the gloss 谒，告。 shows where its 注 starts
    assert by_text["摈者谒诸天子。天子辞於侯氏,曰:“伯父无事,归宁乃邦。”"][0] == "JING"
    assert by_text["谒,告。宁,安也。乃犹女也。"][0] == "ZHU"
    # no 疏 after 事毕。三享讫。: nothing decides
    assert by_text["事毕。三享讫。"] == ("JING", "default")
    # the anchors say so
    assert by_text["四享,皆束帛加璧,庭实唯国所有。"] == ("JING", "anchor")


# --- seeds 001 and 002: hard-wrapped Siku texts --------------------------------------------------

def test_seed_001_jing_zhu_alternation():
    text, result, segs = layered("001")
    pairs = [(layer, v) for layer, v, _ in segs]
    assert pairs[:3] == [("OTHER", "儀禮集釋卷五宋李如圭撰"), ("OTHER", "鄉射禮第五"),
                         ("OTHER", "鄭目錄云州長春秋以禮會民而射于州序之禮謂之鄉者州鄉之屬鄉大夫或在焉不改其禮射禮于五禮屬嘉禮大戴十一小戴及别錄皆第五")]
    i = pairs.index(("JING", "賓降"))
    assert pairs[i - 1] == ("ZHU", "將獻賓也") and pairs[i + 1] == ("ZHU", "從主人也")
    # a 經 wrapped over two lines is one segment
    assert ("JING", "尊于賓席之東兩壺斯禁左玄酒皆加勺篚在其南東肆") in pairs
    # a full 注 line, then a 經 followed by the next 鄭注: the line is 經, not more 注
    assert ("JING", "降席坐奠爵拜告旨") in pairs
    assert ("ZHU", "捝拭也啐嘗也古文捝作帨") in pairs
    # every 鄭注 opens a 注 segment; the others follow an editor's note inside the same 注
    zhu_starts = {s.start for s in result.segments if s.layer == "ZHU"}
    marked = [m.end() for m in re.finditer(r"^鄭注", text, re.M)]
    assert len(marked) == 180 and all(p in zhu_starts for p in marked)
    for k, s in enumerate(result.segments):
        if s.layer == "ZHU" and s.start not in marked:
            assert result.segments[k - 1].layer == "OTHER"


def test_seed_001_editor_notes_are_other():
    _, _, segs = layered("001")
    pairs = [(layer, v) for layer, v, _ in segs]
    i = pairs.index(("OTHER", "案今注疏本脱者字據宋本補"))
    assert pairs[i - 1][0] == "ZHU" and pairs[i - 1][1].endswith("告賓以射事不言拜辱者")
    assert pairs[i + 1][0] == "ZHU" and pairs[i + 1][1].startswith("此為習民以禮樂不主為賓")
    # a note printed over two lines (…)(…) is one note
    assert ("OTHER", "案今注疏本脱其字據宋本補又鄕飲酒禮疏引此注亦有其字") in pairs
    # a note inside the 經
    i = pairs.index(("JING", "主人坐取爵實之賓之席前"))
    assert pairs[i + 1][0] == "OTHER" and pairs[i + 2] == ("JING", "西北面獻賓")
    assert not any("(" in v or ")" in v for _, v in pairs)


def test_seed_002_markers():
    text, result, segs = layered("002")
    pairs = [(layer, v) for layer, v, _ in segs]
    counts = Counter(layer for layer, _ in pairs)
    assert counts["ZHU"] == 214 == len(re.findall(r"^註曰", text, re.M))
    assert counts["SHU"] == 82 == text.replace("\n", "").count("疏曰")
    assert pairs[3:5] == [("OTHER", "鄭目錄云諸侯之士祭祖禰非天子之士"),
                          ("SHU", pairs[4][1])] and pairs[4][1].startswith("曲禮曰大夫以索牛士以羊豕")
    i = pairs.index(("JING", "特牲饋食之禮"))  # 特牲饋食之禮○不諏日: the ○ separates two 經
    assert pairs[i + 1] == ("JING", "不諏日")
    assert pairs[i + 2][0] == "ZHU" and pairs[i + 2][1].startswith("祭祀自孰始曰饋食")
    assert pairs[i + 3] == ("SHU", "云自孰始者天子諸侯饋孰已前仍有灌鬯朝踐饋獻之事也")
    later = [v for layer, v in pairs if layer == "OTHER" and v.startswith(("張子曰", "楊氏曰"))]
    assert len(later) == 7
    j = next(k for k, (layer, v) in enumerate(pairs) if v.startswith("張子曰祭之筮日"))
    assert pairs[j - 1][0] == "SHU" and pairs[j - 1][1].endswith("非如大夫以上旬前為旬外也")


# --- seed 000: a modern edition with spam and copies -------------------------------------------

def test_seed_000_first_copy_kept_later_copies_removed():
    text, result, segs = layered("000")
    lines = text.split("\n")

    def line_of(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    jing_lines = {line_of(s.start) for s in result.segments if s.layer == "JING"}
    dup_lines = {line_of(r.start) for r in result.removed if r.reason == "duplicate"}
    assert lines[7].startswith("乡射之礼。主人戒宾") and 8 in jing_lines
    assert lines[15].strip() == lines[7].strip() and 16 in dup_lines  # the same paragraph again
    assert lines[23].strip().startswith("乡射之礼:主人戒宾(1)") and 24 in dup_lines  # annotated copy
    assert 18 in jing_lines and 26 in dup_lines and 34 in dup_lines  # 乃席宾… three times
    # 大射 and 鄉射 say nearly the same here (负侯/获者, 小臣/弟子): parallels, not copies
    assert lines[351].startswith("司马升,命取矢,负侯许诺") and 352 in jing_lines
    assert lines[397].startswith("司马升,命取矢,获者许诺") and 398 in jing_lines
    assert 406 in dup_lines  # …and 398's own copy goes


def test_seed_000_modern_text_is_other():
    text, result, segs = layered("000")
    by_text = {v: layer for layer, v, _ in segs}
    assert by_text["【题解】"] == "OTHER" and by_text["【译文】"] == "OTHER"
    assert by_text["(2)宿:在射前三日的前一晚。"] == "OTHER"
    intro = next(v for v in by_text if v.startswith("《仪礼》中有两篇记述射礼"))
    assert by_text[intro] == "OTHER"
    assert not any("的" in v for layer, v, _ in segs if layer == "JING")
    after_yiwen = [layer for layer, v, _ in segs[[v for _, v, _ in segs].index("【译文】"):]]
    assert set(after_yiwen) == {"OTHER"}


# --- every document: offsets hold; corpus segments are the corpus units --------------------------

@pytest.mark.parametrize("n", ["000", "001", "002", "003", "004"])
def test_seed_offsets(n):
    text = seed(n)
    check_offsets(text, segment_layers(text))


def test_corpus_offsets_every_file():
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md")
    assert len(files) == 59
    for path in files:
        text = path.read_text(encoding="utf-8")
        check_offsets(text, segment_layers(text, str(path)))


@pytest.mark.parametrize("edition,name", [("zhushu-xhtml", "10_jinli.xhtml"), ("zhushu-siku", "10_jinli.txt"),
                                          ("zhengzhu-sbck", "10_jinli.txt"), ("danshu-sbck", "juan27.txt")])
def test_corpus_segments_are_the_corpus_units(edition, name):
    path = next(p for p in edition_files(edition) if p.name == name)
    text = path.read_text(encoding="utf-8")
    result = segment_layers(text, str(path))
    units = [u for u in units_of_file(edition, path) if u.note != "kaozheng"]
    assert Counter(s.layer for s in result.segments) == Counter(u.layer for u in units)
    assert [view(text, result, s) for s in result.segments] == [u.text for u in units]


def test_empty_and_blank_documents():
    assert segment_layers("").segments == []
    assert segment_layers("\n \n\u3000\n").segments == []


def test_truncated_lines_are_still_content():
    """A web copy cut off mid-line (…之�) keeps what it has: the cut line is content, not furniture."""
    lines = seed("004").split("\n")
    first = lines[0]
    cut = first[:first.index("由此误也") + 2] + "\ufffd"
    text = "\n".join([cut] + lines[1:4])
    result = segment_layers(text)
    segs = [(s.layer, view(text, result, s)) for s in result.segments]
    assert segs[0] == ("JING", "四享,皆束帛加璧,庭实唯国所有。")
    assert segs[1][0] == "ZHU" and segs[1][1].endswith("由此\ufffd")
    assert segs[2][0] == "SHU"


# --- what a reader knows of an undecided run (RunShape) -----------------------------------------

def test_siku_unmarked_zhu_end_is_given_back_with_its_shape():
    from pipeline.records import RunShape

    path = CORPUS / "zhushu-siku" / "03_shixiangjianli.txt"
    text = path.read_text(encoding="utf-8")
    runs = [s for s in segment_layers(text, str(path)).segments if s.evidence == "default"]
    assert runs and all(s.shape == RunShape("ZHU", "JING", one_switch=True) for s in runs)
    # 注 「命謂請吾子之就家」 runs into the 經 「主人對曰：某不敢為儀…」 with no mark between
    first = re.sub(r"\s|¶", "", runs[0].text)
    assert first.startswith("命謂請吾子之就家主人對曰某不敢為儀")
    # a 注 closed by a marked one (音義, 疏) is decided and has no shape
    assert all(s.shape is None for s in segment_layers(text, str(path)).segments if s.evidence != "default")


def test_seed_004_undecided_run_on_line_opens_with_its_jing():
    from pipeline.records import RunShape

    text, result, _segs = layered("004")
    line = next(s for s in result.segments if view(text, result, s) == "事毕。三享讫。")
    assert line.evidence == "default" and line.shape == RunShape(first="JING")


def test_drop_index_hands_letters_every_drop_that_touches_the_ranges():
    """``DropIndex.near`` (xhtml groups get only the drops near them): the same letters as with all
    the document's drops, overlapping and nested drops included."""
    import random

    from pipeline.layers.anchors import DropIndex, Letters

    rng = random.Random(7)
    raw = "".join(rng.choice("主人賓拜洗。，升降") for _ in range(400))
    for _ in range(300):
        drops = []
        for _ in range(rng.randint(0, 30)):
            s = rng.randint(0, 399)
            drops.append((s, min(400, s + rng.randint(1, rng.choice([3, 40, 200])))))
        index = DropIndex(drops)
        lo = rng.randint(0, 399)
        hi = rng.randint(lo + 1, 400)
        ranges = [(lo, (lo + hi) // 2), ((lo + hi) // 2, hi)]
        full, near = Letters(raw, ranges, drops), Letters(raw, ranges, index.near(lo, hi))
        assert (near.text, near.pos, near.sentence_start) == (full.text, full.pos, full.sentence_start)
        assert [d for d in index.drops if d[1] > lo and d[0] < hi] == [
            d for d in index.near(lo, hi) if d[1] > lo and d[0] < hi]
