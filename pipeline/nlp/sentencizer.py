"""``yili_sentences``: sets ``doc.sents`` the way ``yili process`` cuts sentences.

Punctuated text is cut at its marks (:func:`pipeline.text.sentences.split_units`); unpunctuated
text goes through the 斷句 model (``splitter = "crf"``, the shipped ``models/punctuate``) or the
lexicon rules (``"rules"``), or stays one sentence (``"marks"``: marks only). The layer given in
``doc.user_data["layer"]`` (JING/ZHU/SHU) selects the model's per-layer features.

A sentence break that falls inside a token (jieba joins 東上|工坐 into 上工) cuts that token
(:func:`pipeline.nlp.retokenize.split_at`), as ``yili process`` tokenizes each sentence apart: the
spaCy sentences are then the character ranges kept in ``doc.user_data["sentence_chars"]`` (in the
coordinates of ``doc.text``); map them to the raw text with the
:class:`~pipeline.text.view.TextView` the text came from (``view.to_raw``), as
:func:`raw_sentences` does.
"""

from __future__ import annotations

from typing import Any, Optional

from spacy.language import Language
from spacy.tokens import Doc

from pipeline.nlp.retokenize import split_at
from pipeline.text.break_features import LAYER_NAMES  # the layers the 斷句 model reads each in its own way

SPLITTERS = ("crf", "rules", "marks")


class SentenceSetter:
    """The component: ``splitter`` one of :data:`SPLITTERS`; ``model`` a 斷句 model folder (crf);
    ``layer`` the layer of a Doc whose ``user_data`` names none (None: no known layer, about three
    points of break F1 lower and fewer sentence ends)."""

    def __init__(self, splitter: str = "crf", model: Optional[str] = None, layer: Optional[str] = None):
        if splitter not in SPLITTERS:
            raise ValueError(f"yili_sentences: unknown splitter {splitter!r}; choose one of {', '.join(SPLITTERS)}")
        if layer is not None and layer not in LAYER_NAMES:
            raise ValueError(f"yili_sentences: unknown layer {layer!r}; choose one of {', '.join(LAYER_NAMES)} (or none)")
        self.splitter = splitter
        self.model = model
        self.layer = layer
        self._punctuator = None

    def _splitter(self, layer: Optional[str]) -> Any:
        if self.splitter == "rules":
            return None  # split_units falls back to the rule splitter
        if self.splitter == "marks":
            return _NoBreaks()
        if self._punctuator is None:
            from pipeline.text.punctuate import Punctuator

            self._punctuator = Punctuator.load(self.model)
        return self._punctuator.for_layer(layer)

    def __call__(self, doc: Doc) -> Doc:
        from pipeline.text.sentences import split_units

        text = doc.text
        if not len(doc):
            return doc
        sentences, _clauses = split_units(text, self._splitter(doc.user_data.get("layer") or self.layer))
        doc.user_data["sentence_chars"] = [list(s) for s in sentences]
        starts = {s for s, _e in sentences}
        split_at(doc, starts)  # a break inside a token cuts it
        # a token starts a sentence if a sentence starts at it, or in the space before it
        pending = sorted(starts)
        k = 0
        for token in doc:
            begun = False
            while k < len(pending) and pending[k] <= token.idx:
                begun = True
                k += 1
            token.is_sent_start = token.i == 0 or begun
        return doc


class _NoBreaks:
    def breaks(self, text: str) -> list:
        return []


@Language.factory(
    "yili_sentences",
    default_config={"splitter": "crf", "model": None, "layer": None},
    requires=[],
    assigns=["token.is_sent_start"],
)
def make_sentence_setter(nlp: Language, name: str, splitter: str, model: Optional[str],
                         layer: Optional[str]) -> SentenceSetter:
    return SentenceSetter(splitter, model, layer)


def raw_sentences(doc: Doc, view: Any) -> list[tuple[int, int]]:
    """The doc's sentence character ranges as raw offsets, through the view ``doc.text`` came from."""
    return [view.to_raw(s, e) for s, e in doc.user_data.get("sentence_chars", [])]
