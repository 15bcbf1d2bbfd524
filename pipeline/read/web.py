"""Web pages and plain text: one paragraph per line, furniture around it.

Three layouts are read here (see :func:`pipeline.read.layout.detect_layout`):

- ``web-zhushu`` (seed 003, a ctext-like copy of the 注疏): 經 paragraph, 注 paragraph, and the
  疏 paragraph, which starts with a space (sometimes with ``疏 ``) and its head 「X」至「Y」. The
  經 and 注 alternate from each 疏; the 疏 head fixes what it cites (:mod:`pipeline.layers.groups`).
- ``web-runon`` (seed 004): each line is a 經 with its 注 run on after it, followed by a
  ``[疏]“X”至“Y”`` line; the head says where the 經 starts and ends, the ○注 head where the 注
  starts. What no head reaches is left undecided (``default``), unless a gloss (谒，告。) shows
  where the 注 starts. A copy that brackets its 注 (經(注), as 漢川草廬's 十三經注疏 writes it) is
  read by its brackets and 疏 heads instead (:func:`pipeline.read.parens.read_bracketed_runon`).
- ``web-translation`` (seed 000, a modern edition: 經 paragraphs, numbered notes, a vernacular
  translation, spam): 經 is what is classical; notes, 【题解】/【注释】/【译文】 heads and the
  vernacular are OTHER; later copies of a 經 paragraph are removed as duplicates.
- ``plain``: anything else: paragraphs, with the markers that open them, or undecided.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from pipeline.layers.anchors import Letters, is_letter, locate, parse_head
from pipeline.layers.groups import Para, alternate, resolve_group
from pipeline.layers.markers import COMPILER_NOTE, SHU_LINE_MARK, Marker, later_scholar, line_marker, marker_span
from pipeline.read.furniture import NOTE_LINE, footnote_refs, line_furniture, lines
from pipeline.read.reading import Piece, Reading, trimmed
from pipeline.records import Removal, RunShape


@dataclass
class Line:
    start: int  # first content character (after furniture and indentation)
    end: int  # last content character + 1
    indented: bool  # the raw line starts with a space

    def text(self, raw: str) -> str:
        return raw[self.start:self.end]


def content_lines(raw: str, reading: Reading) -> list[Line]:
    """Non-empty lines with their furniture reported as removals."""
    out: list[Line] = []
    for s, e in lines(raw):
        removal, content_start = line_furniture(raw, s, e)
        if removal is not None:
            reading.removed.append(removal)
        cs, ce = trimmed(raw, content_start, e)
        if cs >= ce:
            continue
        out.append(Line(cs, ce, s < e and raw[s] in " \u3000\t"))
    return out


TITLE = re.compile(
    r"^(?:卷[一二三四五六七八九十百]+[:：\s]*)?[^\s，。,]{1,10}第[一二三四五六七八九十]{1,3}(?:之[一二三四五六七八九十]{1,2})?$"
    r"|^(?:欽定四庫全書|钦定四库全书)$|^《[^》]{1,12}》[^。]{0,30}(?:注|疏|撰)[^。]*$"
    r"|^[^，。,]{1,12}卷[一二三四五六七八九十百]+[^，。,]{0,12}撰$|^[^，。,]{2,10}撰$|^[^，。,\s]{2,10}卷[一二三四五六七八九十百]+$"
    # Kanripo's web view heads a text with its ID, title, dynasty and author: KR1d0049 儀禮集編-清-盛世佐 (master)
    r"|^KR\d[a-z]\d{4}[ \t][^，。,]{1,30}$"
    # a site's line of the book's dynasty and author (清 · 盛世佐)
    r"|^[漢汉魏晉晋唐宋元明清][ \t]*[·・][ \t]*[^，。,\s]{2,4}$"
    # a book of the emperor's commission named alone, as a site heads its pages (钦定仪礼义疏)
    r"|^(?:欽定|钦定)[^，。,\s]{2,10}$"
    # a book's title with its number of juan, as a 四庫 site heads its pages (1311儀禮注疏十七卷)
    r"|^\d*[^，。,\s\d]{2,10}[一二三四五六七八九十百]+卷$"
    # a juan's number alone on its line, as a reading site heads a chapter page (卷七)
    r"|^卷[一二三四五六七八九十百]+$"
    # a site's page title: the book, a dash, its juan or its page (钦定仪礼义疏 - 卷七, … - 第 46 页/共 169 页)
    r"|^[^，。,\s]{2,12}[ \t]*[-–—][ \t]*(?:卷[一二三四五六七八九十百]+|第[ \t]*\d+[ \t]*[页頁](?:/共[ \t]*\d+[ \t]*[页頁])?)$"
    # a juan's title with its author, spaced (儀禮集釋卷二十七   宋 李如圭 𢰅: 𢰅 is 撰)
    r"|^[^，。,\s]{2,10}卷[一二三四五六七八九十百]+[ \t\u3000]+[^，。,]{1,20}(?:撰|𢰅|著)$"
    # a chapter's name alone, as a compilation heads its part of a juan (特牲饋食禮); not the names the 經
    # itself opens with (士冠禮，筮于廟門; 燕禮。; 聘禮。; 覲禮。; 喪服。; 士喪禮。; 士虞禮。; 有司徹。), which a
    # copy a sentence a line writes alone on their line
    r"|^(?:士昏|士相見|鄉飲酒|乡饮酒|鄉射|乡射|大射|公食大夫|既夕|特牲饋食|特牲馈食|少牢饋食|少牢馈食)(?:禮|礼|儀|仪)$"
)


def is_title(line: str) -> bool:
    return len(line) <= 40 and bool(TITLE.match(line.strip()))


# --- web-zhushu (seed 003) ------------------------------------------------------------------------

def _shu_line(raw: str, line: Line) -> bool:
    text = line.text(raw)
    if text.startswith("疏") and len(text) > 1 and text[1] in " \u3000「":
        return True
    if line.indented:
        return True
    return False


def read_web_zhushu(raw: str) -> Reading:
    reading = Reading("web-zhushu")
    ls = content_lines(raw, reading)
    group: list[Para] = []
    drops: list[tuple[int, int]] = []

    def flush(head_text: Optional[str]) -> None:
        nonlocal group
        if not group:
            return
        alternate(group)
        head = parse_head(head_text) if head_text else None
        for p in resolve_group(raw, group, head, drops):
            reading.pieces.append(Piece(p.layer, p.start, p.end, p.evidence, p.score, p.note))
        group = []

    for line in ls:
        text = line.text(raw)
        if is_title(text):
            flush(None)
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
            continue
        if _shu_line(raw, line):
            start = line.start
            if text.startswith("疏"):
                marker_end = trimmed(raw, line.start + 1, line.end)[0]
                reading.removed.append(Removal(line.start, marker_end, "marker"))
                start = marker_end
            head = parse_head(raw[start:line.end])
            flush(raw[start:line.end])
            evidence, score = ("marker", 1.0) if head else ("layout", 0.9)
            reading.pieces.append(Piece("SHU", start, line.end, evidence, score))
            continue
        group.append(Para(line.start, line.end, "JING"))
    flush(None)
    return reading.sort()


# --- web-runon (seed 004) ---------------------------------------------------------------------------

_SHU_LINE = re.compile(f"^{SHU_LINE_MARK}")
#: a gloss that opens a 注: 谒，告。 / 宁，安也。 / 卓犹的也 / 乃犹女也 — W then a short gloss
_GLOSS = re.compile(r"^([\u4e00-\u9fff]{1,2})(?:[，,]([\u4e00-\u9fff]{1,6})也?[。；]|(?:犹|猶|谓|謂|读如|讀如|读为|讀為|之言)[\u4e00-\u9fff]{1,8}也?[。；，,])")


def read_web_runon(raw: str) -> Reading:
    reading = Reading("web-runon")
    ls = content_lines(raw, reading)
    shu_lines = sum(1 for line in ls if _SHU_LINE.match(line.text(raw)))
    if len(HAN_GROUP.findall(raw)) >= max(5, shu_lines // 2):  # (a stray note or two is no convention)
        # a copy that brackets its 注 (漢川草廬's 十三經注疏): brackets and 疏 heads say it all
        from pipeline.read.parens import read_bracketed_runon  # not at the top: parens imports this module

        read_bracketed_runon(raw, ls, _SHU_LINE, reading)
        return reading.sort()
    i = 0
    while i < len(ls):
        line = ls[i]
        text = line.text(raw)
        m = _SHU_LINE.match(text)
        if m:
            reading.removed.append(Removal(line.start, line.start + m.end(), "marker"))
            start = trimmed(raw, line.start + m.end(), line.end)[0]
            reading.pieces.append(Piece("SHU", start, line.end, "marker", 1.0))
            i += 1
            continue
        if is_title(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
            i += 1
            continue
        nxt = ls[i + 1] if i + 1 < len(ls) else None
        head = None
        if nxt is not None:
            nm = _SHU_LINE.match(nxt.text(raw))
            if nm:
                head = parse_head(raw[nxt.start + nm.end():nxt.end])
        reading.pieces.extend(_runon_pieces(raw, line, head))
        i += 1
    return reading.sort()


#: a group in parentheses that holds Han text: a 注 a copy brackets (:mod:`pipeline.read.parens`)
HAN_GROUP = re.compile(r"[(（][^()（）]*[\u4e00-\u9fff][^()（）]*[)）]")

#: a run-on line that no 疏 head cuts opens with its 經 (the 注 follows it)
OPENS_WITH_JING = RunShape(first="JING")


def _runon_pieces(raw: str, line: Line, head) -> list[Piece]:
    """One 經+注 line cut where its 疏's head (or a gloss) says."""
    letters = Letters(raw, [(line.start, line.end)])
    n = len(letters)
    if n == 0:
        return [Piece("OTHER", line.start, line.end, "layout", 0.5)]
    cuts: list[tuple[int, str, str, float]] = []  # (letter index where a run starts, layer, evidence, score)
    loc = locate(head, letters) if head is not None and not head.empty else None
    if loc is not None and loc.jing_start is not None and loc.jing_end is not None:
        if loc.jing_start > 0:
            cuts.extend(_gloss_cuts(raw, letters, 0, loc.jing_start))
        cuts.append((loc.jing_start, "JING", "anchor", 1.0))
        if loc.jing_end < n:
            if loc.zhu_start is not None and loc.zhu_start > loc.jing_end:
                cuts.append((loc.jing_end, "ZHU", "default", 0.5))
                cuts.append((loc.zhu_start, "ZHU", "anchor", 1.0))
            else:
                evidence = "anchor" if loc.zhu_start == loc.jing_end else "layout"
                cuts.append((loc.jing_end, "ZHU", evidence, 1.0 if evidence == "anchor" else 0.8))
    elif loc is not None and loc.zhu_start is not None:
        cuts.extend(_gloss_cuts(raw, letters, 0, loc.zhu_start, whole="JING"))
        cuts.append((loc.zhu_start, "ZHU", "anchor", 1.0))
    else:
        cuts.extend(_gloss_cuts(raw, letters, 0, n))
    pieces: list[Piece] = []
    cuts.sort(key=lambda c: c[0])
    for j, (at, layer, evidence, score) in enumerate(cuts):
        stop = cuts[j + 1][0] if j + 1 < len(cuts) else n
        if stop <= at:
            continue
        s = letters.raw_start(at)
        e = letters.raw_end(stop) if stop < n else line.end
        s, e = trimmed(raw, s if j else line.start, e)
        if e > s:
            piece = Piece(layer, s, e, evidence, score, "" if evidence != "default" else "undecided")
            if evidence == "default" and layer == "JING":  # a stretch that opens with its 經 (_gloss_cuts)
                piece.shape = OPENS_WITH_JING
            pieces.append(piece)
    return pieces


def _gloss_cuts(raw: str, letters: Letters, lo: int, hi: int, whole: str = "") -> list[tuple[int, str, str, float]]:
    """A stretch that opens with 經: where a gloss of one of its words starts the 注, if one does."""
    for i in sorted(x for x in letters.sentence_start if lo < x < hi):
        sentence = raw[letters.raw_start(i):letters.raw_start(hi - 1) + 1]
        m = _GLOSS.match(sentence)
        if m and m.group(1) in letters.text[lo:i]:
            return [(lo, "JING", "layout", 0.7), (i, "ZHU", "anchor", 0.6)]
    if whole:
        return [(lo, whole, "layout", 0.7)]
    return [(lo, "JING", "default", 0.5)]


# --- web-translation (seed 000) ----------------------------------------------------------------------

#: characters of modern vernacular that classical texts (經, 注, 疏) practically never use
MODERN_CHARS = set("的了们們这這吗嗎呢么麼给給她您咱啊吧哪那")
#: modern words (two characters) of translations and notes
MODERN_WORDS = re.compile(
    "一种|一種|他们|他們|我们|我們|进行|進行|已经|已經|没有|沒有|时候|時候|表示|意义|意義|记述|記述|描述|仪式|儀式|"
    "用来|用來|站立|拿着|拿著|面朝|接着|接著|如果|同样|同樣|一样|一樣|一起|认为|認為|叫作|"
    "称为|稱為|古代|这里|這裡|回拜|返回|起来|起來|就是|但是"
)
#: classical function words that the vernacular rarely uses
CLASSICAL = set("之乎者也矣焉哉兮曰于於其而則则乃遂")


def vernacular_score(text: str) -> float:
    """Modern-Chinese evidence per Han character: modern characters and words, less classical particles."""
    han = [ch for ch in text if is_letter(ch)]
    if not han:
        return 0.0
    modern = sum(ch in MODERN_CHARS for ch in han) + 1.5 * len(MODERN_WORDS.findall(text))
    classical = sum(ch in CLASSICAL for ch in han)
    return (modern - 0.25 * classical) / len(han)


def is_vernacular(text: str) -> bool:
    """Modern Chinese (a translation, an introduction, a note) rather than classical text."""
    return vernacular_score(text) >= 0.008


SECTION_HEAD = re.compile(r"^【[^】]{1,6}】")
JI_MARKER = re.compile(r"^[\[［【]?(?:记|記)[\]］】]")


def read_web_translation(raw: str) -> Reading:
    reading = Reading("web-translation")
    ls = content_lines(raw, reading)
    dedupe = Deduplicator()
    section = ""
    after_copy = False
    for line in ls:
        text = line.text(raw)
        m = SECTION_HEAD.match(text)
        if m:
            section = m.group()
            reading.pieces.append(Piece("OTHER", line.start, line.end, "marker", 1.0, "section-head"))
            continue
        if is_title(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
            continue
        if NOTE_LINE.match(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "marker", 1.0, "note"))
            continue
        if section in ("【译文】", "【譯文】") or is_vernacular(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.85, "vernacular"))
            continue
        refs = footnote_refs(raw, line.start, line.end)
        reading.removed.extend(refs)
        start = line.start
        jm = JI_MARKER.match(text)
        if jm and (jm.group().startswith(("[", "［", "【"))):
            reading.removed.append(Removal(line.start, line.start + jm.end(), "marker"))
            start = trimmed(raw, line.start + jm.end(), line.end)[0]
        if dedupe.is_copy(raw, start, line.end, refs, after_copy):
            reading.removed = [r for r in reading.removed if not (line.start <= r.start and r.end <= line.end)]
            reading.removed.append(Removal(line.start, line.end, "duplicate"))
            after_copy = True
            continue
        after_copy = False
        marker = line_marker(text)
        if marker is not None and marker.layer != "JING":
            reading.pieces.append(Piece(marker.layer, start, line.end, "marker", 1.0))
        else:
            reading.pieces.append(Piece("JING", start, line.end, "layout", 0.8))
    return reading.sort()


class Deduplicator:
    """Later copies of a paragraph: nearly all its letters found again, in order, with few edits.

    Parallel passages of two chapters (鄉射 and 大射 share whole sentences) differ by a word
    here and there: too many edits for a copy. Copies differ by punctuation, notes, script, a
    typo, and may be cut into paragraphs differently (so a copy is compared with the earlier
    paragraphs its 5-grams point to, joined in their order). Script is folded (opencc t2s).
    """

    def __init__(self, gram: int = 5, min_cover: float = 0.9, chars_per_edit: int = 40, candidates: int = 4):
        self.gram = gram
        self.min_cover = min_cover
        self.chars_per_edit = chars_per_edit
        self.candidates = candidates
        self.kept: list[str] = []
        self.index: dict[str, list[int]] = {}
        self._fold = _script_folder()

    def is_copy(self, raw: str, start: int, end: int, refs: list[Removal], after_copy: bool = False) -> bool:
        """``after_copy``: the paragraph before was a copy (a short fragment after one is its tail)."""
        from difflib import SequenceMatcher

        letters = self._fold(Letters(raw, [(start, end)], [(r.start, r.end) for r in refs]).text)
        if len(letters) < 8 and after_copy and any(letters in kept for kept in self.kept):
            return True
        if len(letters) < 4:
            self._keep(letters)
            return False
        votes: dict[int, int] = {}
        k = min(self.gram, len(letters))
        for i in range(len(letters) - k + 1):
            for j in set(self.index.get(letters[i:i + k], ())):
                votes[j] = votes.get(j, 0) + 1
        top = sorted(sorted(votes, key=votes.get, reverse=True)[:self.candidates])
        if not top:
            self._keep(letters)
            return False
        source = "".join(self.kept[j] for j in top)
        sm = SequenceMatcher(None, letters, source, autojunk=False)
        matched = sum(b.size for b in sm.get_matching_blocks())
        edited = 0  # letters changed: a copy has typos, a parallel passage has other words
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag == "replace":  # where the source jumps (paragraph ends, seams): count our letters only
                jump = not (0 < i1 and i2 < len(letters)) or (j2 - j1) > (i2 - i1) + 3
                edited += i2 - i1 if jump else max(i2 - i1, j2 - j1)
            elif tag == "delete":
                edited += i2 - i1
            elif tag == "insert" and 0 < i1 < len(letters) and j2 - j1 <= 3:
                edited += j2 - j1
        copy = matched >= self.min_cover * len(letters) and edited <= max(2, len(letters) // self.chars_per_edit)
        if not copy:
            self._keep(letters)
        return copy

    def _keep(self, letters: str) -> None:
        j = len(self.kept)
        self.kept.append(letters)
        k = min(self.gram, len(letters))
        for i in range(max(0, len(letters) - k + 1)):
            self.index.setdefault(letters[i:i + k], []).append(j)


#: variant forms opencc leaves apart
_VARIANTS = str.maketrans({"筭": "算", "鑮": "镈", "荅": "答", "衆": "众", "眾": "众", "于": "於"})


def _script_folder():
    """Traditional → simplified, length-preserving (opencc), so that 綌 and 绤 compare equal."""
    try:
        import opencc

        converter = opencc.OpenCC("t2s")
    except Exception:  # opencc missing: compare as written, variants folded
        return lambda s: s.translate(_VARIANTS)

    def fold(s: str) -> str:
        out = converter.convert(s)
        out = out if len(out) == len(s) else s
        return out.translate(_VARIANTS)

    return fold


# --- plain -----------------------------------------------------------------------------------------

def marked_line(raw: str, line: Line, marker: Marker, reading: Reading) -> None:
    """A line that ``marker`` opens: the marker's layer, its words a removal unless they are the text's."""
    start = line.start
    if not marker.keep:
        words_start, words_end = marker_span(line.text(raw), marker)
        reading.removed.append(Removal(line.start + words_start, line.start + words_end, "marker"))
        start = trimmed(raw, line.start + words_end, line.end)[0]
    if start < line.end:
        reading.pieces.append(Piece(marker.layer, start, line.end, "marker", 1.0))


#: the commentary's own marks in 古今圖書集成 (禮儀典, as Wikisource gives it): 〈注〉 and 〈疏〉 (〈疏:〉)
#: open the 注 and the 疏 after a 經 paragraph, on one line, and 朱熹's 今按 follows them (OTHER)
ANGLE_MARK = re.compile(r"〈(注|註|疏|䟽)[:：]?〉")
_ANGLE_LAYER = {"注": "ZHU", "註": "ZHU", "疏": "SHU", "䟽": "SHU"}
_JIN_AN = re.compile(r"今按[:：]?")


def read_plain(raw: str) -> Reading:
    """Paragraphs with their opening markers; everything else undecided."""
    reading = Reading("plain")
    content = content_lines(raw, reading)
    full = wrap_width(raw, content)
    going_on: Optional[Piece] = None  # the undecided paragraph a full line of a hard-wrapped text left open
    for line in content:
        text = line.text(raw)
        previous, going_on = going_on, None
        if previous is not None and _BLANK_LINE.search(raw, previous.end, line.start):
            previous = None  # a blank line ends the paragraph
        marks = list(ANGLE_MARK.finditer(raw, line.start, line.end))
        if marks:
            _angle_marked(raw, line, marks, reading)
            continue
        if is_title(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
            continue
        if later_scholar(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "marker", 1.0, "later-scholar"))
            continue
        marker = line_marker(text)
        if marker is not None:
            marked_line(raw, line, marker, reading)
            continue
        # a line a full one goes on into opens where the page's column did, not where the text
        # turns: 案 there is no compiler's note (案公食禮云…, 左手案之 in a 疏 cut at 18 characters),
        # and one modern-looking word in a column's few characters (但是) no vernacular paragraph
        if previous is None and COMPILER_NOTE.match(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "marker", 1.0, "compiler-note"))
            continue
        if previous is None and is_vernacular(text):
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.7, "vernacular"))
            continue
        if previous is not None:  # the page's column ended, not the paragraph
            previous.end = line.end
        else:
            reading.pieces.append(Piece("JING", line.start, line.end, "default", 0.5, "undecided"))
        going_on = reading.pieces[-1] if full is not None and line.end - line.start >= full else None
    return reading.sort()


_BLANK_LINE = re.compile(r"\n[ \t\r\u3000]*\n")
#: a text is cut at a fixed width when this share of its content lines (six at least) are as wide as
#: the commonest width and (nearly) none is wider: the last lines of its paragraphs are shorter
WRAPPED_SHARE = 0.5


def wrap_width(raw: str, content: list[Line]) -> Optional[int]:
    """The width a plain text's lines are cut at, where it is hard-wrapped (an OCR'd or printed copy
    keeps its page's columns: 18 characters, 21, …), else None. A paragraph a line (ctext,
    Wikisource) has widths all over the place; a column a line has one width, save each paragraph's
    last line. Punctuation hangs past the column in some prints: one line in twenty may be wider.

    read_plain joins the undecided lines of such a text into their paragraphs (a full line goes on
    into the next): the page's columns are no seams of the text, and the layer model, reading a
    column at a time, put one layer on each (the 鄭注 with its 注 unmarked, cut at 18 characters:
    0.62 of the characters right, against 0.80 read as one paragraph)."""
    widths = Counter(line.end - line.start for line in content)
    count = sum(widths.values())
    if count < 6:
        return None
    full = max(widths, key=lambda w: (widths[w], w))
    wider = sum(n for w, n in widths.items() if w > full)
    if widths[full] < WRAPPED_SHARE * count or 20 * wider > count or full < 8:
        return None
    return full


def _angle_marked(raw: str, line: Line, marks: list[re.Match[str]], reading: Reading) -> None:
    """A line of 〈注〉…〈疏〉…: each mark's layer to the next mark, 今按 (朱熹's remark) OTHER to it; what
    comes before the first mark (a commentary the page carried over from the line before) undecided."""
    start, end = trimmed(raw, line.start, marks[0].start())
    if start < end:
        reading.pieces.append(Piece("JING", start, end, "default", 0.5, "undecided"))
    for i, m in enumerate(marks):
        reading.removed.append(Removal(m.start(), m.end(), "marker"))
        stop = marks[i + 1].start() if i + 1 < len(marks) else line.end
        remark = _JIN_AN.search(raw, m.end(), stop)
        cut = remark.start() if remark is not None else stop
        for layer, s, e, note in ((_ANGLE_LAYER[m.group(1)], m.end(), cut, ""), ("OTHER", cut, stop, "later-scholar")):
            s, e = trimmed(raw, s, e)
            if s < e:
                reading.pieces.append(Piece(layer, s, e, "marker", 1.0, note))
