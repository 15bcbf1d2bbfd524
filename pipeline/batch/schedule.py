"""The order in which documents go to the workers: largest first, within a bounded look-ahead.

With documents in input order, a collection whose big files come last (the corpus: 26 small SBCK
files, then the 240–350k-char XHTML chapters) ends with one worker busy and the others idle.
Handing out the largest documents first (the LPT rule) leaves only small ones for the end. The
output keeps input order whatever the dispatch order (the runner writes by index), and the
look-ahead is bounded so that memory stays flat on a collection of any size.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from pipeline.read.inputs import InputItem

#: how far ahead the dispatcher reads: at most this many documents, or this many characters
LOOKAHEAD_ITEMS = 512
LOOKAHEAD_CHARS = 32_000_000


def _size(item: InputItem) -> int:
    text = item.record.get("text")
    return len(text) if isinstance(text, str) else 0


def largest_first(
    todo: Iterable[tuple[int, InputItem]],
    max_items: int = LOOKAHEAD_ITEMS,
    max_chars: int = LOOKAHEAD_CHARS,
) -> Iterator[tuple[int, InputItem]]:
    """``todo`` re-ordered by decreasing text length, one look-ahead window at a time."""
    window: list[tuple[int, InputItem]] = []
    chars = 0
    for entry in todo:
        window.append(entry)
        chars += _size(entry[1])
        if len(window) >= max_items or chars >= max_chars:
            yield from sorted(window, key=lambda e: -_size(e[1]))
            window, chars = [], 0
    yield from sorted(window, key=lambda e: -_size(e[1]))
