"""A fitted character TF-IDF vectorizer as arrays, for prediction without scikit-learn.

:class:`CharTfidf` gives the matrix scikit-learn's ``TfidfVectorizer(analyzer="char")`` gives
(same n-grams, counts, sublinear tf, idf, l2 norm, dtype, bit for bit) from its vocabulary as one
sorted NumPy string array looked up with ``searchsorted``; :mod:`pipeline.layers.compact` makes
one from a fitted vectorizer.
"""

from __future__ import annotations

import re
from typing import Iterable

import numpy as np
import scipy.sparse as sp

_WHITE_SPACES = re.compile(r"\s\s+")  # as sklearn's _VectorizerMixin._white_spaces
#: cells of the padded block the row norms are summed in (bounds the memory of long texts)
_BLOCK = 1 << 22


def l2_normalize_rows(X: sp.csr_matrix) -> None:
    """Divide each row of ``X`` by its l2 norm, in place, as sklearn's
    ``inplace_csr_row_normalize_l2`` does: squares in the data's dtype summed left to right in
    float64 (a padded block summed by ``cumsum``, which adds in order), so the result is the
    same bit for bit."""
    counts = np.diff(X.indptr)
    if not len(counts) or not counts.max():
        return
    squares = (X.data * X.data).astype(np.float64)
    sums = np.zeros(len(counts))
    for rows in _blocks(counts):
        n = counts[rows]
        grid = np.zeros((len(rows), int(n.max())))
        col = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        src = np.repeat(X.indptr[rows], n) + col
        grid[np.repeat(np.arange(len(rows)), n), col] = squares[src]
        sums[rows] = np.cumsum(grid, axis=1)[:, -1]
    norms = np.sqrt(sums)
    norms[norms == 0.0] = 1.0
    X.data[:] = X.data / np.repeat(norms, counts)


def _blocks(counts: np.ndarray) -> list[np.ndarray]:
    """Rows (by increasing length) in groups whose padded block stays under ``_BLOCK`` cells."""
    order = np.argsort(counts, kind="stable")
    order = order[counts[order] > 0]  # an empty row keeps its zeros
    out, start = [], 0
    for end in range(1, len(order) + 1):
        if end == len(order) or (end + 1 - start) * int(counts[order[end]]) > _BLOCK:
            out.append(order[start:end])
            start = end
    return out


class CharTfidf:
    """Inference-only character TF-IDF: the arrays of a fitted ``TfidfVectorizer(analyzer="char")``."""

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
        if self.norm == "l2":
            l2_normalize_rows(X)
        elif self.norm:
            from sklearn.preprocessing import normalize

            X = normalize(X, norm=self.norm, copy=False)
        return X


