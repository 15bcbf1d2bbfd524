"""A fitted character TF-IDF vectorizer in a compact, fast-loading form.

scikit-learn's :class:`~sklearn.feature_extraction.text.TfidfVectorizer` keeps its vocabulary as a
Python dict: for the layer model's 400,000 character n-grams that is about 135 MB in memory and
two seconds of unpickling in every worker process. :class:`CompactCharTfidf` holds the same
vocabulary as one sorted NumPy string array (about 6 MB) and looks n-grams up with
``searchsorted``; :meth:`transform` gives the same matrix as the vectorizer it was made from
(same n-grams, counts, sublinear tf, idf, l2 norm, dtype). Only what inference needs is kept.
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.preprocessing import normalize
from sklearn.utils.sparsefuncs_fast import inplace_csr_row_normalize_l2

_WHITE_SPACES = re.compile(r"\s\s+")  # as sklearn's _VectorizerMixin._white_spaces


class CompactCharTfidf(BaseEstimator, TransformerMixin):
    """Inference-only stand-in for a fitted ``TfidfVectorizer(analyzer="char")``."""

    def __init__(self, terms: np.ndarray, columns: np.ndarray, idf: np.ndarray, ngram_range: tuple[int, int],
                 sublinear_tf: bool, norm: str | None, lowercase: bool, dtype: type):
        self.terms = terms
        self.columns = columns
        self.idf = idf
        self.ngram_range = ngram_range
        self.sublinear_tf = sublinear_tf
        self.norm = norm
        self.lowercase = lowercase
        self.dtype = dtype

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

    def _ngrams(self, text: str) -> list[str]:
        if self.lowercase:
            text = text.lower()
        text = _WHITE_SPACES.sub(" ", text)
        low, high = self.ngram_range
        n_chars = len(text)
        out: list[str] = []
        for n in range(low, min(high + 1, n_chars + 1)):
            out.extend(text[i : i + n] for i in range(n_chars - n + 1))
        return out

    def transform(self, texts: Iterable[str]) -> sp.csr_matrix:
        rows: list[np.ndarray] = []
        grams: list[str] = []
        n_docs = 0
        for i, text in enumerate(texts):
            found = self._ngrams(text)
            grams.extend(found)
            rows.append(np.full(len(found), i, dtype=np.int64))
            n_docs = i + 1
        width = self.terms.dtype.itemsize // 4
        shape = (n_docs, len(self.idf))
        if not grams:
            return sp.csr_matrix(shape, dtype=self.dtype)
        row = np.concatenate(rows)
        keep = np.fromiter((len(g) <= width for g in grams), dtype=bool, count=len(grams))
        query = np.array(grams, dtype=object)[keep].astype(self.terms.dtype)
        row = row[keep]
        at = np.searchsorted(self.terms, query)
        at[at == len(self.terms)] = 0
        hit = self.terms[at] == query
        col = self.columns[at[hit]]
        X = sp.csr_matrix((np.ones(len(col), dtype=self.dtype), (row[hit], col)), shape=shape)
        X.sum_duplicates()
        X.sort_indices()
        if self.sublinear_tf:
            np.log(X.data, X.data)
            X.data += 1
        X.data *= self.idf[X.indices].astype(self.dtype, copy=False)
        if self.norm == "l2":  # the kernel sklearn's normalize calls, without its per-call validation
            inplace_csr_row_normalize_l2(X)
        elif self.norm:
            X = normalize(X, norm=self.norm, copy=False)
        return X


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
