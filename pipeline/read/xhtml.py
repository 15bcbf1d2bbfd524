"""The XHTML e-book of the 儀禮注疏 (corpus/zhushu-xhtml; layout ``xhtml``).

Each paragraph is one block at the top level of ``<div id="text">``: ``<p class="strong">`` 經,
``<span class="zhushi">`` 注, ``<span class="jianshu">`` 疏 (opened by the marker
``<span class="yinwen">疏</span>``), ``<h1>`` the chapter title. Every tag is a removal, as are the
``<head>`` and the 疏 marker. The e-book's known faults are corrected from the text itself, and
each correction is written in the piece's ``note``:

- a ``zhushi`` right after a ``jianshu`` is not 注: a page header of the printed book
  (``儀禮注疏□注：漢鄭玄…``, ``卷四十　既夕禮第十三``) is OTHER; one in ``<strong>`` is 經; one whose
  next 疏 cites its opening words as the 經 (「祝饌」至「巾之」) is split into 經 and 注;
  otherwise it is 疏 (note ``zhushi-after-jianshu``);
- a ``zhushi`` that opens with the 疏 marker or a 疏 head (``疏　「設洗」至「南肆」``) is 疏;
- a block outside these classes that opens with ``疏`` (an unclassed ``<div>``) is 疏;
- in 喪服 the 子夏傳 (``傳曰…``) is tagged as 經: it stays JING with note ``zixia-zhuan``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from pipeline.layers.markers import XHTML_CLASSES
from pipeline.read.reading import Piece, Reading, trimmed
from pipeline.records import Removal

TAG = re.compile(r"<[^>]*>")
CLASS = re.compile(r'\bclass="([^"]*)"')
_VOID = {"br", "hr", "meta", "link", "img", "input"}

#: the e-book's classes → layer (from the marker table)
BLOCK_LAYERS = XHTML_CLASSES

PAGE_HEADER = re.compile(r"^□?儀禮注疏□?注|^卷[一二三四五六七八九十百]+\s*\S*第[一二三四五六七八九十]+$")
#: the 疏 marker written as text at the start of a block (「疏猶粗也」 is a 注 on the word 疏: not a marker)
SHU_MARKED = re.compile(r"^疏[\s　○「]")
SHU_OPENING = re.compile(r"^(?:「[^」]{1,12}」至「|○?注?釋曰|○注「)")
#: a 疏 head: 「X」至「Y」 or 「X」 alone, at the start of a 疏
SHU_HEAD = re.compile(r"^(?:疏[\s　]*)?「([^」]{1,12})」(?:至「([^」]{1,12})」)?")


def is_xhtml(text: str) -> bool:
    head = text[:3000].lower()
    return "<html" in head or "<?xml" in head or "<body" in head or "<p " in head


#: the e-book's own classes (any other page is read by :mod:`pipeline.read.html`)
_EBOOK_CLASS = re.compile(r'class="(?:strong|zhushi|jianshu)"')


def is_ebook(text: str) -> bool:
    return bool(_EBOOK_CLASS.search(text))


@dataclass
class Block:
    kind: str  # strong / zhushi / jianshu / h1 / div / …
    start: int
    end: int
    texts: list[tuple[int, int]] = field(default_factory=list)  # raw ranges of character data
    markers: list[tuple[int, int]] = field(default_factory=list)  # the yinwen 疏 marker
    strong_inside: bool = False

    def plain(self, raw: str) -> str:
        return "".join(raw[s:e] for s, e in self.texts if (s, e) not in self.markers).strip()


def _blocks(text: str) -> tuple[list[Block], list[Removal]]:
    """Top-level blocks of the text div, and every tag (and the head) as removals."""
    removed: list[Removal] = []
    blocks: list[Block] = []
    body = re.search(r'<div[^>]*\bid="text"[^>]*>', text)
    if body is None:
        body = re.search(r"<body[^>]*>", text)
    base_at = body.end() if body else 0
    if base_at:
        removed.append(Removal(0, base_at, "markup"))
    stack: list[tuple[str, str]] = []  # (tag, class)
    current: Optional[Block] = None
    pos = base_at
    for m in TAG.finditer(text, base_at):
        if m.start() > pos and current is not None:
            current.texts.append((pos, m.start()))
        pos = m.end()
        removed.append(Removal(m.start(), m.end(), "markup"))
        tag_text = m.group()
        if tag_text.startswith(("<!", "<?")):
            continue
        name_m = re.match(r"</?\s*([A-Za-z0-9]+)", tag_text)
        if not name_m:
            continue
        name = name_m.group(1).lower()
        if tag_text.startswith("</"):
            # pop to the matching open tag
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == name:
                    del stack[depth:]
                    break
            if current is not None and not stack:
                current.end = m.start()
                blocks.append(current)
                current = None
            continue
        if name in _VOID or tag_text.endswith("/>"):
            continue
        cls_m = CLASS.search(tag_text)
        cls = cls_m.group(1) if cls_m else ""
        if not stack:
            kind = cls if cls in BLOCK_LAYERS else (name if name == "h1" else (cls or name))
            current = Block(kind, m.end(), m.end())
        elif current is not None:
            if cls == "yinwen":
                current.markers.append((m.end(), text.find("<", m.end())))
            if name == "strong":
                current.strong_inside = True
            if current.kind == "section" and name == "h1":
                current.kind = "h1"
        stack.append((name, cls))
    if current is not None:
        current.end = len(text)
        blocks.append(current)
    return blocks, removed


def _extent(raw: str, block: Block) -> Optional[tuple[int, int]]:
    """The block's content range: from its first to its last non-space character outside tags and markers."""
    ranges = [trimmed(raw, s, e) for s, e in block.texts if (s, e) not in block.markers]
    ranges = [(s, e) for s, e in ranges if e > s]
    if not ranges:
        return None
    return ranges[0][0], ranges[-1][1]


def read_xhtml(text: str, chapter_hint: str = "") -> Reading:
    reading = Reading("xhtml")
    blocks, removed = _blocks(text)
    reading.removed = removed
    sangfu = "喪服" in text[:3000] or chapter_hint == "11"
    previous_kind = ""
    for i, block in enumerate(blocks):
        extent = _extent(text, block)
        for s, e in block.markers:
            if e > s:
                reading.removed.append(Removal(s, e, "marker"))
        if extent is None:
            if block.kind == "zhushi" and previous_kind == "jianshu":
                continue  # an empty header line between a 疏 and the next 經: still after the 疏
            previous_kind = block.kind
            continue
        start, end = extent
        plain = block.plain(text)
        kind = block.kind
        pieces: list[Piece]
        if kind == "strong":
            note = "zixia-zhuan" if sangfu and plain.startswith("傳曰") else ""
            pieces = [Piece("JING", start, end, "marker", 1.0, note)]
        elif kind == "jianshu":
            pieces = [Piece("SHU", start, end, "marker", 1.0)]
        elif kind == "h1" or kind == "section":
            pieces = [Piece("OTHER", start, end, "marker", 1.0, "title")]
        elif kind == "zhushi":
            pieces = _zhushi(text, block, start, end, plain, previous_kind, blocks[i + 1:], reading)
        elif SHU_MARKED.match(plain):
            pieces = [Piece("SHU", start, end, "marker", 0.9, "shu-untagged")]
            _drop_opening_marker(text, start, reading)
            pieces[0].start = _after_marker(text, start)
        else:
            # another page's markup: its paragraphs are text nothing has decided yet
            from pipeline.read.web import is_title

            if kind in ("script", "style", "nav", "footer", "header", "noscript"):
                reading.removed.append(Removal(block.start, block.end, "markup"))
                pieces = []
            elif is_title(plain) or kind in ("h1", "h2", "h3", "h4", "title"):
                pieces = [Piece("OTHER", start, end, "layout", 0.8, "title")]
            else:
                pieces = [Piece("JING", start, end, "default", 0.5, f"unknown-block-{kind}")]
        reading.pieces.extend(p for p in pieces if p.end > p.start)
        if pieces:
            previous_kind = {"JING": "strong", "ZHU": "zhushi", "SHU": "jianshu"}.get(pieces[-1].layer, previous_kind)
    _split_runs_at_blocks(reading)
    _check_with_heads(text, reading)
    return reading.sort()


def _check_with_heads(raw: str, reading: Reading) -> None:
    """Each group of 經/注 paragraphs checked against the head of the 疏 that follows it."""
    from pipeline.layers.anchors import DropIndex, parse_head
    from pipeline.layers.groups import Para, resolve_group, zhu_tagged_jing
    from pipeline.read.reading import clean_text

    index = DropIndex((r.start, r.end) for r in reading.removed)
    out: list[Piece] = []
    group: list[Piece] = []
    for piece in sorted(reading.pieces, key=lambda p: p.start):
        if piece.layer in ("JING", "ZHU"):
            group.append(piece)
            continue
        if piece.layer == "SHU" and group:
            opening = clean_text(raw, piece.start, piece.end, index.near(piece.start, piece.end))[:80]
            head = parse_head(opening)
            paras = [Para(p.start, p.end, p.layer, p.evidence, p.score, p.note) for p in group]
            near = index.near(min(p.start for p in paras), max(p.end for p in paras))
            resolved = zhu_tagged_jing(raw, resolve_group(raw, paras, head, near, relayout=False), head, opening, near)
            for p in resolved:
                corrected = p.note.endswith("-by-anchor") or p.note in ("zhu-merged", "zhu-in-strong")
                out.append(Piece(p.layer, p.start, p.end, p.evidence, p.score, p.note if corrected or p.note else ""))
        else:
            out.extend(group)
        group = []
        out.append(piece)
    out.extend(group)
    reading.pieces = out


def _after_marker(raw: str, start: int) -> int:
    """Past an opening ``疏`` and its spaces."""
    pos = start + 1
    while pos < len(raw) and raw[pos] in " 　\t":
        pos += 1
    return pos


def _drop_opening_marker(raw: str, start: int, reading: Reading) -> None:
    reading.removed.append(Removal(start, _after_marker(raw, start), "marker"))


def _zhushi(raw: str, block: Block, start: int, end: int, plain: str, previous_kind: str,
            following: list[Block], reading: Reading) -> list[Piece]:
    if PAGE_HEADER.search(plain.replace(" ", "")) or not plain:
        return [Piece("OTHER", start, end, "layout", 0.9, "page-header")]
    if block.strong_inside:
        return [Piece("JING", start, end, "layout", 0.9, "strong-in-zhushi")]
    if SHU_MARKED.match(plain):
        _drop_opening_marker(raw, start, reading)
        return [Piece("SHU", _after_marker(raw, start), end, "marker", 1.0, "shu-in-zhushi")]
    if SHU_OPENING.match(plain):
        return [Piece("SHU", start, end, "marker", 0.9, "shu-in-zhushi")]
    if previous_kind != "jianshu":
        return [Piece("ZHU", start, end, "marker", 1.0)]
    # a zhushi after a 疏: the next 疏's head tells whether it opens with 經 words
    nxt = next((b for b in following if b.kind in BLOCK_LAYERS), None)
    if nxt is not None and nxt.kind == "jianshu":
        head = SHU_HEAD.match(nxt.plain(raw))
        if head:
            first, last = head.group(1), head.group(2) or head.group(1)
            split = _jing_end(plain, first, last)
            if split is not None:
                cut = _raw_position(raw, block, split)
                if cut is not None:
                    jing_end = trimmed(raw, start, cut)[1]
                    zhu_start = trimmed(raw, cut, end)[0]
                    return [Piece("JING", start, jing_end, "anchor", 0.9, "jing-in-zhushi"),
                            Piece("ZHU", zhu_start, end, "anchor", 0.9, "jing-in-zhushi")]
    return [Piece("SHU", start, end, "layout", 0.8, "zhushi-after-jianshu")]


_CLOSING = "。，、；：︰！？」』"


def _jing_end(plain: str, first: str, last: str) -> Optional[int]:
    """Index in ``plain`` just after the cited 經 ``first…last`` (and its punctuation), if it opens ``plain``."""
    if not plain.startswith(first):
        return None
    at = plain.find(last, len(first) if last != first else 0)
    if at < 0:
        return None
    cut = at + len(last)
    while cut < len(plain) and plain[cut] in _CLOSING:
        cut += 1
    return cut if cut < len(plain) else None


def _raw_position(raw: str, block: Block, index: int) -> Optional[int]:
    """Raw offset of character ``index`` of the block's stripped plain text."""
    seen = 0
    started = False
    for s, e in block.texts:
        if (s, e) in block.markers:
            continue
        for pos in range(s, e):
            if not started and raw[pos].isspace():
                continue
            started = True
            if seen == index:
                return pos
            seen += 1
    return None


def _split_runs_at_blocks(reading: Reading) -> None:
    """Pieces never overlap: a later piece starts where an earlier one would have run on."""
    reading.pieces.sort(key=lambda p: p.start)
    for a, b in zip(reading.pieces, reading.pieces[1:]):
        if b.start < a.end:
            a.end = b.start
