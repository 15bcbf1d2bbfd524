"""``yili_lexicon_ruler``: spaCy's SpanRuler fed with the ritual lexicon, one label per place.

Patterns are the lexicon terms (``configs/lexicon``) in their normalised form (the tagger reads the
normalised view), one phrase pattern per term and label. The ruler's spans filter is
:func:`lexicon_spans_filter`: the spans it keeps never overlap, cover the most characters, and a
term listed under several labels gets one (policy in :mod:`pipeline.nlp.matcher`). The words of
``nonterms.txt`` (鄉射, 特牲 …) take part in that choice and are then dropped. They are stored
in ``doc.spans[spans_key]`` (``"sc"`` by default).

Every yili word tokenizer has already chosen the lexicon's cover to keep each term one token
(:mod:`pipeline.nlp.alignment`) and leaves it on the Doc (``COVER_KEY``); the ruler then reads
its spans from there instead of matching again. They are the same spans: the tokenizer's cover
is the best one over all matches, and each of its terms is a token, so it is also the best over
the token-aligned matches the ruler would find (tested on corpus chapters). A Doc without it
(the ``char`` tokenizer) is matched by the lexicon's matcher on its matching form
(:func:`~pipeline.nlp.base.doc_text`: the text as an edition writes it reads as 宾, not 賓) where
every term found is whole tokens; another lexicon, or patterns changed after the ruler was made,
take spaCy's own path.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

from spacy.language import Language
from spacy.pipeline import SpanRuler
from spacy.tokens import Doc, Span
from spacy.util import registry

from pipeline.nlp.base import COVER_KEY, doc_text
from pipeline.nlp.lexicon import Lexicon
from pipeline.nlp.matcher import (
    LABEL_PRIORITY,
    NON_TERM,
    LexiconMatcher,
    best_cover,
    drop_acts,
    load_nonterms,
    resolve_label,
)
from pipeline.text.normalise import normalise_str

SPANS_KEY = "sc"


def lexicon_patterns(lexicon_dir: Optional[str] = None) -> list[dict[str, str]]:
    """One phrase pattern per (normalised term, label) of the lexicon, and one per non-term."""
    from pathlib import Path

    folder = Path(lexicon_dir) if lexicon_dir else None
    lexicon = Lexicon.load(folder)
    patterns: list[dict[str, str]] = []
    for label, terms in lexicon.normalised(normalise_str).items():
        patterns.extend({"label": label, "pattern": term} for term in terms)
    nonterms = dict.fromkeys(normalise_str(w) for w in load_nonterms(folder))
    patterns.extend({"label": NON_TERM, "pattern": word} for word in nonterms)
    return patterns


def choose_spans(existing: Iterable[Span], spans: Iterable[Span]) -> list[Span]:
    """The new ``spans`` to keep: none overlapping ``existing`` or each other, most characters covered."""
    taken = set()
    for span in existing:
        taken.update(range(span.start_char, span.end_char))
    labels: dict[tuple[int, int], list[str]] = {}
    tokens: dict[tuple[int, int], tuple[int, int]] = {}  # char range -> token range (no char_span: slow)
    doc = None
    for span in spans:
        doc = span.doc
        s, e = span.start_char, span.end_char
        if taken and any(i in taken for i in range(s, e)):
            continue
        labels.setdefault((s, e), []).append(span.label_)
        tokens[(s, e)] = (span.start, span.end)
    if doc is None:
        return []
    rank = {label: i for i, label in enumerate(LABEL_PRIORITY)}
    text = doc_text(doc)  # doc.text is rebuilt from the tokens on every access
    chosen: list[tuple[int, int, str]] = []
    for s, e in best_cover(len(text), labels):
        if NON_TERM in labels[(s, e)]:  # it hides the terms inside it and is no span itself
            continue
        ordered = sorted(set(labels[(s, e)]), key=lambda l: rank.get(l, len(rank)))
        chosen.append((s, e, resolve_label(text, s, ordered)))
    return [Span(doc, *tokens[(s, e)], label=label) for s, e, label in drop_acts(text, chosen)]


@registry.misc("yili.lexicon_spans_filter.v1")
def lexicon_spans_filter() -> Callable[[Iterable[Span], Iterable[Span]], list[Span]]:
    return choose_spans


class LexiconRuler(SpanRuler):
    """spaCy's SpanRuler with the lexicon's patterns, which takes the tokenizer's cover when it has one."""

    #: the lexicon's matcher and its fingerprint; the fingerprint is None once the patterns changed
    lexicon_matcher: Optional[LexiconMatcher] = None
    fingerprint: Optional[str] = None

    def __call__(self, doc: Doc) -> Doc:
        own = self.fingerprint is not None and self.overwrite and not self.annotate_ents and bool(self.key)
        given = doc.user_data.get(COVER_KEY)
        if own and given and given[0] == self.fingerprint and given[1] == len(doc):
            doc.spans[self.key] = spans_from_cover(doc, given[2])
            return doc
        spans = self._matched(doc) if own else None
        if spans is not None:
            doc.spans[self.key] = spans
            return doc
        return super().__call__(doc)

    def _matched(self, doc: Doc) -> Optional[list[Span]]:
        """The lexicon's spans found in the Doc's matching form (:func:`~pipeline.nlp.base.doc_text`),
        when each is whole tokens (one token a character: the ``char`` tokenizer): spaCy's phrase
        matcher would find the same in normalised text, and misses 賓 (宾 in the lexicon) in text as
        an edition writes it. None where a term falls across a token edge: spaCy's path then."""
        if self.lexicon_matcher is None:
            return None
        out = []
        for s, e, label in self.lexicon_matcher.match(doc_text(doc)):
            span = doc.char_span(s, e, label=label)
            if span is None:
                return None
            out.append(span)
        return out

    # patterns changed after the ruler was made: match them (the cover knows only the lexicon)
    def add_patterns(self, patterns: list) -> None:
        self.fingerprint = None
        super().add_patterns(patterns)

    def clear(self) -> None:
        self.fingerprint = None
        super().clear()

    def remove(self, label: str) -> None:
        self.fingerprint = None
        super().remove(label)

    def remove_by_id(self, pattern_id: str) -> None:
        self.fingerprint = None
        super().remove_by_id(pattern_id)

    def from_bytes(self, *args: Any, **kwargs: Any) -> "LexiconRuler":
        self.fingerprint = None
        return super().from_bytes(*args, **kwargs)

    def from_disk(self, *args: Any, **kwargs: Any) -> "LexiconRuler":
        self.fingerprint = None
        return super().from_disk(*args, **kwargs)


def spans_from_cover(doc: Doc, rows: Iterable[tuple[int, int, int, str]]) -> list[Span]:
    """The spans :func:`choose_spans` keeps, from the tokenizer's cover rows (start, end, token, label)."""
    rows = list(rows)
    token_of = {s: i for s, _e, i, _label in rows}
    kept = drop_acts(doc_text(doc), [(s, e, label) for s, e, _i, label in rows if label != NON_TERM])
    return [Span(doc, token_of[s], token_of[s] + 1, label=label) for s, _e, label in kept]


@Language.factory(
    "yili_lexicon_ruler",
    default_config={"lexicon_dir": None, "spans_key": SPANS_KEY},
)
def make_lexicon_ruler(nlp: Language, name: str, lexicon_dir: Optional[str], spans_key: str) -> LexiconRuler:
    ruler = LexiconRuler(nlp, name, spans_key=spans_key, spans_filter=choose_spans, overwrite=True)
    ruler.add_patterns(lexicon_patterns(lexicon_dir))
    ruler.lexicon_matcher = LexiconMatcher.load(lexicon_dir)  # SpanRuler's own ``matcher`` is spaCy's
    ruler.fingerprint = ruler.lexicon_matcher.fingerprint
    return ruler


class LexiconSpans:
    """The spans a pipeline made of the lexicon ruler alone sets, from the text alone: no tokens,
    no Doc. They are the same for every tokenizer backend (the ruler's cover is the lexicon's best
    cover of the text, see the module docstring), so the layers no span model reads (注, 疏 in
    ``yili process``) skip the word tokenizer, whose cuts nothing downstream of them reads."""

    def __init__(self, matcher: LexiconMatcher):
        self.matcher = matcher

    def __call__(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, label) in text order, as ``doc.spans`` holds them after the ruler."""
        return self.matcher.match(text) if text else []


def lexicon_spans_of(nlp: Language, disabled: Iterable[str] = ()) -> Optional[LexiconSpans]:
    """:class:`LexiconSpans` for ``nlp`` less the ``disabled`` components when what is left is the
    lexicon ruler alone, with the lexicon's patterns unchanged; None otherwise."""
    off = set(disabled)
    active = [proc for name, proc in nlp.pipeline if name not in off]
    if len(active) != 1 or not isinstance(active[0], LexiconRuler):
        return None
    ruler = active[0]
    if ruler.lexicon_matcher is None or ruler.fingerprint is None or not ruler.overwrite or ruler.annotate_ents:
        return None
    return LexiconSpans(ruler.lexicon_matcher)
