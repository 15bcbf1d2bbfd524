"""The features of the 斷句 CRF at each character boundary (see :mod:`pipeline.text.punctuate`).

Character n-grams in a window (:func:`ngram_templates`), and the sparse attributes that are not
n-grams (:func:`other_attributes`): lexicon terms ending, starting or running across the boundary
(:class:`LexiconMarks`), a character or two doubled across it, the text's ends. crfsuite trains on
them as strings (:func:`boundary_features`); :class:`pipeline.text.crf_runtime.CompiledCRF` scores
the same features without strings.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

#: The layers a 斷句 model knows (its layer features are crossed with these).
LAYER_NAMES = ("JING", "ZHU", "SHU")


def shift(seq: Sequence[str], k: int, pad: str) -> list[str]:
    """``seq`` moved so that item i holds ``seq[i + k]`` (``pad`` beyond the ends)."""
    n = len(seq)
    if k >= 0:
        return list(seq[k:]) + [pad] * min(k, n)
    return [pad] * min(-k, n) + list(seq[: n + k])


def _trie_pattern(terms: list[str]) -> str:
    """A regex matching any of ``terms``, longest first, as a character trie: ``主(?:人|婦)?…``.

    Much faster than an alternation of the terms, which the regex engine tries one by one at
    every position; greedy optional groups make the longest term win, as a longest-match would.
    """
    trie: dict = {}
    for term in terms:
        node = trie
        for ch in term:
            node = node.setdefault(ch, {})
        node[""] = True

    def build(node: dict) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            return "(?:" + body + ")?"
        return body

    return build(trie)


class LexiconMarks:
    """Greedy longest-match of the lexicon terms on a normalised string (leftmost, longest first).

    ``pairs``: the boundary between two terms also gets the pair of their labels (``P``), and a
    term next to a non-term the label with the other side's character (``Q`` / ``R``): "a verb
    then an actor" is a break in the 經 whatever the words (held-out 經 F1 +0.3 to +1.1 points on
    three chapter folds, the other layers unchanged)."""

    def __init__(self, terms: dict[str, list[str]], pairs: bool = False):
        self.pairs = pairs
        table: dict[str, set[str]] = {}
        for label, items in terms.items():
            for term in items:
                if term:
                    table.setdefault(term, set()).add(label[:3])
        self.table = {t: "+".join(sorted(labels)) for t, labels in table.items()}
        self.pattern = re.compile(_trie_pattern(list(self.table))) if self.table else None

    def matches(self, s: str) -> list[tuple[int, int, str]]:
        """(start, end, tag) of each term found; ``tag`` = label(s) + length (capped at 3)."""
        if self.pattern is None:
            return []
        table = self.table
        return [(m.start(), m.end(), f"{table[m.group()]}{min(m.end() - m.start(), 3)}") for m in self.pattern.finditer(s)]


def ngram_templates(window: int, layer: Optional[str] = None) -> list[tuple[str, tuple[int, ...]]]:
    """(name, offsets) of the character n-gram templates; offset 0 is the char before the boundary.

    Unigrams c[i-w+1] … c[i+w], bigrams c[i-2:i] … c[i+2:i+4], trigrams c[i-2:i+1] … c[i+1:i+4];
    with a layer, the boundary's two chars and their bigram crossed with the layer. (Bags of the
    chars beyond the window, distances to function words and char clusters learned from the
    unpunctuated editions were tried and gave nothing on held-out chapters.)
    """
    out = [(f"u{k}", (k,)) for k in range(-window + 1, window + 1)]
    out += [(f"b{k}", (k, k + 1)) for k in range(-2, 3)]
    out += [(f"t{k}", (k, k + 1, k + 2)) for k in range(-2, 2)]
    if layer in LAYER_NAMES:
        out += [(f"L0{layer}", (0,)), (f"L1{layer}", (1,)), (f"Lb{layer}", (0, 1))]
    return out


PAD_LEFT, PAD_RIGHT = "<", ">"  # ASCII: never a text char (see is_text_char)


#: a character, or two, written again right after: the boundary between them (``dup1`` / ``dup2``)
_DOUBLED_ONE = re.compile(r"(?=(.)\1)")
_DOUBLED_TWO = re.compile(r"(?=(..)\1)")


def other_attributes(s: str, layer: Optional[str], lexicon: Optional[LexiconMarks]) -> dict[int, list[str]]:
    """The attributes that are not character n-grams, sparse (boundary index → attributes):
    a lexicon term ends at i (``E…``), starts at i+1 (``S…``) or runs across the boundary (``in``);
    the same one or two characters on both sides (``dup1``, ``dup2``: in the dev 經 the editors
    break there 92% and 100% of the time); the first two and last two boundaries of the text. The
    layer's own bias is added by the caller."""
    n = len(s)
    rows: dict[int, list[str]] = {}
    if lexicon is not None:
        matches = lexicon.matches(s)
        for start, end, tag in matches:
            rows.setdefault(end - 1, []).append(f"E{tag}")
            if start > 0:
                rows.setdefault(start - 1, []).append(f"S{tag}")
            for k in range(start, end - 1):
                rows.setdefault(k, []).append("in")
        if lexicon.pairs:
            ends = {end - 1: tag for _start, end, tag in matches}
            starts = {start: tag for start, _end, tag in matches}
            for i, left in ends.items():
                right = starts.get(i + 1)
                if right is not None:
                    rows[i].append(f"P{left}|{right}")
                elif i + 1 < n:
                    rows[i].append(f"Q{left}|{s[i + 1]}")
            for j, right in starts.items():
                if j > 0 and j - 1 not in ends:
                    rows[j - 1].append(f"R{s[j - 1]}|{right}")
    for m in _DOUBLED_ONE.finditer(s):  # 告于公|公許, 升賓|賓升: the one acted on, then acting
        rows.setdefault(m.start(), []).append("dup1")
    for m in _DOUBLED_TWO.finditer(s):  # 命小史|小史命
        rows.setdefault(m.start() + 1, []).append("dup2")
    for i in (0, 1):
        if i < n and n - i > 2:
            rows.setdefault(i, []).append(f"beg{i}")
    for i in range(max(0, n - 2), n):
        rows.setdefault(i, []).append(f"end{n - i}")
    return rows


def boundary_features(s: str, layer: Optional[str], window: int, lexicon: Optional["LexiconMarks"]) -> list[list[str]]:
    """Feature strings for the boundary after each character of the normalised string ``s``
    (what crfsuite trains on; :class:`CompiledCRF` scores the same features without strings)."""
    n = len(s)
    if n == 0:
        return []
    chars = list(s)
    shifted: dict[int, list[str]] = {}
    cols: list[list[str]] = []
    for name, offsets in ngram_templates(window, layer):
        for k in offsets:
            if k not in shifted:
                shifted[k] = shift(chars, k, PAD_LEFT if k < 0 else PAD_RIGHT)
        cols.append([f"{name}={''.join(g)}" for g in zip(*(shifted[k] for k in offsets))])
    rows = [list(row) for row in zip(*cols)]
    for i, extra in other_attributes(s, layer, lexicon).items():
        rows[i].extend(extra)
    if layer in LAYER_NAMES:
        for row in rows:
            row.append(f"L{layer}")
    return rows
