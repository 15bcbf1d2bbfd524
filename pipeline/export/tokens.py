"""Tokens for CoNLL-U and DocBin, with raw offsets, from a pluggable tokenizer.

A tokenizer is a callable ``str -> list[(start, end, pos)]`` over a clean string (furniture and
whitespace left out); :func:`raw_tokens` maps its tokens back to raw offsets with a
:class:`~pipeline.text.view.TextView`. :class:`CharTokenizer` (one token a character, ``PUNCT``
for punctuation, no other POS) is the default: it needs nothing and never misaligns with a span.
:class:`SpacyTokenizer` uses the pipeline's own tokenizer backend (jieba, udkanbun, …) and keeps
the backend's POS where it gives one.
"""

from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Protocol

from pipeline.text.view import TextView

Piece = tuple[int, int, Optional[str]]


class Tokenizer(Protocol):
    name: str

    def __call__(self, text: str) -> list[Piece]: ...


@dataclass
class Token:
    start: int  # raw offsets
    end: int
    form: str  # the raw characters as written (furniture inside a token left out)
    pos: Optional[str] = None


def is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


class CharTokenizer:
    """One token per character; punctuation gets UPOS ``PUNCT``."""

    name = "char"

    def __call__(self, text: str) -> list[Piece]:
        return [(i, i + 1, "PUNCT" if is_punct(ch) else None) for i, ch in enumerate(text)]


class SpacyTokenizer:
    """The tokens (and POS, if the backend sets it) of a spaCy pipeline's tokenizer.

    ``normalise`` (length-preserving, e.g. the pipeline's t2s view) is applied before tokenising,
    as the pipeline itself tags a normalised view.
    """

    def __init__(self, nlp: Any, normalise: Optional[Callable[[str], str]] = None, name: str = "spacy"):
        self.nlp = nlp
        self.normalise = normalise
        self.name = name

    def __call__(self, text: str) -> list[Piece]:
        target = text
        if self.normalise is not None:
            converted = self.normalise(text)
            if len(converted) == len(text):
                target = converted
        doc = self.nlp.make_doc(target)
        pieces: list[Piece] = []
        for tok in doc:
            if tok.is_space or not tok.text.strip():
                continue
            start = tok.idx + (len(tok.text) - len(tok.text.lstrip()))
            end = tok.idx + len(tok.text.rstrip())
            pos = tok.pos_ or ("PUNCT" if all(is_punct(ch) for ch in text[start:end]) else None)
            pieces.append((start, end, pos))
        return pieces


class Ranges:
    """Sorted ``(start, end)`` ranges that answer "which overlap [s, e)?" without a scan."""

    def __init__(self, ranges: Iterable[tuple[int, int]]):
        self.items = sorted(ranges)
        self.starts = [s for s, _ in self.items]
        self.max_end: list[int] = []
        top = -1
        for _, e in self.items:
            top = max(top, e)
            self.max_end.append(top)

    def overlapping(self, start: int, end: int) -> list[tuple[int, int]]:
        out = []
        i = bisect.bisect_left(self.starts, end) - 1
        while i >= 0 and self.max_end[i] > start:
            if self.items[i][1] > start:
                out.append(self.items[i])
            i -= 1
        return out[::-1]


def raw_tokens(
    text: str,
    start: int,
    end: int,
    tokenizer: Callable[[str], list[Piece]],
    removed: "Ranges | Iterable[tuple[int, int]]" = (),
) -> list[Token]:
    """Tokens of ``text[start:end]`` with raw offsets; removed ranges and whitespace are not tokens."""
    drop = removed.overlapping(start, end) if isinstance(removed, Ranges) else removed
    view = TextView.of(text, start, end, drop=drop, drop_chars=str.isspace)
    tokens = []
    for s, e, pos in tokenizer(view.text):
        if e <= s:
            continue
        rs, re_ = view.to_raw(s, e)
        tokens.append(Token(rs, re_, view.written(s, e), pos))
    return tokens


def covering_tokens(text: str, start: int, end: int, tokens: list[Token]) -> list[Token]:
    """``tokens`` with every character of ``text[start:end]`` they leave out as a token of its own.

    A spaCy Doc must hold its whole text; the left-out characters (line breaks, page marks) become
    one-character tokens so that Doc offsets stay raw offsets minus ``start``.
    """
    out: list[Token] = []
    pos = start
    for tok in sorted(tokens, key=lambda t: t.start):
        if tok.start < pos:  # overlaps the previous token (cannot happen with the built-in tokenizers)
            continue
        out.extend(Token(i, i + 1, text[i]) for i in range(pos, tok.start))
        out.append(Token(tok.start, tok.end, text[tok.start:tok.end], tok.pos))
        pos = tok.end
    out.extend(Token(i, i + 1, text[i]) for i in range(pos, end))
    return out


def build_tokenizer(name: str = "char", config: Optional[dict[str, Any]] = None) -> Tokenizer:
    """``"char"``; ``"nlp"`` (the tokenizer the config names); or a backend name (jieba, udkanbun, stanza)."""
    if name == "char":
        return CharTokenizer()
    import copy

    from pipeline.config import load_config
    from pipeline.nlp import build_nlp

    cfg = copy.deepcopy(config if config is not None else load_config())
    if name != "nlp":
        cfg.setdefault("nlp", {})["tokenizer"] = name
    nlp = build_nlp(cfg)
    return SpacyTokenizer(nlp, normalise=_normaliser(cfg), name=str(cfg.get("nlp", {}).get("tokenizer", name)))


def _normaliser(config: dict[str, Any]) -> Optional[Callable[[str], str]]:
    """The matching form the pipeline tags (t2s plus the edition variants), if the config asks for one."""
    if not config.get("normalise", {}).get("script"):
        return None
    from pipeline.text.normalise import normalise_str

    return normalise_str
