"""Plain text with the commentary in parentheses (layout ``paren-commentary``): 經（注）經（注）….

How most copies of the 鄭注 outside Kanripo are written: the 經 runs on and each 注 follows it in
parentheses, full-width or not, punctuated or not, hard-wrapped or a passage a line (the 四部叢刊
prints its 注 in small characters, which a plain copy can only bracket). With no Kanripo header or
page mark the Kanripo reader never saw such a text, and the plain reader left every line to the
layer model.

A text is read so when many parenthesised groups (:data:`MIN_GROUPS`, each of three Han characters
or more) hold a good share of its Han text (:data:`MIN_SHARE`), and few of them are an editor's
notes (案…, 按…). Then, line by line after the page furniture: a title line is OTHER, and so is the
colophon after the chapter's closing title (經八百四十四字注二千六百三十一字); a line that opens with
a marker (疏, 【疏】, 鄭目錄云 …) is that marker's layer, parentheses and all; elsewhere what lies
outside parentheses is 經 and what lies inside is 注 (evidence ``layout``; groups side by side are
one 注, as the page cut it into columns), an editor's note (案…) OTHER, a footnote number (1) no
text; a group may run over lines. A chapter title with a note after it (鄉飲酒禮第四(鄉在王城外…)) is
a title, its note read as the others. A later scholar's book written so (吳廷華's 儀禮章句 as Kanripo's
viewers give it) has its notes in the same parentheses: where a title line names the book's author
(…撰) and none names 鄭玄, they are his notes, OTHER (SCHEMA: later scholars), not ZHU. A reading text
of the 鄭注 (張爾岐's 儀禮鄭注句讀) adds its own words after ○ inside a 注's brackets (OTHER from the ○) and
its section labels (右獻工與笙) on a line of their own or after a line's last note (OTHER): only after a
note or before a blank line, for a hard-wrapped line of 經 may open with 右. 楊復's 儀禮圖 quotes the 注疏
in its notes, sound ○ 注 ○ 疏曰…: each part in its layer, and the author rule does not hold for it.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from pipeline.layers.anchors import Head, letters_only, parse_head
from pipeline.layers.features import NON_HAN_RE, is_han
from pipeline.layers.markers import SECTION_LABEL, later_scholar, line_marker
from pipeline.read.reading import Piece, Reading, marker_removals, trimmed, view_piece
from pipeline.read.web import Line, content_lines, is_title, marked_line
from pipeline.records import Removal, RunShape
from pipeline.text.view import TextView

#: a parenthesised group, full-width or not (not nested; it may run over lines)
GROUP = re.compile(r"[(（]([^()（）]*)[)）]")
#: an editor's note, not the commentary
NOTE_OPENING = re.compile(r"^\s*(?:案|按|謹案|谨案|今案)")
#: the edition's own title lines (儀禮卷第十, 覲禮第十　儀禮　鄭氏注)
EDITION_TITLE = re.compile(r"(?:儀禮|仪礼)卷第|(?:鄭|郑)氏注")
#: the title that opens a chapter and closes it (儀禮卷第十)
CLOSING_TITLE = re.compile(r"^(?:儀禮|仪礼)卷第")
#: a title line naming the one who wrote the book (同知吳廷華撰, 宋李如圭撰)
AUTHOR_LINE = re.compile(r"(?:撰|著|纂|輯|辑)$")
#: 鄭玄, named in a title line: the book carries his 注 (儀禮鄭注句讀, 鄭氏注)
ZHENG = re.compile(r"[鄭郑](?:氏|玄|注|註)")
MIN_GROUPS = 5
MIN_SHARE = 0.2
#: groups of fewer Han characters (a footnote number, (音X)) say nothing of the layout
_MIN_HAN = 3


def _han(s: str) -> int:
    return len(NON_HAN_RE.sub("", s))


def is_paren_commentary(text: str) -> bool:
    """Whether ``text`` writes its commentary in parentheses (see the module's docstring)."""
    groups = [m.group(1) for m in GROUP.finditer(text) if _han(m.group(1)) >= _MIN_HAN]
    if len(groups) < MIN_GROUPS:
        return False
    notes = sum(1 for g in groups if NOTE_OPENING.match(g))
    inside = sum(_han(g) for g in groups)
    return notes * 2 < len(groups) and inside >= MIN_SHARE * max(1, _han(text))


#: the other brackets a copy may put its commentary in (【…】, 〔…〕, ［…］), each read as （…）
OTHER_PAIRS = {"【": "】", "〔": "〕", "［": "］"}


def paren_probe(text: str) -> Optional[str]:
    """``text`` with （） where a copy writes its 注 in another pair of brackets (經【注】經【注】),
    same length, so that a reading of it holds for ``text``; None for a text with parenthesised
    groups of its own (not counting a site's lines around it: (快捷键←)), or fewer than
    :data:`MIN_GROUPS` such groups of three Han characters."""
    def groups_of_its_own(t: str) -> bool:
        return any(_han(m.group(1)) >= _MIN_HAN for m in GROUP.finditer(t))

    # the site's lines are blanked only where a group is found at all: most texts have none
    if groups_of_its_own(text) and groups_of_its_own(_without_furniture(text)):
        return None
    best, count = None, 0
    for opening, closing in OTHER_PAIRS.items():
        groups = re.findall(f"{opening}([^{opening}{closing}]*){closing}", text)
        n = sum(1 for g in groups if _han(g) >= _MIN_HAN)
        if n > count:
            best, count = opening, n
    if best is None or count < MIN_GROUPS:
        return None
    return text.translate(str.maketrans({best: "（", OTHER_PAIRS[best]: "）"}))


def _without_furniture(text: str) -> str:
    """``text`` with the lines a site puts around it (navigation, breadcrumb …) blanked, same length."""
    from pipeline.read.furniture import line_furniture, lines

    out = list(text)
    for start, end in lines(text):
        removal, _content = line_furniture(text, start, end)
        if removal is not None and removal.end == end and removal.start == start:
            out[start:end] = " " * (end - start)
    return "".join(out)


def read_paren_commentary(raw: str) -> Reading:
    reading = Reading("paren-commentary")
    body: list[tuple[int, int]] = []  # runs of lines read by their parentheses

    def flush() -> None:
        if body:
            read_groups(raw, body[0][0], body[-1][1], reading)
            body.clear()

    closed = False  # after the chapter's closing title: its colophon (經…字注…字)
    author = zheng = False  # a title line names the book's author; one names 鄭玄
    after_note = True  # the text before this line ended with a note (or there is none): a label may come
    for line in content_lines(raw, reading):
        text = line.text(raw)
        label = _trailing_label(text)
        if label is not None and not (label > 0 or after_note or _blank_line_after(raw, line.end)):
            label = None
        after_note = text.rstrip().endswith((")", "）"))
        if label is not None:  # 右獻工與笙 after a note, or …(注)右立司正: the section's label
            if label > 0:
                body.append((line.start, line.start + label))
            flush()
            reading.pieces.append(Piece("OTHER", line.start + label, line.end, "layout", 0.9, "section-label"))
            after_note = True
            continue
        marker = line_marker(text)
        opening = min((k for k in (text.find("("), text.find("（")) if k >= 0), default=-1)
        if closed:
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "colophon"))
            reading.removed.extend(Removal(line.start + k, line.start + k + 1, "marker")
                                   for k, ch in enumerate(text) if ch in "()（）")
        elif (is_title(text) or EDITION_TITLE.search(text)) and opening < 0:
            flush()
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
            closed = CLOSING_TITLE.match(text) is not None and any(p.layer == "JING" for p in reading.pieces)
            author = author or AUTHOR_LINE.search(text.strip()) is not None
            zheng = zheng or ZHENG.search(text) is not None
        elif opening > 0 and is_title(text[:opening]):  # 鄉飲酒禮第四(鄉在王城外…): the title, then a note on it
            flush()
            cut = line.start + len(text[:opening].rstrip())
            reading.pieces.append(Piece("OTHER", line.start, cut, "layout", 0.9, "title"))
            body.append((line.start + opening, line.end))
        elif later_scholar(text):
            flush()
            reading.pieces.append(Piece("OTHER", line.start, line.end, "marker", 1.0, "later-scholar"))
        elif marker is not None and marker.layer != "ZHU":
            flush()
            marked_line(raw, line, marker, reading)
        else:
            body.append((line.start, line.end))
    flush()
    if author and not zheng and not any(p.note == "circled-shu" for p in reading.pieces):
        # a later scholar's book (吳廷華's 儀禮章句): its bracketed notes are his, not 鄭玄's 注 — unless they
        # quote the 疏 as well (○疏曰: 楊復's 儀禮圖 carries the 注疏 in its notes)
        reading.pieces = [Piece("OTHER", p.start, p.end, p.evidence, p.score, "author's note")
                          if p.layer == "ZHU" and p.evidence == "layout" else p for p in reading.pieces]
    return reading.sort()


def _blank_line_after(raw: str, end: int) -> bool:
    """Whether the line ending at ``end`` is followed by a blank line (or ends the text): a paragraph
    of its own, as 楊復's 儀禮圖 sets its labels (右主人獻介, then blank lines), not a hard-wrapped line."""
    nl = raw.find("\n", end)
    if nl < 0:
        return True
    following = raw.find("\n", nl + 1)
    return not raw[nl + 1:following if following >= 0 else len(raw)].strip()


def _trailing_label(text: str) -> Optional[int]:
    """Where a later scholar's section label (右獻工與笙, :data:`~pipeline.layers.markers.SECTION_LABEL`)
    stands in ``text``: the whole line (0), or its end after the last note (…)右立司正); None if none
    does. The caller takes a whole line only after a note or before a blank line: a line of 經
    hard-wrapped may open with 右 (…左執爵 | 右祭脯醢)."""
    close = max(text.rfind(")"), text.rfind("）"))
    if text.find("(", close + 1) >= 0 or text.find("（", close + 1) >= 0:
        return None
    tail = close + 1
    while tail < len(text) and text[tail] in " \u3000\t":
        tail += 1
    label = text[tail:].rstrip()
    # 右取 opens labels (右取矢告獲如初) and twelve clauses of the dev 經 (右取脯): not after a 注
    return tail if SECTION_LABEL.fullmatch(label) and not label.startswith("右取") else None


def read_groups(raw: str, start: int, end: int, reading: Reading) -> None:
    """經 outside the parentheses of ``raw[start:end]`` and 注 (or an editor's note) inside (lines
    joined: a group may run over lines); also the 經(注) of a web-runon copy that brackets its 注
    (:func:`read_bracketed_runon`)."""
    drops = [(r.start, r.end) for r in reading.removed if start <= r.start and r.end <= end]
    view = TextView.of(raw, start, end, drop=drops, drop_chars=lambda c: c in "\r\n")
    bracketed_pieces(view, reading, "layout", 0.9)


_BRACKET = re.compile(r"[()（）]")


def _groups(text: str) -> Iterator[tuple[int, int]]:
    """(open, close) of each bracketed group of ``text`` at the outer level: brackets inside a group
    are its own (a 注 quoting (…) in it), a group left open runs to the end (close = len(text))."""
    depth = 0
    opened = 0
    for m in _BRACKET.finditer(text):
        if m.group() in "(（":
            if depth == 0:
                opened = m.start()
            depth += 1
        elif depth > 0:  # a closing bracket outside any group is text
            depth -= 1
            if depth == 0:
                yield opened, m.start()
    if depth > 0:
        yield opened, len(text)


#: the sound of a character, as 陸德明's 音義 gives it inside a note (諏子須反, 巳音紀注皆同, 朝立遥反韇徒木反)
SOUNDS = re.compile(r"(?:[\u4e00-\u9fff](?:[\u4e00-\u9fff]{2}反|音[\u4e00-\u9fff])(?:[下注後后][\u4e00-\u9fff]{0,2})?同?)+")
#: a part of a note that quotes the 疏 (○疏曰…), or 鄭目錄 (鄭目錄云…: OTHER, as the markers say)
SHU_PART = re.compile(r"(?:疏|䟽)曰")
MULU_PART = re.compile(r"(?:鄭|郑)目(?:錄|録|录)云")


def _circled_note(view: TextView, start: int, end: int, reading: Reading, evidence: str, score: float,
                  last: Optional[Piece]) -> None:
    """A note whose parts ○ parts (view ``[start, end)``): a part that quotes the 疏 (疏曰…) is 疏, one of
    鄭目錄, a character's sound and a note (今案…) are OTHER, the first other part before any 疏 is the 注
    (it goes on the 注 of the column before, ``last``) and any later one another's words, OTHER:
    張爾岐's after his 注 (儀禮鄭注句讀); 楊復's 儀禮圖 quotes sound ○ 注 ○ 疏曰 ○ 劉敞曰 ○ 今案. The circles
    are removals."""
    vt = view.text
    cuts = [start - 1] + [i for i in range(start, end) if vt[i] == "○"] + [end]
    zhu_seen = shu_seen = False  # the 注 comes before the 疏: after a 疏曰 part, scholars and 今按 follow
    for a, b in zip(cuts, cuts[1:]):
        if a >= start:
            reading.removed.extend(marker_removals(view, a, a + 1))
        part_start = a + 1
        part = vt[part_start:b].strip()
        if not part:
            continue
        shu = SHU_PART.match(vt, part_start, b)
        if shu is not None:
            shu_seen = True
            reading.removed.extend(marker_removals(view, shu.start(), shu.end()))
            piece = view_piece(view, shu.end(), b, "SHU", "marker", 1.0, "circled-shu")
        elif MULU_PART.match(vt, part_start, b):
            piece = view_piece(view, part_start, b, "OTHER", "marker", 1.0, "mulu")
        elif SOUNDS.fullmatch(part):
            piece = view_piece(view, part_start, b, "OTHER", "marker", 1.0, "sound")
        elif NOTE_OPENING.match(part):  # 今案…: the book's author
            piece = view_piece(view, part_start, b, "OTHER", "marker", 1.0, "editor-note")
        elif not zhu_seen and not shu_seen:
            zhu_seen = True
            piece = view_piece(view, part_start, b, "ZHU", evidence, score)
            if piece and last is not None and a < start:  # the 注 of the column before goes on
                last.end = piece.end
                piece = None
        else:
            piece = view_piece(view, part_start, b, "OTHER", "marker", 1.0, "after-circle")
        if piece:
            reading.pieces.append(piece)


def bracketed_pieces(view: TextView, reading: Reading, evidence: str, score: float) -> None:
    """The pieces of a view whose 注 are bracketed (a plain copy, the 四部叢刊 鄭注): 經 outside the
    brackets, 注 inside (groups side by side one 注, as the page cut it into columns), an editor's
    note (案…) OTHER, a group whose parts ○ parts read part by part (:func:`_circled_note`), a group
    without Han (a footnote number) removed; the brackets and the ○ are removals."""
    vt = view.text
    pos = 0
    last: Optional[Piece] = None  # the 注 just read, which a group right after it goes on
    for open_at, close_at in _groups(vt):
        piece = view_piece(view, pos, open_at, "JING", evidence, score)
        if piece:
            reading.pieces.append(piece)
            last = None
        inner = vt[open_at + 1:close_at]
        pos = min(close_at + 1, len(vt))
        if not any(map(is_han, inner)):  # a footnote number, (1): no text
            reading.removed.extend(marker_removals(view, open_at, pos, "footnote"))
            continue
        reading.removed.extend(marker_removals(view, open_at, open_at + 1))
        if close_at < len(vt):
            reading.removed.extend(marker_removals(view, close_at, close_at + 1))
        circle = inner.find("○")
        if NOTE_OPENING.match(inner):
            piece = view_piece(view, open_at + 1, close_at, "OTHER", "marker", 1.0, "editor-note")
            last = None
        elif circle >= 0:  # (…○…): parts of several hands
            _circled_note(view, open_at + 1, close_at, reading, evidence, score, last)
            piece = last = None
        else:
            piece = view_piece(view, open_at + 1, close_at, "ZHU", evidence, score)
            if piece and last is not None:  # (…)(…): a 注 the printed page cut into columns
                last.end = piece.end
                piece = None
            elif piece:
                last = piece
        if piece:
            reading.pieces.append(piece)
    piece = view_piece(view, pos, len(vt), "JING", evidence, score)
    if piece:
        reading.pieces.append(piece)


def read_bracketed_runon(raw: str, lines: list[Line], shu_line: "re.Pattern[str]", reading: Reading) -> None:
    """A web-runon copy that brackets its 注 (:func:`pipeline.read.web.read_web_runon`): 經(注) then
    a ``[疏]`` paragraph, on one line each, a paragraph a line or a sentence a line. Where the
    ``[疏]`` lines hold their 釋曰, a 疏 is its line; where they hold only a head, the 疏 runs on over
    the lines after it up to the next 經, which the next 疏's head names (「X」至「Y」: the last line
    before the next 注 that opens with X); failing that, in a copy that gives each of the 疏's
    paragraphs a line of its own (○釋曰…, ○注「X」至「Y」), the line after the last of them; else the
    splitter finds it (the lines between left to it as 疏 then 經). The rest is 經 and bracketed 注."""
    marks = [k for k, line in enumerate(lines) if shu_line.match(line.text(raw))]
    # a 疏 a line holds its 釋曰; a copy cut a sentence a line leaves the head alone on the [疏] line
    runs_on = 2 * sum(1 for k in marks if re.search("釋曰|释曰", lines[k].text(raw))) < len(marks)
    paragraphs = _shu_paragraph_lines(raw, lines)
    bounds = marks + [len(lines)]
    _classic(raw, lines[: bounds[0]], reading)
    for n, k in enumerate(marks):
        line, block = lines[k], lines[k + 1: bounds[n + 1]]
        m = shu_line.match(line.text(raw))
        reading.removed.append(Removal(line.start, line.start + m.end(), "marker"))
        start = trimmed(raw, line.start + m.end(), line.end)[0]
        nxt = lines[bounds[n + 1]] if bounds[n + 1] < len(lines) else None
        head = None
        if nxt is not None:
            head = parse_head(raw[nxt.start + shu_line.match(nxt.text(raw)).end():nxt.end])
        jing, sure = _jing_line(raw, block, head, last=nxt is None, paragraphs=paragraphs) if runs_on else (0, True)
        end = block[jing - 1].end if jing > 0 and sure else line.end
        if start < end:
            reading.pieces.append(Piece("SHU", start, end, "marker", 1.0))
        if not sure and jing > 0:  # the 疏 runs on into the 經 somewhere here: the splitter decides
            reading.pieces.append(Piece("SHU", block[0].start, block[jing - 1].end, "default", 0.5, "undecided",
                                        RunShape("SHU", "JING", one_switch=True)))
        _classic(raw, block[jing:], reading)


#: a line that opens one of the 疏's paragraphs: ○釋曰…, or a head on the 注 (○注「X」至「Y」)
SHU_PARAGRAPH = re.compile(r"^[ \u3000]*○(?:注?(?:釋曰|释曰)|注[「“])")
_SENTENCE_END = re.compile("[。？！?!]")


def _shu_paragraph_lines(raw: str, lines: list[Line]) -> bool:
    """Whether a copy gives each of the 疏's paragraphs a line (○釋曰 and the sentences after it up
    to the next ○), as the sites that mirror 漢川草廬's 十三經注疏 do, rather than cutting them a
    sentence a line: most of its ○釋曰 lines hold more than one sentence."""
    counts = sorted(len(_SENTENCE_END.findall(line.text(raw))) for line in lines
                    if SHU_PARAGRAPH.match(line.text(raw)) and re.search("釋曰|释曰", line.text(raw)))
    return bool(counts) and counts[len(counts) // 2] >= 2


def _jing_line(raw: str, block: list[Line], head: Optional[Head], last: bool, paragraphs: bool = False) -> tuple[int, bool]:
    """Where the 經 starts among the lines after a 疏's first line, and whether that is known: the
    last line up to its 注 that opens with what the next 疏's head cites (known); else, where the
    疏's paragraphs are a line each (``paragraphs``), the line after the last of them (known); else
    the first line that holds a 注, all the lines before it left to the splitter (not known); after
    the last 疏, nothing."""
    first_zhu = next((j for j, b in enumerate(block) if "(" in b.text(raw) or "（" in b.text(raw)), len(block))
    if head is not None and head.jing:
        found = next((j for j in range(min(first_zhu, len(block) - 1), -1, -1)
                      if letters_only(block[j].text(raw)).startswith(head.jing[0])), None)
        if found is not None:
            return found, True
    if paragraphs:  # no 疏 paragraph after its 經 starts (a ○鄭《目錄》 line may come before its ○釋曰)
        return 1 + max((j for j, b in enumerate(block) if SHU_PARAGRAPH.match(b.text(raw))), default=-1), True
    if last and first_zhu == len(block):
        return len(block), True
    return first_zhu, False


def _classic(raw: str, lines: list[Line], reading: Reading) -> None:
    """經 and its bracketed 注 over ``lines`` (a title line OTHER)."""
    run: list[Line] = []
    for line in [*lines, None]:
        if line is not None and not is_title(line.text(raw)):
            run.append(line)
            continue
        if run:
            read_groups(raw, run[0].start, run[-1].end, reading)
            run = []
        if line is not None:
            reading.pieces.append(Piece("OTHER", line.start, line.end, "layout", 0.9, "title"))
