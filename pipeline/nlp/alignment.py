"""Tokens that respect the lexicon: what every word-level tokenizer backend does to its output.

A backend (jieba, UD-Kanbun, stanza) cuts the text its own way; then :func:`lexicon_aligned`
makes each lexicon term chosen by :func:`pipeline.nlp.matcher.best_cover` exactly one token (cut at
its edges, merged inside) and each function word (于 以 之 而 其 者 …) outside a term its own
token. So a term is never split or glued to a neighbour, the span ruler's phrase patterns (a
term is one token when tokenised alone) always line up, and the choice between overlapping
terms is the same for every backend.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def pieces_from_words(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """(start, end) of consecutive ``words`` that spell ``text`` (raises if they do not)."""
    out: list[tuple[int, int]] = []
    pos = 0
    for word in words:
        if not word:
            continue
        end = pos + len(word)
        if text[pos:end] != word:
            raise ValueError(f"tokenizer output does not spell the text at {pos}: {word!r}")
        out.append((pos, end))
        pos = end
    if pos != len(text):
        raise ValueError(f"tokenizer output stops at {pos} of {len(text)} characters")
    return out


def lexicon_aligned(
    text: str,
    pieces: Sequence[tuple[int, int]],
    units: Sequence[tuple[int, int]],
    singles: str = "",
) -> list[tuple[int, int]]:
    """``pieces`` re-cut so that every ``units`` range is one token and each char of ``singles``
    outside a unit is a token of its own. ``units`` must not overlap."""
    n = len(text)
    cut = bytearray(n + 1)  # 1: a token starts (or the text ends) here
    for s, e in pieces:
        cut[s] = cut[e] = 1
    cut[0] = cut[n] = 1
    inside = bytearray(n + 1)
    for s, e in units:
        cut[s] = cut[e] = 1
        for i in range(s + 1, e):
            cut[i] = 0
            inside[i] = 1
        inside[s] = 1
    if singles:
        for i, ch in enumerate(text):
            if ch in singles and not inside[i]:
                cut[i] = cut[i + 1] = 1
    bounds = [i for i in range(n + 1) if cut[i]]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def fill_gaps(text: str, ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Ranges that cover the whole text: overlapping or out-of-text ranges dropped, gaps cut into
    one-character tokens (a backend may skip spaces or characters it does not know)."""
    out: list[tuple[int, int]] = []
    pos = 0
    for s, e in sorted(ranges):
        if s < pos or e > len(text) or e <= s:
            continue
        out.extend((i, i + 1) for i in range(pos, s))
        out.append((s, e))
        pos = e
    out.extend((i, i + 1) for i in range(pos, len(text)))
    return out
