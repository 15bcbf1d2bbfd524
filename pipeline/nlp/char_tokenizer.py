"""``char`` backend: one token per character (spaCy's own zh default, without its settings)."""

from __future__ import annotations

from typing import Callable

from spacy.language import Language
from spacy.util import registry

from pipeline.nlp.base import OffsetTokenizer


class CharTokenizer(OffsetTokenizer):
    name = "char"

    def ranges(self, text: str) -> list[tuple[int, int]]:
        return [(i, i + 1) for i in range(len(text))]


@registry.tokenizers("yili.char_tokenizer.v1")
def create_char_tokenizer() -> Callable[[Language], CharTokenizer]:
    def make(nlp: Language) -> CharTokenizer:
        return CharTokenizer(nlp.vocab)

    return make
