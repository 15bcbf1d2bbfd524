"""A derived string that remembers where each of its characters came from in the raw text.

Every stage after reading works on views (furniture dropped, script normalised, entities folded)
and every offset it produces is mapped back with :meth:`TextView.to_raw`. Views derived from
views keep raw offsets directly, so the map never has to be composed at the end.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass
from itertools import compress
from typing import Callable, Iterable, Optional

from pipeline.text.references import written_unit


def overlapping(ranges: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The sorted, disjoint ``ranges`` that overlap ``[start, end)`` (by bisection: documents
    can hold tens of thousands of segments and of removed ranges)."""
    i = max(bisect.bisect_left(ranges, (start, start)) - 1, 0)
    out = []
    while i < len(ranges) and ranges[i][0] < end:
        if ranges[i][1] > start:
            out.append(ranges[i])
        i += 1
    return out


@dataclass
class TextView:
    raw: str
    text: str
    starts: array  # raw start of view character i
    ends: array  # raw end (exclusive) of view character i
    origin: int = 0  # raw position of an empty view

    def __len__(self) -> int:
        return len(self.text)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def of(
        cls,
        raw: str,
        start: int = 0,
        end: Optional[int] = None,
        drop: Iterable[tuple[int, int]] = (),
        drop_chars: Optional[Callable[[str], bool]] = None,
    ) -> "TextView":
        """The raw slice ``[start, end)`` without the ``drop`` ranges and the chars ``drop_chars`` rejects."""
        end = len(raw) if end is None else end
        cuts = sorted((max(s, start), min(e, end)) for s, e in drop if e > start and s < end)
        chars: list[str] = []
        starts = array("q")
        ends = array("q")
        pos = start
        cuts.append((end, end))
        for cut_start, cut_end in cuts:
            stop = max(pos, cut_start)
            if stop > pos:  # whole stretches at a time: this runs over every character of a document
                piece = raw[pos:stop]
                if drop_chars is None or not any(map(drop_chars, piece)):  # any/map: no Python loop per char
                    chars.append(piece)
                    starts.extend(range(pos, stop))
                    ends.extend(range(pos + 1, stop + 1))
                else:
                    keep = [not dropped for dropped in map(drop_chars, piece)]
                    kept = list(compress(range(pos, stop), keep))
                    chars.append("".join(compress(piece, keep)))
                    starts.extend(kept)
                    ends.extend(i + 1 for i in kept)
            pos = max(pos, cut_end)
        return cls(raw, "".join(chars), starts, ends, origin=start)

    def map_chars(self, convert: Callable[[str], str]) -> "TextView":
        """A view with the same positions and ``convert(text)`` as text; ``convert`` must keep length."""
        new = convert(self.text)
        if len(new) != len(self.text):
            new = "".join(convert(ch) if len(convert(ch)) == 1 else ch for ch in self.text)
        return TextView(self.raw, new, self.starts, self.ends, self.origin)

    def fold(self, pattern: "re.Pattern[str]", replacement: Callable[[re.Match[str]], str]) -> "TextView":
        """Replace each match by ``replacement(match)`` (one or more chars) covering the match's raw range.

        Used for units that must stay one unit, e.g. Kanripo entities ``&KR0925;`` → one character.
        """
        chars: list[str] = []
        starts = array("q")
        ends = array("q")
        pos = 0
        for m in pattern.finditer(self.text):
            if m.start() == m.end():
                continue
            chars.append(self.text[pos : m.start()])
            starts.extend(self.starts[pos : m.start()])
            ends.extend(self.ends[pos : m.start()])
            rep = replacement(m)
            s, e = self.starts[m.start()], self.ends[m.end() - 1]
            chars.append(rep)
            for _ in rep:
                starts.append(s)
                ends.append(e)
            pos = m.end()
        chars.append(self.text[pos:])
        starts.extend(self.starts[pos:])
        ends.extend(self.ends[pos:])
        return TextView(self.raw, "".join(chars), starts, ends, self.origin)

    # -- mapping back -------------------------------------------------------------------------
    def to_raw(self, start: int, end: int) -> tuple[int, int]:
        """Raw ``(start, end)`` of the view range ``[start, end)``."""
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(f"view range {start}:{end} outside 0:{len(self.text)}")
        if start < end:
            return self.starts[start], self.ends[end - 1]
        if start < len(self.text):
            return self.starts[start], self.starts[start]
        p = self.ends[-1] if self.text else self.origin
        return p, p

    def raw_slice(self, start: int, end: int) -> str:
        s, e = self.to_raw(start, end)
        return self.raw[s:e]

    def written(self, start: int, end: int) -> str:
        """The raw characters behind view ``[start, end)`` as written, furniture and line breaks left
        out; an HTML character reference (``&#x8CD3;``) as the character it names (賓)."""
        out: list[str] = []
        last = -1
        for i in range(start, end):
            s = self.starts[i]
            if s == last:  # several view chars folded from one raw unit
                continue
            unit = self.raw[s : self.ends[i]]
            if unit.startswith("&") and len(unit) > 3:  # an HTML character reference: the character it names
                unit = written_unit(unit)
            out.append(unit)
            last = s
        return "".join(out)
