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
from typing import Any, Hashable, Iterable, Iterator, Optional, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC
from sklearn.pipeline import FeatureUnion, Pipeline
from sklearn.preprocessing import MaxAbsScaler

from pipeline.labels import LAYERS
from pipeline.layers.features import NgramText, ScholarFeatures, han_count

#: The file names inside a model folder.
MODEL_FILE = "classifier.joblib"
CARD_FILE = "MODEL_CARD.md"
REBUILD_COMMAND = "yili train layers"

#: Scores given to a text the model cannot read (empty, or no Han characters): OTHER, but unsure.
UNREADABLE_SCORES: dict[str, float] = {"JING": 0.2, "ZHU": 0.2, "SHU": 0.2, "OTHER": 0.4}


class ModelError(RuntimeError):
    """The layer model cannot be loaded: the message names the path and the command that rebuilds it."""


def default_model_dir() -> Path:
    """``models/layers`` of the checkout, else the copy installed inside the package."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package.parent / "models" / "layers", package / "resources" / "models" / "layers"):
        if (candidate / MODEL_FILE).is_file():
            return candidate
    return package.parent / "models" / "layers"


def readable(text: str) -> bool:
    """Whether the model can say anything about ``text``: it needs at least one Han character."""
    return han_count(text or "") > 0


class LayerClassifier(BaseEstimator, ClassifierMixin):
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
        raw = np.asarray(X @ svm.coef_.T) + svm.intercept_
        return _align(svm, raw.ravel() if raw.shape[1] == 1 else raw)

    def text_proba(self, texts: Sequence[str], separate: bool = True) -> np.ndarray:
        """Calibrated probabilities from each text alone (rows in ``classes_`` order).

        ``separate=False``: the temperature softmax alone, without the 疏 sigmoid (what the
        run-together splitter uses for pieces shorter than the units the sigmoid was fitted on).
        """
        self._check()
        texts = [t or "" for t in texts]
        out = np.tile(np.array([UNREADABLE_SCORES[c] for c in LAYERS]), (len(texts), 1))
        ok = [i for i, t in enumerate(texts) if readable(t)]
        if ok:
            out[ok] = self._calibrated(self._logits([texts[i] for i in ok]), separate)
        return out

    def _calibrated(self, logits: np.ndarray, separate: bool = True) -> np.ndarray:
        """Probabilities from decision values: the temperature softmax, with 疏's own sigmoid (fitted on held-out chapters)."""
        scaling = getattr(self, "calibration_", None)
        if scaling is None or not separate:
            return _softmax(logits / self.temperature_)
        slope, bias = scaling
        p = _softmax(logits / self.temperature_)
        j = LAYERS.index(_SEPARATE)
        shu = 1.0 / (1.0 + np.exp(-(slope * np.clip(_margin(logits), -20.0, 20.0) + bias)))
        rest = np.delete(p, j, axis=1)
        rest = rest / np.clip(rest.sum(axis=1, keepdims=True), 1e-12, None) * (1.0 - shu)[:, None]
        out = np.insert(rest, j, shu, axis=1)
        return out

    def predict_proba(self, texts: Sequence[str], contexts: Optional[Sequence[Hashable]] = None) -> np.ndarray:
        """Probabilities per unit; with ``contexts``, smoothed over each document's sequence of units."""
        proba = self.text_proba(texts)
        if contexts is None or not self.use_context:
            return proba
        contexts = list(contexts)
        if len(contexts) != len(proba):
            raise ValueError(f"{len(proba)} texts but {len(contexts)} contexts")
        readable_rows = np.array([readable(t or "") for t in texts])
        for rows in _runs(contexts):
            if len(rows) > 1:
                idx = np.array(rows)
                smoothed = self.smooth(proba[idx])
                keep = readable_rows[idx]
                proba[idx[keep]] = smoothed[keep]
        return proba

    def predict(self, texts: Sequence[str], contexts: Optional[Sequence[Hashable]] = None) -> np.ndarray:
        proba = self.predict_proba(texts, contexts)
        labels = self.classes_[proba.argmax(axis=1)]
        for i, t in enumerate(texts):  # an unreadable unit is OTHER whatever its neighbours say
            if not readable(t or ""):
                labels[i] = "OTHER"
        return labels

    def smooth(self, proba: np.ndarray, clamp: Optional[Sequence[Optional[str]]] = None) -> np.ndarray:
        """Forward–backward posteriors for one document's units, from text-only probabilities.

        The chain runs over the units that are 經, 注 or 疏 (a unit the text calls OTHER, or that
        ``clamp`` fixes as OTHER, is stepped over and keeps its probabilities); each chain unit keeps
        its OTHER probability and shares the rest among 經/注/疏 by its posterior. The text-only
        probabilities serve as emissions. ``clamp`` fixes the layer of units that markers or anchors
        already decided (``None`` where free).
        """
        other = LAYERS.index("OTHER")
        proba = np.asarray(proba, dtype=float)
        out = proba.copy()
        emis = np.clip(proba, 1e-12, None).copy()
        fixed = [None] * len(proba) if clamp is None else list(clamp)
        for i, label in enumerate(fixed):
            if label is not None:
                emis[i] = 1e-12
                emis[i, LAYERS.index(label)] = 1.0
        chain = [i for i in range(len(proba)) if (fixed[i] or LAYERS[int(proba[i].argmax())]) != "OTHER"]
        if len(chain) < 2:
            return out
        e = emis[chain].copy()
        e[:, other] = 0.0
        e /= e.sum(axis=1, keepdims=True)
        n, k = e.shape
        trans = self.transitions_
        alpha = np.zeros((n, k))
        beta = np.ones((n, k))
        alpha[0] = e[0] * self.start_
        alpha[0] /= alpha[0].sum()
        for i in range(1, n):
            alpha[i] = e[i] * (alpha[i - 1] @ trans)
            alpha[i] /= alpha[i].sum()
        for i in range(n - 2, -1, -1):
            beta[i] = trans @ (e[i + 1] * beta[i + 1])
            beta[i] /= beta[i].sum()
        post = alpha * beta
        post /= post.sum(axis=1, keepdims=True)
        for row, i in enumerate(chain):
            keep_other = 0.0 if fixed[i] is not None else proba[i, other]
            out[i] = post[row] * (1.0 - keep_other)
            out[i, other] = keep_other
        return out

    # -- the pipeline's use -------------------------------------------------------------------
    def resolve_segments(self, text: str, segments: list, removed: Iterable = (), splitter: Any = "attached") -> list:
        """Decide the segments nothing else decided (``evidence == "default"``).

        Each undecided segment is first offered to the run-together splitter (when one is
        attached or given): a segment where 經 and 注 (or 注 and 疏) run together comes back as
        several pieces. Every undecided piece is then classified from its text (removed ranges
        left out), with the decided segments around it as context, and gets ``evidence="model"``
        and the model's probability as ``score``. Decided segments are returned unchanged.
        """
        from pipeline.records import Segment

        if splitter == "attached":
            splitter = getattr(self, "splitter_", None)
        drops = sorted((r.start, r.end) for r in removed)
        pieces: list[tuple[Any, Optional[tuple[int, int]]]] = []  # (segment or None, undecided span)
        origin: list[int] = []  # which input segment each piece comes from
        for n, seg in enumerate(segments):
            if seg.evidence != "default":
                pieces.append((seg, None))
                origin.append(n)
                continue
            spans = [(seg.start, seg.end)]
            if splitter is not None:
                found = splitter.split_span(text, seg.start, seg.end, drops, classifier=self)
                if len(found) > 1:
                    spans = found
            pieces.extend((None, span) for span in spans)
            origin.extend([n] * len(spans))
        free = [i for i, (seg, _span) in enumerate(pieces) if seg is None]
        if not free:
            return list(segments)
        texts = [_kept_text(text, *pieces[i][1], drops) if pieces[i][0] is None else pieces[i][0].text for i in range(len(pieces))]
        proba = self.text_proba(texts)
        clamp = [pieces[i][0].layer if pieces[i][0] is not None and pieces[i][0].layer in LAYERS else None for i in range(len(pieces))]
        if self.use_context and len(pieces) > 1:
            smoothed = self.smooth(proba, clamp)
            for i in free:
                if readable(texts[i]):
                    proba[i] = smoothed[i]
        out = []
        previous_origin = -1
        for i, (seg, span) in enumerate(pieces):
            if seg is not None:
                out.append(seg)
                previous_origin = -1
                continue
            if readable(texts[i]):
                j = int(proba[i].argmax())
                layer, score = LAYERS[j], float(proba[i, j])
            else:
                layer, score = "OTHER", UNREADABLE_SCORES["OTHER"]
            start, end = span
            last = out[-1] if out else None
            if last is not None and origin[i] == previous_origin and last.layer == layer:
                # the splitter saw a seam the classifier does not confirm: one segment, the lower score
                out[-1] = Segment(layer, last.start, end, text[last.start : end], "model", round(min(last.score, score), 4))
            else:
                out.append(Segment(layer, start, end, text[start:end], "model", round(score, 4)))
            previous_origin = origin[i]
        return out

    # -- persistence --------------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        """Write the fitted model to ``folder`` (created if needed) as one compressed joblib file."""
        import joblib

        from pipeline.layers.compact import compact_pipeline

        self._check()
        compact_pipeline(self.model_)  # same predictions; 6 MB instead of a 135 MB vocabulary dict in memory
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        joblib.dump(self, folder / MODEL_FILE, compress=3)

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


def _align(svm: LinearSVC, raw: np.ndarray) -> np.ndarray:
    """Decision values in LAYERS order (-1e9 for a layer the training data never had)."""
    learned = list(svm.classes_)
    if raw.ndim == 1:  # two classes only
        raw = np.stack([-raw, raw], axis=1)
    out = np.full((raw.shape[0], len(LAYERS)), -1e9)
    for j, label in enumerate(learned):
        out[:, LAYERS.index(label)] = raw[:, j]
    return out


#: the layer whose odds against the rest are calibrated on their own (see :func:`_fit_scaling`)
_SEPARATE = "SHU"


def _margin(logits: np.ndarray) -> np.ndarray:
    """Decision value of 疏 minus the best of the other layers."""
    j = LAYERS.index(_SEPARATE)
    rest = np.delete(logits, j, axis=1)
    return logits[:, j] - rest.max(axis=1)


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


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _runs(keys: list[Hashable]) -> Iterator[list[int]]:
    """Row indices of each run of equal, non-None consecutive keys."""
    run: list[int] = []
    previous: Any = object()
    for i, key in enumerate(keys):
        if key is None:
            if run:
                yield run
            run, previous = [], object()
            continue
        if run and key != previous:
            yield run
            run = []
        run.append(i)
        previous = key
    if run:
        yield run


def _kept_text(text: str, start: int, end: int, drops: list[tuple[int, int]]) -> str:
    """``text[start:end]`` without the removed ranges inside it."""
    parts, pos = [], start
    for s, e in drops:
        if e <= pos or s >= end:
            continue
        if s > pos:
            parts.append(text[pos:s])
        pos = max(pos, e)
    if pos < end:
        parts.append(text[pos:end])
    return "".join(parts)




def classify_records(records: Iterable[dict], model: LayerClassifier, batch_size: int = 512) -> Iterator[dict]:
    """``yili classify``: each record back with ``label`` and ``scores`` (layer → probability).

    Records are classified each on its own text (SCHEMA section 6 gives no document order).
    A record without readable text (empty, or no Han characters) gets OTHER with a low score;
    a record whose ``text`` is not a string gets an ``error`` field. Every other field is kept.
    """
    buffer: list[dict] = []
    for record in records:
        buffer.append(record)
        if len(buffer) >= batch_size:
            yield from _classify_batch(buffer, model)
            buffer = []
    if buffer:
        yield from _classify_batch(buffer, model)


def _classify_batch(records: list[dict], model: LayerClassifier) -> Iterator[dict]:
    texts = []
    for record in records:
        text = record.get("text") if isinstance(record, dict) else None
        texts.append(text if isinstance(text, str) else "")
    proba = model.text_proba(texts)
    for record, text, row in zip(records, texts, proba):
        out = dict(record) if isinstance(record, dict) else {"record": record}
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            out["error"] = "record has no 'text' string"
        scores = {label: round(float(p), 4) for label, p in zip(LAYERS, row)}
        out["label"] = max(scores, key=scores.get) if readable(text) else "OTHER"
        out["scores"] = scores
        yield out
