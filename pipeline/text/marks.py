"""Punctuation marks of the editions: which end a sentence, which a clause, which are neither.

:func:`strip_marks` takes a (punctuated or not) text apart into the characters a 斷句 model reads
and the break each mark made, with every character's index in the original text, so breaks found
on the stripped characters map back to offsets into the raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Marks that end a sentence, and marks that end a clause (full-width and ASCII forms).
SENTENCE_MARKS = frozenset("。？！；﹗?!;○")
CLAUSE_MARKS = frozenset("，、︰：,:﹐﹑")
#: Marks that are neither text nor breaks: quotes, brackets, book-title interpuncts, lacuna rules.
NEUTRAL_MARKS = frozenset("「」『』‘’“”《》〈〉（）()［］[]【】‧．·・")


@dataclass
class Stripped:
    """A text without its marks: the characters the model reads, what followed each, where each was."""

    chars: str
    labels: list[str]  # "N" / "C" / "S" per char: the strongest mark between it and the next char
    index: list[int]  # index of each char in the original text
    mark_end: list[int]  # index right after the last mark that follows each char (= index + 1 if none)


_NOT_TEXT = re.compile(
    "[\\s\\x00-\\x7f" + re.escape("".join(sorted(SENTENCE_MARKS | CLAUSE_MARKS | NEUTRAL_MARKS))) + "]"
)


def is_text_char(ch: str) -> bool:
    """Whether ``ch`` is part of the text the model reads (not a mark, space or ASCII furniture)."""
    return _NOT_TEXT.match(ch) is None


def strip_marks(text: str) -> Stripped:
    """Split a (punctuated or not) text into its characters and the breaks its marks make."""
    if not _NOT_TEXT.search(text):  # the usual case for an unpunctuated view: nothing to strip
        n = len(text)
        return Stripped(text, ["N"] * n, list(range(n)), list(range(1, n + 1)))
    chars: list[str] = []
    labels: list[str] = []
    index: list[int] = []
    mark_end: list[int] = []
    pos = 0
    for m in _NOT_TEXT.finditer(text + "\n"):
        for i in range(pos, m.start()):
            chars.append(text[i])
            labels.append("N")
            index.append(i)
            mark_end.append(i + 1)
        pos = m.end()
        ch = m.group()
        if not labels or m.start() >= len(text):
            continue
        if ch in SENTENCE_MARKS:
            labels[-1] = "S"
            mark_end[-1] = m.end()
        elif ch in CLAUSE_MARKS:
            if labels[-1] != "S":
                labels[-1] = "C"
            mark_end[-1] = m.end()
    return Stripped("".join(chars), labels, index, mark_end)
