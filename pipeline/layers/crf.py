"""A trained crfsuite model read straight from its bytes, without scikit-learn.

sklearn-crfsuite's ``CRF`` pickles its model file's bytes and tags with a ``pycrfsuite.Tagger``
opened on them; :class:`CrfTagger` opens the same tagger on the same bytes (``open_inmemory``),
so its labels are those of the CRF it was taken from, and importing it costs milliseconds
(sklearn-crfsuite imports scikit-learn).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence


class CrfTagger:
    """``predict_single`` of a fitted sklearn-crfsuite ``CRF``, from the model file's bytes."""

    def __init__(self, model: bytes):
        import pycrfsuite

        self.model = bytes(model)
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open_inmemory(self.model)  # raises ValueError on bytes that are no crfsuite model

    @classmethod
    def model_bytes(cls, crf: Any) -> bytes:
        """The model file of a fitted sklearn-crfsuite ``CRF`` (what its pickle holds)."""
        name = getattr(getattr(crf, "modelfile", None), "name", None)
        if not name:
            raise ValueError("the CRF is not fitted: it has no model file")
        return Path(name).read_bytes()

    def predict_single(self, xseq: Sequence[dict]) -> list[str]:
        return self._tagger.tag(xseq)

    def predict_marginals_single(self, xseq: Sequence[dict]) -> list[dict[str, float]]:
        """Each position's label marginals, as sklearn-crfsuite's ``CRF.predict_marginals_single``."""
        self._tagger.set(xseq)
        labels = self._tagger.labels()
        return [{label: self._tagger.marginal(label, i) for label in labels} for i in range(len(xseq))]
