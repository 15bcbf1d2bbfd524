"""``udkanbun`` backend: UD-Kanbun's MeCab + UDPipe word cutting, re-aligned to the lexicon.

UD-Kanbun ships its own models (offline), but it is an optional extra: ``pip install yili[udkanbun]``.
Its cuts are nearly one character per token (主人 → 主 + 人); the lexicon alignment rebuilds the
ritual terms. ``Danku`` (its sentence splitter) is never used: it posts the text to a web service.
Tokens that UD-Kanbun cut exactly as they end up get its UPOS in ``token.pos_``.
"""

from __future__ import annotations

from typing import Callable, Optional

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab

from pipeline.nlp.base import BackendUnavailable, LexiconAlignedTokenizer

MISSING = (
    "the 'udkanbun' tokenizer needs the UD-Kanbun package, an optional extra: "
    "pip install yili[udkanbun]   (or: pip install udkanbun; it ships its models, no download at run time). "
    "Or choose another backend: [nlp] tokenizer = \"jieba\" or \"char\"."
)

#: ASCII punctuation UD-Kanbun misreads (',' gets deprel advmod): mapped to the full-width form, same length.
_FULL_WIDTH = str.maketrans({",": "，", ";": "；", ":": "：", "?": "？", "!": "！", ".": "。"})


def load_udkanbun():
    try:
        import udkanbun
    except ImportError as exc:
        raise BackendUnavailable(MISSING) from exc
    return udkanbun.load()


class UDKanbunTokenizer(LexiconAlignedTokenizer):
    name = "udkanbun"

    def __init__(self, vocab: Vocab, lexicon_dir: Optional[str] = None, function_words: str = "于以之而其者"):
        super().__init__(vocab, lexicon_dir, function_words)
        self.model = load_udkanbun()
        self._upos: dict[tuple[int, int], str] = {}

    def base_ranges(self, text: str) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        self._upos = {}
        for offset, chunk in _chunks(text):
            if not chunk.strip():
                continue
            chunk = chunk.translate(_FULL_WIDTH)
            pos = 0
            for line in str(self.model(chunk)).splitlines():
                cols = line.split("\t")
                if len(cols) < 4 or not cols[0].isdigit() or not cols[1]:
                    continue
                found = chunk.find(cols[1], pos)
                if found < 0:  # a form the model rewrote: fill_gaps cuts those chars one by one
                    continue
                start, end = offset + found, offset + found + len(cols[1])
                out.append((start, end))
                self._upos[(start, end)] = cols[3]
                pos = found + len(cols[1])
        return out

    def __call__(self, text: str) -> Doc:
        doc = super().__call__(text)
        for token in doc:
            upos = self._upos.get((token.idx, token.idx + len(token)))
            if upos:
                token.pos_ = upos
        return doc


def _chunks(text: str, size: int = 40):
    """(offset, piece) of the text in pieces of at most ``size`` chars, cut after a mark where one
    is near: UD-Kanbun slows down sharply on long stretches (6,580 chars of 經: 19 s in one call,
    1.6 s in 40-char pieces)."""
    pos = 0
    while pos < len(text):
        end = min(len(text), pos + size)
        if end < len(text):
            cut = max(text.rfind(m, pos + size // 2, end) for m in "。；，,;：:")
            if cut > pos:
                end = cut + 1
        yield pos, text[pos:end]
        pos = end


@registry.tokenizers("yili.udkanbun_tokenizer.v1")
def create_udkanbun_tokenizer(
    lexicon_dir: Optional[str] = None, function_words: str = "于以之而其者"
) -> Callable[[Language], UDKanbunTokenizer]:
    def make(nlp: Language) -> UDKanbunTokenizer:
        return UDKanbunTokenizer(nlp.vocab, lexicon_dir, function_words)

    return make
