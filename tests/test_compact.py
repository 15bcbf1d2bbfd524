"""The compact TF-IDF form of the layer model gives the same matrix as scikit-learn's vectorizer."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from pipeline.corpus import iter_units
from pipeline.layers.compact import CompactCharTfidf, compact_pipeline


def test_same_matrix_as_the_vectorizer_on_real_units():
    units = [u.text for u in iter_units(chapters=["10"])]  # 覲禮, every edition: 經 注 疏, punctuated or not
    train, test = units[::2], units[1::2] + ["", "  \n\u3000 ", "ABC abc", "𧰼𧃊&KR0925;"]
    vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 4), min_df=2, max_features=20000,
                          sublinear_tf=True, dtype=np.float32).fit(train)
    compact = CompactCharTfidf.from_vectorizer(vec)
    a, b = vec.transform(test), compact.transform(test)
    assert a.shape == b.shape and a.nnz == b.nnz > 0
    assert abs(a - b).max() == 0
    assert compact.terms.nbytes < 20000 * 4 * 4 + 1


def test_the_shipped_layer_model_is_compact_and_small_in_memory():
    from sklearn.pipeline import Pipeline

    from pipeline.layers.classifier import LayerClassifier

    model = LayerClassifier.load()
    assert compact_pipeline(model.model_) is False  # nothing left to swap: saved compact

    def vectorizers(step):
        if isinstance(step, Pipeline):
            for _, s in step.steps:
                yield from vectorizers(s)
        for _, part in getattr(step, "transformer_list", []):
            yield from vectorizers(part)
        yield step

    found = [v for v in vectorizers(model.model_) if isinstance(v, (CompactCharTfidf, TfidfVectorizer))]
    assert found and all(isinstance(v, CompactCharTfidf) for v in found)
