"""Layer segments of a document: 經 JING / 注 ZHU / 疏 SHU / OTHER, with furniture removed.

:func:`segment_layers` finds the document's layout (:mod:`pipeline.read.layout`), lets the
layout's reader mark layers and furniture, and returns them as sorted, non-overlapping
:class:`~pipeline.records.Segment` s plus the :class:`~pipeline.records.Removal` s.

Evidence, strongest first: ``marker`` (the edition says so: 鄭注, 註曰, ○疏曰, [疏], a tag, a
parenthesis), ``anchor`` (a 疏 head cites it, a gloss of its words shows a 注 starts, or another edition given as
witness lines up with it and says so: :mod:`pipeline.text.collate`),
``layout`` (where it stands: the 經–注–疏 order, an indent, a line width, modern vernacular),
``default`` (nothing decided: the layer model, :mod:`pipeline.layers.classifier`, decides later).

Downstream, a segment's text is ``TextView.of(text, seg.start, seg.end, drop=removed ranges,
drop_chars=str.isspace)``: markers, tags, page marks, ``¶``, ``/`` and footnote references
inside a segment are removals; editors' notes (案…) and later scholars are their own OTHER
segments; the Siku 考證 and duplicated paragraphs are removed whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from typing import TYPE_CHECKING

from pipeline.records import Removal, Segment

if TYPE_CHECKING:
    from pipeline.read.reading import Reading


@dataclass
class LayerResult:
    #: see :mod:`pipeline.read.layout`: xhtml, kanripo-siku, kanripo-zhengzhu, kanripo-danshu,
    #: web-runon, web-zhushu, siku-wrapped, web-translation, plain; ``html/<one of these>`` for any
    #: other HTML page (its visible text's layout). `yili process` calls a plain one that is the
    #: classic alone ``classic`` (:mod:`pipeline.layers.classic`)
    layout: str
    segments: list[Segment] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)


def segment_layers(text: str, source: Optional[str] = None) -> LayerResult:
    from pipeline.read.layout import read_document  # the readers use this package's markers

    return to_result(text, read_document(text, source))


def to_result(text: str, reading: "Reading") -> LayerResult:
    """Pieces → segments (trimmed, sorted, never overlapping); editorial matter kept apart → removals."""
    removed = list(reading.removed)
    pieces = list(reading.pieces)
    for start, end, reason in reading.apart:
        pieces = [p for p in pieces if p.end <= start or p.start >= end]
        removed = [r for r in removed if r.end <= start or r.start >= end]
        removed.append(Removal(start, end, reason))
    removed = _disjoint(removed)
    segments: list[Segment] = []
    last_end = 0
    for p in sorted(pieces, key=lambda p: (p.start, p.end)):
        start, end = max(p.start, last_end), p.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            continue
        segments.append(Segment(p.layer, start, end, text[start:end], p.evidence, round(p.score, 4), p.shape))
        last_end = end
    return LayerResult(reading.layout, segments, removed)


def _disjoint(removed: list[Removal]) -> list[Removal]:
    """Sorted removals, an overlapped one clipped (the first reason wins where two cover a character)."""
    out: list[Removal] = []
    for r in sorted(removed, key=lambda r: (r.start, -r.end)):
        if out and r.start < out[-1].end:
            if r.end <= out[-1].end:
                continue
            r = Removal(out[-1].end, r.end, r.reason)
        if r.end > r.start:
            out.append(r)
    return out
