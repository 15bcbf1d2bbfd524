"""Rites whose 尸 is the corpse: 士喪禮 and 既夕禮 (GUIDE §2: 衣[尸], an OBJECT, not an ACTOR).

Everywhere else in the classic 尸 is the impersonator of the dead at a sacrifice (尸入, 尸拜, 尸卒爵)
and the lexicon lists him among the participants; in the two funeral chapters before the burial he
is the body that is dressed, moved and mourned, and no act is his. Which chapter a passage is in
comes from the document (:mod:`pipeline.read.chapters`: ``meta.chapter``, the corpus file name,
or the chapter title written before it, so a file holding several chapters changes where a title
stands); the tuples of those passages are read with :func:`corpse_lexicon`.
"""

from __future__ import annotations

from typing import Any, Optional

from pipeline.nlp.lexicon import Lexicon
from pipeline.read.chapters import chapter_from_meta, chapter_from_source, chapter_titles

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
    """The ranges of ``text`` that belong to 士喪禮 or 既夕禮: from each such chapter's title to the
    next title, and before the first title the chapter the record names (``meta.chapter``, else
    its source file's name), else the first title's."""
    meta = meta if isinstance(meta, dict) else {}
    titles = chapter_titles(text)
    first = chapter_from_meta(meta) or chapter_from_source(meta.get("source")) or (titles[0][1] if titles else None)
    marks = [(0, first), *((at, chapter) for at, chapter in titles if at > 0)]
    ranges: list[tuple[int, int]] = []
    for (start, chapter), (end, _next) in zip(marks, [*marks[1:], (len(text), None)]):
        if chapter in CORPSE_CHAPTERS and end > start:
            if ranges and ranges[-1][1] == start:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))
    return ranges
