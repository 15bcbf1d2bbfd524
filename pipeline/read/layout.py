"""Which layout a document is in, from its text (the file name's extension is a hint only).

| layout | what it looks like | reader |
| --- | --- | --- |
| ``xhtml`` | the 注疏 e-book: ``<p class="strong">`` / ``zhushi`` / ``jianshu`` | :mod:`pipeline.read.xhtml` |
| ``html/…`` | any other HTML page (ctext, Wikisource, saved from a browser): its visible text, read by the reader that text calls for | :mod:`pipeline.read.html` |
| ``docx/…`` | a Word document's body (WordprocessingML), read as a page is | :mod:`pipeline.read.docx` |
| ``kanripo-siku`` / ``kanripo-zhengzhu`` / ``kanripo-danshu`` | Kanripo org text: ``#+`` headers, ``<pb:…>``, ``¶`` (or the 四庫 and 單疏 texts without them) | :mod:`pipeline.read.kanripo` |
| ``kanripo-wrapped`` | Kanripo org text of a later compilation (儀禮集編 …): lines opened by 鄭注 / 註曰, read as ``siku-wrapped`` | :mod:`pipeline.read.kanripo` |
| ``web-runon`` | a line of 經 with its 注 run on, then a ``[疏]“X”至“Y”`` line | :mod:`pipeline.read.web` |
| ``web-zhushu`` | 經 / 注 / 疏 paragraphs, the 疏 indented with its head 「X」至「Y」 | :mod:`pipeline.read.web` |
| ``siku-wrapped`` | lines cut at a fixed width, commentary opened by 鄭注 / 註曰 | :mod:`pipeline.read.wrapped` |
| ``web-translation`` | a modern edition: 經, numbered notes, 【译文】, vernacular | :mod:`pipeline.read.web` |
| ``yishu`` | 欽定儀禮義疏: a 經 piece a line, then its blocks (正義, 存疑 …) quoting scholars by full name (鄭氏康成曰 …) | :mod:`pipeline.read.yishu` |
| ``paren-commentary`` | 經 running on, each 注 after it in parentheses (or 【】, 〔〕, ［］): a plain copy of the 鄭注 | :mod:`pipeline.read.parens` |
| ``plain`` | anything else: paragraphs, markers where there are any | :mod:`pipeline.read.web` |
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from pipeline.layers.markers import SHU_LINE_MARK
from pipeline.read.docx import is_wordml
from pipeline.read.html import read_html
from pipeline.read.kanripo import (bracket_probe, is_kanripo, kanripo_edition, read_danshu, read_kanripo_wrapped,
                                   read_siku, read_zhengzhu, space_probe, unmarked_edition)
from pipeline.read.parens import is_paren_commentary, paren_probe, read_paren_commentary
from pipeline.read.reading import Reading
from pipeline.read.script import traditional_probe
from pipeline.read.web import is_vernacular, read_plain, read_web_runon, read_web_translation, read_web_zhushu
from pipeline.read.wrapped import WRAPPED_MARKER, read_wrapped
from pipeline.read.xhtml import is_ebook, is_xhtml, read_xhtml
from pipeline.read.yishu import is_yishu, read_yishu

LAYOUTS: dict[str, Callable[[str], Reading]] = {
    "xhtml": read_xhtml,
    "kanripo-siku": read_siku,
    "kanripo-zhengzhu": read_zhengzhu,
    "kanripo-danshu": read_danshu,
    "kanripo-wrapped": read_kanripo_wrapped,
    "web-runon": read_web_runon,
    "web-zhushu": read_web_zhushu,
    "siku-wrapped": read_wrapped,
    "web-translation": read_web_translation,
    "paren-commentary": read_paren_commentary,
    "yishu": read_yishu,
    "plain": read_plain,
}

_RUNON_SHU = re.compile(f"^[ \u3000]*{SHU_LINE_MARK}", re.M)
_INDENTED_HEAD = re.compile(r"^(?:[ \u3000]+|疏[ \u3000]+)(?:「[^」\n]{1,12}」(?:至「|。)|注「|○釋曰|○注)", re.M)
_MODERN = re.compile(r"【(?:题解|題解|注释|註釋|译文|譯文)】")
#: the title line of editors' collation notes: 阮元's 校勘記 after each juan of his 注疏 (儀禮注疏卷二挍勘記,
#: not the book's title, 重栞宋本儀禮注䟽附挍勘記), the 四庫's 考證 (儀禮注疏卷五考證)
COLLATION_TITLE = re.compile(r"^[ \u3000]*(?:儀禮|仪礼)(?:注疏|註疏|注䟽)(?:卷第?[一二三四五六七八九十]+)?"
                             r"(?:[挍校]勘[記记]|考[證证])序?[ \u3000]*$"
                             # the line that follows it, naming who made it and who drew it out for the
                             # 重栞 edition: a site's chapter of the 校勘記 alone opens with the book's title
                             # and this line
                             r"|^[ \u3000]*阮元撰[ \u3000]*(?:盧|卢)宣旬摘(?:錄|录)[ \u3000]*$"
                             # 沈廷芳's 十三經註疏正字, a collation of the 注疏 (Wikisource's 四庫全書本)
                             r"|^[ \u3000]*十三(?:經|经)(?:註|注)(?:疏|䟽)正字(?:卷[一二三四五六七八九十百]+)?[ \u3000]*$", re.M)


def detect_layout(text: str, source: Optional[str] = None) -> str:
    suffix = (source or "").lower().rsplit(".", 1)[-1] if source and "." in source else ""
    if suffix in ("xhtml", "html", "htm") or is_xhtml(text):
        return "xhtml" if is_ebook(text) else "html"
    return text_layout(text)


def text_layout(text: str) -> str:
    """The layout of a text without markup (a page's visible text too)."""
    if is_kanripo(text):
        return kanripo_edition(text)
    if is_yishu(text):
        return "yishu"
    if len(_RUNON_SHU.findall(text)) >= 2:
        return "web-runon"
    if len(_INDENTED_HEAD.findall(text)) >= 3:
        return "web-zhushu"
    unmarked = unmarked_edition(text)  # after the web copies' own marks: their 疏 may write 」　釋曰
    if unmarked is not None:
        return unmarked
    if len(WRAPPED_MARKER.findall(text)) >= 3:
        return "siku-wrapped"
    if _MODERN.search(text):
        return "web-translation"
    paragraphs = [p for p in text.splitlines() if p.strip()]
    if paragraphs and sum(is_vernacular(p) for p in paragraphs) >= max(3, len(paragraphs) // 5):
        return "web-translation"
    probe = paren_probe(text)
    if is_paren_commentary(text) or (probe is not None and is_paren_commentary(probe)):
        return "paren-commentary"
    return "plain"


def read_document(text: str, source: Optional[str] = None) -> Reading:
    """The reading of ``text`` by the reader of its layout. An XHTML or Kanripo edition converted
    to simplified characters is read in its traditional form (:func:`pipeline.read.script.traditional_probe`,
    same offsets), a 四庫 that brackets its 疏 as a site does (疏【…】) with Kanripo's brackets
    (:func:`pipeline.read.kanripo.bracket_probe`) and a 單疏本 with ASCII spaces with Kanripo's
    (:func:`pipeline.read.kanripo.space_probe`), same offsets: those readers know the markers as the
    editions write them. The web readers know both scripts, and read simplified cues of their
    own (modern prose, site furniture)."""
    layout = detect_layout(text, source)
    if layout == "html":  # a web page, or a Word body (pipeline/read/docx.py): markup around a text
        return read_html(text, text_layout, read_text, "docx" if is_wordml(text) else "html")
    return _read(text, layout, lambda probe: detect_layout(probe, source))


def read_text(text: str) -> Reading:
    """The reading of a text without markup (a web page's visible text), as :func:`read_document`
    reads a text file."""
    return _read(text, text_layout(text), text_layout)


#: a copy of the same length that a layout's reader reads in place of the text, where the text writes
#: the edition's marks otherwise: a site's 疏【…】, a 單疏本's ASCII spaces, 經【注】 for 經（注）
PROBES: dict[str, Callable[[str], Optional[str]]] = {
    "kanripo-siku": bracket_probe,
    "kanripo-danshu": space_probe,
    "paren-commentary": paren_probe,
}


def _read(text: str, layout: str, layout_of: Callable[[str], str]) -> Reading:
    probe = text
    if layout == "xhtml" or layout.startswith("kanripo"):
        traditional = traditional_probe(text)
        if traditional is not None:
            probe, layout = traditional, layout_of(traditional)
    variant = PROBES.get(layout)
    if variant is not None:
        probe = variant(probe) or probe
    return _collation_apart(text, LAYOUTS[layout](probe))


def _collation_apart(text: str, reading: Reading) -> Reading:
    """``reading`` with the editors' collation notes kept apart, from their title line on (reason
    ``collation``), as the 四庫's 考證 is: 阮元's 校勘記 after a juan of his 注疏, or a document that is
    nothing else. Its entries quote the 經 and 注 they collate (復者一人, then 毛本…作…), which are
    no text of the edition."""
    m = COLLATION_TITLE.search(text)
    if m is not None and not any(start <= m.start() < end for start, end, _reason in reading.apart):
        reading.apart.append((m.start(), len(text), "collation"))
    return reading
