"""Prodigy tokens for classical Chinese: one token per written character, ``ws: false``.

"Character" is what a reader sees as one character, counted in code points of the raw text:

- an astral character (𧃊, 𧰼) is ONE code point, so one token of length 1 (never two UTF-16 halves);
- a Kanripo entity ``&KR1969;`` stands for one character missing from Unicode: one token of
  length 8, so that a span can never cut it in half;
- variation selectors (U+FE00–FE0F, U+E0100–E01EF) and combining marks stay with their base.

Offsets are Python ``str`` indices into the task's ``text`` (SCHEMA section 2).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

#: A Kanripo entity for a character missing from Unicode.
KR_ENTITY = re.compile(r"&KR\d+;")


def _joins_previous(ch: str) -> bool:
    cp = ord(ch)
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or cp == 0x200D:
        return True
    return unicodedata.category(ch) in ("Mn", "Me")


def char_units(text: str) -> list[tuple[int, int]]:
    """(start, end) of every written character of ``text``, in order, covering it exactly."""
    units: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == "&":
            m = KR_ENTITY.match(text, i)
            if m:
                units.append((i, m.end()))
                i = m.end()
                continue
        if units and _joins_previous(text[i]) and units[-1][1] == i and text[units[-1][0]] != "\n":
            units[-1] = (units[-1][0], i + 1)
        else:
            units.append((i, i + 1))
        i += 1
    return units


def char_tokens(text: str) -> list[dict[str, Any]]:
    """Prodigy's ``tokens``: ``{"text", "start", "end", "id", "ws": false}`` per written character."""
    return [
        {"text": text[s:e], "start": s, "end": e, "id": i, "ws": False}
        for i, (s, e) in enumerate(char_units(text))
    ]


class TokenIndex:
    """Character offset ↔ token index for one task's tokens (its boundaries must tile the text)."""

    def __init__(self, tokens: list[dict[str, Any]]):
        self.by_start = {t["start"]: i for i, t in enumerate(tokens)}
        self.by_end = {t["end"]: i for i, t in enumerate(tokens)}

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """(token_start, token_end) of the characters ``[start, end)``, or None if they cut a token."""
        ts, te = self.by_start.get(start), self.by_end.get(end)
        if ts is None or te is None or te < ts:
            return None
        return ts, te
