"""What an edition reader returns: layer pieces and removals, all in raw offsets.

A reader knows one layout (XHTML e-book, Kanripo org text, web page, hard-wrapped Siku text)
and says, for every stretch of the raw text, either which layer it is (a :class:`Piece`) or
why it is not content (a :class:`~pipeline.records.Removal`). Pieces become layer segments
(:func:`pipeline.layers.segment_layers`) and corpus units (:mod:`pipeline.corpus`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

from pipeline.records import Removal, RunShape
from pipeline.text.view import TextView


@dataclass
class Piece:
    """One run of one layer in the raw text, ``[start, end)``, starting and ending on content."""

    layer: str
    start: int
    end: int
    evidence: str = "marker"
    score: float = 1.0
    #: why the reader chose this layer where the edition's own tagging says otherwise, or what is
    #: doubtful about it ("" when nothing is): e.g. "zhushi-after-jianshu", "unmarked-end".
    note: str = ""
    #: an undecided piece's known shape (which layer opens it, whether it switches once)
    shape: Optional[RunShape] = None


@dataclass
class Reading:
    """A reader's answer for one document."""

    layout: str
    pieces: list[Piece] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    #: raw ranges that are editorial matter kept apart from the text (the Siku 考證):
    #: the pieces inside them are OTHER; :func:`segment_layers` reports them as removals.
    apart: list[tuple[int, int, str]] = field(default_factory=list)

    def sort(self) -> "Reading":
        self.pieces.sort(key=lambda p: (p.start, p.end))
        self.removed.sort(key=lambda r: (r.start, r.end))
        return self


def raw_runs(view: TextView, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The raw ranges behind view ``[start, end)``, one per run of adjacent raw characters."""
    run_start: Optional[int] = None
    run_end = -1
    for i in range(start, end):
        s, e = view.starts[i], view.ends[i]
        if run_start is not None and s == run_end:
            run_end = e
            continue
        if run_start is not None:
            yield run_start, run_end
        run_start, run_end = s, e
    if run_start is not None:
        yield run_start, run_end


def trimmed(raw: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without whitespace at either end (``start == end`` when nothing is left)."""
    while start < end and raw[start].isspace():
        start += 1
    while end > start and raw[end - 1].isspace():
        end -= 1
    return start, end


def view_piece(view: TextView, start: int, end: int, layer: str, evidence: str = "marker",
               score: float = 1.0, note: str = "") -> Optional[Piece]:
    """A piece for view ``[start, end)`` (whitespace at the ends left out), or None if it holds nothing."""
    while start < end and view.text[start].isspace():
        start += 1
    while end > start and view.text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    s, e = view.to_raw(start, end)
    return Piece(layer, s, e, evidence, score, note)


def marker_removals(view: TextView, start: int, end: int, reason: str = "marker") -> list[Removal]:
    return [Removal(s, e, reason) for s, e in raw_runs(view, start, end)]


def clean_text(raw: str, start: int, end: int, removed: Iterable[tuple[int, int]]) -> str:
    """The piece's text as a reader sees it: removals and whitespace dropped."""
    return TextView.of(raw, start, end, drop=removed, drop_chars=str.isspace).text
