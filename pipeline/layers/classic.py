"""A copy of the classic alone: a document whose text holds no commentary at all.

The layer model learned its neighbours from 注疏 editions, where a 注 follows each 經, and its text
features confuse 經 and 注 on short paragraphs; on a copy of the 經 alone (a ctext or Wikisource
chapter, one paragraph a line) it read 39% of the characters as 注 or 疏 (held-out chapters). A
scholar tells such a copy at a glance, by what is missing: 鄭玄's 注 glosses (X謂Y), records the readings of the other texts
(今文X為Y, 古文X作Y) and quotes (云), and 賈公彥's 疏 does all of it at length; the 經 hardly ever
does (one 謂 in the 經 of ten corpus chapters, outside 喪服, whose 傳 is a commentary within the 經).

So where no marker, anchor or layout decided any 注 or 疏, and the undecided text is long enough for
the absence to mean something, a text with at most one such cue in :data:`CHARS_PER_CUE` Han
characters is read as the classic: its undecided segments are 經 by ``layout`` (the document is the
classic alone). A shorter text (a chapter as short as 覲禮's 經, an excerpt) must have no cue at all,
and few of the 也 that end the 注's glosses (X，Y也): the 經 writes it in speeches and its 記.
Measured on every window of the corpus editions (chapters of the XHTML, 四庫 and SBCK 鄭注 editions
cut into stretches of 600 to 3,000 Han characters): no window of 經 with its 注 (or with its 注 and
疏) passes, 87–93% of the windows of 經 alone do (the rest are 喪服's 傳, a 經 that says 謂之 once,
and short stretches of speeches); ``python bench/classic_alone.py`` scores whole documents, and
excerpts of a few passages read as documents of their own. From 200 Han characters (an excerpt of
two or three passages) the short rule still tells them: on the dev chapters' excerpts of 200 to 300
characters, 255 of 278 of 經 alone pass (0.677 → 0.968 of their characters right) and 14 of 636 of
經 with its 注 (0.982 → 0.975; a copy whose 注 has no mark at all), 6 of 1,315 with 注 and 疏; from
100, 71 of 1,162 with the 注 would (0.970 → 0.957), which is why 200.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

from pipeline.layers.features import han_count
from pipeline.records import Segment

#: what a commentary writes and the classic does not: glosses, the readings of the other texts,
#: quotations (traditional and simplified forms)
COMMENTARY_CUE = re.compile(r"[謂谓]|今文|古文|云")
#: from this many Han characters of undecided text, the absence of cues says enough by itself
MIN_HAN = 1000
#: at most one cue per this many Han characters (none below 2,000)
CHARS_PER_CUE = 2000
#: below MIN_HAN, from this many: no cue, and 也 in at most :data:`SHORT_YE_SHARE` of the characters
#: (600 until 2026-11-29: a pasted excerpt of 200–600 characters of 經 was left to the model, which
#: read a third to half of it as 注)
MIN_HAN_SHORT = 200
SHORT_YE_SHARE = 0.006
#: the score of a segment so read: a layout's, as the readers give theirs
SCORE = 0.9
#: the layout name a document so read gets, in place of its reader's "plain"
LAYOUT = "classic"


def is_classic_alone(texts: Iterable[str]) -> bool:
    """Whether ``texts`` (a document's undecided text) read as the classic without commentary."""
    texts = list(texts)
    han = sum(han_count(t) for t in texts)
    if han < MIN_HAN_SHORT:
        return False
    cues = sum(len(COMMENTARY_CUE.findall(t)) for t in texts)
    if han >= MIN_HAN:
        return cues <= han // CHARS_PER_CUE
    return cues == 0 and sum(t.count("也") for t in texts) <= SHORT_YE_SHARE * han


def read_as_classic(segments: Sequence[Segment]) -> Optional[list[Segment]]:
    """``segments`` with their undecided ones made 經, if the document is the classic alone; else None.

    Not a document where anything decided a 注 or a 疏 (its commentary is there), nor one whose
    undecided text has a known shape (a run the reader knows holds a seam).
    """
    undecided = [s for s in segments if s.evidence == "default"]
    if not undecided or any(s.shape is not None for s in undecided):
        return None
    if any(s.layer in ("ZHU", "SHU") for s in segments if s.evidence != "default"):
        return None
    if not is_classic_alone(s.text for s in undecided):
        return None
    return [Segment("JING", s.start, s.end, s.text, "layout", SCORE) if s.evidence == "default" else s
            for s in segments]


def is_plain(layout: str) -> bool:
    """Whether ``layout`` is a plain text's (``plain``), a web page's visible text so read (``html/plain``) too."""
    return layout.rpartition("/")[2] == "plain"


def plain_named(layout: str, name: str) -> str:
    """``layout`` with its last part, ``plain``, named as the document was read (``html/plain`` →
    ``html/classic``); any other layout as it is."""
    head, sep, _last = layout.rpartition("/")
    return head + sep + name if is_plain(layout) else layout


def classic_layout(layout: str) -> str:
    """The layout name of a document read as the classic alone: ``plain`` → ``classic``, ``html/plain`` → ``html/classic``."""
    return plain_named(layout, LAYOUT)
