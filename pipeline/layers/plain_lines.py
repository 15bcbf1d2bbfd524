"""What a plain text's lines hold, where nothing marks its 注: a 經 and its 注 each (and its 疏), or one unit each.

Where a plain text lost what set its 注 apart (the small print of ctext's page, the brackets of a
copy), its lines are read by the layer model with nothing known of them, and its run-together
splitter looks for seams in each. Three ways of writing are common, and the document shows which:

- **A line per 經 and its 注** (in the 四部叢刊 鄭注 every one of the 2,120 經 is followed by its 注):
  the splitter misses many of those seams; told that a line opens with its 經 and switches once to
  注 (the shape a 四庫 run or seed 004's line is read within), it finds them far better. Where the
  free decoding reads at least ``MIN_SHARE`` of the undecided lines as 經 then 注, every line it found
  no 疏 in is decoded again within that shape (a line with a 疏 keeps its reading).
- **A unit a line** (a 經 line, a 注 line, …): the splitter finds seams that are not there in a
  quarter to two fifths of the unpunctuated lines, and the line is the unit: read whole, with its
  neighbours as context (the classifier's smoothing over the lines), the dev chapters' units are
  read almost without a fault. Where the document is not read as pairs and the free decoding cuts
  fewer than ``MAX_CUT`` of its lines, the lines are read whole.

- **A line per 經, its 注 and its 疏** (a 注疏 page copied a paragraph per 經, the small print lost):
  the 疏 opens on a head only it writes (「X」至「Y」 citing the 經 or 注, 釋曰) and runs to the line's
  end; before it the 經 and its 注. The free decoding reads much of such a 疏 as 注 or 經 (it quotes
  both). Where it reads at least ``MIN_SHARE`` of the undecided lines (``MIN_LINES`` at least) as
  holding a 疏 whose head opens a sentence after the line's first (a line that opens as 疏 aside), each such
  line is read so: 疏 from that head to the line's end (evidence ``layout``), and the text before
  it 經 up to the end of the 經 the head cites (「X」至「Y」: X opening the line; of several Ys ending a
  sentence, the one the free decoding agrees with) and 注 after it (evidence ``anchor``), or, where
  the head cites no such 經 or one phrase of it only (「X」), decoded in the pair shape.

Measured on the dev chapters written so (fold models; `bench/unmarked_copy.py`): the lines read as
經 then 注 are 34–58% of a chapter's unpunctuated lines and 38–76% of its punctuated ones, a unit a
line (經 lines and 注 lines) 10–22% and 1–3%; decoded within the shape, a line per 經 and its 注 goes
from 0.828 to 0.910 of its characters right unpunctuated, 0.894 to 0.966 punctuated (a line per 經,
its 注 and any 疏 after them, read as before, 0.895, its lines with a 疏 kept from the shape). The free
decoding cuts 25–42% of the lines of a unit a line unpunctuated, 6–27% punctuated (with the 疏 too),
and 47–99% of a line per 經 and its 注 (and its 疏); read whole, a unit a line goes from 0.847 to
0.9995 unpunctuated, 0.938 to 0.996 punctuated. A line per 經, its 注 and its 疏 (punctuated), its 疏
read from its head: 0.895 to 0.983, and with the 經 its head cites, 0.993.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace
from typing import Sequence

from pipeline.layers.anchors import HEAD_RE, Letters, parse_head
from pipeline.records import RunShape, Segment

#: a line that opens with its 經 and runs on into the 注 of it
PAIR_SHAPE = RunShape("JING", "ZHU", one_switch=True)
#: the fewest undecided lines a document needs before its lines are taken for pairs or for units
MIN_LINES = 6
#: the share of undecided lines the free decoding must read as 經 then 注
MIN_SHARE = 0.3
#: below this share of its undecided lines cut by the free decoding, a document's lines are its units
MAX_CUT = 0.5
#: the layout names of a document so read, in place of its reader's "plain" (as the classic alone is "classic")
PAIRS_LAYOUT = "pair-lines"
UNITS_LAYOUT = "unit-lines"
SHU_LAYOUT = "pair-shu-lines"
#: where a sentence may open inside a line: after a sentence end (and its closing quote) or a ○
_SENTENCE_OPENS = re.compile(r"[。！？；!?;]」?|○")
#: how far past a sentence's opening a 疏 head is read (four citations of up to 24 characters, 釋曰)
_HEAD_READ = 130
#: how sure the 疏 read from its head to the line's end is (a layout's evidence)
SHU_TAIL_SCORE = 0.9


def line_layers(lines: Sequence[Segment], resolved: Sequence[Segment]) -> list[list[str]]:
    """For each of ``lines`` (undecided segments, in order), the layers ``resolved`` (the free
    decoding of the document) gives it, in reading order, a run of one layer named once."""
    ordered = sorted((s.start, s.end, s.layer) for s in resolved)
    out: list[list[str]] = []
    k = 0
    for line in lines:
        while k < len(ordered) and ordered[k][1] <= line.start:
            k += 1
        layers: list[str] = []
        j = k
        while j < len(ordered) and ordered[j][0] < line.end:
            if ordered[j][0] >= line.start and ordered[j][1] <= line.end and (not layers or layers[-1] != ordered[j][2]):
                layers.append(ordered[j][2])
            j += 1
        out.append(layers)
    return out


def reads_as_pairs(layers: Sequence[Sequence[str]]) -> bool:
    """Whether the free decoding read ``MIN_SHARE`` of the lines (``MIN_LINES`` at least; ``layers``:
    :func:`line_layers`) as 經 then 注."""
    return len(layers) >= MIN_LINES and sum(list(ls) == ["JING", "ZHU"] for ls in layers) >= MIN_SHARE * len(layers)


def reads_as_units(layers: Sequence[Sequence[str]]) -> bool:
    """Whether the free decoding cut fewer than ``MAX_CUT`` of the lines (``MIN_LINES`` at least;
    ``layers``: :func:`line_layers`) into more than one layer: then each line is one unit."""
    return len(layers) >= MIN_LINES and sum(len(ls) > 1 for ls in layers) < MAX_CUT * len(layers)


def undecided_lines(segments: Sequence[Segment]) -> list[Segment]:
    """The lines the readings look at, in order: undecided segments of no known shape."""
    return sorted((s for s in segments if s.evidence == "default" and s.shape is None), key=lambda s: s.start)


def as_pairs(segments: Sequence[Segment], lines: Sequence[Segment], layers: Sequence[Sequence[str]]) -> list[Segment]:
    """``segments`` with :data:`PAIR_SHAPE` given to those of ``lines`` the free decoding (``layers``)
    found no 疏 in: a line with a 疏 keeps its free decoding (a line per 經, its 注 and the 疏 after
    them is no pair: read in that shape, the dev chapters' 經, 注 and 疏 so written lost their 疏 to
    注, 0.895 → 0.349 of their characters right)."""
    shaped = {(line.start, line.end) for line, ls in zip(lines, layers) if ls and "SHU" not in ls}
    return [replace(s, shape=PAIR_SHAPE) if (s.start, s.end) in shaped else s for s in segments]


def shu_tails(text: str, lines: Sequence[Segment], layers: Sequence[Sequence[str]]) -> dict[tuple[int, int], int]:
    """For each of ``lines`` the free decoding (``layers``: :func:`line_layers`) read as holding 疏 but
    not opening with it (nor on a 疏 head): the offset where its first 疏 head (:func:`shu_head_at`)
    opens a sentence after the line's first, keyed by the line's (start, end)."""
    out: dict[tuple[int, int], int] = {}
    for line, ls in zip(lines, layers):
        if not ls or ls[0] == "SHU" or "SHU" not in ls or shu_head_at(text, line.start, line.end):
            continue  # a line that opens as 疏 is no 經 with its commentary (its 注「X」至「Y」 heads come later)
        for m in _SENTENCE_OPENS.finditer(text, line.start, line.end):
            if m.end() < line.end and shu_head_at(text, m.end(), line.end):
                out[(line.start, line.end)] = m.end()
                break
    return out


def shu_head_at(text: str, at: int, end: int) -> bool:
    """Does a 疏 head open at ``at`` (before ``end``): 「X」至「Y」 (or 注「A」至「B」), or any citations
    of :data:`~pipeline.layers.anchors.HEAD_RE` that go on to 釋曰 (「乃席賓主人介」。○注「席敷」至「東面」。○釋曰:
    the whole 經 cited, no 至)? A citation alone is no head: the 經 and 注 quote too."""
    m = HEAD_RE.match(text[at:min(end, at + _HEAD_READ)])  # anchored (^): a slice, and a head is short
    if m is None or not m.end():
        return False
    _x, y, _a, b = m.groups()
    return y is not None or b is not None or "釋曰" in m.group() or "释曰" in m.group()


def reads_with_shu(lines: Sequence[Segment], tails: dict[tuple[int, int], int]) -> bool:
    """Whether ``MIN_SHARE`` of the ``lines`` (``MIN_LINES`` at least) are a 經, its 注 and a 疏
    after them (``tails``: :func:`shu_tails`)."""
    return len(lines) >= MIN_LINES and len(tails) >= MIN_SHARE * len(lines)


def with_shu(text: str, segments: Sequence[Segment], tails: dict[tuple[int, int], int],
             read: Sequence[Segment] = ()) -> list[Segment]:
    """``segments`` with each line of ``tails`` cut at its 疏 head: the rest 疏 (evidence ``layout``);
    the text before it 經 then 注 where the head cites the 經 it opens with (evidence ``anchor``:
    :func:`_cited_jing`, ``read`` the free decoding), else in :data:`PAIR_SHAPE` for the model."""
    read = sorted(read, key=lambda r: r.start)
    starts = [r.start for r in read]
    out: list[Segment] = []
    for s in segments:
        at = tails.get((s.start, s.end))
        if at is None:
            out.append(s)
            continue
        # the free decoding of this line only (it never crosses a line): _agreement reads no more
        inside = read[bisect_left(starts, s.start):bisect_left(starts, s.end)]
        out.extend(_cited_jing(text, s.start, at, s.end, inside) or [replace(s, end=at, text=text[s.start:at], shape=PAIR_SHAPE)])
        out.append(Segment("SHU", at, s.end, text[at:s.end], "layout", SHU_TAIL_SCORE))
    return out


def _cited_jing(text: str, start: int, at: int, end: int, read: Sequence[Segment] = ()) -> list[Segment] | None:
    """The 經 and 注 of ``text[start:at]`` where the 疏 head at ``at`` cites a 經 that opens it
    (「X」至「Y」: X at the line's first letter, the 注 after a Y, or none where Y ends at the head);
    None where it does not, or cites one phrase only (「X」: the 經 may go on past it). Where Y closes
    more than one sentence, the seam the free decoding (``read``) agrees with best: 經 before, 注 after."""
    head = parse_head(text[at:min(end, at + _HEAD_READ)])
    if head is None or head.jing is None or head.jing[0] == head.jing[1]:
        return None
    x, y = head.jing
    letters = Letters(text, [(start, at)])
    if not letters.text.startswith(x):
        return None
    ends = [m.end() for m in re.finditer(re.escape(y), letters.text) if m.start() >= len(x)]
    ends = [e for e in ends if letters.ends_sentence(e)] or ends
    if not ends:
        return None
    cuts = [letters.raw_start(e) if e < len(letters) else at for e in ends]
    cut = cuts[0] if len(cuts) == 1 else max(cuts, key=lambda c: _agreement(read, start, c, at))
    if cut >= at:  # the cited 經 runs to the head: a 經 without 注
        return [Segment("JING", start, at, text[start:at], "anchor", 1.0)]
    return [Segment("JING", start, cut, text[start:cut], "anchor", 1.0), Segment("ZHU", cut, at, text[cut:at], "anchor", 1.0)]


def _agreement(read: Sequence[Segment], start: int, cut: int, at: int) -> int:
    """Characters of ``[start, at)`` the free decoding reads as 經 before ``cut`` and 注 after it."""
    total = 0
    for r in read:
        lo, hi = max(r.start, start), min(r.end, at)
        if hi <= lo:
            continue
        if r.layer == "JING":
            total += max(0, min(hi, cut) - lo)
        elif r.layer == "ZHU":
            total += max(0, hi - max(lo, cut))
    return total
