"""Hard-wrapped Siku texts (seeds 001 儀禮集釋, 002 儀禮述註; layout ``siku-wrapped``).

Lines are cut at a fixed width, as on the printed page: the 經 at one width (21 characters),
the commentary, which opens with its marker (鄭注, 註曰), at one less (20). So a block goes on
to the next line while its line is full, and a shorter line ends it; the next line opens a new
block: a marked commentary, or 經. Inside a commentary block, ○疏曰 opens the 疏 and ○張子曰 /
○楊氏曰 a later scholar (OTHER); an editor's note (案…) in parentheses is OTHER wherever it is,
and may run over two lines as ``(…)`` ``(…)``. The widths are measured on the file itself.

The same texts come in other forms: with the commentary set a space lower than the 經 (Kanripo's
view of 儀禮集編: ` 註曰…`), where a lowered line goes on with the commentary before it; with
Kanripo's page labels (``[010-1b]``), which fall anywhere and end no block; a paragraph a line (a
site's copy: one line in twenty or more wider than a page's column), where no line goes on from the
one before. A line that opens with 釋曰 (the compiler's explanation, 儀禮集釋) opens a 疏 block. Where
the commentary is set lower, the compiler's own note set lower still (世佐案…) and his section label
(右旅酬) are OTHER, not 經.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Optional

from pipeline.layers.markers import CITES_ZHENG, COMPILER_NOTE, SECTION_LABEL, Marker, inline_regex, line_marker, marker_span
from pipeline.read.furniture import line_furniture, lines
from pipeline.read.reading import Piece, Reading, marker_removals, trimmed, view_piece
from pipeline.read.web import is_title
from pipeline.records import Removal
from pipeline.text.view import TextView

#: a line a commentary opens with its marker, set lower or not (鄭注…, 　註曰…, after a Kanripo page
#: mark): the hard-wrapped compilations' (儀禮集釋, 儀禮述註, 儀禮集編), as text or as Kanripo org text;
#: not a line that cites him (:data:`~pipeline.layers.markers.ZHENG_CITED`: 鄭注云…)
WRAPPED_MARKER = re.compile(rf"^[ \u3000]*(?:<pb:[^>]*>)?(?:(?:鄭注|郑注)(?!{CITES_ZHENG})|註曰|注曰)", re.M)
NOTE = re.compile(r"\([^()\n]*\)?|\（[^（）\n]*\）?")
ENTITY = re.compile(r"&[A-Za-z0-9]+;")


def width(line: str, notes_half: bool = False) -> float:
    """Printed width of a line: an entity is one character, a small-print note half its length, rounded up (or nothing)."""
    line = ENTITY.sub("字", line)
    w = 0.0
    pos = 0
    for m in NOTE.finditer(line):
        w += len(line[pos:m.start()])
        if notes_half:  # small print in two columns: half the characters, rounded up
            w += -(-(len(m.group()) - 2) // 2)
        pos = m.end()
    w += len(line[pos:])
    return w


@dataclass
class Block:
    layer: str
    start: int  # content start (after a removed marker)
    end: int
    evidence: str
    score: float
    note: str = ""
    widest: float = 0.0  # the widest line so far


def measure_widths(raw: str) -> tuple[int, int]:
    """(經 width, commentary width): the commonest full lengths of unmarked and marked lines."""
    marked: Counter = Counter()
    plain: Counter = Counter()
    for s, e in lines(raw):
        text = raw[s:e].strip()
        if not text or "(" in text:
            continue
        w = int(width(text))
        (marked if line_marker(text) is not None else plain)[w] += 1
    zhu = marked.most_common(1)[0][0] if marked else 20
    longer = {w: c for w, c in plain.items() if w >= zhu}
    jing = max(longer, key=longer.get) if longer else zhu + 1
    if jing == zhu:  # the commentary's continuation lines are unmarked too: the 經 is the next width up
        wider = {w: c for w, c in plain.items() if w > zhu}
        jing = max(wider, key=wider.get) if wider else zhu + 1
    return jing, zhu


def read_wrapped(raw: str) -> Reading:
    reading = Reading("siku-wrapped")
    jing_width, zhu_width = measure_widths(raw)
    blocks: list[Block] = []
    current: Optional[Block] = None
    last_width = 0.0
    kept: list[tuple[int, int]] = []  # content lines (start, end)
    indents: list[bool] = []  # whether each line is set lower (its content starts after spaces)
    for s, e in lines(raw):
        removal, content_start = line_furniture(raw, s, e)
        indents.append(raw[s:s + 1] in (" ", "\u3000"))
        if removal is not None:
            reading.removed.append(removal)
            kept.append((-2, -2) if removal.reason == "page" else (-1, -1))
            continue
        kept.append(trimmed(raw, content_start, e))
    # each content line's own marker and printed width, read once
    marks = [line_marker(raw[cs:ce]) if cs < ce else None for cs, ce in kept]
    widths = [width(raw[cs:ce], notes_half=True) if cs < ce else 0.0 for cs, ce in kept]
    lowered = _commentary_set_lower(marks, indents)
    annotated: dict[int, bool] = {}  # line → whether it opens a paragraph a 注 follows (read once)
    wrapped = _hard_wrapped([w for (cs, ce), w in zip(kept, widths) if cs < ce])
    for i, (cs, ce) in enumerate(kept):
        if cs == -2:  # a page label (Kanripo's [010-1b]) falls where the page ends, inside a block or not
            continue
        if cs >= ce:
            current = None
            continue
        text = raw[cs:ce]
        marker = marks[i] or (EXPLANATION if text.startswith(("釋曰", "释曰")) else None)
        continues = False
        if current is not None and marker is None:
            if text.startswith(("(", "（")):
                continues = True
            elif not wrapped:  # a paragraph a line: every line is a block
                continues = False
            elif current.layer == "JING" or current.note == "title":
                continues = last_width >= jing_width
            else:
                # a commentary goes on after a full line, unless this line is followed by another
                # commentary (a 注 always follows a 經: then this line is that 經). A preface
                # (鄭目錄) is set in its own measure: full is as wide as its widest line, less one.
                full = zhu_width if current.layer != "OTHER" else current.widest - 1
                # where the commentary is set lower than the 經 (Kanripo shows it a space in), a
                # lowered line goes on with it — a 注 may be followed by a 疏, not only by a 經
                followed = indents[i] if lowered else not _next_opens_zhu(kept, marks, i)
                # a line wider than the commentary's column that opens a paragraph a 注 follows is
                # the 經, after a commentary whose last line happened to be full (儀禮集釋: …賓一重席 |
                # 乃薦脯醢…); a 疏's line may be one wider too, but a 注 does not follow its paragraph
                opens = not lowered and widths[i] > zhu_width and _opens_annotated(kept, marks, widths, i, jing_width, annotated)
                continues = last_width >= full and followed and not opens
        if continues and current is not None:
            current.end = ce
        elif marker is not None:
            start = cs
            if not marker.keep:
                words_end = cs + marker_span(text, marker)[1]
                reading.removed.append(Removal(cs, words_end, "marker"))
                start = words_end
            current = Block(marker.layer, start, ce, "marker", 1.0)
            blocks.append(current)
        elif is_title(text):
            blocks.append(Block("OTHER", cs, ce, "layout", 0.9, "title"))
            current = None
        elif lowered and indents[i] and SECTION_LABEL.fullmatch(text):
            blocks.append(Block("OTHER", cs, ce, "layout", 0.9, "section"))
            current = None
        elif lowered and indents[i] and COMPILER_NOTE.match(text):
            current = Block("OTHER", cs, ce, "layout", 0.9, "compiler's note")
            blocks.append(current)
        else:
            current = Block("JING", cs, ce, "layout", 0.85)
            blocks.append(current)
        last_width = widths[i]
        if current is not None:
            current.widest = max(current.widest, last_width)
    # the removals so far (furniture, markers), by start: each block takes those inside it
    found = sorted((r.start, r.end) for r in reading.removed)
    starts = [s for s, _e in found]
    for block in blocks:
        inside = found[bisect_left(starts, block.start):bisect_right(starts, block.end)]
        _inline(raw, block, reading, [(s, e) for s, e in inside if e <= block.end])
    return reading.sort()


#: where the commentary is set lower, a lowered line that no commentary goes on into and that opens
#: with a note (markers.COMPILER_NOTE: 世佐案, 愚案, 案, 按, the compiler's own word, set lower still in
#: 儀禮集編) is his note, OTHER, not 經; and a lowered line 右X (右旅酬: "the above is the 旅酬",
#: markers.SECTION_LABEL) is his section label

#: an explanation opening a line (釋曰…): the compiler's, after 賈公彥's manner (儀禮集釋), as the 疏
EXPLANATION = Marker("釋曰", "SHU", "line", keep=True, note="explanation")


#: wider than any column of a printed page (the 四庫's hold 21 or 22 characters)
PARAGRAPH_WIDTH = 30


def _hard_wrapped(widths: list[float]) -> bool:
    """Whether the lines are cut at a page's width (seeds 001 and 002: none wider than 21), not a
    paragraph a line as a site gives the same text (儀禮集釋 on 中華文庫: every long paragraph wider
    than any page's column): then no line goes on from the one before. One line in twenty wider
    than a column is no page's. ``widths``: the content lines' printed widths."""
    return 20 * sum(w > PARAGRAPH_WIDTH for w in widths) < len(widths)


def _commentary_set_lower(marks: list[Optional[Marker]], indents: list[bool]) -> bool:
    """Whether the text sets its commentary a step lower than its 經 (低一格, as Kanripo's view of
    the 四庫's 儀禮集編 shows it: `` 註曰…``): most marked lines indented, and three at least."""
    marked = [indent for mark, indent in zip(marks, indents) if mark is not None]
    return sum(marked) >= 3 and 2 * sum(marked) > len(marked)


def _next_line(kept: list[tuple[int, int]], i: int) -> int:
    """The next content line after line ``i`` (-1 if none): blank lines and furniture are skipped."""
    return next((j for j in range(i + 1, len(kept)) if kept[j][0] < kept[j][1]), -1)


def _next_opens_zhu(kept: list[tuple[int, int]], marks: list[Optional[Marker]], i: int) -> bool:
    """Whether the next content line opens a 注 (鄭注, 註曰): a 注 follows its 經, so the line before it
    is that 經. Not a 疏 (疏曰) or a later scholar: they follow the 注 itself, whose last line this may be."""
    j = _next_line(kept, i)
    return j >= 0 and marks[j] is not None and marks[j].layer == "ZHU"


def _opens_annotated(kept: list[tuple[int, int]], marks: list[Optional[Marker]], widths: list[float], i: int,
                     jing_width: int, known: dict[int, bool]) -> bool:
    """Whether line ``i`` opens an unmarked paragraph (its lines go on while full at the 經's width)
    that a 注 (鄭注, 註曰) follows: the shape of a 經 and its 注. ``known``: the answer for every line
    walked so far (each line of the paragraph has its last line's), so that a long run of wide
    lines is walked once, not once per line."""
    walked = []
    j, answer = i, False
    while j >= 0 and j not in known:
        walked.append(j)
        if marks[j] is not None:  # a marked line: no paragraph of the 經 runs into it
            break
        if widths[j] < jing_width:  # the paragraph's last line
            answer = _next_opens_zhu(kept, marks, j)
            break
        j = _next_line(kept, j)
    else:
        answer = known.get(j, False)
    known.update(dict.fromkeys(walked, answer))
    return known[i]


_INLINE, _INLINE_MARKERS = inline_regex(circled=True)
_LINE_BREAK = re.compile("[ \u3000]*\n[ \u3000]*")
#: 鄭注 or 注曰 inside a 經 line: the 注 written on after its 經 (儀禮集釋 as Wikisource's 四庫全書本 gives it:
#: 主婦…拜送爵鄭注主婦拜拜於北面也; 儀禮述註 on a reading site: …大夫之觶長受注曰長衆賓長); the 經 never
#: names 鄭玄 nor writes 注曰, and a 疏's 鄭注云 is no marker
_TOKEN = re.compile(rf"(?P<note>[(（][^()（）]*[)）])|(?P<marker>{_INLINE.pattern})|(?P<circle>○)"
                    r"|(?P<zheng>鄭注|郑注|注曰|註曰)")


def _inline(raw: str, block: Block, reading: Reading, drops: list[tuple[int, int]]) -> None:
    """Split a block at its notes (案…), ○疏曰, ○張子曰 and bare ○; ``drops``: the removals inside it."""
    # a line set lower (its commentary's continuation) starts with spaces, and a Kanripo line's end
    # mark (blanked) leaves one before the break: neither is inside a 疏曰 split over two lines
    drops += [(m.start(), m.end()) for m in _LINE_BREAK.finditer(raw, block.start, block.end)]
    view = TextView.of(raw, block.start, block.end, drop=sorted(drops), drop_chars=lambda c: c in "\r\n")
    vt = view.text
    layer, evidence, score, note = block.layer, block.evidence, block.score, block.note
    run_start = 0
    last_note: Optional[Piece] = None  # the editor's note just closed, which an adjacent one extends
    last_note_end = 0

    def close(at: int) -> None:
        piece = view_piece(view, run_start, at, layer, evidence, score, note)
        if piece is not None:
            reading.pieces.append(piece)

    for m in _TOKEN.finditer(vt):
        if m.group("zheng") is not None:
            if layer == "JING":
                close(m.start())
                reading.removed.extend(marker_removals(view, m.start(), m.end()))
                run_start = m.end()
                last_note = None
                layer, evidence, score, note = "ZHU", "marker", 1.0, ""
            continue
        if m.group("note") is not None:
            close(m.start())
            reading.removed.extend(marker_removals(view, m.start(), m.start() + 1))
            reading.removed.extend(marker_removals(view, m.end() - 1, m.end()))
            piece = view_piece(view, m.start() + 1, m.end() - 1, "OTHER", "marker", 1.0, "editor-note")
            if piece is not None:
                if last_note is not None and vt[last_note_end:m.start()].strip() == "":
                    last_note.end = piece.end
                else:
                    reading.pieces.append(piece)
                    last_note = piece
            last_note_end = m.end()
            run_start = m.end()
            continue
        if m.group("circle") is not None:
            close(m.start())
            reading.removed.extend(marker_removals(view, m.start(), m.end(), "separator"))
            run_start = m.end()
            last_note = None
            continue
        marker_text = m.group("marker")
        found = next((mk for mk in _INLINE_MARKERS if re.fullmatch(mk.text if mk.regex else re.escape(mk.text), marker_text)), None)
        close(m.start())
        last_note = None
        if found is None:
            run_start = m.start()
            continue
        if found.keep:
            reading.removed.extend(marker_removals(view, m.start(), m.start() + 1, "separator"))  # the ○
            run_start = m.start() + 1
        else:
            reading.removed.extend(marker_removals(view, m.start(), m.end()))
            run_start = m.end()
        layer, evidence, score, note = found.layer, "marker", 1.0, found.note
    close(len(vt))
