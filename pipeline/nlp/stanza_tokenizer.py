"""``stanza`` backend: a stanza Classical Chinese (lzh) tokenizer model from a LOCAL folder.

Nothing is ever downloaded: stanza's default pipeline fetches models from the network, which this
project never does. By default (``stanza_model_dir = null``) the model shipped in
``models/stanza-lzh`` is used (trained on UD Kyoto by ``yili train stanza``,
:mod:`pipeline.nlp.stanza_training`); any other folder holding a tokenizer model can be named::

    [nlp]
    tokenizer = "stanza"
    stanza_model_dir = "/path/to/folder"   # holds the tokenizer model (*.pt)

The package itself is an optional extra: ``pip install torch==2.13.0`` first (the CPU build),
then ``pip install yili[stanza]``. Its cuts are re-aligned to the lexicon like every other word
tokenizer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Optional

from spacy.language import Language
from spacy.util import registry
from spacy.vocab import Vocab

from pipeline.nlp.base import BackendUnavailable, LexiconAlignedTokenizer

HOW = (
    "set [nlp] stanza_model_dir in the config to a local folder holding a trained stanza lzh "
    "tokenizer model (*.pt); yili never downloads models"
)


def default_model_dir() -> Path:
    """``models/stanza-lzh`` of the checkout: the shipped lzh word tokenizer."""
    from pipeline.config import shipped

    return shipped("models/stanza-lzh")


def model_folder(model_dir: Optional[str]) -> Path:
    """The folder the backend reads: ``model_dir``, or the shipped ``models/stanza-lzh`` when unset."""
    from pipeline.config import model_path

    return model_path(model_dir) if model_dir else default_model_dir()


def find_model(model_dir: Optional[str]) -> Path:
    """The tokenizer model file inside ``model_dir`` (default: the shipped ``models/stanza-lzh``),
    or a :class:`BackendUnavailable` naming the path and how to provide the model."""
    if not model_dir:
        folder = default_model_dir()
        models = sorted(folder.glob("*tokeni*.pt")) if folder.is_dir() else []
        if not models:
            raise BackendUnavailable(
                f"the 'stanza' tokenizer model is missing: no *.pt in {folder} (stanza_model_dir is not set, so "
                f"the shipped model is used); rebuild it with `yili train stanza` (needs pip install torch==2.13.0 "
                f"and yili[stanza], and ../shared/ud-kyoto), or {HOW}"
            )
        return models[0]
    folder = model_folder(model_dir)
    if not folder.is_dir():
        raise BackendUnavailable(f"the 'stanza' tokenizer model folder does not exist: {folder}; {HOW}")
    models = sorted(folder.rglob("*tokeni*.pt")) or sorted(folder.rglob("*.pt"))
    if not models:
        raise BackendUnavailable(f"no stanza tokenizer model (*.pt) in {folder}; {HOW}")
    return models[0]


def load_stanza(model_dir: Optional[str]):
    model = find_model(model_dir)
    try:
        import stanza
    except ImportError as exc:
        raise BackendUnavailable(
            "the 'stanza' tokenizer needs the stanza package, an optional extra: pip install torch==2.13.0 "
            "(the CPU build, first), then pip install yili[stanza]"
        ) from exc
    folder = model_folder(model_dir)
    resources = folder / "resources.json"
    if not resources.exists():  # stanza insists on a resources file; an empty one stops any download
        try:
            resources.write_text(json.dumps({}), encoding="utf-8")
        except OSError:  # a read-only model folder: point stanza at an empty resources file elsewhere
            import tempfile

            folder = Path(tempfile.mkdtemp(prefix="yili-stanza-"))
            (folder / "resources.json").write_text(json.dumps({}), encoding="utf-8")
    return stanza.Pipeline(
        lang="lzh", dir=str(folder), download_method=None, processors="tokenize",
        tokenize_model_path=str(model), logging_level="ERROR", use_gpu=False,  # not "Unsupported language: lzh"
    )


class StanzaTokenizer(LexiconAlignedTokenizer):
    name = "stanza"

    def __init__(
        self, vocab: Vocab, model_dir: Optional[str], lexicon_dir: Optional[str] = None,
        function_words: str = "于以之而其者",
    ):
        super().__init__(vocab, lexicon_dir, function_words)
        self.model = load_stanza(model_dir)

    def base_ranges(self, text: str) -> list[tuple[int, int]]:
        doc = self.model(text)
        return [(t.start_char, t.end_char) for s in doc.sentences for t in s.tokens]


@registry.tokenizers("yili.stanza_tokenizer.v1")
def create_stanza_tokenizer(
    model_dir: Optional[str] = None, lexicon_dir: Optional[str] = None, function_words: str = "于以之而其者"
) -> Callable[[Language], StanzaTokenizer]:
    find_model(model_dir)  # fail when the pipeline is assembled, not at the first document

    def make(nlp: Language) -> StanzaTokenizer:
        return StanzaTokenizer(nlp.vocab, model_dir, lexicon_dir, function_words)

    return make
