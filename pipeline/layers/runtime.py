"""The layer model as arrays and JSON: loaded and run without scikit-learn.

``classifier.joblib`` pickles scikit-learn objects, and unpickling them imports scikit-learn and
scipy.stats (over a second of start-up in every ``yili process`` worker). What prediction needs
is arrays — the TF-IDF vocabulary, the cue scaling, the SVM's weights, the transitions, the window
model's weights, the two CRFs' model files — and a few numbers, written beside the joblib file as
``runtime.npz`` + ``runtime.json``. :class:`RuntimeLayerModel` and :class:`RuntimeSplitter`
inherit the prediction code of the training classes (:mod:`pipeline.layers.predict`,
:mod:`pipeline.layers.seams`), so both forms give the same results.

``python -m pipeline.layers.runtime models/layers`` writes the runtime form of a saved model.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import numpy as np
import scipy.sparse as sp

from pipeline.layers.crf import CrfTagger
from pipeline.layers.features import ngram_text, scholar_features
from pipeline.layers.pieces import PieceTagger
from pipeline.layers.predict import MODEL_FILE, REBUILD_COMMAND, LayerPredictor, ModelError, _align, default_model_dir
from pipeline.layers.seams import SplitPredictor, WindowScores
from pipeline.layers.tfidf import CharTfidf

RUNTIME_ARRAYS = "runtime.npz"
RUNTIME_META = "runtime.json"
FORMAT = 1
#: the splitter's settings that prediction reads (its fitted state goes into the arrays)
_SPLITTER_SETTINGS = ("layers", "widths", "lookback", "min_piece", "crf_smoothing", "max_segment", "decoding",
                      "quote_lookback", "quote_weight", "extra_cuts", "segment_bonus")


class RuntimeSplitter(SplitPredictor):
    """A fitted run-together splitter's state, for :class:`~pipeline.layers.seams.SplitPredictor`."""

    def __init__(self, settings: dict, scorer: WindowScores, crf: CrfTagger, piece_tagger: Optional[PieceTagger],
                 piece_transitions: np.ndarray, unit_transitions: np.ndarray, quote_factors: dict[str, np.ndarray]):
        for key, value in settings.items():
            setattr(self, key, tuple(value) if isinstance(value, list) else value)
        self.scorer_ = scorer
        self.crf_ = crf
        self.piece_tagger_ = piece_tagger
        self.piece_transitions_ = piece_transitions
        self.unit_transitions_ = unit_transitions
        self.quote_factors_ = quote_factors


class RuntimeLayerModel(LayerPredictor):
    """The layer classifier's fitted state as arrays; decision values as the fitted sklearn steps
    compute them (the same operations in the same order, so the same floats)."""

    def __init__(self, tfidf: CharTfidf, scale: np.ndarray, weights: dict[str, float], coef: np.ndarray,
                 intercept: np.ndarray, svm_classes: list[str], meta: dict, arrays: dict):
        self.tfidf = tfidf
        self.scale_ = scale
        self.weights = weights
        self.coef_ = coef
        self.intercept_ = intercept
        self.svm_classes = svm_classes
        self.classes_ = np.array(meta["classes"])
        self.temperature_ = float(meta["temperature"])
        self.calibration_ = tuple(meta["calibration"]) if meta["calibration"] is not None else None
        self.use_context = bool(meta["use_context"])
        self.transitions_ = arrays["transitions"]
        self.start_ = arrays["start"]
        self.prior_ = arrays["prior"]
        self.splitter_: Optional[RuntimeSplitter] = None

    def _logits(self, texts: list[str]) -> np.ndarray:
        """What ``_apply_transform`` and the SVM compute on the sklearn model: the FeatureUnion's
        weighted n-gram TF-IDF and scaled cues side by side, times the SVM's weights."""
        ngrams = self.tfidf.transform([ngram_text(t) for t in texts]) * self.weights["ngrams"]
        cues = np.array([scholar_features(t) for t in texts], dtype=np.float64) / self.scale_ * self.weights["scholar"]
        X = sp.hstack([ngrams, sp.csr_matrix(cues)], format="csr")
        return _align(self.svm_classes, np.asarray(X @ self.coef_.T) + self.intercept_)


# -- writing ---------------------------------------------------------------------------------------

def runtime_state(model: Any) -> tuple[dict[str, np.ndarray], dict]:
    """The arrays and the JSON of a fitted (compacted) :class:`LayerClassifier`.

    Raises ValueError for a model whose steps are not the ones :class:`RuntimeLayerModel` computes.
    """
    from pipeline.layers.compact import CompactCharTfidf

    features = model.model_.named_steps["features"]
    svm = model.model_.named_steps["svm"]
    parts = dict(features.transformer_list)
    if list(parts) != ["ngrams", "scholar"]:
        raise ValueError(f"unexpected feature union {list(parts)}")
    names = [[name for name, _step in parts[p].steps] for p in ("ngrams", "scholar")]
    tfidf, scaler = parts["ngrams"].steps[1][1], parts["scholar"].steps[1][1]
    if names != [["text", "tfidf"], ["cues", "scale"]] or not isinstance(tfidf, CompactCharTfidf):
        raise ValueError(f"unexpected feature steps {names} (the TF-IDF must be compacted first)")
    weights = features.transformer_weights or {}
    arrays: dict[str, np.ndarray] = {
        "tfidf_terms": tfidf.terms, "tfidf_columns": tfidf.columns, "tfidf_idf": tfidf.idf,
        "scholar_scale": scaler.scale_, "svm_coef": svm.coef_, "svm_intercept": np.asarray(svm.intercept_),
        "transitions": model.transitions_, "start": model.start_, "prior": model.prior_,
    }
    meta: dict[str, Any] = {
        "format": FORMAT,
        "classes": [str(c) for c in model.classes_],
        "svm_classes": [str(c) for c in svm.classes_],
        "temperature": float(model.temperature_),
        "calibration": list(model.calibration_) if getattr(model, "calibration_", None) is not None else None,
        "use_context": bool(model.use_context),
        "weights": {"ngrams": float(weights.get("ngrams", 1.0)), "scholar": float(weights.get("scholar", 1.0))},
        "tfidf": {"ngram_range": list(tfidf.ngram_range), "sublinear_tf": bool(tfidf.sublinear_tf), "norm": tfidf.norm,
                  "lowercase": bool(tfidf.lowercase), "dtype": np.dtype(tfidf.dtype).name},
        "splitter": None,
    }
    splitter = getattr(model, "splitter_", None)
    if splitter is not None:
        scorer = splitter.scorer_
        factors = sorted(getattr(splitter, "quote_factors_", {}) or {})
        tagger = getattr(splitter, "piece_tagger_", None)
        arrays.update({
            "window_coef": scorer.coef_, "window_intercept": scorer.intercept_,
            "piece_transitions": splitter.piece_transitions_, "unit_transitions": splitter.unit_transitions_,
            "quote_factors": np.array([splitter.quote_factors_[c] for c in factors]) if factors
            else np.zeros((0, len(splitter.layers))),
            "crf": np.frombuffer(CrfTagger.model_bytes(splitter.crf_), dtype=np.uint8),
        })
        if tagger is not None:
            arrays["piece_crf"] = np.frombuffer(CrfTagger.model_bytes(tagger.crf_), dtype=np.uint8)
        meta["splitter"] = {
            "settings": {k: getattr(splitter, k) for k in _SPLITTER_SETTINGS if hasattr(splitter, k)},
            "scorer": {"layers": list(scorer.layers), "n_features": int(scorer.n_features),
                       "orders": list(scorer.orders), "widths": list(scorer.widths)},
            "quote_categories": factors,
            "piece_tagger": tagger is not None,
        }
    return arrays, meta


def save_runtime(model: Any, folder: Path) -> None:
    """Write ``runtime.npz`` and ``runtime.json`` of a fitted, compacted model into ``folder``."""
    arrays, meta = runtime_state(model)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / MODEL_FILE).is_file():  # the joblib model this form was made from (see load_model)
        meta["source_sha256"] = _sha256(folder / MODEL_FILE)
    np.savez_compressed(folder / RUNTIME_ARRAYS, **arrays)
    (folder / RUNTIME_META).write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# -- reading ---------------------------------------------------------------------------------------

def _broken(path: Path, why: str) -> ModelError:
    return ModelError(f"layer model {path} cannot be read ({why}); rebuild it with `{REBUILD_COMMAND}`")


def load_runtime(folder: Path) -> RuntimeLayerModel:
    """The runtime form saved in ``folder``; :class:`ModelError` (naming the file) if it is missing or broken."""
    folder = Path(folder)
    meta_path, arrays_path = folder / RUNTIME_META, folder / RUNTIME_ARRAYS
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"layer model not found: {meta_path}; rebuild it with `{REBUILD_COMMAND}`") from None
    except (OSError, ValueError) as exc:
        raise _broken(meta_path, f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _broken(meta_path, f"not a runtime layer model of format {FORMAT}")
    if not arrays_path.is_file():
        raise ModelError(f"layer model not found: {arrays_path}; rebuild it with `{REBUILD_COMMAND}`")
    try:
        with np.load(arrays_path, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
        model = _build(meta, arrays)
    except ModelError:
        raise
    except Exception as exc:  # truncated or corrupt archive, missing array or field, bad CRF bytes
        raise _broken(arrays_path, f"{type(exc).__name__}: {exc}") from exc
    return model


def _build(meta: dict, arrays: dict[str, np.ndarray]) -> RuntimeLayerModel:
    t = meta["tfidf"]
    tfidf = CharTfidf(arrays["tfidf_terms"], arrays["tfidf_columns"], arrays["tfidf_idf"], tuple(t["ngram_range"]),
                      bool(t["sublinear_tf"]), t["norm"], bool(t["lowercase"]), np.dtype(t["dtype"]).type)
    model = RuntimeLayerModel(tfidf, arrays["scholar_scale"], meta["weights"], arrays["svm_coef"], arrays["svm_intercept"],
                              meta["svm_classes"], meta, arrays)
    s = meta.get("splitter")
    if s is not None:
        sc = s["scorer"]
        scorer = WindowScores(sc["layers"], sc["n_features"], tuple(sc["orders"]), tuple(sc["widths"]))
        scorer.coef_, scorer.intercept_ = arrays["window_coef"], arrays["window_intercept"]
        tagger = None
        if s["piece_tagger"]:
            tagger = PieceTagger()
            tagger.crf_ = CrfTagger(arrays["piece_crf"].tobytes())
        factors = {c: arrays["quote_factors"][r] for r, c in enumerate(s["quote_categories"])}
        model.splitter_ = RuntimeSplitter(s["settings"], scorer, CrfTagger(arrays["crf"].tobytes()), tagger,
                                          arrays["piece_transitions"], arrays["unit_transitions"], factors)
    return model


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stale(folder: Path) -> bool:
    """The runtime form was made from another ``classifier.joblib`` than the one beside it (a model
    copied in by hand): the joblib model is the truth, so it is loaded instead, with a warning."""
    joblib_path = folder / MODEL_FILE
    try:
        made_from = json.loads((folder / RUNTIME_META).read_text(encoding="utf-8")).get("source_sha256")
    except (OSError, ValueError, AttributeError):
        return False  # load_runtime reports the broken file
    if not made_from or not joblib_path.is_file() or _sha256(joblib_path) == made_from:
        return False
    print(f"warning: {folder / RUNTIME_META} was made from another {MODEL_FILE}; loading {joblib_path} "
          f"(slower start-up). Rewrite the runtime form with `python -m pipeline.layers.runtime {folder}`.",
          file=sys.stderr)
    return True


def load_model(folder: Optional[Path] = None) -> LayerPredictor:
    """The layer model ``yili process`` and ``yili classify`` use: the runtime form when ``folder``
    (default: :func:`default_model_dir`) has one, else the joblib model (which imports scikit-learn)."""
    folder = Path(folder) if folder is not None else default_model_dir()
    if folder.is_dir() and (folder / RUNTIME_META).exists() and not _stale(folder):
        return load_runtime(folder)
    from pipeline.layers.classifier import LayerClassifier

    return LayerClassifier.load(folder)


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m pipeline.layers.runtime FOLDER``: write the runtime form of the model saved in FOLDER."""
    from pipeline.layers.classifier import LayerClassifier

    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else default_model_dir()
    model = LayerClassifier.load(folder)
    save_runtime(model, folder)
    size = sum((folder / name).stat().st_size for name in (RUNTIME_ARRAYS, RUNTIME_META, MODEL_FILE))
    print(f"wrote {folder / RUNTIME_ARRAYS} and {folder / RUNTIME_META} (model files {size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
