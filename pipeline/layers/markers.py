"""The one table of layer markers: the words and signs with which editions announce a layer.

Every reader takes its markers from here. A marker is reported as a removal (it is not part of
the layer's text) unless ``keep`` says the words belong to the text (釋曰 opens the 疏's own
sentence in some editions, but it is still the 疏 speaking, so it is kept; 鄭目錄云 is kept).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Marker:
    text: str  # as written (a regular expression when ``regex``)
    layer: str
    where: str  # "line" (opens a line or paragraph), "inline" (inside running text), "paren" (before "(")
    keep: bool = False  # the marker's words are part of the segment
    regex: bool = False
    note: str = ""


#: later scholars by name: 張子 (張載), 朱子, 程子, and any X氏 (楊氏 楊復, 敖氏 敖繼公, 郝氏 郝敬, 萬氏 …) but
#: 鄭氏 (鄭玄: the 注) and 賈氏 (賈公彥: the 疏), 侯氏 (覲禮's lord, who speaks in the 經) and 某氏 (a family
#: named in a speech)
LATER_SCHOLAR = r"(?:[張张朱程][子]|(?![鄭郑賈贾侯某])[\u4e00-\u9fff][氏])曰"

#: a later scholar's section label, a line (or a line's end) of its own: 右 "the above is" and what the
#: section did (右旅酬, 右三射, 右取矢告獲如初, 右獻工與笙: 儀禮集編, 欽定儀禮義疏, 張爾岐's 鄭注句讀); not
#: a 經 clause that opens with the right hand or the one on the right (右執簫，南揚弓; 右祭脯醢; 右人: 右
#: before what the 經 writes after it, but 取, which labels write too: 右取矢告獲如初)
SECTION_LABEL = re.compile(r"右(?![執执還还旋挾挟手袂祭加絕绝撫抚人巨])[\u4e00-\u9fff]{1,14}")

#: a compiler's note opening its paragraph: 案, 按, or a name before it (世佐案: 盛世佐's 儀禮集編; 愚案);
#: no clause of the 經 opens so (none in the dev and test gold). Not the 疏's own 案 after its 釋曰
#: (釋曰案鄉射…, 注釋曰案曲禮云…: 賈公彥 citing, a 疏 paragraph a line as the 四庫's 疏 units run)
COMPILER_NOTE = re.compile(r"^(?![注疏]?[釋释]曰)[\u4e00-\u9fff]{0,3}?[案按](?=[\u4e00-\u9fff])")

#: 鄭注 opening a line that cites him rather than marks his 注: 鄭注云, 鄭注曲禮云, 鄭注鄉飲酒云 (the 疏
#: quoting him, on a line a page's width began: the 單疏本 and hard-wrapped 注疏 copies have such lines;
#: a 注 itself does not open on 云, and cites with 曰: 鄭注引燕禮曰 is a marked 注, 儀禮集釋)
CITES_ZHENG = r"[\u4e00-\u9fff]{0,3}?云"  # what follows 鄭注 that cites him
ZHENG_CITED = re.compile(r"(?:鄭注|郑注)" + CITES_ZHENG)

#: a bracketed 疏 that opens a line of a web copy: [疏] (漢川草廬's 十三經注疏), 【疏】, and the forms its
#: mirrors turn the brackets into ('疏', ‘疏’, ［疏］, 〔疏〕)
SHU_LINE_MARK = r"(?:\[疏\]|【疏】|［疏］|〔疏〕|'疏'|‘疏’)"

MARKERS: tuple[Marker, ...] = (
    # 鄭玄's 注
    Marker("鄭注", "ZHU", "line"),
    Marker("郑注", "ZHU", "line"),
    Marker("註曰", "ZHU", "line"),
    Marker("注曰", "ZHU", "line"),
    Marker("注", "ZHU", "inline", note="四庫 注疏: opens the 注 after its 經"),
    # 鄭目錄 (鄭玄's table of the chapters, quoted before a chapter): OTHER
    Marker("鄭目錄云", "OTHER", "line", keep=True),
    Marker("鄭目録云", "OTHER", "line", keep=True),
    Marker("郑目录云", "OTHER", "line", keep=True),
    # 賈公彥's 疏
    Marker(SHU_LINE_MARK, "SHU", "line", regex=True, note="web copies: [疏], 【疏】 …"),
    Marker("疏(?=[ \u3000])", "SHU", "line", regex=True, note="web copies: 疏 and a space before the head"),
    Marker("○疏曰", "SHU", "inline"),
    Marker("疏曰", "SHU", "line"),
    Marker("疏", "SHU", "paren"),
    Marker("䟽", "SHU", "paren"),
    # 單疏本 entries and 注疏 疏 paragraphs open with 釋曰 (kept: it is the 疏's own word)
    # 陸德明 音義: OTHER
    Marker("音義", "OTHER", "paren", note="yinyi"),
    # later scholars quoted by the compilers: OTHER (○張子曰, ○楊氏曰, 楊氏曰 opening a line)
    Marker(r"○" + LATER_SCHOLAR, "OTHER", "inline", regex=True, keep=True, note="later-scholar"),
    Marker(LATER_SCHOLAR, "OTHER", "line", regex=True, keep=True, note="later-scholar"),
    # modern editions' section heads: OTHER
    Marker("【题解】", "OTHER", "line", keep=True),
    Marker("【題解】", "OTHER", "line", keep=True),
    Marker("【注释】", "OTHER", "line", keep=True),
    Marker("【註釋】", "OTHER", "line", keep=True),
    Marker("【译文】", "OTHER", "line", keep=True),
    Marker("【譯文】", "OTHER", "line", keep=True),
)

#: the XHTML e-book's paragraph classes
XHTML_CLASSES: dict[str, str] = {"strong": "JING", "zhushi": "ZHU", "jianshu": "SHU", "h1": "OTHER"}


def markers(where: str) -> list[Marker]:
    return [m for m in MARKERS if m.where == where]


def _pattern(ms: list[Marker]) -> str:
    ordered = sorted(ms, key=lambda m: -len(m.text))
    return "|".join(f"(?P<m{i}>{m.text if m.regex else re.escape(m.text)})" for i, m in enumerate(ordered)), ordered


def inline_regex(circled: bool = False) -> tuple[re.Pattern[str], list[Marker]]:
    """A regex for the inline markers (only those opened by ○ when ``circled``), and the markers."""
    ms = [m for m in markers("inline") if not circled or m.text.startswith("○")]
    pattern, ordered = _pattern(ms)
    return re.compile(pattern), ordered


def line_marker(line: str) -> Marker | None:
    """The marker that opens ``line`` (after leading spaces), the longest first."""
    stripped = line.lstrip(" \u3000\t")
    cited = ZHENG_CITED.match(stripped) is not None
    best: Marker | None = None
    for m in markers("line"):
        if cited and m.text in ("鄭注", "郑注"):
            continue
        if m.regex:
            if re.match(m.text, stripped) and best is None:
                best = m
            continue
        if stripped.startswith(m.text) and (best is None or best.regex or len(m.text) > len(best.text)):
            best = m
    return best


def marker_span(line: str, marker: Marker) -> tuple[int, int]:
    """Where the words of ``marker``, which opens ``line`` (:func:`line_marker`), lie in ``line``:
    after the leading spaces, as long as the marker's match (a regex marker's text is a pattern)."""
    lead = len(line) - len(line.lstrip(" \u3000\t"))
    if marker.regex:
        m = re.match(marker.text, line[lead:])
        return lead, lead + (m.end() if m else 0)
    return lead, lead + len(marker.text)


def later_scholar(text: str) -> re.Match[str] | None:
    """``○張子曰`` etc. at ``text``'s start."""
    m = next(m for m in MARKERS if m.note == "later-scholar")
    return re.match(m.text, text)
