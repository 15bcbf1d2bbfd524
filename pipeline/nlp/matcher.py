"""Lexicon matching on the normalised view, and the one policy that settles overlaps and labels.

The ritual lexicon holds terms that overlap in running text (洗南 / 洗 + 南面, 阼階東南 / 阼階東 +
南面, 舉觶者 / 觶, 司射 / 射). Every stage that turns lexicon matches into units uses
:func:`best_cover` so that the tokenizers, the span ruler and the rule sentence splitter agree:

1. **Most characters covered** by non-overlapping terms: 適洗南面 → 洗 + 南面 (3 chars), not 洗南 (2);
   阼階東南面 → 阼階東 + 南面, not 阼階東南 + 面; 舉觶者 (3) over 觶 (1); 阼階上當楣 over 阼階上.
2. Ties → **fewer terms** (the longer term wins): 公卿 over 公 + 卿, 賓席 over 賓 + 席; then the
   longer first term (leftmost-longest).

A term listed under several labels gets one (:func:`resolve_label`): ACTOR > VERB > FACING >
LOCATION > OBJECT, except right after a word that introduces a place or a thing (適洗, 于洗, 設洗),
where a term that is also a VERB takes its other label. 席/筵 right before a participant is the act
of laying the mat (乃席賓) and gets no span (:func:`drop_acts`).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

from pipeline.nlp.lexicon import Lexicon

#: Label of the words that hide a term without being one (``nonterms.txt``): matched, then dropped.
NON_TERM = "_NONTERM"
NON_TERM_FILE = "nonterms.txt"

#: A label listed first wins when one term is listed under several labels.
LABEL_PRIORITY: tuple[str, ...] = ("ACTOR", "VERB", "FACING", "LOCATION", "OBJECT")

#: Right after these (normalised) characters a term that is also a VERB is a place or thing:
#: 适洗 (go to the washing basin), 于洗, 在洗, 当洗, 自洗, 至洗, 设洗 (set out the basin).
NON_VERB_BEFORE = frozenset("适于在当自至设陈")
#: … of these, the ones after which it is a thing (OBJECT) rather than a place (LOCATION).
OBJECT_BEFORE = frozenset("设陈")

#: A thing that is also a place (篚, 俎, 席 …) is the place right after these (normalised): 于篚,
#: 升席, 即席; elsewhere it is the thing (取篚, 設席).
PLACE_BEFORE = frozenset("于在自升降即就适反复")

Candidate = tuple[int, int, tuple[str, ...]]


def resolve_label(text: str, start: int, labels: Sequence[str]) -> str:
    """One label for a term listed under several (see the module docstring)."""
    if len(labels) == 1:
        return labels[0]
    before = text[start - 1] if start > 0 else ""
    if "VERB" not in labels and "LOCATION" in labels and "OBJECT" in labels:
        return "LOCATION" if before in PLACE_BEFORE else "OBJECT"  # 奠于篚 / 取篚, 升席 / 設席
    if "VERB" in labels and before in NON_VERB_BEFORE:
        others = [label for label in labels if label != "VERB"]
        preferred = "OBJECT" if before in OBJECT_BEFORE else "LOCATION"
        return preferred if preferred in others else others[0]
    return labels[0]


#: Nouns that are also the act of laying them out: 席賓 / 筵尸 ("spread the mat for …") is no place.
LAID_FOR = frozenset({"席", "筵"})


def drop_acts(text: str, chosen: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Chosen spans without a 席/筵 that is written right before a participant (乃席賓, 席主人于阼階上):
    there it is the act of laying the mat, which has no label (not in the closed VERB list)."""
    out: list[tuple[int, int, str]] = []
    for k, (s, e, label) in enumerate(chosen):
        nxt = chosen[k + 1] if k + 1 < len(chosen) else None
        if text[s:e] in LAID_FOR and nxt is not None and nxt[0] == e and nxt[2] == "ACTOR":
            continue
        out.append((s, e, label))
    return out


def best_cover(length: int, candidates: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The non-overlapping subset of ``candidates`` (start, end) that covers the most characters of
    a text of ``length``; ties → fewer pieces, then the longer first piece. Dynamic programming from
    the right over the candidates' starts only (the best cover of ``text[i:]`` is that of the
    first start at or after ``i``), O(candidates · log candidates)."""
    by_start: dict[int, list[int]] = {}
    for s, e in set(candidates):
        if 0 <= s < e <= length:
            by_start.setdefault(s, []).append(e)
    if not by_start:
        return []
    starts = sorted(by_start)
    n = len(starts)
    # (covered, pieces) of the best cover from starts[k] on; k == n: nothing left
    cover = [0] * (n + 1)
    pieces = [0] * (n + 1)
    choice = [0] * n  # end of the piece chosen at starts[k], 0 = none
    for k in range(n - 1, -1, -1):
        i = starts[k]
        best_c, best_p, best_e = cover[k + 1], pieces[k + 1], 0
        for e in sorted(by_start[i], reverse=True):  # longer first: wins exact ties
            after = bisect_left(starts, e, k + 1)
            c, p = cover[after] + (e - i), pieces[after] + 1
            if c > best_c or (c == best_c and p < best_p) or (c == best_c and p == best_p and best_e == 0):
                best_c, best_p, best_e = c, p, e
        cover[k], pieces[k], choice[k] = best_c, best_p, best_e
    out: list[tuple[int, int]] = []
    k = 0
    while k < n:
        e = choice[k]
        if e:
            out.append((starts[k], e))
            k = bisect_left(starts, e, k + 1)
        else:
            k += 1
    return out


@dataclass
class LexiconMatcher:
    """Finds lexicon terms in normalised text: every candidate, or the best non-overlapping cover."""

    #: normalised term -> its labels, in :data:`LABEL_PRIORITY` order
    terms: dict[str, tuple[str, ...]]
    _lengths: dict[str, tuple[int, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        lengths: dict[str, set[int]] = {}
        for term in self.terms:
            lengths.setdefault(term[0], set()).add(len(term))
        self._lengths = {ch: tuple(sorted(ls, reverse=True)) for ch, ls in lengths.items()}

    @cached_property
    def fingerprint(self) -> str:
        """A short digest of the terms and their labels: two matchers with the same one match alike."""
        digest = hashlib.sha1(repr(sorted(self.terms.items())).encode("utf-8")).hexdigest()
        return digest[:16]

    @classmethod
    def from_lexicon(
        cls, lexicon: Lexicon, normalise: Optional[Callable[[str], str]] = None, nonterms: Iterable[str] = ()
    ) -> "LexiconMatcher":
        if normalise is None:
            from pipeline.text.normalise import normalise_str as normalise
        labels: dict[str, list[str]] = {}
        for label, items in lexicon.normalised(normalise).items():
            for term in items:
                if term and label not in labels.setdefault(term, []):
                    labels[term].append(label)
        for word in nonterms:
            labels[normalise(word)] = [NON_TERM]  # a non-term hides the term, whatever it is
        rank = {label: i for i, label in enumerate(LABEL_PRIORITY)}
        return cls({t: tuple(sorted(ls, key=lambda l: rank.get(l, len(rank)))) for t, ls in labels.items()})

    @classmethod
    def load(cls, folder: Optional[Path | str] = None) -> "LexiconMatcher":
        return _load_cached(str(folder) if folder else "")

    def candidates(self, text: str) -> list[Candidate]:
        """Every occurrence of every term (overlapping), as (start, end, labels)."""
        out: list[Candidate] = []
        terms, lengths = self.terms, self._lengths
        for i, ch in enumerate(text):
            ls = lengths.get(ch)
            if ls is None:
                continue
            for n in ls:
                labels = terms.get(text[i : i + n])
                if labels is not None:
                    out.append((i, i + n, labels))
        return out

    def match(self, text: str, keep_nonterms: bool = False) -> list[tuple[int, int, str]]:
        """The best non-overlapping terms (:func:`best_cover`), each with one label; the non-terms
        (:data:`NON_TERM`) only when ``keep_nonterms`` (tokenizers keep them whole)."""
        cands = self.candidates(text)
        labels = {(s, e): ls for s, e, ls in cands}
        out = [(s, e, resolve_label(text, s, labels[(s, e)])) for s, e in best_cover(len(text), labels)]
        if keep_nonterms:
            return out
        return drop_acts(text, [m for m in out if m[2] != NON_TERM])


def load_nonterms(folder: Optional[Path | str] = None) -> list[str]:
    """The words of ``nonterms.txt`` beside the lexicon files (none if the file is absent)."""
    from pipeline.nlp.lexicon import default_lexicon_dir, read_lexicon_file

    path = Path(folder or default_lexicon_dir()) / NON_TERM_FILE
    if not path.is_file():
        return []
    lines = (line.strip() for line in read_lexicon_file(path).splitlines())
    return [line.split("\t")[0] for line in lines if line and not line.startswith("#")]


@lru_cache(maxsize=8)
def _load_cached(folder: str) -> LexiconMatcher:
    path = Path(folder) if folder else None
    return LexiconMatcher.from_lexicon(Lexicon.load(path), nonterms=load_nonterms(path))
