"""Cut a Doc's tokens where a character-level span model puts a span boundary.

The span CRF reads characters, the tokenizer words: where the CRF finds 卿 and 大夫 inside jieba's
one token 卿大夫 (a list whose 、 an unpunctuated edition lost), the span cannot sit on the Doc
until the token is cut. The model's boundary is the better evidence there (it was trained on the
gold spans; the tokenizer on modern Chinese), so the token is split rather than the span dropped.
Every span group of the Doc is kept, by its character offsets.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Iterable

from spacy.tokens import Doc, Span

from pipeline.nlp.base import COVER_KEY, note_cover


def token_boundaries(doc: Doc) -> set[int]:
    """The character offsets where a token starts or ends."""
    out = {0}
    for token in doc:
        i = token.idx
        out.add(i)
        out.add(i + len(token))  # len(token): its characters (no Python string is built)
    return out


def split_at(doc: Doc, offsets: Iterable[int]) -> bool:
    """Split the tokens of ``doc`` at the character ``offsets`` that fall inside one; every span
    group is rebuilt on the new tokens (spaCy's retokenizer leaves their token indexes stale).
    Each piece keeps the token's tag and part of speech; the first piece keeps its head (and
    relation), the others attach to the first (as ``flat``, in a parsed Doc). Returns whether a
    token was split."""
    starts = [token.idx for token in doc]
    cuts: dict[int, list[int]] = {}
    for offset in sorted(set(offsets)):
        i = bisect_right(starts, offset) - 1
        if i < 0:
            continue
        token = doc[i]
        if token.idx < offset < token.idx + len(token.text):
            cuts.setdefault(i, []).append(offset - token.idx)
    if not cuts:
        return False
    groups = {key: [(s.start_char, s.end_char, s.label_, s.kb_id_) for s in group] for key, group in doc.spans.items()}
    ents = [(s.start_char, s.end_char, s.label_, s.kb_id_) for s in doc.ents]
    parsed = doc.has_annotation("DEP")
    if parsed:
        doc.vocab.strings.add("flat")
    with doc.retokenize() as retokenizer:
        for i, inner in cuts.items():
            token = doc[i]
            bounds = [0, *inner, len(token.text)]
            orths = [token.text[a:b] for a, b in zip(bounds, bounds[1:])]
            first_head = token.head if token.head.i != token.i else (token, 0)
            heads = [first_head] + [(token, 0)] * (len(orths) - 1)
            attrs = {"TAG": [token.tag_] * len(orths), "POS": [token.pos_] * len(orths)}
            if parsed:
                attrs["DEP"] = [token.dep_] + ["flat"] * (len(orths) - 1)
            retokenizer.split(token, orths, heads=heads, attrs=attrs)
    _reindex_cover(doc)
    for key, rows in groups.items():
        doc.spans[key] = [Span(doc, span.start, span.end, label=label, kb_id=kb) for s, e, label, kb in rows
                          if (span := doc.char_span(s, e)) is not None]
    if ents:
        doc.ents = [Span(doc, span.start, span.end, label=label, kb_id=kb) for s, e, label, kb in ents
                    if (span := doc.char_span(s, e)) is not None]
    return True


def _reindex_cover(doc: Doc) -> None:
    """Point the tokenizer's lexicon cover (:data:`~pipeline.nlp.base.COVER_KEY`) at the new tokens,
    so the span ruler still reads its spans from it. A cut inside a term makes the cover wrong for
    the text (the best cover of 上工 is not that of 上|工): it is dropped, and the ruler matches."""
    given = doc.user_data.pop(COVER_KEY, None)
    if given:
        fingerprint, _n, rows = given
        note_cover(doc, fingerprint, [(s, e, label) for s, e, _i, label in rows],
                   [(token.idx, token.idx + len(token)) for token in doc])
