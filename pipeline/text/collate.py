"""Collation with a witness: another edition of the same text lends its punctuation and its layers.

A philologist reading the 四庫 or the 四部叢刊 text keeps a punctuated edition open beside it (the
注疏 e-book, 阮元's text): where the two editions write the same words, the editor's 斷句 and his
split of 經 from 注 hold for both. :func:`align` pairs the characters of a document with those of
its witness (normalised forms, so 荅/答 and 庿/廟 match; the editions differ in wording, so only
what lines up is used): unique 8-character strings of both texts as anchors, their longest
chain in order, and a character diff in the gaps between anchors. :class:`Collation` then
answers, for the document's characters, which layer the witness gives them, whether the witness
breaks a clause or a sentence between two of them (not at the 、 of a list), and whether its 經
quotes them as speech (曰「…」, which yields no tuple). Nothing is taken where the texts do not
line up: the models decide there as they would without a witness.
"""

from __future__ import annotations

import bisect
import difflib
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, Union

from pipeline.records import Removal, Segment
from pipeline.text.marks import NEUTRAL_MARKS, strip_marks
from pipeline.text.normalise import segment_view
from pipeline.text.view import overlapping

#: anchor length: long enough that an 8-character string written once in both texts is the same
#: place of both (the 儀禮's formulae repeat, but rarely 8 characters alike and once only)
ANCHOR = 8
#: the longest stretch between two anchors that is diffed character by character
GAP = 3000
#: in a longer gap than this, a run of fewer than SHORT_BLOCK matching characters is no pairing (the
#: 疏 quotes its 經 two words at a time: 「主人」至「拜辱」; a 經 word must not pair with the quotation)
LOCAL_GAP = 8
SHORT_BLOCK = 3
#: a witness lends its breaks only if it is punctuated: one mark per this many characters at least
MARKS_PER = 20
#: a witness lines up with a document where this share of the shorter of the two lines up …
MIN_SHARE = 0.2
#: … and at least this many characters, or half of a shorter document (a 注疏 chapter and the 經 and
#: 注 alone: a fifth of the one, all of the other; a passage given alone as a record: half of it)
MIN_CHARS = 50
#: the index of the witnesses keeps every INDEX_STEP-th 8-character string of each: a document that
#: shares a stretch of INDEX_STEP + 7 characters with a witness finds it there
INDEX_STEP = 4
#: a segment the models decided takes the witnesses' layers where this share of its characters line up
#: with a witness whose edition decided their layer (not its layer model)
MIN_SEGMENT_SHARE = 0.5

_LAYER_CODE = {"JING": "J", "ZHU": "Z", "SHU": "S", "OTHER": "O"}
_CODE_LAYER = {v: k for k, v in _LAYER_CODE.items()}
_STRENGTH = {"N": 0, "C": 1, "S": 2}
#: the marks of a list (賓、介) and those that are neither text nor breaks: no boundary of a clause
_LIST_MARKS = "、﹑" + "".join(sorted(NEUTRAL_MARKS))


def _unique_grams(s: str, k: int) -> dict[str, int]:
    """Each k-character string of ``s`` that occurs once, with its position."""
    seen: dict[str, int] = {}
    for i in range(len(s) - k + 1):
        g = s[i:i + k]
        seen[g] = -1 if g in seen else i
    return {g: i for g, i in seen.items() if i >= 0}


def _longest_chain(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (sorted by the first item, all distinct) increasing in the second."""
    tails: list[int] = []  # tails[n]: the smallest second item ending a chain of n + 1
    ends: list[int] = []  # the pair index of that tail
    back = [-1] * len(pairs)
    for n, (_i, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k] = j
            ends[k] = n
        back[n] = ends[k - 1] if k else -1
    out: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        out.append(pairs[n])
        n = back[n]
    return out[::-1]


def align(a: str, b: str, k: int = ANCHOR, gap: int = GAP, grams_a: Optional[dict[str, int]] = None,
          grams_b: Optional[dict[str, int]] = None) -> array:
    """For each character of ``a`` its index in ``b``, or -1: strictly increasing where set.
    ``grams_a`` / ``grams_b``: their unique ``k``-character strings, when they are known already."""
    out = array("q", [-1]) * len(a)
    ua = grams_a if grams_a is not None else _unique_grams(a, k)
    ub = grams_b if grams_b is not None else _unique_grams(b, k)
    pairs = sorted((i, ub[g]) for g, i in ua.items() if g in ub)
    last_i = last_j = -1
    for i, j in _longest_chain(pairs):
        for d in range(k):
            if i + d > last_i and j + d > last_j:
                out[i + d] = j + d
                last_i, last_j = i + d, j + d
    # the stretches between anchors: a character diff where both sides are short
    prev_i = prev_j = -1
    for i in [n for n in range(len(a)) if out[n] >= 0] + [len(a)]:
        j = out[i] if i < len(a) else len(b)
        lo_a, lo_b = prev_i + 1, prev_j + 1
        if i > lo_a and j > lo_b and i - lo_a <= gap and j - lo_b <= gap:
            matcher = difflib.SequenceMatcher(None, a[lo_a:i], b[lo_b:j], autojunk=False)
            local = i - lo_a <= LOCAL_GAP and j - lo_b <= LOCAL_GAP
            for block in matcher.get_matching_blocks():
                if block.size < SHORT_BLOCK and not local:
                    continue
                for d in range(block.size):
                    out[lo_a + block.a + d] = lo_b + block.b + d
        prev_i, prev_j = i, j
    return out


@dataclass
class Witness:
    """Another edition's characters (normalised), the layer of each and the break after each."""

    source: str
    chars: str
    layers: str  # one code per char: J Z S O; lower case where the witness's own layer model decided
    labels: str  # N / C / S: the strongest mark between a char and the next (、 of a list: N)
    punctuated: bool
    #: "1" for a char inside quotation marks (speech: 曰「…」), else "0"
    quoted: str

    def __post_init__(self) -> None:
        self._grams: Optional[dict[str, int]] = None

    @property
    def grams(self) -> dict[str, int]:
        """The unique anchor strings of the witness, found once for all the documents it serves."""
        if self._grams is None:
            self._grams = _unique_grams(self.chars, ANCHOR)
        return self._grams

    @classmethod
    def from_segments(cls, source: str, text: str, segments: Iterable[Segment],
                      removed: Iterable[Removal] = ()) -> "Witness":
        """The witness of a document read into ``segments`` (OTHER left out: titles and notes are
        no part of the text two editions share)."""
        from pipeline.actions.speech import speech_mask

        drop = sorted((r.start, r.end) for r in removed)
        chars: list[str] = []
        layers: list[str] = []
        labels: list[str] = []
        quoted: list[str] = []
        for seg in segments:
            if seg.layer == "OTHER":
                continue
            view = segment_view(text, seg.start, seg.end, overlapping(drop, seg.start, seg.end))
            stripped = strip_marks(view.text)
            chars.append(stripped.chars)
            code = _LAYER_CODE.get(seg.layer, "O")
            layers.append((code.lower() if seg.evidence in ("model", "default") else code) * len(stripped.chars))
            mask = speech_mask(view.text)
            for k, label in enumerate(stripped.labels):
                marks = view.text[stripped.index[k] + 1:stripped.mark_end[k]]
                # 賓、介 / 袒、決、遂: a list, one clause in the punctuated reading (sentences.py)
                labels.append("N" if label == "C" and not marks.strip(_LIST_MARKS) else label)
                # speech is the 經's (曰「…」); the 注 and 疏 quote texts and the words they explain
                quoted.append("1" if seg.layer == "JING" and mask[stripped.index[k]] else "0")
        joined = "".join(labels)
        marks = sum(1 for label in joined if label != "N")
        return cls(source, "".join(chars), "".join(layers), joined, marks * MARKS_PER >= len(joined) > 0,
                   "".join(quoted))


class WitnessIndex:
    """Which witnesses write an 8-character string (every INDEX_STEP-th of each): the witnesses a
    document may line up with are found without weighing it against every one of them (`yili
    process --collate` over many documents would otherwise cost documents × witnesses)."""

    def __init__(self, witnesses: Sequence[Witness]):
        self.witnesses = [w for w in witnesses if w.chars]
        where: dict[str, Union[int, tuple[int, ...]]] = {}
        for k, witness in enumerate(self.witnesses):
            chars = witness.chars
            for i in range(0, len(chars) - ANCHOR + 1, INDEX_STEP):
                gram = chars[i:i + ANCHOR]
                have = where.get(gram)
                if have is None:
                    where[gram] = k
                elif isinstance(have, int):
                    if have != k:
                        where[gram] = (have, k)
                elif k not in have:
                    where[gram] = have + (k,)
        self.where = where

    def hits(self, grams: Iterable[str]) -> Counter:
        """witness number → how many of ``grams`` it writes at an indexed place."""
        out: Counter = Counter()
        for gram in grams:
            have = self.where.get(gram)
            if have is None:
                continue
            if isinstance(have, int):
                out[have] += 1
            else:
                out.update(have)
        return out


class Collation:
    """A document's characters lined up with each witness that shares enough of its text."""

    def __init__(self, raw_positions: Sequence[int], maps: Sequence[tuple[Witness, Sequence[int]]]):
        self.raw_positions = list(raw_positions)  # raw offset of each document char (increasing)
        #: (witness, index of each document char in ``witness.chars`` or -1), the witness sharing
        #: most of the document first
        self.maps = list(maps)
        self._index = {pos: n for n, pos in enumerate(self.raw_positions)}
        # the witness whose layer a char takes: the first that lines it up where its own edition
        # decided the layer (a marker, an anchor, the layout), not its layer model, which knows no
        # more than ours
        self.owner = array("i", [-1]) * len(self.raw_positions)
        self.lined = array("b", [0]) * len(self.raw_positions)  # does any witness line it up
        for k, (witness, mapped) in reversed(list(enumerate(self.maps))):
            codes = witness.layers
            for n, j in enumerate(mapped):
                if j >= 0:
                    self.lined[n] = 1
                    if codes[j].isupper():
                        self.owner[n] = k

    @classmethod
    def of(cls, text: str, removed: Iterable[Removal], witnesses: WitnessIndex,
           skip: Optional[Callable[[Witness], bool]] = None) -> Optional["Collation"]:
        """The document ``text`` lined up with each of the ``witnesses`` that shares a fifth of the
        shorter of the two (several editions of a chapter, the 經 and 注 of a 注疏 chapter, or the
        chapters a long document spans), or None where none does. Only the witnesses the index
        finds are weighed; ``skip``: witnesses not to use (the document itself)."""
        view = segment_view(text, 0, len(text), sorted((r.start, r.end) for r in removed))
        stripped = strip_marks(view.text)
        chars = stripped.chars
        if not chars:
            return None
        grams = _unique_grams(chars, ANCHOR)
        floor = min(MIN_CHARS, len(chars) / 2)

        def least(witness: Witness) -> float:  # the characters that must line up with it
            return max(floor, MIN_SHARE * min(len(chars), len(witness.chars)))

        hits = witnesses.hits(grams)  # a witness sharing enough has half its share indexed
        weighed = [w for k, w in enumerate(witnesses.witnesses) if hits[k] * INDEX_STEP * 2 >= least(w) / 2]
        ranked = []
        for witness in weighed:
            if skip is not None and skip(witness):
                continue
            shared = sum(1 for g in grams if g in witness.grams)  # about the characters anchors cover
            if shared >= least(witness) / 2:
                ranked.append((shared, witness))
        ranked.sort(key=lambda pair: -pair[0])
        maps = []
        for _shared, witness in ranked:
            mapped = align(chars, witness.chars, grams_a=grams, grams_b=witness.grams)
            if sum(1 for j in mapped if j >= 0) >= least(witness):
                maps.append((witness, mapped))
        if not maps:
            return None
        return cls([view.starts[i] for i in stripped.index], maps)

    @property
    def share(self) -> float:
        """The share of the document's characters that line up with a witness."""
        return sum(self.lined) / max(1, len(self.lined))

    def sources(self) -> list[str]:
        """The witness documents lined up with the document, the one sharing most of it first."""
        return [witness.source for witness, _mapped in self.maps]

    def _numbers(self, starts: Sequence[int]) -> list[Optional[int]]:
        """For each character of a view (the raw offset of each), its number among the document's
        characters, or None (no text character: a mark the view kept)."""
        index = self._index
        return [index.get(pos) for pos in starts]

    def _span(self, start: int, end: int) -> range:
        lo = bisect.bisect_left(self.raw_positions, start)
        hi = bisect.bisect_left(self.raw_positions, end)
        return range(lo, hi)

    # -- layers --------------------------------------------------------------------------------------
    def layers(self, text: str, segment: Segment) -> list[Segment]:
        """``segment`` (one the models decided) cut where the witnesses' layers change, each piece
        with the witnesses' layer (evidence ``anchor``, score the share of its characters whose
        layer a witness's edition decided); ``[segment]`` where that share is under a half."""
        span = self._span(segment.start, segment.end)
        if not span:
            return [segment]
        codes = [self.maps[self.owner[n]][0].layers[self.maps[self.owner[n]][1][n]] if self.owner[n] >= 0 else ""
                 for n in span]
        if sum(1 for c in codes if c) < MIN_SEGMENT_SHARE * len(codes):
            return [segment]
        first = next(c for c in codes if c)
        filled, current = [], first
        for c in codes:  # a character that does not line up goes with the one before it
            current = c or current
            filled.append(current)
        pieces: list[Segment] = []
        run_start, run_first = segment.start, 0
        for m in range(1, len(filled) + 1):
            if m < len(filled) and filled[m] == filled[run_first]:
                continue
            end = segment.end if m == len(filled) else self.raw_positions[span[m]]
            lined = sum(1 for c in codes[run_first:m] if c)
            layer = _CODE_LAYER[filled[run_first]]
            pieces.append(Segment(layer, run_start, end, text[run_start:end], "anchor",
                                  round(lined / (m - run_first), 3)))
            run_start, run_first = end, m
        return pieces

    # -- speech --------------------------------------------------------------------------------------
    def quoted(self, starts: Sequence[int], text: str) -> list[tuple[int, int]]:
        """The ranges of a view of the document (as :meth:`breaks` takes it) that the witness
        quotes (曰「…」): speech, which yields no tuple. A character that does not line up between
        two quoted ones is quoted too. The first punctuated witness that lines a char up says."""
        punctuated = [(w, mapped) for w, mapped in self.maps if w.punctuated]
        inside: list[Optional[bool]] = [None] * len(text)  # True / False where the char lines up
        for p, n in enumerate(self._numbers(starts)):
            if n is None:
                continue
            for witness, mapped in punctuated:
                if mapped[n] >= 0:
                    inside[p] = witness.quoted[mapped[n]] == "1"
                    break
        out: list[tuple[int, int]] = []
        start, last_in = None, None
        for p, flag in enumerate(inside):
            if flag is True:
                if start is None:
                    start = p
                last_in = p
            elif flag is False and start is not None:
                out.append((start, last_in + 1))
                start = None
        if start is not None:
            out.append((start, last_in + 1))
        return out

    # -- breaks --------------------------------------------------------------------------------------
    def breaks(self, starts: Sequence[int], text: str) -> dict[int, Optional[str]]:
        """For a view of the document (``text``, and the raw offset of each of its characters), the
        boundaries a punctuated witness decides: view position → "clause", "sentence" or None (no
        break). A boundary between two characters that line up with characters at most three apart
        in the witness takes the strongest mark the witness has between them; where several
        witnesses do, the one sharing most of the document says."""
        out: dict[int, Optional[str]] = {}
        kinds = {"N": None, "C": "clause", "S": "sentence"}
        numbers = self._numbers(starts)
        for witness, mapped in self.maps:
            if not witness.punctuated:
                continue
            labels = witness.labels
            prev = -1  # witness index of the last text char of the view
            for p, n in enumerate(numbers):
                if n is None:
                    continue
                j = mapped[n]
                if prev >= 0 and j > prev and j - prev <= 3 and p not in out:
                    out[p] = kinds[max(labels[prev:j], key=_STRENGTH.__getitem__)]
                prev = j
        return out
