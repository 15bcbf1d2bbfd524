"""欽定儀禮義疏 (the Qianlong commission's 儀禮, 1748; Kanripo KR1d0037) as sites give it (layout ``yishu``).

The book cuts the 經 into short pieces, each on its own line, and sets its commentary on the lines
after it in blocks that open with the block's kind: 正義 (the accepted readings), 存疑 (doubtful
ones), 辨正, 通論, 餘論, 總論. A block quotes scholars by their full names, several to a line,
sometimes parted by a space: 鄭氏康成曰 (鄭玄, the 注), 賈氏公彦曰 (賈公彥, the 疏), 敖氏繼公曰,
劉氏敞曰 … (later scholars: OTHER). The 疏 is also quoted in brackets inside a 鄭 quotation
(【賈疏…】). The compilers' own notes open with 案 (on a line of their own, or after a quotation),
and a section ends with its label (右三射). After a 經 piece the book prints, in brackets, the 注's
record of the other texts' readings (【注今文無衆酬】: the 注) and the sounds of its characters
(【大音泰】, 【屬之欲反】: OTHER). A block may follow its 經 on the same line (…公許正義李氏如圭曰…),
and a site may break a block's paragraph into lines (the line goes on with the scholar it
quotes until a new name comes). Kanripo's view of the 四庫 text cuts every line at the page's width
and sets the blocks a space lower: there a line set lower goes on with the block or note above it,
and the notes are in small type without brackets (注今文…, 還音旋, 賈疏… inside 鄭's words).

Read line by line: the block's kind and the names of 鄭 and 賈 are markers (removed: the text is
theirs); a later scholar's name is kept in the OTHER it opens, as
:data:`~pipeline.layers.markers.LATER_SCHOLAR` keeps 楊氏曰. Without this reader the model read such a
page line by line and cut it into fragments of every layer (大射, the page of ``tests/test_yishu.py``:
71 tuples, 23 of them from the commentary; its 經 gives 52).
"""

from __future__ import annotations

import re
from typing import Optional

from pipeline.layers.markers import SECTION_LABEL
from pipeline.read.reading import Piece, Reading, trimmed
from pipeline.read.web import content_lines, is_title
from pipeline.records import Removal

#: the kinds of the book's commentary blocks, which open their line (traditional and simplified)
BLOCK_KIND = r"(?:正義|正义|存疑|存異|存异|辨正|通論|通论|餘論|余论|總論|总论|附錄|附录)"
#: a scholar quoted by his full name (鄭氏康成曰, 劉氏敞曰, 敖氏繼公曰), or a master (朱子曰)
SPEAKER = r"(?:[\u4e00-\u9fff]氏[\u4e00-\u9fff]{1,2}曰|[朱程張张]子曰)"
SPEAKER_RE = re.compile(SPEAKER)
#: a block's kind where a block opens: before a quoted scholar or the compilers' 案
BLOCK_OPEN = re.compile(rf"{BLOCK_KIND}(?={SPEAKER}|又?案)")
ZHENG = re.compile(r"[鄭郑]氏康成曰")
JIA = re.compile(r"[賈贾]氏公[彦彥]曰")
#: the compilers' note: 案, 又案, 謹案 opening a line, or 案 after a quotation of 鄭
NOTE = re.compile(r"(?:又|謹|谨)?案")
BRACKET = re.compile(r"【([^【】\n]*)】")
#: a bracketed quotation of the 疏 inside a 鄭 quotation, and the 注's readings after a 經 piece
SHU_QUOTE = re.compile(r"[賈贾]疏")
ZHU_NOTE = re.compile(r"注")
#: the same notes in small type without brackets (Kanripo's 四庫 text): the 注's readings of the other
#: texts after a 經 piece (…負侯而俟注今文俟為立, which a line's end may cut after 注今), a character's
#: sound at the piece's end (…還音旋)
SMALL_ZHU = re.compile(r"注(?=今文|古文|[今古][ \u3000]*$)")
SOUND_AT_END = re.compile(r"(?:[\u4e00-\u9fff]音[\u4e00-\u9fff])+[ \u3000]*$")
#: particles no 經 piece opens with: a line opening so after a block goes on with it (a site broke the
#: paragraph where a page of the 四庫 ended: …凡飨祝之辞虽或言于尸之 | 之耳其或有拜妥尸之类…)
CARRIED_OVER = tuple("之也者矣耳焉乎哉")
#: from this many lines opening a block (at their start or after a 經 piece), a text is this book: no
#: other text writes 正義 before a scholar's full name
MIN_BLOCKS = 2


def is_yishu(text: str) -> bool:
    count = 0
    for line in text.splitlines():
        if BLOCK_OPEN.search(line):
            count += 1
            if count >= MIN_BLOCKS:
                return True
    return False


def read_yishu(raw: str) -> Reading:
    reading = Reading("yishu")
    lines = content_lines(raw, reading)
    lowered = _commentary_set_lower(raw, lines)
    last: Optional[str] = None  # the layer the text before this line ended in (a block or note goes on in it)
    for line in lines:
        s, e = line.start, line.end
        text = raw[s:e]
        opened = BLOCK_OPEN.match(text)
        if opened:
            reading.removed.append(Removal(s, s + opened.end(), "marker"))
            last = _commentary(raw, s + opened.end(), e, reading, None)
        elif NOTE.match(text):
            _trimmed_add(raw, reading, "OTHER", s, e, "marker", 1.0, "compiler-note")
            last = "OTHER"
        elif SECTION_LABEL.fullmatch(text):
            _trimmed_add(raw, reading, "OTHER", s, e, "layout", 0.9, "section-label")
        elif is_title(text):
            _trimmed_add(raw, reading, "OTHER", s, e, "layout", 0.9, "title")
        elif BLOCK_OPEN.search(text):  # a 經 piece with its block on the same line
            last = _jing(raw, s, e, reading)
        elif last is not None and ((lowered and line.indented) or text.startswith(CARRIED_OVER)):
            # a wrapped line of the block or note above, or its paragraph broken by a site (之耳其或有…)
            last = _commentary(raw, s, e, reading, last)
        elif SPEAKER_RE.match(text) or (not lowered and SPEAKER_RE.search(text)):
            # a block's paragraph broken by the site (or a wrapped block's new scholar at a line's start)
            last = _commentary(raw, s, e, reading, last or "OTHER")
        else:
            last = _jing(raw, s, e, reading)
    return reading.sort()


def _commentary_set_lower(raw: str, lines: list) -> bool:
    """Whether the commentary is set lower than the 經 (Kanripo's view of the 四庫 text, cut at the
    page's width: a line set lower goes on with the block above it, a line at the margin is 經): the
    blocks open on lines set lower, and a tenth of the lines or more are at the margin. A site that
    indents every paragraph alike may leave one line at the margin where its page begins, which says
    nothing (its pages of 覲禮 and 特牲)."""
    opening = [line.indented for line in lines if BLOCK_OPEN.match(raw, line.start, line.end)]
    at_margin = sum(1 for line in lines if not line.indented)
    return bool(opening) and sum(opening) >= 0.75 * len(opening) and at_margin >= max(2, 0.1 * len(lines))


def _trimmed_add(raw: str, reading: Reading, layer: str, start: int, end: int, evidence: str, score: float,
                 note: str = "") -> None:
    start, end = trimmed(raw, start, end)
    if start < end:
        reading.pieces.append(Piece(layer, start, end, evidence, score, note))


def _commentary(raw: str, start: int, end: int, reading: Reading, layer: Optional[str]) -> str:
    """A block's text ``[start, end)``: runs of the scholars it quotes, each in its layer. ``layer`` is
    the layer of the text before the first name (a block broken over lines); None when the block
    opens here (its first words are a name or 案). Returns the layer of the last run."""
    names = list(SPEAKER_RE.finditer(raw, start, end))
    pos = start
    current = layer or "OTHER"
    for m in names + [None]:
        run_end = m.start() if m is not None else end
        if pos < run_end:
            current = _run(raw, pos, run_end, current, reading)
        if m is None:
            break
        if ZHENG.fullmatch(m.group()):
            current = "ZHU"
            reading.removed.append(Removal(m.start(), m.end(), "marker"))
            pos = m.end()
        elif JIA.fullmatch(m.group()):
            current = "SHU"
            reading.removed.append(Removal(m.start(), m.end(), "marker"))
            pos = m.end()
        else:
            current = "OTHER"
            pos = m.start()  # the later scholar's name is kept in his OTHER
    return current


def _run(raw: str, start: int, end: int, layer: str, reading: Reading) -> str:
    """One scholar's words (or a wrapped line of them): a 鄭 quotation holds the 疏, in brackets
    (【賈疏…】) or, where the edition prints it in small type, opened by 賈疏 and going on to the next
    name; it may be followed by the compilers' note (案…: OTHER to the run's end). The 疏's own 案 is
    its own ("案大射前三日…"). Returns the layer the run ends in."""
    if layer != "ZHU":
        _trimmed_add(raw, reading, layer, start, end, "marker", 1.0, "later-scholar" if layer == "OTHER" else "")
        return layer
    pos = start
    for m in BRACKET.finditer(raw, start, end):
        if NOTE.search(raw, pos, m.start()) or SHU_QUOTE.search(raw, pos, m.start()):
            break
        _trimmed_add(raw, reading, "ZHU", pos, m.start(), "marker", 1.0)
        _bracket(raw, m, reading, "ZHU")
        pos = m.end()
    note = NOTE.search(raw, pos, end)
    shu = SHU_QUOTE.search(raw, pos, note.start() if note is not None else end)
    if shu is not None:
        _trimmed_add(raw, reading, "ZHU", pos, shu.start(), "marker", 1.0)
        reading.removed.append(Removal(shu.start(), shu.end(), "marker"))
        _trimmed_add(raw, reading, "SHU", shu.end(), end, "marker", 1.0)
        return "SHU"
    if note is not None:
        _trimmed_add(raw, reading, "ZHU", pos, note.start(), "marker", 1.0)
        _trimmed_add(raw, reading, "OTHER", note.start(), end, "marker", 1.0, "compiler-note")
        return "OTHER"
    _trimmed_add(raw, reading, "ZHU", pos, end, "marker", 1.0)
    return "ZHU"


def _bracket(raw: str, m: re.Match[str], reading: Reading, around: str) -> str:
    """A bracketed note: 【賈疏…】 the 疏, 【注…】 the 注's record of readings, any other the sounds of
    characters or the compilers' remark on a reading (OTHER). The brackets and the 疏 / 注 that name the
    note's source are markers."""
    inner_start, inner_end = m.start(1), m.end(1)
    reading.removed.append(Removal(m.start(), inner_start, "marker"))
    reading.removed.append(Removal(inner_end, m.end(), "marker"))
    shu = SHU_QUOTE.match(raw, inner_start, inner_end)
    zhu = ZHU_NOTE.match(raw, inner_start, inner_end) if around == "JING" else None
    if shu is not None or zhu is not None:
        source = shu or zhu
        reading.removed.append(Removal(inner_start, source.end(), "marker"))
        layer = "SHU" if shu is not None else "ZHU"
        _trimmed_add(raw, reading, layer, source.end(), inner_end, "marker", 1.0)
        return layer
    _trimmed_add(raw, reading, "OTHER", inner_start, inner_end, "marker", 1.0, "bracketed-note")
    return "OTHER"


def _jing(raw: str, start: int, end: int, reading: Reading) -> Optional[str]:
    """A 經 piece and its notes; a block may open after it on the same line (正義李氏如圭曰…), or the
    compilers' note after a bracketed note (…【觚亦當作觶】案燕禮…). Where the edition prints the notes in
    small type without brackets (Kanripo's 四庫 text), the 注's readings open with 注今文 / 注古文 and
    a sound is given as X音Y at the piece's end. Returns the layer the line ends in when a note or
    block does (a wrapped line set lower goes on in it), None when it ends in the 經."""
    opened = BLOCK_OPEN.search(raw, start, end)
    stop = opened.start() if opened is not None else end
    pos = start
    tail: Optional[str] = None
    for m in BRACKET.finditer(raw, start, stop):
        _trimmed_add(raw, reading, "JING", pos, m.start(), "layout", 0.9)
        tail = _bracket(raw, m, reading, "JING")
        pos = m.end()
        if NOTE.match(raw, pos, stop) is not None:
            _trimmed_add(raw, reading, "OTHER", pos, stop, "marker", 1.0, "compiler-note")
            pos, tail = stop, "OTHER"
            break
    small = SMALL_ZHU.search(raw, pos, stop)
    sound = SOUND_AT_END.search(raw, pos, stop) if small is None else None
    jing_end = small.start() if small is not None else sound.start() if sound is not None else stop
    _trimmed_add(raw, reading, "JING", pos, jing_end, "layout", 0.9)
    if jing_end > pos and raw[pos:jing_end].strip():
        tail = None
    if small is not None:
        reading.removed.append(Removal(small.start(), small.start() + 1, "marker"))
        _trimmed_add(raw, reading, "ZHU", small.start() + 1, stop, "marker", 1.0)
        tail = "ZHU"
    elif sound is not None:
        _trimmed_add(raw, reading, "OTHER", sound.start(), stop, "marker", 1.0, "bracketed-note")
        tail = "OTHER"
    if opened is not None:
        reading.removed.append(Removal(opened.start(), opened.end(), "marker"))
        tail = _commentary(raw, opened.end(), end, reading, None)
    return tail
