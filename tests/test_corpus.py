"""Corpus units: layer counts and texts checked against the files (counts made with grep/sed).

Chapter 04 (鄉飲酒禮), counted by hand from the files:
- zhushu-xhtml: 173 ``<p class="strong">``, 172 ``zhushi``, 161 ``jianshu``, one ``<h1>``; of the
  zhushi, p22 opens with 「疏　「設洗」至「南肆」」 (a 疏) and p289 is wrapped in ``<strong>`` (a 經);
  the strong p76 「復盥，為手坋汙。」 is the 注 its 疏 cites (○注「復盥為手坋汙」): 173 經, 171 注, 162 疏.
- zhushu-siku: outside the small print, before the 考證, 172 inline 注 markers; 68 ``音義(``,
  162 ``疏(`` groups; the 考證 has 25 entries plus its two title lines.
- zhengzhu-sbck: 172 parenthesised 注 runs (``)(`` joined), 172 經 runs between them.
- danshu-sbck: juan08/09/10 hold 38/55/64 ``　釋曰``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from pipeline import corpus
from pipeline.corpus import Unit, chapters, corpus_dir, iter_units


def counts(units: list[Unit]) -> Counter:
    return Counter(u.layer for u in units)


@pytest.fixture(scope="module")
def xhtml04() -> list[Unit]:
    return list(iter_units("zhushu-xhtml", ["04"]))


def test_corpus_dir_and_chapters():
    assert (corpus_dir() / "zhushu-xhtml").is_dir()
    assert chapters() == ["03", "04", "05", "07", "10", "11", "12", "13", "14", "15", "17"]


def test_corpus_dir_missing_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("YILI_CORPUS", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="YILI_CORPUS"):
        corpus_dir()


def test_xhtml_chapter_04_counts(xhtml04):
    assert counts(xhtml04) == {"JING": 173, "ZHU": 171, "SHU": 162, "OTHER": 1}
    assert [u.index for u in xhtml04] == list(range(len(xhtml04)))
    assert all(u.chapter == "04" and u.edition == "zhushu-xhtml" for u in xhtml04)


def test_xhtml_texts_are_clean(xhtml04):
    assert xhtml04[0].layer == "OTHER" and xhtml04[0].text == "鄉飲酒禮第四"
    assert xhtml04[1].layer == "JING" and xhtml04[1].text == "鄉飲酒之禮。主人就先生而謀賓、介。"
    assert xhtml04[2].layer == "ZHU" and xhtml04[2].text.startswith("主人，謂諸侯之鄉大夫也。")
    # the 疏 marker <span class="yinwen">疏</span> is not in the text, the head is
    assert xhtml04[3].layer == "SHU" and xhtml04[3].text.startswith("「鄉飲」至「賓介」。○釋曰︰")
    assert "周禮大司徒之職︰「以鄉三物" in xhtml04[2].text  # <span class="shu-ming"> dropped, text kept
    for u in xhtml04:
        assert "<" not in u.text and ">" not in u.text and "\n" not in u.text


def test_xhtml_corrections(xhtml04):
    by_start = {u.text[:9]: u for u in xhtml04}
    shu = by_start["「設洗」至「南肆」"]
    assert shu.layer == "SHU" and shu.corrected
    jing = next(u for u in xhtml04 if u.text == "賓北面坐取俎西之觶，阼階上北面酬主人。主人降席，立于賓東。")
    assert jing.layer == "JING" and jing.corrected
    zhu = next(u for u in xhtml04 if u.text == "復盥，為手坋汙。")
    assert zhu.layer == "ZHU" and zhu.corrected and zhu.note == "zhu-by-anchor"


def test_xhtml_zhushi_after_jianshu_split_by_the_next_shu_head():
    units = list(iter_units("zhushu-xhtml", ["13"]))
    i = next(i for i, u in enumerate(units) if u.text.startswith("祝饌祖奠于主人之南"))
    assert (units[i].layer, units[i].text) == ("JING", "祝饌祖奠于主人之南，當前輅，北上，巾之。")
    assert (units[i + 1].layer, units[i + 1].text) == ("ZHU", "言饌於主人之南，當前輅，則既祖，祝乃饌。")
    assert units[i].corrected and units[i + 1].corrected
    headers = [u for u in units if u.note == "page-header"]
    assert [u.layer for u in headers] == ["OTHER", "OTHER"]
    assert headers[1].text == "卷四十既夕禮第十三"


def test_xhtml_other_corrections():
    units17 = list(iter_units("zhushu-xhtml", ["17"]))
    paren = next(u for u in units17 if u.text.startswith("（兄弟之後"))
    assert paren.layer == "SHU" and paren.corrected
    units11 = list(iter_units("zhushu-xhtml", ["11"]))
    zhuan = [u for u in units11 if u.note == "zixia-zhuan"]
    assert zhuan and all(u.layer == "JING" and u.text.startswith("傳曰") for u in zhuan)
    gloss = next(u for u in units11 if u.text == "疏猶粗也。")  # a 注 on the word 疏, not a 疏 marker
    assert gloss.layer == "ZHU" and not gloss.corrected


def test_xhtml_zhu_tagged_as_jing_before_its_shu():
    """A 注 printed as a 經 paragraph (``p.strong``) after its 經 and before a 疏 with no head
    (○釋曰 / ○注釋曰) or whose head's 經 ends before it is 注; the 鄭注 edition has them as 注."""
    units10 = list(iter_units("zhushu-xhtml", ["10"]))
    i = next(i for i, u in enumerate(units10) if u.text.startswith("將覲，質明時也。"))
    assert (units10[i].layer, units10[i].note, units10[i].corrected) == ("ZHU", "zhu-in-strong", True)
    assert (units10[i - 1].layer, units10[i - 1].text) == ("JING", "侯氏裨冕，釋幣于禰。")
    assert units10[i + 1].layer == "SHU" and units10[i + 1].text.startswith("○釋曰")
    units13 = list(iter_units("zhushu-xhtml", ["13"]))
    tools = next(u for u in units13 if u.text.startswith("此皆師役之器"))  # before ○注釋曰
    assert tools.layer == "ZHU" and tools.note == "zhu-in-strong"
    units11 = list(iter_units("zhushu-xhtml", ["11"]))
    # the head 「傳曰總」至「二寸」 cites the 傳 before it, not this paragraph
    hair = next(u for u in units11 if u.text.startswith("總六升者，首飾象冠數"))
    assert hair.layer == "ZHU" and hair.note == "zhu-in-strong"
    # 經 paragraphs in the same position whose 疏 head cites them stay 經, and so does 喪服's 傳
    zhuan = next(i for i, u in enumerate(units11) if u.text == "傳曰︰夫至尊也。")
    assert units11[zhuan].layer == "JING" and units11[zhuan - 1].layer == "JING"
    assert units11[zhuan + 1].layer == "SHU"
    units05 = list(iter_units("zhushu-xhtml", ["05"]))
    k = next(i for i, u in enumerate(units05) if u.text == "司正降復位，")
    assert units05[k].layer == "JING" and units05[k - 1].layer == "JING"
    assert units05[k + 1].text.startswith("「司正降復位」。○釋曰")
    assert sum(u.note == "zhu-in-strong" for ch in ("10", "11", "13") for u in iter_units("zhushu-xhtml", [ch])) == 8


def test_siku_chapter_04_counts():
    units = list(iter_units("zhushu-siku", ["04"]))
    c = counts(units)
    assert c["ZHU"] == 172 and c["SHU"] == 162
    notes = Counter(u.note for u in units)
    assert notes["yinyi"] == 68 and notes["kaozheng"] == 27
    assert c["OTHER"] == 68 + 27 + notes["title"]
    first_zhu = next(u for u in units if u.layer == "ZHU")
    assert first_zhu.text.startswith("主人謂諸侯之鄉大夫也先生鄉中致仕者")
    # 注 running on into the next 經 (介亦如之) is left whole and flagged
    run = next(u for u in units if u.text.startswith("退猶去也"))
    assert run.layer == "ZHU" and run.note == "unmarked-end" and run.text.endswith("以送謝之介亦如之")
    assert not any("(" in u.text or "/" in u.text or "¶" in u.text for u in units)


def test_siku_jing_split_at_circle():
    units = list(iter_units("zhushu-siku", ["04"]))
    texts = [(u.layer, u.text) for u in units[:8] if u.note != "title"]
    assert texts[0] == ("JING", "鄉飲酒之禮")
    assert texts[1] == ("JING", "主人就先生而謀賓介")


def test_zhengzhu_chapter_04():
    units = list(iter_units("zhengzhu-sbck", ["04"]))
    assert counts(units) == {"JING": 172, "ZHU": 172, "OTHER": 3}
    pairs = [(u.layer, u.text) for u in units]
    i = pairs.index(("JING", "介亦如之"))
    assert pairs[i + 1] == ("ZHU", "如戒賔也")
    assert pairs[-1] == ("OTHER", "儀禮卷第四")


def test_zhengzhu_colophon_is_other():
    units = list(iter_units("zhengzhu-sbck", ["03"]))
    assert (units[-2].layer, units[-2].text) == ("OTHER", "儀禮卷第三")
    assert (units[-1].layer, units[-1].text) == ("OTHER", "經七百五十三字注一千六百八十九字")


def test_danshu_chapters_and_entries():
    units = list(iter_units("danshu-sbck", ["04"]))
    per_file = Counter(u.source[-10:] for u in units if u.layer == "SHU")
    assert per_file == {"juan08.txt": 38, "juan09.txt": 55, "juan10.txt": 64}
    shu = [u for u in units if u.layer == "SHU"]
    assert shu[1].text.startswith("郷飲至賔介釋曰自此至介亦如之")
    assert shu[3].text.startswith("主人至荅拜汪戒警至有志釋曰")
    jin = list(iter_units("danshu-sbck", ["10"]))  # juan27 names no chapter: it is 覲禮's end
    assert {u.source[-10:] for u in jin} == {"juan27.txt"}
    assert next(u for u in jin if u.layer == "SHU").text.startswith("四享至所有")


def test_unknown_edition():
    with pytest.raises(ValueError):
        list(iter_units("nope"))


def test_chinese_number():
    assert [corpus.chinese_number(s) for s in ("四", "十", "十一", "二十七", "五十")] == [4, 10, 11, 27, 50]
