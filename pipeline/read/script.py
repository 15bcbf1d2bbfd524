"""Simplified editions read by the traditional readers, offsets unchanged.

The readers find layers by what editions write: 釋曰, 音義, 鄭目錄, 儀禮卷第, 考證, 疏 heads …,
all in the traditional script the editions use. A simplified copy (a web scrape, a converted
e-text) writes 释曰, 音义, 仪礼卷第, and the readers would miss them: a 單疏本 chapter read as
one 疏, an edition's title lines read as 經. :func:`traditional_probe` gives such a text back in
traditional characters, character for character, so that a reader run on it finds the markers
at the very offsets of the raw text; the segments then take their text from the raw text.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Optional


@lru_cache(maxsize=1)
def _converters():
    import opencc

    return opencc.OpenCC("s2t"), opencc.OpenCC("t2s")


def _each(converter, chars: list[str]) -> list[str]:
    """``converter`` applied to each character alone (a newline between them: no phrase spans two)."""
    out = converter.convert("\n".join(chars)).split("\n")
    return out if len(out) == len(chars) else [converter.convert(c) for c in chars]


#: how much of a text is counted to tell its script (an edition is written in one)
SAMPLE = 20_000


def _forms(chars: list[str]) -> tuple[dict[str, str], set[str]]:
    """Of ``chars``: those only the simplified script writes, with their traditional form (one
    character), and those only the traditional script writes."""
    s2t, t2s = _converters()
    simplified_only: dict[str, str] = {}
    traditional_only: set[str] = set()
    for c, t, s in zip(chars, _each(s2t, chars), _each(t2s, chars)):
        if s != c:
            traditional_only.add(c)
        elif t != c and len(t) == 1:
            simplified_only[c] = t
    return simplified_only, traditional_only


def traditional_probe(text: str) -> Optional[str]:
    """``text`` in traditional characters, same length, when it is written mostly in simplified
    ones (in its first :data:`SAMPLE` characters, more characters only the simplified script
    writes than only the traditional one does); None otherwise, so a traditional or mixed edition
    is read exactly as written."""
    counts = Counter(text[:SAMPLE])
    chars = [c for c in counts if ord(c) >= 0x3400]  # Han (and beyond): nothing else converts
    if not chars:
        return None
    simplified_only, traditional_only = _forms(chars)
    if sum(counts[c] for c in simplified_only) <= sum(counts[c] for c in traditional_only):
        return None
    rest = [c for c in set(text[SAMPLE:]) if c not in counts and ord(c) >= 0x3400]
    simplified_only.update(_forms(rest)[0])
    return text.translate(str.maketrans(simplified_only))
