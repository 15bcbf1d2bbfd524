"""Sentences and clauses of a normalised view (view coordinates).

Punctuated text (is_punctuated)
-------------------------------
* A **sentence** ends after 。？！； (and ASCII ? ! ;) outside quotes, and at every ○ (the
  separator of the 疏 and of the Siku text). ：/︰/: is a clause break only, also before a quote:
  曰：「…」 stays in the sentence of its speaker.
* **Quotes** 「」『』“”‘’ nest. A sentence mark inside a quote does not end the outer sentence;
  a quote that closes right after one (…。」) ends it after the closing mark. Quote marks that
  have no partner are ignored (web pages drop them). 《》〈〉 titles never hold a sentence end.
* A **clause** ends at every ，,：︰: and every sentence mark, quote mark and ○, inside quotes too
  (a quote is text of its own: its clauses are cut the same way). 、 (enumeration: 賓、介) and ·‧
  (in titles) do not cut.
* Units: a sentence keeps its closing marks (。 and the closing quotes after it) and its opening
  quote; a clause holds no punctuation at either end. Units that hold no text are dropped.

Unpunctuated text (few or no marks)
-----------------------------------
The marks it has still cut; on top, ``splitter.breaks(text)`` (a learned 斷句 model) when one is
given, else :class:`RuleSplitter` (its rules are in its docstring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Protocol, Sequence

SENTENCE_MARKS = "。？！；?!;｡"
CLAUSE_MARKS = "，,：︰:"
SEPARATORS = "○"
QUOTE_PAIRS = {"「": "」", "『": "』", "“": "”", "‘": "’"}
TITLE_PAIRS = {"《": "》", "〈": "〉"}
OPENERS = frozenset(QUOTE_PAIRS) | frozenset(TITLE_PAIRS)
CLOSERS = {v: k for k, v in {**QUOTE_PAIRS, **TITLE_PAIRS}.items()}
QUOTE_MARKS = frozenset(QUOTE_PAIRS) | frozenset(QUOTE_PAIRS.values())
#: Marks that make a text "punctuated" when frequent enough (quotes and ○ alone do not).
PUNCTUATION = frozenset(SENTENCE_MARKS + CLAUSE_MARKS + "、")
#: Everything that is never text at a clause's edge.
EDGE_MARKS = frozenset(SENTENCE_MARKS + CLAUSE_MARKS + SEPARATORS + "、·‧") | QUOTE_MARKS


def _class(chars, head: str = "") -> "re.Pattern[str]":
    """A regex character class of ``chars`` (after ``head``: ``^\\s`` for "none of them, no space")."""
    return re.compile("[" + head + "".join(re.escape(ch) for ch in sorted(chars)) + "]")


# the scans below run over every character of a document: found by the regex engine, not a loop
_QUOTE_OR_TITLE = _class(OPENERS | set(CLOSERS))
_CUTTING = _class(set(SENTENCE_MARKS + CLAUSE_MARKS + SEPARATORS) | QUOTE_MARKS)
_TEXT = _class(EDGE_MARKS, head="^\\s")  # \s is str.isspace
_CLAUSE_TAIL = CLAUSE_MARKS + SEPARATORS + "、"

#: A text is punctuated when it has at least one mark per this many other characters.
CHARS_PER_MARK = 25


@dataclass(frozen=True)
class Break:
    """A unit boundary: a new unit starts at view index ``pos``; ``kind`` is "sentence" or "clause"."""

    pos: int
    kind: str


class Splitter(Protocol):
    def breaks(self, text: str) -> list[Break]: ...


def is_punctuated(view_text: str) -> bool:
    """True when ``view_text`` carries its own punctuation (one mark per :data:`CHARS_PER_MARK` chars)."""
    marks = sum(map(view_text.count, PUNCTUATION))
    if marks == 0:
        return False
    content = sum(map(len, view_text.split())) - sum(map(view_text.count, EDGE_MARKS))  # split: at str.isspace
    return marks * CHARS_PER_MARK >= content


# -- quotes -------------------------------------------------------------------------------------
def quote_pairs(text: str) -> dict[int, int]:
    """opening index → closing index of each quote or title pair that closes (nesting respected)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in _QUOTE_OR_TITLE.finditer(text):
        i, ch = m.start(), m.group()
        if ch in OPENERS:
            stack.append(i)
        elif ch in CLOSERS:
            want = CLOSERS[ch]
            for depth in range(len(stack) - 1, -1, -1):
                if text[stack[depth]] == want:
                    pairs[stack[depth]] = i
                    del stack[depth:]  # openers inside it that never closed are dropped
                    break
    return pairs


# -- cutting ------------------------------------------------------------------------------------
def mark_cuts(text: str) -> tuple[set[int], set[int]]:
    """(sentence starts, clause starts) the punctuation of ``text`` gives."""
    pairs = quote_pairs(text)
    return _quoted_cuts(text, pairs) if pairs else _plain_cuts(text)


def _plain_cuts(text: str) -> tuple[set[int], set[int]]:
    """:func:`mark_cuts` of a text where no quote closes (most texts, every unpunctuated one):
    every mark stands outside quotes, and only the marks are visited."""
    sentences: set[int] = set()
    clauses: set[int] = set()
    for m in _CUTTING.finditer(text):
        i, ch = m.start(), m.group()
        clauses.update((i, i + 1))
        if ch in SENTENCE_MARKS:
            sentences.add(i + 1)
        elif ch in SEPARATORS:
            sentences.update((i, i + 1))
    return sentences, clauses


def _quoted_cuts(text: str, pairs: dict[int, int]) -> tuple[set[int], set[int]]:
    """:func:`mark_cuts` with the quote ``pairs`` of ``text``, character by character."""
    closes = {c: o for o, c in pairs.items()}
    depth = [0] * (len(text) + 1)
    d = 0
    for i, ch in enumerate(text):
        if i in pairs:
            d += 1
        depth[i] = d  # a quote's own marks count as inside it
        if i in closes:
            d -= 1
    sentences: set[int] = set()
    clauses: set[int] = set()
    for i, ch in enumerate(text):
        if ch in SENTENCE_MARKS:
            clauses.update((i, i + 1))
            if depth[i] == 0:
                sentences.add(i + 1)
        elif ch in CLAUSE_MARKS or ch in SEPARATORS or ch in QUOTE_MARKS:
            clauses.update((i, i + 1))
            if ch in SEPARATORS:
                sentences.update((i, i + 1))
        if i in closes and depth[i] == 1 and text[closes[i]] in QUOTE_PAIRS:
            j = i - 1  # skip closing marks of inner quotes: 。』」
            while j > closes[i] and text[j] in CLOSERS:
                j -= 1
            if j > closes[i] and text[j] in SENTENCE_MARKS:
                sentences.add(i + 1)
    return sentences, clauses


def _units(text: str, cuts: set[int], sentence: bool) -> list[tuple[int, int]]:
    bounds = sorted({0, len(text), *(c for c in cuts if 0 < c < len(text))})
    out: list[tuple[int, int]] = []
    for s, e in zip(bounds, bounds[1:]):
        if sentence:
            # lead: no marks but opening quotes/titles; tail: keep sentence marks and closers
            while s < e and (text[s].isspace() or (text[s] in EDGE_MARKS and text[s] not in OPENERS)):
                s += 1
            while e > s and (text[e - 1].isspace() or text[e - 1] in _CLAUSE_TAIL):
                e -= 1
        else:
            while s < e and (text[s].isspace() or text[s] in EDGE_MARKS):
                s += 1
            while e > s and (text[e - 1].isspace() or text[e - 1] in EDGE_MARKS):
                e -= 1
        if _TEXT.search(text, s, e):
            out.append((s, e))
    return out


def split_units(
    view_text: str, splitter: Optional[Splitter] = None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(sentences, clauses) of ``view_text`` as view (start, end) ranges (rules in the module docstring).

    ``splitter`` (an object with ``.breaks(text) -> list[Break]``) is used when the text is
    unpunctuated; without one, :class:`RuleSplitter` finds the obvious breaks.
    """
    sentences, clauses = mark_cuts(view_text)
    if view_text and not is_punctuated(view_text):
        found = (splitter or RuleSplitter.default()).breaks(view_text)
        for br in found:
            clauses.add(br.pos)
            if br.kind == "sentence":
                sentences.add(br.pos)
    return _units(view_text, sentences, True), _units(view_text, clauses, False)


# -- rules for unpunctuated text ----------------------------------------------------------------
@dataclass
class _Tok:
    start: int
    end: int
    text: str
    label: Optional[str]


class RuleSplitter:
    """斷句 by rule for unpunctuated 經-like text, on the lexicon terms (normalised forms).

    Sentence breaks (a new participant starts a new act):
      S1. a participant written twice in a row starts the second time: 再拜賓|賓荅再拜, 衆賓|衆賓皆荅.
      S2. before a participant that follows the end of a predicate — a VERB that does not take a
          person as its object (not 獻 酬 酢 戒 速 命 告 請 謀 使 揖 迎 送 …), an OBJECT, or 也/矣/焉 —
          and is followed by the start of one — a VERB, LOCATION or FACING, or 再 三 壹 荅 皆 亦 乃
          遂 又 不 少 先 既 各 俱 以 還: 主人升|賓升, 荅再拜|賓西階上…, 辭|賓對.
    Clause breaks:
      C1. after 興 (坐取爵興|適洗).
      C2. before 坐 遂 乃 after a VERB or OBJECT, or after a place reached by a verb or 于/自
          (降席|坐奠爵, 荅再拜|乃請, 卒爵|遂拜).
      C3. before a VERB after a place or thing introduced by 于/於/自 (取爵于篚|降洗, 奠爵于篚|興).
      C4. after 曰 (speech follows: 告于賓曰|弓矢既具) and before 乃 (荅再拜|乃請).
      C5. after 如初 / 如之 (亦如之|…), a sentence break when a participant follows.
    """

    PERSON_OBJECT_VERBS = frozenset("献酬酢戒速命告请谋使诏延揖迎送授宾礼席作谓为与及以如从")
    PREDICATE_OPENERS = frozenset("再三壹一答皆亦乃遂又不少先既各俱以还辟听视")
    FINAL_PARTICLES = frozenset("也矣焉")
    CLAUSE_OPENERS = frozenset("坐遂乃")
    AFTER_PLACE = frozenset("于自")

    def __init__(self, matcher=None):
        self._matcher = matcher

    @classmethod
    def default(cls) -> "RuleSplitter":
        return cls()

    @property
    def matcher(self):
        if self._matcher is None:
            from pipeline.nlp.matcher import LexiconMatcher

            self._matcher = LexiconMatcher.load()
        return self._matcher

    def tokens(self, text: str) -> list[_Tok]:
        """Lexicon terms and single chars of ``text`` (normalised here too: it keeps the length)."""
        from pipeline.text.normalise import normalise_str

        text = normalise_str(text)
        out: list[_Tok] = []
        pos = 0
        for s, e, label in self.matcher.match(text):
            out.extend(_Tok(i, i + 1, text[i], None) for i in range(pos, s))
            out.append(_Tok(s, e, text[s:e], label))
            pos = e
        out.extend(_Tok(i, i + 1, text[i], None) for i in range(pos, len(text)))
        return out

    def _ends_predicate(self, tok: _Tok) -> bool:
        if tok.label == "VERB":
            return tok.text not in self.PERSON_OBJECT_VERBS
        return tok.label == "OBJECT" or tok.text in self.FINAL_PARTICLES

    def _opens_predicate(self, tok: _Tok) -> bool:
        return tok.label in ("VERB", "LOCATION", "FACING") or tok.text in self.PREDICATE_OPENERS

    def breaks(self, text: str) -> list[Break]:
        toks = self.tokens(text)
        found: dict[int, str] = {}

        def add(pos: int, kind: str) -> None:
            if 0 < pos < len(text) and found.get(pos) != "sentence":
                found[pos] = kind

        for k, tok in enumerate(toks):
            prev = toks[k - 1] if k > 0 else None
            nxt = toks[k + 1] if k + 1 < len(toks) else None
            before = toks[k - 2] if k > 1 else None
            if prev is None or prev.text in PUNCTUATION or tok.text in EDGE_MARKS:
                continue
            if tok.label == "ACTOR":
                if prev.label == "ACTOR" and prev.text == tok.text:  # S1
                    add(tok.start, "sentence")
                elif nxt is not None and self._ends_predicate(prev) and self._opens_predicate(nxt):  # S2
                    add(tok.start, "sentence")
            if prev.label == "VERB" and prev.text == "兴":  # C1
                add(tok.start, "clause")
            if tok.text in self.CLAUSE_OPENERS and (
                prev.label in ("VERB", "OBJECT")
                or (prev.label == "LOCATION" and before is not None
                    and (before.label == "VERB" or before.text in self.AFTER_PLACE))
            ):  # C2
                add(tok.start, "clause")
            if (tok.label == "VERB" and prev.label in ("LOCATION", "OBJECT") and before is not None
                    and before.text in self.AFTER_PLACE):  # C3
                add(tok.start, "clause")
            if prev.text == "曰" or tok.text == "乃":  # C4
                add(tok.start, "clause")
            if before is not None and before.text == "如" and prev.text in ("初", "之"):  # C5
                add(tok.start, "sentence" if tok.label == "ACTOR" else "clause")
        return [Break(pos, kind) for pos, kind in sorted(found.items())]


def units_from_breaks(text: str, breaks: Sequence[Break]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(sentences, clauses) from explicit breaks alone (e.g. to look at what a splitter found)."""
    sentences = {b.pos for b in breaks if b.kind == "sentence"}
    clauses = {b.pos for b in breaks}
    return _units(text, sentences, True), _units(text, clauses, False)
