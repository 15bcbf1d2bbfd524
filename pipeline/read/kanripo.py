"""Kanripo org-mode texts (the 四庫 注疏, the 四部叢刊 鄭注 and 單疏 editions of ../shared/corpus).

The three share their furniture: ``#`` header lines, ``<pb:…>`` page marks, ``¶`` at the end of
each printed line and ``/`` column breaks inside the double-column small print ``(…)``. Each is
reported as a removal; the layers are then read from a view of the text without them (and
without line breaks), so that a marker broken over two printed lines (``音¶\\n義(``) is still seen.

- 四庫 (KR1d0028, layout ``kanripo-siku``): 經 plain; 注 from an inline ``注`` up to the next
  ``音義(``/``疏(``, or up to a ``○`` (which opens a 經 paragraph); ``音義(…)`` is 陸德明 (OTHER);
  ``疏(…)`` is 賈公彥. A 注 followed directly by the next 經 has no end mark: such a run is given
  back whole with ``note="unmarked-end"``, ``evidence="default"`` and the shape 注 → 經 (the
  run-together splitter finds the one seam). The 清 editors' 考證 after ``#+PROPERTY: JUAN 卷N考證`` is editorial matter.
- 四部叢刊 鄭注 (KR1d0026, ``kanripo-zhengzhu``): 經 outside parentheses, 注 inside.
- 單疏本 (KR1d0027, ``kanripo-danshu``): 疏 only, one entry per cited 經 (``X至Y　釋曰…``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Optional

from pipeline.layers.markers import markers
from pipeline.read.furniture import PAGE_LINE, is_site_line, lines
from pipeline.read.parens import OTHER_PAIRS, bracketed_pieces
from pipeline.read.reading import Piece, Reading, marker_removals, trimmed, view_piece
from pipeline.read.web import is_title
from pipeline.read.wrapped import WRAPPED_MARKER, read_wrapped
from pipeline.records import Removal, RunShape
from pipeline.text.view import TextView

#: a 注 run whose end is unmarked: 注, then the next 經, one seam
UNMARKED_END_SHAPE = RunShape("ZHU", "JING", one_switch=True)

EDITION_IDS = {"KR1d0028": "kanripo-siku", "KR1d0026": "kanripo-zhengzhu", "KR1d0027": "kanripo-danshu"}

HEADER_LINE = re.compile(r"^#[^\n]*(?:\n|$)", re.M)
PAGE_MARK = re.compile(r"<pb:[^>]*>")
LINE_END = re.compile(r"¶")
COLUMN_BREAK = re.compile(r"/")
KAOZHENG = re.compile(r"^#\+PROPERTY: JUAN [^\n]*考證", re.M)
#: the 考證's own title line, where a copy has lost the org header lines (Kanripo's web view)
KAOZHENG_TITLE = re.compile(r"^[ \u3000]*儀禮注疏卷[一二三四五六七八九十]+考證", re.M)

ID_LINE = re.compile(r"^#\+PROPERTY: ID (\S+)", re.M)
LINE = re.compile(r"[^\n]*(?:\n|$)")

_NEWLINES = frozenset("\r\n")


def kaozheng_start(text: str) -> Optional[int]:
    """Where the 清 editors' 考證 begins: its ``#+PROPERTY: JUAN 卷N考證`` line, else its title line."""
    m = KAOZHENG.search(text) or KAOZHENG_TITLE.search(text)
    return m.start() if m else None


def is_kanripo(text: str) -> bool:
    head = text[:2000]
    return "mode: mandoku" in head or bool(ID_LINE.search(head)) or ("<pb:" in head and "¶" in head)


#: the 四庫 注疏's bracketed commentaries (疏(…), 音義(…)) and the 單疏本's entries (X至Y　釋曰)
_SIKU_GROUP = re.compile(r"(?:疏|䟽|音義|音义)\(")
_DANSHU_ENTRY = re.compile(r"\S　(?:注\S{1,16}　)?(?:釋|释)曰")
#: the brackets other copies of the 四庫 write its 疏 and 音義 in (a site's 疏【…】, 〔…〕, ［…］, and
#: full-width （…）), each read as Kanripo's ( … )
OTHER_BRACKETS = {**OTHER_PAIRS, "（": "）"}
_SIKU_OTHER_GROUP = re.compile("(?:疏|䟽|音義|音义)([" + "".join(OTHER_BRACKETS) + "])")


def bracket_probe(text: str) -> Optional[str]:
    """``text`` with Kanripo's ( ) where a copy of the 四庫 brackets its 疏 and 音義 otherwise (the
    四庫全書 sites write 疏【釋曰…】, a passage a line), same length, so a reading of it holds for
    ``text``; None for a text that writes Kanripo's brackets, or fewer than three such groups (two
    where a 疏 group opens with 釋曰)."""
    if _SIKU_GROUP.search(text):
        return None
    groups = list(_SIKU_OTHER_GROUP.finditer(text))
    opened = Counter(m.group(1) for m in groups).most_common(1)
    # three groups; or two where a 疏 opens with its 釋曰 (a site's preview of 500 characters holds
    # one passage: its 音義【…】 and 疏【釋曰…】), which no note of another book does
    if not opened or opened[0][1] < (2 if any(text.startswith(("釋曰", "释曰"), m.end()) for m in groups) else 3):
        return None
    opening = opened[0][0]
    return text.translate(str.maketrans({opening: "(", OTHER_BRACKETS[opening]: ")"}))


#: a 單疏本 entry where a copy writes its spaces as ASCII ones (X至Y 釋曰)
_DANSHU_ENTRY_SPACED = re.compile(r"\S (?:注\S{1,16} )?(?:釋|释)曰")


def space_probe(text: str) -> Optional[str]:
    """``text`` with U+3000 for each ASCII space where a copy of the 單疏本 writes the spaces between
    its heads and 釋曰 so (X至Y 釋曰), same length; None for a text that writes Kanripo's, or fewer
    than three such entries. The reader of the 單疏本 finds its entries by those spaces."""
    if len(_DANSHU_ENTRY.findall(text)) >= 3 or len(_DANSHU_ENTRY_SPACED.findall(text)) < 3:
        return None
    return text.replace(" ", "\u3000")


def unmarked_edition(text: str) -> Optional[str]:
    """The Kanripo edition a text is written in when Kanripo's own marks are gone (no header
    lines, page marks or ¶: a copy from Kanripo's web view or another viewer): the 四庫 by its
    bracketed 疏 and 音義 (in Kanripo's brackets or, :func:`bracket_probe`, a site's), the 單疏本 by
    its entries (with Kanripo's spaces or, :func:`space_probe`, ASCII ones); None for any other
    text. (The 鄭注 without its marks is read as any plain text with its 注 in parentheses,
    :mod:`pipeline.read.parens`.)"""
    if len(_SIKU_GROUP.findall(text)) >= 3 or bracket_probe(text) is not None:
        return "kanripo-siku"
    if len(_DANSHU_ENTRY.findall(text)) >= 3 or space_probe(text) is not None:
        return "kanripo-danshu"
    return None


def kanripo_edition(text: str) -> str:
    """``kanripo-siku`` / ``kanripo-zhengzhu`` / ``kanripo-danshu``, from the Kanripo ID or, failing
    that, the markers; ``kanripo-wrapped`` for another work whose commentary opens its lines with
    鄭注 or 註曰 (a later compilation, not one of the three editions)."""
    m = ID_LINE.search(text[:2000])
    if m and m.group(1) in EDITION_IDS:
        return EDITION_IDS[m.group(1)]
    if len(WRAPPED_MARKER.findall(text)) >= 3:
        return "kanripo-wrapped"
    if re.search(r"(?:疏|䟽|音義)\(", text):
        return "kanripo-siku"
    if "　釋曰" in text:
        return "kanripo-danshu"
    return "kanripo-zhengzhu"


def read_kanripo_wrapped(text: str) -> Reading:
    """A Kanripo text of a later compilation (``kanripo-wrapped``), read as the hard-wrapped 四庫 text
    it is (:func:`pipeline.read.wrapped.read_wrapped`) from a copy of the same length with Kanripo's
    marks blanked — a page mark alone on its line made the label Kanripo's view shows ([010-1a]), so
    a block runs on over it — and the marks then removed."""
    removals = furniture(text)
    probe = list(text)
    for r in removals:
        blank = " " * (r.end - r.start)
        m = _PAGE_NUMBER.search(text, r.start, r.end) if r.reason == "page" else None
        if m is not None and (r.start == 0 or text[r.start - 1] == "\n"):
            line_end = text.find("\n", r.end)
            if not text[r.end:len(text) if line_end < 0 else line_end].strip("¶\r "):  # the mark alone on its line
                blank = f"[{m.group(1)}]".ljust(r.end - r.start)[: r.end - r.start]
        probe[r.start:r.end] = blank
    reading = read_wrapped("".join(probe))
    reading.layout = "kanripo-wrapped"
    reading.removed = [r for r in reading.removed if r.reason != "page"] + removals
    return reading.sort()


#: the juan and page of a Kanripo page mark (<pb:KR1d0049_WYG_010-1a>: 010-1a)
_PAGE_NUMBER = re.compile(r"_(\d{3}-\d+[ab])>")


def furniture(text: str, start: int = 0, end: Optional[int] = None) -> list[Removal]:
    """Header lines, page marks (or a viewer's page labels), line-end marks and column breaks in ``[start, end)``."""
    end = len(text) if end is None else end
    out: list[Removal] = []
    for pattern, reason in ((HEADER_LINE, "header"), (PAGE_MARK, "page"), (PAGE_LINE, "page"), (LINE_END, "line-end"),
                            (COLUMN_BREAK, "column-break")):
        for m in pattern.finditer(text, start, end):
            if m.end() > m.start():
                out.append(Removal(m.start(), m.end(), reason))
    # a copy of the edition from a site (read here by its marks, pipeline.read.layout): the site's lines
    # (Wikisource's page title and proofreading status, a reader's navigation …); Kanripo's own files
    # have none, and are not scanned for them (it was most of this function's time on the corpus)
    if not is_kanripo(text):
        for s, e in lines(text):
            if start <= s and e <= end and is_site_line(text[s:e]):
                out.append(Removal(s, e, "site"))
    out.sort(key=lambda r: r.start)
    # a header line swallows the page marks etc. inside it
    kept: list[Removal] = []
    for r in out:
        if kept and r.start < kept[-1].end:
            continue
        kept.append(r)
    return kept


def _lines(text: str, start: int, end: int):
    """(line start, line end without the newline, content without ¶/page marks) for each line in
    range; a viewer's page label (卷一 第 1a 页 …) has no content."""
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        stop = end if nl < 0 else nl
        content = PAGE_MARK.sub("", text[pos:stop]).replace("¶", "").rstrip("\r")
        yield pos, stop, "" if PAGE_LINE.match(content) else content
        pos = stop + 1


def _body_view(text: str, start: int, end: int, removed: list[Removal], skip: list[tuple[int, int]]) -> TextView:
    drops = [(r.start, r.end) for r in removed] + skip
    return TextView.of(text, start, end, drop=drops, drop_chars=lambda c: c in _NEWLINES)


def _line_piece(text: str, s: int, e: int, layer: str, note: str) -> Optional[Piece]:
    """A piece for one raw line, its page marks, ¶ and spaces cut off at the ends."""
    while True:
        s, e = trimmed(text, s, e)
        m = PAGE_MARK.match(text, s, e)
        if m:
            s = m.end()
        elif e > s and text[e - 1] == "¶":
            e -= 1
        else:
            break
    if s >= e:
        return None
    return Piece(layer, s, e, "layout", 0.9, note)


# --- 四庫全書 儀禮注疏 -------------------------------------------------------------------------

#: markers before a parenthesised group (疏( 䟽( 音義(), from the marker table; 注( is read as 注 or 疏 by its text
PAREN_MARKERS = {m.text: m for m in markers("paren")}
_INLINE_ZHU = next(m.text for m in markers("inline") if m.layer == "ZHU" and not m.regex)
_SIKU_TOKEN = re.compile(
    r"\[[^\]\n]*\]|(?:" + "|".join(map(re.escape, sorted([*PAREN_MARKERS, _INLINE_ZHU], key=len, reverse=True)))
    + r")?\(|○|" + re.escape(_INLINE_ZHU)
)
_SHU_OPENING = ("釋曰", "注釋曰")
#: the 四庫's line of its commentators (漢鄭氏注　唐陸德明音義　賈公彦疏), a title line as 欽定四庫全書,
#: 儀禮注疏卷N and 鄉射禮第五 are (:func:`pipeline.read.web.is_title`): Kanripo indents them with a
#: full-width space, and a site copy (a passage a line, every line indented alike) does not
SIKU_AUTHORS = re.compile(r"[漢汉][鄭郑](?:氏|玄|元)注[^()]*$")  # 鄭元: the 四庫 avoids 玄, 康熙's name


def read_siku(text: str) -> Reading:
    reading = Reading("kanripo-siku")
    start = kaozheng_start(text)
    body_end = start if start is not None else len(text)
    reading.removed = furniture(text)
    if start is not None:
        reading.pieces.extend(_kaozheng_pieces(text, start))
        reading.apart.append((start, len(text), "kaozheng"))
        reading.removed.extend(Removal(i, i + 1, "marker") for i in range(start, len(text)) if text[i] in "()")

    body_start = 0
    titles: list[tuple[int, int]] = []
    for s, e, content in _lines(text, 0, body_end):
        if text.startswith("#", s):
            continue
        if content.startswith("　") or is_title(content) or SIKU_AUTHORS.match(content.strip()):
            titles.append((s, e))
            piece = _line_piece(text, s, e, "OTHER", "title")
            if piece:
                reading.pieces.append(piece)
    view = _body_view(text, body_start, body_end, [r for r in reading.removed if r.end <= body_end], titles)
    _parse_siku_view(view, reading)
    return reading.sort()


def _parse_siku_view(view: TextView, reading: Reading) -> None:
    vt = view.text
    n = len(vt)
    layer = "JING"
    run_start: Optional[int] = None
    run_evidence = ("layout", 0.9)
    last_group: Optional[Piece] = None  # the paren group just closed, if nothing but furniture followed

    def close(at: int, note: str = "") -> None:
        nonlocal run_start
        if run_start is None:
            return
        evidence, score = run_evidence
        if note == "unmarked-end":
            evidence, score = "default", 0.5
        piece = view_piece(view, run_start, at, layer, evidence, score, note)
        if piece:
            if note == "unmarked-end":  # the next 注 has its marker: between them only the 經 resumes
                piece.shape = UNMARKED_END_SHAPE
            reading.pieces.append(piece)
        run_start = None

    def open_run(at: int) -> None:
        nonlocal run_start, last_group
        if run_start is None:
            run_start = at
        last_group = None

    pos = 0
    while pos < n:
        m = _SIKU_TOKEN.search(vt, pos)
        stop = m.start() if m else n
        if stop > pos and vt[pos:stop].strip():
            open_run(pos)
        if not m:
            break
        tok = m.group()
        if tok.startswith("["):  # a composed character [孑*(焉-正+?)]: text
            open_run(m.start())
            pos = m.end()
        elif tok == "○":
            close(m.start())
            reading.removed.extend(marker_removals(view, m.start(), m.end(), "separator"))
            layer, run_evidence = "JING", ("marker", 0.95)
            last_group = None
            pos = m.end()
        elif tok == _INLINE_ZHU:
            close(m.start(), "unmarked-end" if layer == "ZHU" else "")
            reading.removed.extend(marker_removals(view, m.start(), m.end()))
            layer, run_evidence = "ZHU", ("marker", 1.0)
            last_group = None
            pos = m.end()
        else:  # a parenthesised group, with its marker if any
            marker = tok[:-1]
            close_at = vt.find(")", m.end())
            if close_at < 0:
                close_at = n
            content = vt[m.end():close_at].replace(" ", "")
            if marker in PAREN_MARKERS:
                group_layer, note = PAREN_MARKERS[marker].layer, PAREN_MARKERS[marker].note
            elif marker == _INLINE_ZHU:
                group_layer, note = ("SHU", "shu-marked-zhu") if content.startswith(_SHU_OPENING) else ("ZHU", "")
            elif last_group is not None:
                group_layer, note = last_group.layer, "continued"
            else:
                group_layer, note = "OTHER", "inline-note"
            # a 注( group that is the 疏 on the 注 (釋曰…) closes the 注 itself: no 經 in between
            close(m.start(), "unmarked-end" if layer == "ZHU" and marker == _INLINE_ZHU and group_layer != "SHU" else "")
            reading.removed.extend(marker_removals(view, m.start(), m.end()))
            if close_at < n:
                reading.removed.extend(marker_removals(view, close_at, close_at + 1))
            evidence = "layout" if note == "inline-note" else "marker"
            piece = view_piece(view, m.end(), close_at, group_layer, evidence, 1.0 if evidence == "marker" else 0.8, note)
            if piece is not None:
                if note == "continued" and last_group is not None:
                    last_group.end = piece.end
                    piece = last_group
                else:
                    reading.pieces.append(piece)
                last_group = piece
            if note != "inline-note":
                layer, run_evidence = "JING", ("layout", 0.9)
            pos = close_at + 1
    close(n)


def _kaozheng_pieces(text: str, start: int) -> list[Piece]:
    """The 考證: one OTHER piece per entry (an entry's continuation lines are indented with 　)."""
    pieces: list[Piece] = []
    current: Optional[Piece] = None
    for s, e, content in _lines(text, start, len(text)):
        if text.startswith("#", s) or not content.strip():
            continue
        piece = _line_piece(text, s, e, "OTHER", "kaozheng")
        if piece is None:
            continue
        piece.evidence, piece.score = "marker", 1.0
        if content.startswith("　") and current is not None and not content.strip().startswith("儀禮注疏"):
            current.end = piece.end
        else:
            current = piece
            pieces.append(piece)
    return pieces


# --- 四部叢刊 儀禮 鄭氏注 --------------------------------------------------------------------------

_ZHENGZHU_TITLE = re.compile(r"儀禮卷第|鄭氏注")


def read_zhengzhu(text: str) -> Reading:
    reading = Reading("kanripo-zhengzhu")
    reading.removed = furniture(text)
    titles: list[tuple[int, int]] = []
    body_end = len(text)
    seen_content = False
    for s, e, content in _lines(text, 0, len(text)):
        if text.startswith("#", s) or not content.strip():
            continue
        if _ZHENGZHU_TITLE.search(content) and "(" not in content:
            titles.append((s, e))
            piece = _line_piece(text, s, e, "OTHER", "title")
            if piece:
                reading.pieces.append(piece)
            if seen_content and content.strip().startswith("儀禮卷第"):
                body_end = e  # the closing title: what follows is the colophon (word counts)
                _colophon(text, e, reading)
                break
        else:
            seen_content = True
    view = _body_view(text, 0, body_end, [r for r in reading.removed if r.end <= body_end], titles)
    bracketed_pieces(view, reading, "marker", 1.0)  # 經 outside the brackets, 注 inside
    return reading.sort()


def _colophon(text: str, start: int, reading: Reading) -> None:
    view = _body_view(text, start, len(text), [r for r in reading.removed if r.start >= start], [])
    piece = view_piece(view, 0, len(view.text), "OTHER", "layout", 0.9, "colophon")
    if piece:
        reading.pieces.append(piece)
        reading.removed.extend(
            Removal(view.starts[i], view.ends[i], "marker") for i, ch in enumerate(view.text) if ch in "()"
        )


# --- 單疏本 儀禮疏 ----------------------------------------------------------------------------------

_DANSHU_JUAN_TITLE = re.compile(r"^(?:儀禮|仪礼)䟽卷第")
_CHAPTER_TITLE = re.compile(r"([^　\s]{1,8}第[一二三四五六七八九十]{1,3})　案?鄭目[録錄]")
_HEAD_MAX = 14


def read_danshu(text: str) -> Reading:
    reading = Reading("kanripo-danshu")
    reading.removed = furniture(text)
    titles: list[tuple[int, int]] = []
    body_end = len(text)
    seen_content = False
    for s, e, content in _lines(text, 0, len(text)):
        if text.startswith("#", s) or not content.strip():
            continue
        if _DANSHU_JUAN_TITLE.match(content) or content.startswith("　　　"):
            if seen_content and _DANSHU_JUAN_TITLE.match(content):
                body_end = s
                _colophon(text, s, reading)
                break
            titles.append((s, e))
            piece = _line_piece(text, s, e, "OTHER", "title")
            if piece:
                reading.pieces.append(piece)
        else:
            seen_content = True
    view = _body_view(text, 0, body_end, [r for r in reading.removed if r.end <= body_end], titles)
    vt = view.text
    starts = {0}
    guessed: set[int] = set()
    for m in _CHAPTER_TITLE.finditer(vt):
        piece = view_piece(view, m.start(1), m.end(1), "OTHER", "layout", 0.9, "title")
        if piece:
            reading.pieces.append(piece)
        starts.add(m.end(1))
    for m in re.finditer("　釋曰", vt):
        head, sure = _danshu_head_start(vt, m.start())
        starts.add(head)
        if not sure:
            guessed.add(head)
    titled = {m.start(1): m.end(1) for m in _CHAPTER_TITLE.finditer(vt)}
    bounds = sorted(starts) + [len(vt)]
    for a, b in zip(bounds, bounds[1:]):
        a = titled.get(a, a)
        if a >= b:
            continue
        piece = view_piece(view, a, b, "SHU", "marker", 1.0, "head-guessed" if a in guessed else "")
        if piece:
            reading.pieces.append(piece)
    return reading.sort()


def _danshu_head_start(vt: str, space: int) -> tuple[int, bool]:
    """Where the entry whose ``　釋曰`` is at ``space`` starts: its cited 經 head (and 注 head)."""
    k = vt.rfind("　", 0, space)
    seg = vt[k + 1:space]
    start = k + 1
    if seg.startswith(("注", "汪")) and k > 0 and len(seg) <= _HEAD_MAX:
        k0 = vt.rfind("　", 0, k)
        before = vt[k0 + 1:k]
        if len(before) <= _HEAD_MAX and "釋曰" not in before:
            return k0 + 1, True
        return _guess_head(vt, k0 + 1, k) or (start, False)
    if len(seg) <= _HEAD_MAX:
        return start, True
    guess = _guess_head(vt, start, space)
    return guess if guess else (start, False)


def _guess_head(vt: str, start: int, end: int) -> Optional[tuple[int, bool]]:
    """A head run on after the previous entry's text: ``XX至Y…`` (two characters before 至), or ``注…``."""
    tail_from = max(start, end - _HEAD_MAX)
    z = vt.find("至", tail_from, end)
    zhu = vt.find("注", tail_from, end)
    if zhu >= 0 and (z < 0 or zhu < z):
        z2 = vt.rfind("至", tail_from, zhu)
        if z2 >= 0:
            return max(start, z2 - 2), False
        return zhu, False
    if z >= 0:
        return max(start, z - 2), False
    return None

