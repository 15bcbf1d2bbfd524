"""Rites whose 尸 is the corpse: 士喪禮 and 既夕禮 (GUIDE §2: 衣[尸], an OBJECT, not an ACTOR).

Everywhere else in the classic 尸 is the impersonator of the dead at a sacrifice (尸入, 尸拜, 尸卒爵)
and the lexicon lists him among the participants; in the two funeral chapters before the burial he
is the body that is dressed, moved and mourned, and no act is his. Which chapter a passage is in
comes from the document (:func:`pipeline.read.chapters.chapter_marks`: ``meta.chapter``, the corpus
file name, or the chapter title written before it, so a file holding several chapters changes where
a title stands); their tagged 尸 is a thing (:func:`corpse_spans`) and their tuples are read with
:func:`corpse_lexicon`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from pipeline.nlp.lexicon import Lexicon
from pipeline.read.chapters import chapter_marks

#: 士喪禮 (12) and 既夕禮 (13) in the received order
CORPSE_CHAPTERS = frozenset({"12", "13"})
#: the word that names the corpse there and a participant elsewhere
CORPSE = "尸"


def corpse_lexicon(lexicon: Lexicon) -> Lexicon:
    """``lexicon`` with 尸 a thing instead of a participant."""
    terms = dict(lexicon.terms)
    terms["ACTOR"] = [t for t in terms.get("ACTOR", []) if t != CORPSE]
    terms["OBJECT"] = [*terms.get("OBJECT", []), CORPSE]
    return Lexicon(terms=terms, verb_lemmas=dict(lexicon.verb_lemmas))


def corpse_ranges(text: str, meta: Optional[dict[str, Any]] = None) -> list[tuple[int, int]]:
    """The ranges of ``text`` that belong to 士喪禮 or 既夕禮 (:func:`chapter_marks`: from each such
    chapter's title to the next title, and from the start the chapter the record names)."""
    marks = chapter_marks(meta if isinstance(meta, dict) else {}, text)
    ranges: list[tuple[int, int]] = []
    for (start, chapter), (end, _next) in zip(marks, [*marks[1:], (len(text), None)]):
        if chapter in CORPSE_CHAPTERS and end > start:
            if ranges and ranges[-1][1] == start:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))
    return ranges


def corpse_spans(text: str, spans: list[tuple[int, int, str]],
                 normalise: Callable[[str], str]) -> list[tuple[int, int, str]]:
    """Tagged spans of a normalised view of those chapters with 尸 a thing, not a participant."""
    corpse = normalise(CORPSE)
    return [(s, e, "OBJECT" if label == "ACTOR" and text[s:e] == corpse else label) for s, e, label in spans]
