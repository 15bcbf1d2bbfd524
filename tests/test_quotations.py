"""The 疏's quotations of its 經 and 注 as 斷句 evidence (pipeline/text/quotations.py), on real text."""

from __future__ import annotations

from pipeline.config import load_config
from pipeline.process import DocumentProcessor
from pipeline.text.marks import strip_marks
from pipeline.text.punctuate import training_units
from pipeline.text.quotations import quotation_breaks, quotations
from pipeline.text.segmentation_eval import Counts, with_quotations

from conftest import CORPUS

# 鄉射禮 in the 四庫 edition (zhushu-siku/05): a 注 and the 疏 on it, as the file gives them
ZHU_05 = "斯禁禁切地無足者也設尊者北面西曰左尚之也肆陳也"
SHU_05 = ("注釋曰云斯禁禁切地無足者也者案州長是士應言禁制不言者其中兼有鄉大夫禮故舉大夫斯禁與鄉飲酒同"
          "云設尊者北面西曰左尚之也者經云左𤣥酒據人設尊北面故以西爲左若據酒則以南面爲上地道尊右以西爲右"
          "𤣥酒在右故云尚之若然云左據設尊又云尚之據酒尊也")


def test_every_zhe_after_yun_may_close_the_quotation():
    found = quotations(SHU_05)
    # 者 occurs inside the quoted 注 (無足者也): both readings are candidates, the shorter first
    assert found[0][:2] == ["斯禁禁切地無足", "斯禁禁切地無足者也"]
    assert any("設尊者北面西曰左尚之也" in group for group in found)


def test_a_quotation_of_the_zhu_starts_a_clause_of_it():
    jing = "設尊于賓席之東兩壺斯禁左玄酒皆加勺篚在其南東肆"
    breaks = quotation_breaks([jing, ZHU_05, SHU_05], ["JING", "ZHU", "SHU"])
    # 云斯禁…者 quotes from the 注's first character (no break to add); 云設尊者…也者 from 設
    assert breaks[1] == [ZHU_05.index("設尊者")]
    assert breaks[0] == [] and breaks[2] == []
    # the XHTML edition punctuates the same 注 with a sentence end there
    assert "禁切地無足者也。設尊者北面" in (CORPUS / "zhushu-xhtml" / "05_xiangsheli.xhtml").read_text(encoding="utf-8")


def test_no_shu_no_quotation_and_marks_are_skipped():
    assert quotation_breaks([ZHU_05], ["ZHU"]) == [[]]
    # a punctuated 疏 (the XHTML edition's marks and quotes) quotes the unpunctuated 注 as well
    punctuated = "○注「斯禁」至「陳也」。○釋曰：云「斯禁，禁切地無足者也」者，案州長是士。云「設尊者北面，西曰左，尚之也」者，經云左玄酒。"
    assert quotation_breaks([ZHU_05, punctuated], ["ZHU", "SHU"])[0] == [ZHU_05.index("設尊者")]
    # a 疏 that comes before the text, or only after more than three further 經 units, is not read
    assert quotation_breaks([SHU_05, ZHU_05], ["SHU", "ZHU"]) == [[], []]
    later = ["JING"] * 4
    assert quotation_breaks([ZHU_05, "甲", "乙", "丙", "丁", SHU_05], ["ZHU", *later, "SHU"])[0] == []


def test_a_quotation_found_twice_in_the_text_is_no_evidence():
    twice = ZHU_05 + "設尊者北面西曰左尚之也"
    assert quotation_breaks([twice, SHU_05], ["ZHU", "SHU"])[0] == []


def test_the_quotations_of_a_whole_chapter_mostly_fall_on_the_editors_breaks():
    """士相見禮 in the XHTML edition, marks removed: the breaks the quotations alone give."""
    units = [(ch, layer, strip_marks(text)) for ch, layer, text in training_units(["03"])]
    none = [["N"] * len(st.chars) for _, _, st in units]
    counts = Counts()
    for (_, layer, st), pred in zip(units, with_quotations(units, none)):
        if layer in ("JING", "ZHU"):
            counts.add(st.labels, pred)
    scores = counts.scores()["any"]
    assert scores["predicted"] >= 40
    assert scores["p"] >= 0.85


def test_yili_process_adds_the_break_a_shu_quotation_gives(processor):
    """四庫 鄉飲酒禮: the 斷句 model reads 賔降辭 as one clause; the 疏 quotes 云辭如獻禮者, and the
    XHTML edition has 賓降，辭如獻禮。 — the break is added, and only with ``shu_quotations``."""
    lines = (CORPUS / "zhushu-siku" / "04_xiangyinjiuli.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if line.startswith("坐祭遂飲卒觶興坐奠觶遂拜執觶興"))
    text = "".join(lines[start : start + 5])
    assert "云辭如獻禮者" in text.replace("¶\n", "").replace("/", "").replace(")(", "")
    record = {"text": text, "meta": {"source": "04_xiangyinjiuli.txt"}}
    at = text.index("賔降辭如獻禮") + 2

    out = processor.process(record)
    assert at in {c["start"] for c in out["clauses"] if c["layer"] == "JING"}
    config = load_config()
    config["sentences"]["shu_quotations"] = False
    without = DocumentProcessor(config).process(record)
    assert at not in {c["start"] for c in without["clauses"]}
    assert [s["layer"] for s in out["segments"]] == [s["layer"] for s in without["segments"]]
