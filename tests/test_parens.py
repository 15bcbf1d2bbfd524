"""A plain copy of the 鄭注 with its 注 in parentheses reads as the edition does (pipeline/read/parens.py).

The copies are made from the 四部叢刊 鄭注 files of ../shared/corpus as a plain text writes them:
Kanripo's header lines, page marks, line marks and column breaks gone, the 注 in parentheses.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.layers import segment_layers
from pipeline.layers.features import is_han
from pipeline.process import DocumentProcessor
from pipeline.read.parens import is_paren_commentary
from pipeline.read.reading import clean_text

from conftest import CORPUS, SEEDS


def _edition(chapter: str) -> str:
    return next((CORPUS / "zhengzhu-sbck").glob(f"{chapter}_*.txt")).read_text(encoding="utf-8")


def _plain_copy(text: str, full_width: bool = True, a_passage_a_line: bool = False) -> str:
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    body = re.sub(r"<pb:[^>]*>", "", body).replace("¶", "").replace("/", "")
    if a_passage_a_line:
        text = "".join(f"\n{line}\n" if re.search("儀禮卷第|鄭氏注", line) and "(" not in line else line
                       for line in body.splitlines())
        body = re.sub(r"\)\s*\(", "", text)  # a 注 the page cut into columns, whole again
        body = re.sub(r"\)(?!\n)", ")\n", body)
    return body.replace("(", "（").replace(")", "）") if full_width else body


def _han_layers(text: str, result) -> list[tuple[str, str]]:
    """Each 經 or 注 segment's Han characters, with its layer (titles and colophon left out)."""
    return [(s.layer, re.sub(r"[^\u4e00-\u9fff]", "", s.text)) for s in result.segments if s.layer in ("JING", "ZHU")]


@pytest.mark.parametrize("chapter, full_width, a_passage_a_line", [
    ("10", True, False),   # 覲禮, hard-wrapped as printed, full-width
    ("05", False, True),   # 鄉射禮, a passage and its 注 a line, ASCII parentheses
])
def test_a_plain_copy_of_the_zhengzhu_reads_as_the_edition(processor, chapter, full_width, a_passage_a_line):
    edition = _edition(chapter)
    copy = _plain_copy(edition, full_width, a_passage_a_line)
    read, original = segment_layers(copy, "copy.txt"), segment_layers(edition, "edition.txt")
    assert read.layout == "paren-commentary" and original.layout == "kanripo-zhengzhu"
    assert _han_layers(copy, read) == _han_layers(edition, original)
    assert all(s.evidence == "layout" for s in read.segments if s.layer in ("JING", "ZHU"))

    def tuples(text: str) -> Counter:
        out = processor.process({"text": text, "meta": {"source": "x.txt"}})
        return Counter((a["actor"], a["verb"], a["negated"], a["object"]) for a in out["actions"])

    assert tuples(copy) == tuples(edition)


def test_a_copy_is_known_by_its_parentheses_and_nothing_else_is():
    assert is_paren_commentary(_plain_copy(_edition("03")))
    for path in SEEDS:  # web pages, hard-wrapped Siku texts with (案…) notes, a modern edition: none
        assert not is_paren_commentary(path.read_text(encoding="utf-8")), path.name
    jing = "".join(re.sub(r"\([^)]*\)", "", _edition("03")))  # the 經 alone
    assert not is_paren_commentary(jing)


def test_an_editors_note_and_a_footnote_number_are_not_commentary():
    """The 注 of 鄉射禮's 羹定, then 李如圭's note on it (seed 001) and a footnote mark."""
    copy = _plain_copy(_edition("05"))
    at = re.search(r"羮定（[^）]*）(?:\s*（[^）]*）)*", copy).end()  # 羮定 and its 注: 肉謂之羮定猶孰也謂狗…
    noted = copy[:at] + "（案孰從宋本今注疏本作熟下同）(1)" + copy[at:]
    result = segment_layers(noted, "x.txt")
    note = next(s for s in result.segments if "案孰從宋本" in s.text)
    assert (note.layer, note.text) == ("OTHER", "案孰從宋本今注疏本作熟下同")
    assert any(noted[r.start:r.end] == "(1)" and r.reason == "footnote" for r in result.removed)


def _bracketed_copy(chapter: str) -> tuple[list[str], list[tuple[str, str]]]:
    """An e-book chapter as 漢川草廬's 十三經注疏 writes it — each 經 with its 注 bracketed after it,
    then the [疏] line — and its units (layer, text) in order, as the e-book reads them."""
    path = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*.xhtml"))
    ebook = path.read_text(encoding="utf-8")
    read = segment_layers(ebook, path.name)
    removed = sorted((r.start, r.end) for r in read.removed)
    lines: list[str] = []
    units: list[tuple[str, str]] = []
    jing: list[str] = []
    zhu: list[str] = []

    def close() -> None:
        if jing:
            lines.append("".join(jing) + (f"({''.join(zhu)})" if zhu else ""))
            units.extend([("JING", "".join(jing))] + ([("ZHU", "".join(zhu))] if zhu else []))
        jing.clear(), zhu.clear()

    for s in read.segments:
        text = clean_text(ebook, s.start, s.end, removed)
        if s.layer == "JING":
            if zhu:
                close()
            jing.append(text)
        elif s.layer == "ZHU" and jing:
            zhu.append(text)
        else:
            close()
            lines.append(("[疏]" if s.layer == "SHU" else "") + text)
            units.append((s.layer, text))
    close()
    return lines, units


@pytest.mark.parametrize("chapter", [
    "07",  # 大射
    "05",  # 鄉射禮: a 注 that brackets words of its own (…躬行（召南之教…）…) is one 注
])
def test_a_runon_copy_that_brackets_its_zhu_is_cut_at_the_brackets(chapter):
    """漢川草廬's 十三經注疏 writes each 經 with its 注 bracketed after it, then the [疏] line (seed
    004 is such a copy with the brackets lost). Made from an e-book chapter as the e-book reads it."""
    lines, units = _bracketed_copy(chapter)
    copy = "\n".join(lines)
    result = segment_layers(copy, "copy.txt")
    assert result.layout == "web-runon"
    got = [(s.layer, clean_text(copy, s.start, s.end, [(r.start, r.end) for r in result.removed]))
           for s in result.segments if s.layer in ("JING", "ZHU")]
    assert got == [(layer, text) for layer, text in units if layer in ("JING", "ZHU")]


def test_a_bracketed_copy_cut_a_sentence_a_line_reads_its_shu_on(processor):
    """A forum's copy of the same puts every sentence on a line of its own: a 注 runs over several
    lines, and a 疏 over the lines after its [疏] line up to the next 經 (which the next 疏's head
    names, or the splitter finds). 覲禮 so cut, every Han character's layer against the e-book's."""
    lines, units = _bracketed_copy("10")
    copy = "\n".join(part for line in lines for part in re.split(r"(?<=。)(?![」)])", line) if part)
    out = processor.process({"text": copy, "meta": {"source": "copy.txt"}})
    label = [""] * len(copy)
    for s in out["segments"]:
        label[s["start"]:s["end"]] = [s["layer"]] * (s["end"] - s["start"])
    for r in out["removed"]:
        label[r["start"]:r["end"]] = ["removed"] * (r["end"] - r["start"])
    got = [label[i] for i, ch in enumerate(copy) if is_han(ch) and label[i] != "removed"]
    want = [layer for layer, text in units for ch in text if is_han(ch)]
    assert len(got) == len(want)
    assert sum(g == w for g, w in zip(got, want)) / len(want) > 0.97


_QUOTES = str.maketrans("「」『』", "“”‘’")


def _mirrored(lines: list[str]) -> list[str]:
    """The same as the sites that mirror 漢川草廬's text give it: every line indented, “” for 「」,
    the [疏] line holding the head alone and each of the 疏's paragraphs (○注「X」至「Y」, ○釋曰:…)
    a line of its own — but for a line break inside the first of several (such a site breaks
    some paragraphs where its source did: the rest of the sentence opens a line without ○)."""
    out: list[str] = []
    for line in lines:
        line = line.translate(_QUOTES)
        if line.startswith("[疏]"):
            head, *paragraphs = ["○" + p.replace("釋曰︰", "釋曰:") for p in line.split("○")]
            paragraphs = [p for p in paragraphs if p != "○"]
            if len(paragraphs) > 2 and "。" in paragraphs[0][:-1]:
                cut = paragraphs[0].index("。") + 1
                paragraphs[:1] = [paragraphs[0][:cut], paragraphs[0][cut:]]
            out += [head[1:]] + paragraphs
        else:
            out.append(line)
    return [f"  {line}" for line in out]


def test_a_mirror_of_the_bracketed_copy_reads_a_shu_paragraph_a_line():
    """鄉飲酒禮 so mirrored, with the chapter's own 疏 first as such a site begins it ([疏]《鄉飲酒禮》第四。,
    then ○鄭《目錄》云… and ○釋曰… — here the 單疏本's words): each 疏 runs over its ○ lines, even where
    the next 疏's head cites only the 注 (注「X」至「Y」) and a paragraph breaks over a line that opens
    without ○, and every 經 and 注 is read as written."""
    lines, units = _bracketed_copy("04")
    # the e-book brackets a word of its 經 once (介俎，脊、脅、（肫、）胳): in a copy a bracket is a 注
    unbracket = str.maketrans("", "", "（）")
    lines = [line if line.startswith("[疏]") else line.translate(unbracket) for line in lines]
    units = [(layer, text.translate(unbracket) if layer == "JING" else text) for layer, text in units]
    danshu = re.sub(r"<pb:[^>]*>|¶|\n", "", (CORPUS / "danshu-sbck" / "juan08.txt").read_text(encoding="utf-8"))
    mulu, shiyue = re.search(r"鄉?郷?飲酒禮第四　鄭目録云(.+?)　釋曰(.+?)　郷飲至賔介", danshu).groups()
    chapter_head = [f"[疏]《鄉飲酒禮》第四。○鄭《目錄》云︰{mulu}○釋曰︰{shiyue}"]
    title = next(k for k, line in enumerate(lines) if line.startswith("鄉飲酒禮"))
    copy = "\n".join(_mirrored(lines[: title + 1] + chapter_head + lines[title + 1:])) + "\n"
    result = segment_layers(copy, "copy.txt")
    assert result.layout == "web-runon"
    assert not any(s.evidence == "default" for s in result.segments)  # nothing left to the splitter
    got = [(s.layer, clean_text(copy, s.start, s.end, [(r.start, r.end) for r in result.removed]))
           for s in result.segments if s.layer in ("JING", "ZHU")]
    assert got == [(layer, text.translate(_QUOTES)) for layer, text in units if layer in ("JING", "ZHU")]
    assert sum(1 for line in copy.splitlines() if line.lstrip().startswith("○注")) > 20  # heads on the 注 alone


@pytest.mark.parametrize("opening, closing", [("【", "】"), ("〔", "〕")])
def test_a_copy_that_puts_its_zhu_in_other_brackets_reads_as_the_edition(opening, closing):
    """覲禮's 鄭注 with each 注 in 【…】 (or 〔…〕) instead of parentheses: the same reading."""
    edition = _edition("10")
    copy = _plain_copy(edition).replace("（", opening).replace("）", closing)
    read, original = segment_layers(copy, "copy.txt"), segment_layers(edition, "edition.txt")
    assert "（" not in copy and read.layout == "paren-commentary"
    assert _han_layers(copy, read) == _han_layers(edition, original)


# 吳廷華《儀禮章句》卷四 as a viewer of Kanripo's 四庫全書 text gives it (KR1d0042, simplified, page
# labels between the pages): the 經 with the author's notes in parentheses, "/" a column break
ZHANGJU = """仪礼章句-清-吴廷华卷四

卷四 第 1a 页 WYG0109-0313a.png
钦定四库全书
 仪礼章句卷四
             同知吴廷华撰
 乡饮酒礼第四(乡在王城外近郊远郊百里之内天/子六乡诸侯三其地有州党族闾比)
 (其官有乡老乡大夫州长党正族师闾胥比长乡大/夫三年宾贤能行此礼凡养老诸饮酒礼皆用之于)
 (五礼属嘉礼当第十五第四说非详士冠/礼○此经与乡射异同之处相参乃备)
乡饮酒之礼主人就先生而谋宾介(主人乡大夫先生/乡先生详士冠礼)
(就者尊之宾介处士贤者贤者为宾其次为介又其次/为众宾宾介皆贤其判甚微故须谋乡先生则知之有)
卷四 第 1b 页 WYG0109-0313b.png
(素也不言众宾者以考于平日不待谋/也此见古人取士之慎○以上谋宾介)主人戒宾宾拜
(谓屈辱至已门也/乡射宾出迎再拜)主人答拜 乃请宾(请请命也告/以宾贤之意)
(请其/许)宾礼辞许 主人再拜 宾答拜 主人退 宾
拜辱(乡射宾送再拜此亦送也曰拜/辱者拜其辱宾已故异其文也)介亦如之(如戒宾/则亦亲)
(戒也疏云众宾使人/戒之○以上戒宾)乃席宾主人介众宾之席(席敷席/也宾户)
"""


def test_a_later_scholars_book_in_parentheses_keeps_his_notes_apart_from_zheng_xuan():
    """吳廷華's 儀禮章句 writes its notes as a plain 鄭注 copy writes the 注: in parentheses after the
    經. They are his (its title lines name him, and no line names 鄭玄), so they are OTHER (a later
    scholar, SCHEMA section 1), not ZHU; the chapter title with a note after it is a title, no 經
    (鄉飲酒 is no act of drinking); a 鄭注 copy with the same title line keeps its 注."""
    from pipeline.process import DocumentProcessor

    result = segment_layers(ZHANGJU)
    assert result.layout == "paren-commentary"
    layers = Counter(s.layer for s in result.segments)
    assert layers["ZHU"] == 0 and layers["OTHER"] > 8 and layers["JING"] >= 6
    title = next(s for s in result.segments if "乡饮酒礼第四" in s.text)
    assert title.layer == "OTHER" and title.text.strip() == "乡饮酒礼第四"
    jing = [s.text for s in result.segments if s.layer == "JING"]
    assert jing[0] == "乡饮酒之礼主人就先生而谋宾介" and "宾礼辞许" in jing[3]
    out = DocumentProcessor().process({"text": ZHANGJU, "meta": {"source": "zhangju.txt"}})
    assert [(a["actor"], a["verb"]) for a in out["actions"]][:3] == [("主人", "就"), ("宾", "拜"), ("主人", "拜")]
    zheng = ZHANGJU.replace("同知吴廷华撰", "郑氏注")
    assert Counter(s.layer for s in segment_layers(zheng).segments)["ZHU"] >= 7


# the same book's 大射 (a dev chapter) as a reading site gives it (天下书楼): its notes in 【】, the site's
# name, account links, breadcrumb and chapter navigation around it — (快捷键←) is a parenthesised group
ZHANGJU_SITE = """天下书楼
会员中心 我的书架
当前位置:天下书楼 > 仪礼章句

卷七

(快捷键←)[上一章]  [回目录]  [下一章](快捷键→)

钦定四库全书

仪礼章句卷七

同知吴廷华撰

大射仪第七【诸侯将祭与羣臣射以观其德其比于礼乐而中多者得与于祭曰大者重其事不言礼言仪者以威仪惟此为极盛也诸侯之射也必先行燕礼大射之燕与常燕虽略有异同而大概相似天子大射虽不可考与此当无大异也射于五礼属嘉礼当第十四第七説非详士冠礼 按注凡乡饮乡射燕礼已详者不赘】

大射之仪君有命戒射【凡礼皆君命此特首言之者重祭事也下射前三日又言戒宿则此在三日戒宿之前射虽不齐预戒之使致敬也案射为祭设将祭先择与祭者与祭者定乃于祭前旬有一日卜日遂戒次第如此疏以此戒为祭前旬有一日悮矣】宰戒百官有事于射者【宰冡宰有事于射谓凡执事于射者不必皆与射者也总戒之故曰百官戒用宰崇礼也周礼大宰职作大事则戒于百官】射人戒诸公卿大夫射【此专戒射者射人掌以射法治射仪也】司士戒士射【殊戒公卿大夫士辨贵贱也司士掌国中之士治凡其戒命】与赞者【赞助也下不言赞者则凡量人司宫小臣师之属皆是也戒射用司马之属以本职所有事也】前射三日【视涤前二日】宰夫戒宰及司马【宰夫冢宰之考掌百官之征令者司马政官卿凡大射合其六耦司马量道张侯故先戒之】射人宿视涤【涤者扫除射宫及涤饮射诸器视之以致慎也宿如下乐人宿县之宿谓射之甫夕也 以上戒百官案此谓戒冢宰等于射之前夕视涤也疏合戒宿二字并以申前戒训之未合】司马命量人量侯道【量人司马之属掌度地者量谓度地之丈尺也侯道侯去物之逺近也】与所设乏【乏视侯为逺近】
"""


def test_a_later_scholars_book_on_a_reading_site():
    """儀禮章句 on a reading site writes its notes in 【】 and its navigation in (…): the site's lines are
    furniture (当前位置, 上一章 回目录 下一章 …), so the notes read as a bracketed commentary, the author's
    (OTHER), and the juan (卷七) and the chapter title are titles. Before: read as plain text, the layer
    model deciding every segment (12 of them 注, one 疏)."""
    result = segment_layers(ZHANGJU_SITE)
    assert result.layout == "paren-commentary"
    site = [r for r in result.removed if r.reason == "site"]
    assert [ZHANGJU_SITE[r.start:r.end][:4] for r in site] == ["会员中心", "当前位置", "(快捷键"]
    layers = Counter(s.layer for s in result.segments)
    assert layers["ZHU"] == 0 and layers["SHU"] == 0 and layers["OTHER"] >= 14
    titles = [s.text for s in result.segments if s.text in ("卷七", "大射仪第七")]
    assert titles == ["卷七", "大射仪第七"] and all(s.layer == "OTHER" for s in result.segments if s.text in titles)
    jing = [s.text for s in result.segments if s.layer == "JING"]
    assert jing[1:4] == ["大射之仪君有命戒射", "宰戒百官有事于射者", "射人戒诸公卿大夫射"]


# 張爾岐's 儀禮鄭注句讀, 鄉射禮 (a dev chapter), page 4 of a reading site's copy (中华古籍库 on GitHub
# Pages; the 四庫 text in simplified characters): a paragraph a line, 鄭玄's 注 in 【】, 張爾岐's own notes
# after ○ inside the same brackets, and his section labels (右獻工與笙) on their own line or after a note
JUDOU_XIANGSHE = """右合乐乐賔
　　主人取爵于上篚献工大师则为之洗【尊之也君赐大夫乐又从之以其人谓之大师也】賔降主人辞降【大夫不降尊也】工不辞洗卒洗升实爵工不兴左瑟一人拜受爵【左瑟辞主人授爵也一人无大师则工之长者○左瑟者身在瑟右向主人也】主人阼阶上拜送爵荐脯醢使人相祭【人相者】工饮不拜既爵授主人爵众工不拜受爵祭饮辩有脯醢不祭【祭饮不兴受爵坐祭坐饮】不洗遂献笙于西阶上【不洗者贱也众工而不洗矣而众笙不洗者笙贱于众工正君赐之犹不洗也】笙一人拜于下尽阶不升堂受爵主人拜送爵阶前坐祭立饮不拜既爵升授主人爵众笙不拜受爵坐祭立饮辩有脯醢不祭主人以爵降奠于篚反升就席【亦揖让以賔升众賔皆升】
　　右献工与笙
　　主人降席自南方【礼杀由便】侧降【賔不从降】作相为司正司正礼辞许诺主人再拜司正答拜【爵备乐毕将留賔以事为有懈倦失礼立司正以监之察仪法也诗云既立之监或佐之史】主人升就席司正洗觯升自西阶由楹内适阼阶上北面受命于主人【洗觯者当酌以表其位显其事也楹内楹北○受命受请安于賔之命】西阶上北面请安于賔【传主人之命】賔礼辞许司正告于主人遂立于楹间以相拜【相谓赞主人及賔相拜之辞】主人阼阶上再拜賔西阶上答再拜皆揖就席【为已安也今文揖为升】司正实觯降自西阶中庭北面坐奠觯兴退少立【奠觯表其位也少立自修正慎其位也古文曰少退立】进坐取觯兴反坐不祭遂卒觯兴坐奠觯拜执觯兴洗北面坐奠于其所【今文坐取觯无进又曰坐奠之拜】兴少退北面立于觯南【立觯南亦其故摈位】未旅【旅序也未以次序相酬以将射也旅则礼终也○乡饮酒立司正即行旅酬今此礼主于射故且未旅急在射也】右立司正
"""


def test_a_reading_text_of_the_zheng_zhu_keeps_its_labels_and_its_own_notes_apart():
    """The section labels had been 經, with tuples (右獻工與笙: 獻; …】右立司正: 立), and 張爾岐's words after ○
    inside a 注's brackets had been 注."""
    result = segment_layers(JUDOU_XIANGSHE)
    assert result.layout == "paren-commentary"
    texts = [(s.layer, s.text.strip()) for s in result.segments]
    assert ("OTHER", "右合乐乐賔") in texts and ("OTHER", "右献工与笙") in texts and ("OTHER", "右立司正") in texts
    assert ("ZHU", "左瑟辞主人授爵也一人无大师则工之长者") in texts and ("OTHER", "左瑟者身在瑟右向主人也") in texts
    assert ("ZHU", "洗觯者当酌以表其位显其事也楹内楹北") in texts and ("OTHER", "受命受请安于賔之命") in texts
    assert ("ZHU", "为已安也今文揖为升") in texts and ("JING", "未旅") in texts
    assert not any("右" in t and layer == "JING" and t.startswith("右") for layer, t in texts)
    out = DocumentProcessor().process({"text": JUDOU_XIANGSHE, "meta": {"source": "judou.txt"}})
    jing = [(s["start"], s["end"]) for s in out["segments"] if s["layer"] == "JING"]
    assert out["actions"] and all(any(s <= a["start"] and a["end"] <= e for s, e in jing) for a in out["actions"])
    assert [a["verb"] for a in out["actions"]].count("獻") == 2  # 献工, 献笙 (not 右献工与笙)


# 楊復's 儀禮圖, 卷四 (鄉飲酒禮, a dev chapter) from its opening, page 7 of the same site's copy as the
# browser shows it: the juan title names its author (宋 楊復 撰), and the notes in 【】 quote the 注疏 —
# a sound, ○, 鄭玄's 注, ○疏曰 the 疏, ○ other scholars (呂大臨曰, 朱先生曰) and 楊復's own 今案
YILITU_XIANGYIN = """　　仪礼图卷三
<经部,礼类,仪礼之属,仪礼图>
　　钦定四库全书
　　仪礼圗卷四　　　　　　宋　杨复　撰
　　乡饮酒礼第四【郑目録云诸侯之乡大夫三年大比献贤者能者于其君以礼賔之与之饮○疏曰凡乡饮酒之礼其名有四此賔贤能一也六十者坐五十者立侍是党正蜡祭饮酒二也州长春秋习射于序先行乡饮酒三也又有乡大夫士饮酒中贤者用乡饮酒四也其王制云习乡尚齿即是党正饮酒法○吕大临曰乡人凡有防聚皆当行此礼恐不止四事论语载乡人饮酒杖者出斯出矣亦指乡人而言之○今按疏所引四条后一条出乡饮酒义乡人士君子尊于房户之间賔主共之也注疏云乡人乡大夫也士州长党正也君子谓乡大夫士也乡大夫士饮酒中贤者亦用此礼也】
　　乡饮酒之礼○主人就先生而谋賔介【主人谓诸侯之乡大夫也先生乡中致仕者賔介处士贤者周礼大司徒以乡三物教万民而賔兴之及三年大比而兴贤者能者乡老及乡大夫帅其吏与其众寡以礼礼賔之厥明献贤能之书于王是礼乃三年正月而一行也今郡国十月行此饮酒礼以党正每岁邦索鬼神而祭祀则以礼属民而饮酒于序以正齿位之说然此篇无正齿位之事焉凡乡党饮酒必于民聚之时欲其见化知尚贤尊长也孟子曰天下有达尊三爵也德也齿也○疏曰党正正齿位之礼六十者坐五十者立侍六十者三豆七十者四豆八十者五豆九十者六豆年长者在上是正齿位之法也汉时十月饮酒礼取党正之文此篇则无党正正齿位法也民聚之时谓大比大蜡之时尚贤据此篇乡饮酒尊长据党正乡饮酒也但党正饮酒以乡大夫临观行礼或乡大夫居此党内则亦名乡饮酒也引孟子者以证乡大夫饮酒是尚德也党正饮酒尚齿也爵于此无所当连引之耳或曰賔若有遵者一章即尚爵之义也○今案此篇主于賔贤虽无正齿位法然自賔介而下众賔有长立于堂下者有东上北上乐正与立者皆荐以齿旅酬少长以齿是亦正齿位法但无党正三豆四豆五豆六豆之等差耳】
　　右谋賔介
　　主人戒賔賔拜辱主人荅拜乃请賔賔礼辞许主人再拜賔荅拜主人退賔拜辱【戒告也拜辱出拜其自屈辱至已门也请告以其所为来之事不固辞者素所有志○朱先生曰学成行修进仕于朝上以致君下以泽民此士之素所有志也】介亦如之○记乡朝服而谋賔介皆使能不宿戒【乡乡人谓乡大夫也朝服冠端缁带素韠白屦再戒为宿戒礼将有事先戒而复宿戒○韠音毕】
　　右戒賔介
　　乃席賔主人介【賔席牖前南面主人席阼阶上西面介席西阶上东面】众賔之席皆不属焉【席众賔于賔席之西不属者不相续也皆独坐明其德各特】○尊两壶于房户间斯禁有酒在西设篚于禁南东肆加二勺于两壶【斯禁禁切地无足者酒在西上也肆陈也○疏曰言东肆以头首为记从西向东为肆则大头在西也】○设洗于阼阶东南南北以堂深东西当东荣水在洗东篚在洗西南肆【深申鸩反○荣屋翼○疏曰堂深谓从堂廉北至房室之壁堂下洗北去堂逺近深浅取于堂上深浅假令堂深二丈冼亦去堂二丈以此为度】○记蒲筵缁布纯【筵席也纯缘也○縁以绢反】尊绤幂賔至彻之【幂迷直反○绤葛也幂覆尊巾】献用爵其他用觯【爵尊不防用之○今案上篚在禁南东肆下篚在冼西南肆上篚爵三觯一献賔献遵献工皆异爵三也主人取觯降洗以酬賔一也下篚之觯四一人举觯为旅酬始一也司正举觯二也二人举觯为无筭爵始四也】○磬阶间缩霤北面鼔之【缩所六反霤力又反○缩从也霤以东西为从鼓犹击也大夫而特县方賔乡人之贤者从士礼也射则磬在东○疏曰磬阶间者在堂下两阶之间东西节也缩从也上当堂之南霤堂北节也凡东西为横南北为从南霤则以东西为从谓之缩霤○今案春官小胥正乐县之位王宫县诸侯轩县卿大夫判县士特县宫县四面象宫室轩县三面去南面辟王也判县判左右二面又去北面特县县于东方或于阶间而已凡钟磬编县二八十六枚而在一虡谓之堵钟一堵磬一堵谓之肆所谓卿大夫判县者天子之卿大夫判县左右二肆钟磬各二堵也士特县一肆钟磬各一堵也诸侯之卿大夫半天子之卿大夫判县一肆西钟东磬各一堵也诸侯之士半天子之士县磬一堵而已射则避射位故乡射磬在东乡饮则在阶间缩霤也乡饮诸侯之大夫礼以其賔乡人之贤者从士礼也】○其牲狗也【狗取择人】亨于堂东北【祖阳气之所始也】荐脯五挺横祭于其上出自左房【挺大横反○挺犹膱也乡射礼曰祭半膱膱长尺有二寸左在东阳也○膱音职○疏曰横祭者于脯为横于人为缩其挺有五通祭为六】俎由东壁自西阶升【亨狗既熟载之俎馔于东方】賔俎脊胁肩肺主人俎脊胁臂肺介俎脊胁肫胳肺肺皆离皆右体进腠【胳古白反○凡牲前胫骨三肩臂臑也后胫骨二防胳也骨有贵贱凡前贵后贱离犹防也腠理也进理谓前其本胳一作骼○疏曰賔用肩主人用臂介用胳前贵于后也○朱先生曰肫字释文无音疏又云有臑肫而介不用明本无此字也合删】○立者东面北上若有北面者则东上【贤者众寡无常也或统于堂或统于门○疏曰立堂下者东面北上统于堂也立门西者北面东上统于门也】主人之賛者西靣北上【賛佐也谓主人之属佐助主人礼事彻幂沃盥设荐俎者西面北上统于堂也】○郷饮酒义曰六十者坐五十者立【六十者坐者众賔内年六十以上坐于堂上賔席之西南面若坐不尽则于介席之北东面北上其五十者则立于西阶下东面北上示有陪侍之义】
　　右设席陈器具馔
"""


def test_yang_fu_s_yili_tu_carries_the_zhu_and_the_shu_in_its_notes():
    """Each part of a note in its hand: the 注 is 注 (the author rule had made every note 楊復's, OTHER —
    and before, with too few groups read, the model had cut the page into fragments), ○疏曰 the 疏, a
    sound, 鄭目録, 呂大臨, 朱先生 and 今案 OTHER; the section labels (右謀賓介) OTHER."""
    result = segment_layers(YILITU_XIANGYIN)
    assert result.layout == "paren-commentary"
    texts = [(s.layer, s.text.strip()[:8]) for s in result.segments]
    assert texts[:13] == [
        ("OTHER", "仪礼图卷三"), ("OTHER", "钦定四库全书"), ("OTHER", "仪礼圗卷四　　　"), ("OTHER", "乡饮酒礼第四"),
        ("OTHER", "郑目録云诸侯之乡"), ("SHU", "凡乡饮酒之礼其名"), ("OTHER", "吕大临曰乡人凡有"), ("OTHER", "今按疏所引四条后"),
        ("JING", "乡饮酒之礼○主人"), ("ZHU", "主人谓诸侯之乡大"), ("SHU", "党正正齿位之礼六"), ("OTHER", "今案此篇主于賔贤"),
        ("OTHER", "右谋賔介")]
    assert ("OTHER", "深申鸩反") in texts and ("ZHU", "荣屋翼") in texts and ("SHU", "堂深谓从堂廉北至") in texts
    assert ("OTHER", "朱先生曰学成行修") in texts and ("OTHER", "右设席陈器具馔") in texts
    assert [SEG for SEG in texts if SEG[0] == "ZHU"][:3] == [("ZHU", "主人谓诸侯之乡大"), ("ZHU", "戒告也拜辱出拜其"),
                                                         ("ZHU", "乡乡人谓乡大夫也")]
