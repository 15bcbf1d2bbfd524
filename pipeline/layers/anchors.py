"""疏 heads as anchors: 「X」至「Y」 says the 經 the 疏 explains starts with X and ends with Y;
○注「A」至「B」 says the 注 it explains starts with A and ends with B.

The heads are read in the forms the editions write them: 「鄉飲」至「賓介」。○注「主人」至「齒也」。
○釋曰 (traditional web and XHTML), [疏]“四享”至“所有”。○注“四当”至“致之”。○释曰 (simplified web),
注「燕乃及之」。○釋曰 (注 only), 「介亦如之」 (the whole 經 cited). Citations are compared on
letters only (punctuation, spaces and removed ranges left out), so 「賓拜」 finds 「賓拜洗。」.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import Iterable, Optional, Sequence

from pipeline.layers.markers import SHU_LINE_MARK

_OPEN = "「“\"『"
_CLOSE = "」”\"』"
_CITE = rf"[{_OPEN}]([^{_CLOSE}{_OPEN}]{{1,24}})[{_CLOSE}]"
_RANGE = rf"{_CITE}(?:至{_CITE})?"
HEAD_RE = re.compile(
    rf"^[\s\u3000]*(?:{SHU_LINE_MARK}|疏)?[\s\u3000]*"
    rf"(?:(?!注){_RANGE}[。.，,]?)?[\s\u3000]*"
    rf"(?:○?注{_RANGE}[。.，,]?)?[\s\u3000]*"
    rf"(?:○?注?(?:釋曰|释曰))?"
)

#: a sentence only the 疏 writes: it opens on a 「X」至「Y」 head (of the 經, or 注「X」至「Y」) or on
#: 釋曰. A lone 「X」 is not enough: the 經 and 注 open sentences on quotations too.
SHU_OPENING_RE = re.compile(
    rf"^[\s\u3000○]*(?:{SHU_LINE_MARK}|疏)?[\s\u3000○]*(?:注?{_CITE}至{_CITE}|注?(?:釋曰|释曰))"
)

#: what ends a sentence (a 經 or 注 citation must end on one, preferably)
SENTENCE_END = set("。！？；!?;")
_AFTER_END = set("」』”’\"）)")


@dataclass
class Head:
    jing: Optional[tuple[str, str]]  # (X, Y); Y == X for a single citation
    zhu: Optional[tuple[str, str]]
    length: int  # characters of the head in the text it was read from

    @property
    def empty(self) -> bool:
        return self.jing is None and self.zhu is None


def letters_only(s: str) -> str:
    """The characters a citation is compared on: no punctuation, spaces, digits or Latin."""
    return "".join(ch for ch in s if is_letter(ch))


def is_letter(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FA1F or ch == "〇" or ch == "&"


def parse_head(text: str) -> Optional[Head]:
    """The head at the start of a 疏 paragraph, or None when it has none."""
    m = HEAD_RE.match(text)
    if not m or m.end() == 0:
        return None
    g = m.groups()
    jing = (letters_only(g[0]), letters_only(g[1] or g[0])) if g[0] else None
    zhu = (letters_only(g[2]), letters_only(g[3] or g[2])) if g[2] else None
    if jing is None and zhu is None and "釋曰" not in m.group() and "释曰" not in m.group():
        return None
    return Head(jing, zhu, m.end())


class DropIndex:
    """A document's removed ranges, sorted, to hand each group of paragraphs only the ones that can
    touch it: :class:`Letters` walks every drop it is given, and a document has thousands."""

    def __init__(self, drops: Iterable[tuple[int, int]]):
        self.drops = sorted(drops)
        self._starts = [s for s, _e in self.drops]
        self._reach = list(accumulate((e for _s, e in self.drops), max))  # running maximum of the ends

    def near(self, lo: int, hi: int) -> list[tuple[int, int]]:
        """The drops that may hold a position in ``lo``…``hi`` (those before all end by ``lo``,
        those after start at ``hi`` or later)."""
        return self.drops[bisect_right(self._reach, lo):bisect_left(self._starts, hi)]


class Letters:
    """The letters of some raw ranges with their raw positions, and where sentences start."""

    def __init__(self, raw: str, ranges: Iterable[tuple[int, int]], drop: Sequence[tuple[int, int]] = ()):
        self.raw = raw
        chars: list[str] = []
        self.pos: list[int] = []
        self.sentence_start: set[int] = set()
        self.range_start: set[int] = set()
        #: per letter, the index of the range it is in; per range, its first letter (None: no letters)
        self.range_of: list[int] = []
        self.range_first: list[Optional[int]] = []
        drops = sorted(drop)
        # running maximum of the drops' ends: the first drop ending after ``start`` is found by
        # bisection instead of a walk from the first drop for every range
        reach = list(accumulate((e for _s, e in drops), max))
        for r, (start, end) in enumerate(ranges):
            di = bisect_right(reach, start)
            self.range_start.add(len(chars))
            self.sentence_start.add(len(chars))
            first_here = len(chars)
            boundary = True
            for i in range(start, end):
                while di < len(drops) and drops[di][1] <= i:
                    di += 1
                if di < len(drops) and drops[di][0] <= i < drops[di][1]:
                    continue
                ch = raw[i]
                if is_letter(ch):
                    if boundary:
                        self.sentence_start.add(len(chars))
                        boundary = False
                    chars.append(ch)
                    self.pos.append(i)
                    self.range_of.append(r)
                elif ch in SENTENCE_END:
                    boundary = True
                elif ch in _AFTER_END or ch.isspace():
                    pass
            self.range_first.append(first_here if len(chars) > first_here else None)
        self.text = "".join(chars)

    def __len__(self) -> int:
        return len(self.text)

    def ends_sentence(self, i: int) -> bool:
        """Letter ``i - 1`` is the last of a sentence (``i`` starts one, or the text ends)."""
        return i >= len(self.text) or i in self.sentence_start

    def find_start(self, cite: str, lo: int = 0, hi: Optional[int] = None, last: bool = False) -> Optional[int]:
        """Where ``cite`` starts between ``lo`` and ``hi``: at a paragraph start if it can, else at a
        sentence start, else anywhere (the first such, or the last)."""
        hi = len(self.text) if hi is None else hi
        if not cite:
            return None
        found = [lo + m.start() for m in re.finditer(re.escape(cite), self.text[lo:hi])]
        for pool in ([f for f in found if f in self.range_start], [f for f in found if f in self.sentence_start], found):
            if pool:
                return pool[-1] if last else pool[0]
        return None

    def find_end(self, cite: str, lo: int, hi: Optional[int] = None) -> Optional[int]:
        """Letter index just after ``cite`` found at or after ``lo``: one that ends a sentence if it can."""
        hi = len(self.text) if hi is None else hi
        found = [lo + m.start() + len(cite) for m in re.finditer(re.escape(cite), self.text[lo:hi])] if cite else []
        at_end = [f for f in found if self.ends_sentence(f)]
        pool = at_end or found
        return pool[0] if pool else None

    def raw_start(self, i: int) -> int:
        return self.pos[i]

    def raw_end(self, i: int) -> int:
        """Raw end of the letter run ending before letter ``i``, with the punctuation that closes it."""
        end = self.pos[i - 1] + 1
        limit = self.pos[i] if i < len(self.pos) else len(self.raw)
        while end < limit and (self.raw[end] in SENTENCE_END or self.raw[end] in _AFTER_END or self.raw[end] in "，、,：:︰"):
            end += 1
        return end


@dataclass
class Located:
    """Letter indices the head fixes (None where it fixes nothing)."""

    jing_start: Optional[int] = None
    jing_end: Optional[int] = None
    zhu_start: Optional[int] = None
    zhu_end: Optional[int] = None


def locate(head: Head, letters: Letters) -> Located:
    """Find the head's 經 and 注 in ``letters`` (the text before the 疏, as far back as it may reach)."""
    out = Located()
    zhu_a = head.zhu[0] if head.zhu else None
    if head.jing:
        x, y = head.jing
        s = letters.find_start(x)
        if s is not None and zhu_a:
            # the 經 comes before the 注 it is explained with: prefer an X before the 注 head's A
            if letters.find_start(zhu_a, s + len(x)) is None:
                s2 = letters.find_start(x, last=True)
                s = s2 if s2 is not None else s
        if s is not None:
            out.jing_start = s
            if y == x:
                out.jing_end = s + len(x)
            else:
                out.jing_end = _jing_end(letters, y, s + len(x), zhu_a)
    if head.zhu:
        a, b = head.zhu
        if out.jing_end is not None:
            s = letters.find_start(a, out.jing_end)
        elif out.jing_start is not None:
            s = letters.find_start(a, out.jing_start + len(head.jing[0]), last=True)
        else:  # a 注 follows its 經: it cannot open the stretch
            s = letters.find_start(a, 1, last=True)
        if s is not None:
            out.zhu_start = s
            out.zhu_end = letters.find_end(b, s) if b != a else s + len(a)
    return out


def _jing_end(letters: Letters, y: str, lo: int, zhu_a: Optional[str]) -> Optional[int]:
    """The end of the cited 經: a Y that the 注 follows, else one that ends a paragraph, else the first."""
    found = [lo + m.start() + len(y) for m in re.finditer(re.escape(y), letters.text[lo:])]
    if not found:
        return None
    ends = [f for f in found if letters.ends_sentence(f)]
    if zhu_a:
        followed = [f for f in ends if letters.text.startswith(zhu_a, f)]
        at_para = [f for f in followed if f >= len(letters) or f in letters.range_start]
        if at_para or followed:
            return (at_para or followed)[0]
    para_ends = [f for f in ends if f >= len(letters) or f in letters.range_start]
    if para_ends:
        return para_ends[0]
    return (ends or found)[0]


def head_runs(heads: Iterable[int]) -> list[tuple[int, int]]:
    """The pieces that open a 疏 (their indices), as one ``[start, stop)`` run per head: consecutive
    ones are one head (「X」至「Y」。○注「A」至「B」。○釋曰 is three pieces)."""
    runs: list[list[int]] = []
    for h in sorted(set(heads)):
        if runs and runs[-1][1] == h:
            runs[-1][1] = h + 1
        else:
            runs.append([h, h + 1])
    return [(a, b) for a, b in runs]


#: how many pieces (sentences) a cited 經 or 注 before its 疏 head may span: on the dev chapters 0.1% of
#: the e-book's 經 and 3% of its 注 are longer (a citation matched further back is more likely the 疏's)
CITED_PIECES = 8


def cited_before_heads(texts: Sequence[str], heads: Iterable[int], longest: int = CITED_PIECES) -> dict[int, str]:
    """The layer of the pieces a 疏 head cites right before it, where a 注疏 runs on (the pieces of one
    string: its sentences; ``heads``: the pieces that open a 疏).

    The 疏 follows the 經 and the 注 it explains, and its head cites them: 注「A」至「B」 is the 注 that
    ends where the head opens (B) and opens on a piece that starts with A; 「X」至「Y」 is the 經
    before that 注 (or before the head, a 經 without 注), ending on Y and opening on a piece that starts
    with X. Where the text before the head does not end so, or the opening is not found within
    ``longest`` pieces, nothing is said of it (and of the 經 where the 注 is not found)."""
    runs = head_runs(heads)
    letters = [letters_only(t) for t in texts]
    out: dict[int, str] = {}
    after = 0  # the pieces a head may cite lie after the head before it
    for start, stop in runs:
        head = parse_head("".join(texts[start:stop]))
        lo, after = after, stop
        end = start
        for layer, cited in (("ZHU", head.zhu if head else None), ("JING", head.jing if head else None)):
            if cited is None:
                continue
            first, last = cited
            if not "".join(letters[lo:end]).endswith(last):
                break  # not what comes right before: nothing further back is sure either
            opens = [k for k in range(max(lo, end - longest), end) if letters[k].startswith(first)]
            if not opens or not "".join(letters[opens[-1]:end]).endswith(last):
                break
            out.update((k, layer) for k in range(opens[-1], end))
            end = opens[-1]
    return out
