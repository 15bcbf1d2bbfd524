"""The layer model: 經 JING / 注 ZHU / 疏 SHU / OTHER from a unit's text, and from its neighbours.

Markers and anchors decide most layers; this model decides where they are silent. It reads one
unit's text (character n-grams of a script-folded, punctuation-free copy, plus the cues of
:mod:`pipeline.layers.features`) with a linear SVM (fast to train on the whole corpus); its
decision values become probabilities through a softmax whose temperature is fitted on chapters
the model did not see (how close scores come to accuracy, the ECE, is one of the figures of
`yili evaluate layers`). Where the document
gives the order of its units, the neighbours count too: the text-only probabilities are combined
with the learned layer-to-layer transitions (a 注 follows its 經, a 疏 follows its 注) by
forward–backward, so a short unit that could be either (「庶襚。」) takes the layer its place
implies.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any, Hashable, Optional, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import MaxAbsScaler

from pipeline.labels import LAYERS
from pipeline.layers.predict import (  # noqa: F401  (names this module has always exported)
    CARD_FILE, MODEL_FILE, REBUILD_COMMAND, UNREADABLE_SCORES, LayerPredictor, ModelError, _SEPARATE, _kept_text,
    _align, _margin, _runs, _softmax, classify_records, default_model_dir, readable,
)
from pipeline.layers.transformers import NgramText, ScholarFeatures


class LayerClassifier(LayerPredictor, BaseEstimator, ClassifierMixin):
    """JING / ZHU / SHU / OTHER from a unit's text; calibrated probabilities; optional document context.

    ``contexts`` (in :meth:`fit`, :meth:`predict_proba`, :meth:`predict`) is a sequence parallel to
    ``texts`` of document keys (any hashable, ``None`` for a unit on its own): consecutive units with
    the same key are neighbours in one document, in reading order. In :meth:`fit` they teach the
    transitions; in prediction they switch on forward–backward smoothing.
    """

    def __init__(
        self,
        ngram_range: tuple[int, int] = (1, 4),
        min_df: int = 2,
        max_features: Optional[int] = 400_000,
        C: float = 0.5,
        scholar_weight: float = 0.3,
        use_context: bool = True,
        transition_prior: float = 1.0,
        calibrate: bool = True,
        max_iter: int = 2000,
        random_state: int = 0,
    ):
        self.ngram_range = ngram_range
        self.min_df = min_df
        self.max_features = max_features
        self.C = C
        self.scholar_weight = scholar_weight
        self.use_context = use_context
        self.transition_prior = transition_prior
        self.calibrate = calibrate
        self.max_iter = max_iter
        self.random_state = random_state

    # -- building -----------------------------------------------------------------------------
    def _features(self) -> FeatureUnion:
        ngrams = Pipeline(
            [
                ("text", NgramText()),
                (
                    "tfidf",
                    TfidfVectorizer(
                        analyzer="char",
                        ngram_range=tuple(self.ngram_range),
                        min_df=self.min_df,
                        max_features=self.max_features,
                        sublinear_tf=True,
                        dtype=np.float32,
                    ),
                ),
            ]
        )
        scholar = Pipeline([("cues", ScholarFeatures()), ("scale", MaxAbsScaler())])
        return FeatureUnion([("ngrams", ngrams), ("scholar", scholar)], transformer_weights={"ngrams": 1.0, "scholar": self.scholar_weight})

    def fit(
        self,
        texts: Sequence[str],
        labels: Sequence[str],
        contexts: Optional[Sequence[Hashable]] = None,
        groups: Optional[Sequence[Hashable]] = None,
    ) -> "LayerClassifier":
        """Learn from unit texts and their layers.

        ``contexts``: document keys (see the class docstring), for the transitions.
        ``groups`` (the chapter of each unit) says what to hold out for calibration: with
        ``calibrate=True`` an SVM fitted without every fifth group (every fifth unit without
        groups) scores what it left out, and the temperature that fits those scores best is kept;
        the final SVM is then fitted on everything. The features (vocabulary, IDF, scaling) are
        fitted once, on all texts: they see no labels.
        """
        texts = [t or "" for t in texts]
        labels = [str(y) for y in labels]
        if len(texts) != len(labels):
            raise ValueError(f"{len(texts)} texts but {len(labels)} labels")
        unknown = sorted(set(labels) - set(LAYERS))
        if unknown:
            raise ValueError(f"unknown layer labels {unknown}; expected {', '.join(LAYERS)}")
        if len(set(labels)) < 2:
            raise ValueError("LayerClassifier needs examples of at least two layers")
        self.classes_ = np.array(LAYERS)
        features = self._features()
        X = features.fit_transform(texts)
        y = np.array(labels)
        self.temperature_ = 1.0
        self.calibration_ = None
        if self.calibrate:
            held = _held_out(groups, len(texts))
            if held.any() and (~held).any() and len(set(y[~held])) > 1:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    first = self._svm().fit(X[~held], y[~held])
                held_logits = _align(first, first.decision_function(X[held]))
                self.temperature_ = _fit_temperature(held_logits, [str(v) for v in y[held]])
                self.calibration_ = _fit_scaling(held_logits, [str(v) for v in y[held]])
        with warnings.catch_warnings():  # liblinear may stop at max_iter on the dense cues; the fit is still good
            warnings.simplefilter("ignore", ConvergenceWarning)
            svm = self._svm().fit(X, y)
        self.model_ = Pipeline([("features", features), ("svm", svm)])
        self.transitions_, self.start_ = self._fit_transitions(labels, contexts)
        self.prior_ = self._class_prior(labels)
        return self

    def _svm(self) -> LinearSVC:
        return LinearSVC(C=self.C, max_iter=self.max_iter, random_state=self.random_state)

    def _fit_transitions(self, labels: list[str], contexts: Optional[Sequence[Hashable]]) -> tuple[np.ndarray, np.ndarray]:
        """Layer-to-layer transitions among 經/注/疏 in document order; OTHER units are stepped over.

        The editions put different OTHER matter between the layers (the 四庫's 音義 between 注 and
        疏, titles): stepping over it leaves the order every edition shares (經 → 注 → 疏 → 經).
        """
        k = len(LAYERS)
        other = LAYERS.index("OTHER")
        counts = np.full((k, k), float(self.transition_prior))
        starts = np.full(k, float(self.transition_prior))
        if contexts is not None:
            previous_key: Any = object()
            previous_label: Optional[int] = None
            for key, label in zip(list(contexts), labels):
                i = LAYERS.index(label)
                if key is None or i == other:
                    if key != previous_key:
                        previous_key, previous_label = key, None
                    continue
                if key == previous_key and previous_label is not None:
                    counts[previous_label, i] += 1
                else:
                    starts[i] += 1
                previous_key, previous_label = key, i
        counts[other, :] = counts[:, other] = 0.0
        starts[other] = 0.0
        counts[other, other] = 1.0
        return counts / counts.sum(axis=1, keepdims=True), starts / starts.sum()

    @staticmethod
    def _class_prior(labels: list[str]) -> np.ndarray:
        counts = np.array([labels.count(c) for c in LAYERS], dtype=float) + 1.0
        return counts / counts.sum()

    # -- predicting ---------------------------------------------------------------------------
    def _check(self) -> None:
        if not hasattr(self, "model_"):
            raise RuntimeError("LayerClassifier is not fitted: call fit() or LayerClassifier.load()")

    def _logits(self, texts: list[str]) -> np.ndarray:
        """Decision values in LAYERS order (-1e9 for a layer the training data never had).

        The fitted steps are applied directly (what ``Pipeline.decision_function`` computes,
        without its per-call validation): the splitter and short records call this with one or a
        few texts at a time, where that overhead was most of the cost."""
        svm = self.model_.named_steps["svm"]
        X = _apply_transform(self.model_.named_steps["features"], texts)
        return _align(svm, np.asarray(X @ svm.coef_.T) + svm.intercept_)

    # -- persistence --------------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        """Write the fitted model to ``folder`` (created if needed): one compressed joblib file (for
        retraining and as the reference) and its runtime form (:mod:`pipeline.layers.runtime`,
        what ``yili process`` loads without scikit-learn)."""
        import joblib

        from pipeline.layers.compact import compact_pipeline
        from pipeline.layers.runtime import save_runtime

        self._check()
        compact_pipeline(self.model_)  # same predictions; 6 MB instead of a 135 MB vocabulary dict in memory
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        joblib.dump(self, folder / MODEL_FILE, compress=3)
        save_runtime(self, folder)

    @classmethod
    def load(cls, folder: Optional[Path] = None) -> "LayerClassifier":
        """The model saved in ``folder`` (default: :func:`default_model_dir`).

        A missing, unreadable or foreign file raises :class:`ModelError` naming the file and the
        command that rebuilds it.
        """
        import joblib

        folder = Path(folder) if folder is not None else default_model_dir()
        path = folder / MODEL_FILE if folder.is_dir() or folder.suffix != ".joblib" else folder
        if not path.is_file():
            raise ModelError(f"layer model not found: {path}; rebuild it with `{REBUILD_COMMAND}`")
        try:
            model = joblib.load(path)
        except Exception as exc:  # truncated, corrupt or from an incompatible version
            raise ModelError(
                f"layer model {path} cannot be read ({type(exc).__name__}: {exc}); rebuild it with `{REBUILD_COMMAND}`"
            ) from exc
        if not isinstance(model, cls) or not hasattr(model, "model_"):
            raise ModelError(f"{path} does not hold a fitted LayerClassifier; rebuild it with `{REBUILD_COMMAND}`")
        return model


def _apply_transform(step: Any, X: Any) -> Any:
    """``step.transform(X)`` for fitted Pipelines and FeatureUnions, walked by hand."""
    if isinstance(step, Pipeline):
        for _name, inner in step.steps:
            if inner is not None and inner != "passthrough":
                X = _apply_transform(inner, X)
        return X
    if isinstance(step, FeatureUnion):
        weights = step.transformer_weights or {}
        parts = []
        for name, inner in step.transformer_list:
            if inner == "drop":
                continue
            part = _apply_transform(inner, X)
            if name in weights:
                part = part * weights[name]
            parts.append(part if sp.issparse(part) else sp.csr_matrix(part))
        return sp.hstack(parts, format="csr")
    if isinstance(step, MaxAbsScaler) and not sp.issparse(X):
        return np.asarray(X, dtype=np.float64) / step.scale_
    return step.transform(X)


def _held_out(groups: Optional[Sequence[Hashable]], n: int) -> np.ndarray:
    """A deterministic fifth of the units: every fifth group in sorted order, or every fifth unit."""
    if groups is None:
        return np.arange(n) % 5 == 4
    groups = [str(g) for g in groups]
    names = sorted(set(groups))
    chosen = {g for i, g in enumerate(names) if i % 5 == 4} or ({names[-1]} if len(names) > 1 else set())
    return np.array([g in chosen for g in groups])


def _fit_scaling(logits: np.ndarray, labels: list[str]) -> Optional[tuple[float, float]]:
    """A sigmoid of the 疏 margin, fitted on held-out chapters: the probability that a unit is 疏.

    One temperature makes every pair of layers equally sure; the SVM tells 疏 from 經 far more
    surely than 經 from 注, and the document-order smoothing needs that difference (with one
    temperature, a 經 between two 經 is read as a 疏 bridging them). The other layers share the
    rest by the temperature softmax, so the text-only decision hardly changes. ``None`` (the
    temperature alone) when the held-out units have no 疏 or nothing else.
    """
    from sklearn.linear_model import LogisticRegression

    y = np.array([label == _SEPARATE for label in labels])
    if not len(y) or y.all() or not y.any():
        return None
    x = np.clip(_margin(logits), -20.0, 20.0)[:, None]
    lr = LogisticRegression(C=10.0, max_iter=1000).fit(x, y)
    return float(lr.coef_[0, 0]), float(lr.intercept_[0])


def _fit_temperature(logits: np.ndarray, labels: list[str]) -> float:
    """The temperature T that minimises the log loss of softmax(logits / T) on held-out units."""
    if not labels:
        return 1.0
    idx = np.array([LAYERS.index(y) for y in labels])
    best, best_loss = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.02), math.log(2.0), 61)):
        p = _softmax(logits / t)
        loss = -np.mean(np.log(np.clip(p[np.arange(len(idx)), idx], 1e-12, 1.0)))
        if loss < best_loss:
            best, best_loss = float(t), loss
    return best
