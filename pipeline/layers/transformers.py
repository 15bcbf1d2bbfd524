"""The layer model's cues as scikit-learn transformers, for training (kept apart from
:mod:`pipeline.layers.features` so that reading the cues does not import scikit-learn)."""

from __future__ import annotations

from typing import Iterable

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from pipeline.layers.features import feature_names, ngram_text, scholar_features


class ScholarFeatures(BaseEstimator, TransformerMixin):
    """Transformer: texts → the dense matrix of :func:`scholar_features` (stateless)."""

    def fit(self, texts: Iterable[str], y=None) -> "ScholarFeatures":
        return self

    def transform(self, texts: Iterable[str]) -> np.ndarray:
        return np.array([scholar_features(t) for t in texts], dtype=np.float64)

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        return np.array(feature_names(), dtype=object)


class NgramText(BaseEstimator, TransformerMixin):
    """Transformer: texts → :func:`ngram_text` strings, for a character n-gram vectorizer."""

    def fit(self, texts: Iterable[str], y=None) -> "NgramText":
        return self

    def transform(self, texts: Iterable[str]) -> list[str]:
        return [ngram_text(t) for t in texts]
