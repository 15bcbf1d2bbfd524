"""A fitted character TF-IDF vectorizer in a compact, fast-loading form.

scikit-learn's :class:`~sklearn.feature_extraction.text.TfidfVectorizer` keeps its vocabulary as a
Python dict: for the layer model's 400,000 character n-grams that is about 135 MB in memory and
two seconds of unpickling in every worker process. :class:`CompactCharTfidf` holds the same
vocabulary as one sorted NumPy string array (about 6 MB) and looks n-grams up with
``searchsorted``; :meth:`transform` gives the same matrix as the vectorizer it was made from
(same n-grams, counts, sublinear tf, idf, l2 norm, dtype). Only what inference needs is kept.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

from pipeline.layers.tfidf import CharTfidf


class CompactCharTfidf(CharTfidf, BaseEstimator, TransformerMixin):
    """Inference-only stand-in for a fitted ``TfidfVectorizer(analyzer="char")`` inside a Pipeline
    (the transform is :class:`~pipeline.layers.tfidf.CharTfidf`'s)."""

    @classmethod
    def from_vectorizer(cls, vec) -> "CompactCharTfidf":
        if vec.analyzer != "char" or vec.preprocessor is not None or vec.strip_accents is not None:
            raise ValueError("only a plain character TfidfVectorizer can be made compact")
        items = sorted(vec.vocabulary_.items())
        width = max(len(t) for t, _ in items)
        terms = np.array([t for t, _ in items], dtype=f"<U{width}")
        columns = np.array([c for _, c in items], dtype=np.int32)
        return cls(terms, columns, np.asarray(vec.idf_, dtype=np.float64), tuple(vec.ngram_range),
                   bool(vec.sublinear_tf), vec.norm, bool(vec.lowercase), vec.dtype)

    def __sklearn_is_fitted__(self) -> bool:
        return True  # made from a fitted vectorizer

    def fit(self, texts: Iterable[str], y=None) -> "CompactCharTfidf":
        return self  # already fitted: made from a fitted vectorizer


def compact_pipeline(model) -> bool:
    """Swap every fitted char ``TfidfVectorizer`` inside ``model`` (Pipelines and FeatureUnions,
    nested) for a :class:`CompactCharTfidf`, in place; True if one was swapped."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import FeatureUnion, Pipeline

    swapped = False
    if isinstance(model, Pipeline):
        for k, (name, step) in enumerate(model.steps):
            if isinstance(step, TfidfVectorizer) and step.analyzer == "char":
                model.steps[k] = (name, CompactCharTfidf.from_vectorizer(step))
                swapped = True
            else:
                swapped |= compact_pipeline(step)
    elif isinstance(model, FeatureUnion):
        for name, part in model.transformer_list:
            swapped |= compact_pipeline(part)
    return swapped
