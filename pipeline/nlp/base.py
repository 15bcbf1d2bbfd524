"""What every yili tokenizer shares: character offsets in, a spaCy ``Doc`` out, nothing to save.

The tokenizers are rebuilt from the config (and the lexicon files) whenever a pipeline is
loaded, so serialising them writes nothing; ``nlp.to_disk`` / ``spacy.load`` still work as long
as :mod:`pipeline.nlp` is imported first (it registers the functions the config names).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence

from spacy.tokens import Doc
from spacy.vocab import Vocab

from pipeline.nlp.alignment import fill_gaps, lexicon_aligned
from pipeline.nlp.matcher import LexiconMatcher


#: ``doc.user_data`` key of the text a yili tokenizer was given, in its matching form
#: (:func:`matching_form`): what the lexicon, the word lists and the span model read. The Doc's
#: tokens keep the text as it was given (賓, not 宾), at the same offsets.
TEXT_KEY = "yili_text"

#: ``doc.user_data`` key of the lexicon cover a lexicon-aligned tokenizer chose for the text:
#: ``(lexicon fingerprint, number of tokens, [(start, end, token, label), …])``, each term one token.
#: The span ruler reads its spans from it instead of matching the lexicon a second time.
COVER_KEY = "yili_cover"


def doc_text(doc: Doc) -> str:
    """The text of ``doc`` in its matching form (retokenising never changes it), as the tokenizer
    kept it, or made from ``doc.text`` for a Doc that no yili tokenizer made."""
    text = doc.user_data.get(TEXT_KEY)
    if not isinstance(text, str):
        text = doc.user_data[TEXT_KEY] = matching_form(doc.text)
    return text


def matching_form(text: str) -> str:
    """``text`` as the lexicon and the models read it (``normalise_str``: 賓 → 宾, 於 → 于, one character
    per character, so offsets hold). ``yili process`` tags its normalised view, already in this form;
    a spaCy user hands the pipeline the text as an edition writes it."""
    from pipeline.text.normalise import normalise_str

    return normalise_str(text)


class BackendUnavailable(RuntimeError):
    """A tokenizer backend the config names cannot run here; the message says how to provide it."""


class OffsetTokenizer:
    """Subclasses return token (start, end) ranges; this turns them into a Doc whose text is the input."""

    name = "base"

    def __init__(self, vocab: Vocab):
        self.vocab = vocab

    def ranges(self, text: str) -> list[tuple[int, int]]:
        raise NotImplementedError

    def warm_up(self) -> None:
        """Load now what the first call would load (a backend's dictionary), e.g. before forking
        workers that then share it."""

    def __call__(self, text: str) -> Doc:
        key = matching_form(text)
        return self._doc(text, self.ranges(key), key)

    def _doc(self, text: str, ranges: Sequence[tuple[int, int]], key: Optional[str] = None) -> Doc:
        """The Doc of ``text`` cut at ``ranges``; ``key``, its matching form, is kept beside it."""
        words = [text[s:e] for s, e in ranges]
        doc = Doc(self.vocab, words=words, spaces=[False] * len(words))
        doc.user_data[TEXT_KEY] = text if key is None else key  # doc.text rebuilds the string token by token
        return doc

    def pipe(self, texts, batch_size: int = 1000):
        for text in texts:
            yield self(text)

    # -- nothing to serialise: the config and the lexicon rebuild the tokenizer -----------------
    def to_bytes(self, *, exclude: Sequence[str] = ()) -> bytes:
        return b""

    def from_bytes(self, data: bytes, *, exclude: Sequence[str] = ()) -> "OffsetTokenizer":
        return self

    def to_disk(self, path: Any, *, exclude: Sequence[str] = ()) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path: Any, *, exclude: Sequence[str] = ()) -> "OffsetTokenizer":
        return self


class LexiconAlignedTokenizer(OffsetTokenizer):
    """A word tokenizer whose cuts are re-aligned to the lexicon (:mod:`pipeline.nlp.alignment`)."""

    def __init__(self, vocab: Vocab, lexicon_dir: Optional[str] = None, function_words: str = "于以之而其者"):
        super().__init__(vocab)
        self.matcher = LexiconMatcher.load(lexicon_dir)
        self.function_words = function_words

    def base_ranges(self, text: str) -> list[tuple[int, int]]:
        raise NotImplementedError

    def cover(self, text: str) -> list[tuple[int, int, str]]:
        """The lexicon terms (and non-terms) chosen in ``text``: each becomes one token."""
        return self.matcher.match(text, keep_nonterms=True) if text else []

    def ranges(self, text: str) -> list[tuple[int, int]]:
        return self.aligned(text, self.cover(text))

    def aligned(self, text: str, cover: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
        """Token ranges of ``text`` in which every term of ``cover`` is one token."""
        if not text:
            return []
        units = [(s, e) for s, e, _ in cover]
        return lexicon_aligned(text, fill_gaps(text, self.base_ranges(text)), units, self.function_words)

    def __call__(self, text: str) -> Doc:
        key = matching_form(text)  # the lexicon and the word lists are in this form
        cover = self.cover(key)
        ranges = self.aligned(key, cover)
        doc = self._doc(text, ranges, key)
        note_cover(doc, self.matcher.fingerprint, cover, ranges)
        return doc


def note_cover(doc: Doc, fingerprint: str, cover: Sequence[tuple[int, int, str]],
               ranges: Sequence[tuple[int, int]]) -> None:
    """Keep the ``cover`` on ``doc`` (:data:`COVER_KEY`) with each term's token, if each term is one."""
    token_at = {s: i for i, (s, _e) in enumerate(ranges)}
    rows = []
    for s, e, label in cover:
        i = token_at.get(s)
        if i is None or ranges[i][1] != e:
            return
        rows.append((s, e, i, label))
    doc.user_data[COVER_KEY] = (fingerprint, len(ranges), rows)
