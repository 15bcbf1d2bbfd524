"""The 經 passages :class:`~pipeline.actions.extractor.ActionExtractor` reads — a normalised view of
the raw text with its sentences and clauses — and what a reading of them gives back (:class:`Reading`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from pipeline.actions.normal import default_normalise
from pipeline.actions.vocabulary import CLAUSE_MARKS, SENTENCE_MARKS
from pipeline.records import Action
from pipeline.text.view import TextView


@dataclass
class Reading:
    """What :meth:`ActionExtractor.read` makes of a document's 經 passages: the tuples, and for each
    passage the view ranges of speech written without quotation marks (告于賓曰|請射 in unpunctuated
    text), which yields no tuple and, as speech in 「」 does, no span."""

    actions: list[Action]
    speech: list[list[tuple[int, int]]]
    #: per passage, the view ranges of the participants the vocabulary lacks that it read as names
    #: (a span model's, or a name of the document written there: :meth:`ActionExtractor.document_names`)
    names: list[list[tuple[int, int]]] = field(default_factory=list)


@dataclass
class Passage:
    """One 經 segment: its normalised view and the units found in it (view coordinates)."""

    view: TextView
    sentences: list[tuple[int, int]] = field(default_factory=list)
    clauses: list[tuple[int, int]] = field(default_factory=list)
    spans: list[tuple[int, int, str]] = field(default_factory=list)
    #: speech known from elsewhere (a witness edition's 「…」 over unpunctuated text): view ranges
    quoted: list[tuple[int, int]] = field(default_factory=list)
    #: of 士喪禮 or 既夕禮, where 尸 is the corpse (:mod:`pipeline.actions.rites`)
    corpse: bool = False

    @classmethod
    def from_raw(
        cls,
        raw: str,
        start: int = 0,
        end: Optional[int] = None,
        clauses: Optional[list[tuple[int, int]]] = None,
        normalise: Optional[Callable[[str], str]] = None,
    ) -> "Passage":
        """A passage over ``raw[start:end]`` with line breaks dropped, sentences and clauses cut at
        punctuation (or the given view-coordinate ``clauses``). For tests, evaluation and tools."""
        view = make_view(raw, start, end, normalise)
        sents = split_marks(view.text, 0, len(view.text), SENTENCE_MARKS)
        return cls(view, sents, clauses if clauses is not None else split_marks(view.text, 0, len(view.text), CLAUSE_MARKS))


def make_view(raw: str, start: int = 0, end: Optional[int] = None, normalise: Optional[Callable[[str], str]] = None) -> TextView:
    """The normalised view of a raw range: the pipeline's ``segment_view`` when installed."""
    end = len(raw) if end is None else end
    if normalise is None:
        try:
            from pipeline.text.normalise import segment_view  # type: ignore

            return segment_view(raw, start, end, [])
        except ImportError:
            pass
    norm = normalise or default_normalise()
    return TextView.of(raw, start, end, drop_chars=lambda c: c in "\r\n").map_chars(norm)


def split_marks(text: str, start: int, end: int, marks: str) -> list[tuple[int, int]]:
    """``[start, end)`` cut after each mark; pieces keep their marks, empty pieces are dropped."""
    out: list[tuple[int, int]] = []
    s = start
    for i in range(start, end):
        if text[i] in marks:
            if i + 1 > s:
                out.append((s, i + 1))
            s = i + 1
    if end > s:
        out.append((s, end))
    return [(a, b) for a, b in out if text[a:b].strip(marks + " \u3000")]
