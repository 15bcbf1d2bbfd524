"""What a plain text's lines hold, where nothing marks its 注: a 經 and its 注 each, or one unit each.

Where a plain text lost what set its 注 apart (the small print of ctext's page, the brackets of a
copy), its lines are read by the layer model with nothing known of them, and its run-together
splitter looks for seams in each. Two ways of writing are common, and the document shows which:

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

Measured on the dev chapters written so (fold models; `bench/unmarked_copy.py`): the lines read as
經 then 注 are 34–58% of a chapter's unpunctuated lines and 38–76% of its punctuated ones, a unit a
line (經 lines and 注 lines) 10–22% and 1–3%; decoded within the shape, a line per 經 and its 注 goes
from 0.828 to 0.910 of its characters right unpunctuated, 0.894 to 0.966 punctuated (a line per 經,
its 注 and any 疏 after them, read as before, 0.895, its lines with a 疏 kept from the shape). The free
decoding cuts 25–42% of the lines of a unit a line unpunctuated, 6–27% punctuated (with the 疏 too),
and 47–99% of a line per 經 and its 注 (and its 疏); read whole, a unit a line goes from 0.847 to
0.9995 unpunctuated, 0.938 to 0.996 punctuated.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

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
    """The lines the two readings look at, in order: undecided segments of no known shape."""
    return sorted((s for s in segments if s.evidence == "default" and s.shape is None), key=lambda s: s.start)


def as_pairs(segments: Sequence[Segment], lines: Sequence[Segment], layers: Sequence[Sequence[str]]) -> list[Segment]:
    """``segments`` with :data:`PAIR_SHAPE` given to those of ``lines`` the free decoding (``layers``)
    found no 疏 in: a line with a 疏 keeps its free decoding (a line per 經, its 注 and the 疏 after
    them is no pair: read in that shape, the dev chapters' 經, 注 and 疏 so written lost their 疏 to
    注, 0.895 → 0.349 of their characters right)."""
    shaped = {(line.start, line.end) for line, ls in zip(lines, layers) if ls and "SHU" not in ls}
    return [replace(s, shape=PAIR_SHAPE) if (s.start, s.end) in shaped else s for s in segments]
