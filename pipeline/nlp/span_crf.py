"""A fast learned span tagger: a linear-chain CRF over characters, beside the lexicon.

The same job as the spaCy ``ner`` of :mod:`pipeline.nlp.span_model` (find the spans the lexicon
lacks, and where a listed term is no span), in a form cheap enough to run by default: each
character of the normalised view gets a BIO label (``B-LOCATION``, ``I-ACTOR`` … ``O``) from

- the characters within ``window`` (2) either side, the bigrams and trigrams among them;
- the lexicon ruler's BIO tag on the characters within ``lexicon_window`` (2) either side
  (``X0:B-LOC``), and that tag crossed with the character itself — the lexicon is an input, not
  the answer. In training each lexicon span is hidden with probability ``lexicon_dropout`` (0.35),
  so that the model also reads terms the lexicon lacks (settings chosen leave-one-dev-chapter-out:
  ``models/spans-crf/MODEL_CARD.md``).

crfsuite (``pycrfsuite``, installed with sklearn-crfsuite) trains it; prediction scores the
weights with :class:`pipeline.text.punctuate.CompiledCRF` (numpy, no feature strings for the
n-grams), which is what makes it several times faster than the ``ner`` (see the model card).
The folder holds ``weights.npz`` and ``yili_span_model.json`` (``"kind": "crf"``);
:func:`pipeline.nlp.span_model.load_span_model` loads either kind.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pipeline.labels import SPAN_LABELS

Triple = tuple[int, int, str]

KIND = "crf"
WEIGHTS_FILE = "weights.npz"
DEFAULTS: dict[str, Any] = {
    "kind": KIND,
    "window": 2,  # characters read either side (unigrams; bigrams and trigrams within it)
    "lexicon_window": 2,  # lexicon tags read either side
    "c1": 0.1,
    "c2": 0.01,
    "max_iterations": 150,
    "lexicon_dropout": 0.35,  # each lexicon span hidden from the features: learn to find unlisted terms
    "unpunctuated": True,
    "use_lexicon": True,
    "seed": 0,
}
_SHORT = {"ACTOR": "ACT", "VERB": "VRB", "OBJECT": "OBJ", "LOCATION": "LOC", "FACING": "FAC"}


def bio(length: int, spans: Sequence[Triple]) -> list[str]:
    """BIO labels of ``length`` characters from (start, end, label) spans (no overlaps expected)."""
    tags = ["O"] * length
    for s, e, label in sorted(spans):
        if s >= e or e > length or any(t != "O" for t in tags[s:e]):
            continue
        tags[s] = "B-" + label
        for i in range(s + 1, e):
            tags[i] = "I-" + label
    return tags


def spans_of(tags: Sequence[str]) -> list[Triple]:
    """(start, end, label) of a BIO sequence (an I- without its B- opens a span)."""
    out: list[Triple] = []
    start, label = None, None
    for i, t in enumerate(list(tags) + ["O"]):
        inside = t.startswith("I-") and t[2:] == label
        if start is not None and not inside:
            out.append((start, i, label))
            start, label = None, None
        if t != "O" and not inside:
            start, label = i, t[2:]
    return out


def templates(window: int) -> list[tuple[str, tuple[int, ...]]]:
    """(name, offsets from the character tagged) of the n-gram templates within ``window``."""
    return ([(f"u{k}", (k,)) for k in range(-window, window + 1)]
            + [(f"b{k}", (k, k + 1)) for k in range(-window, window)]
            + [(f"t{k}", (k, k + 1, k + 2)) for k in range(-window, window - 1)])


def lexicon_attributes(text: str, lexicon: Sequence[Triple], window: int) -> list[list[str]]:
    """The sparse attributes of each character: the lexicon's BIO tag within ``window`` and at 0 crossed
    with the character. No ``=`` in them (n-gram features are ``name=chars``)."""
    n = len(text)
    tags = [t[:2] + _SHORT.get(t[2:], t[2:]) if t != "O" else "O" for t in bio(n, lexicon)]
    rows: list[list[str]] = [[] for _ in range(n)]
    for i in range(n):
        row = rows[i]
        for k in range(-window, window + 1):
            j = i + k
            if 0 <= j < n and tags[j] != "O":
                row.append(f"X{k}:{tags[j]}")
        row.append(f"XC:{tags[i]}|{text[i]}")
    return rows


def features(text: str, lexicon: Sequence[Triple], window: int, lexicon_window: int) -> list[list[str]]:
    """Feature strings per character, for crfsuite training (prediction scores the n-grams without them)."""
    from pipeline.text.break_features import PAD_LEFT, PAD_RIGHT, shift

    chars = list(text)
    shifted = {k: shift(chars, k, PAD_LEFT if k < 0 else PAD_RIGHT) for k in range(-window, window + 1)}
    cols = [[f"{name}={''.join(g)}" for g in zip(*(shifted[k] for k in offsets))] for name, offsets in templates(window)]
    rows = [list(r) for r in zip(*cols)] if chars else []
    for row, extra in zip(rows, lexicon_attributes(text, lexicon, lexicon_window)):
        row.extend(extra)
    return rows


@dataclass
class CRFSpanModel:
    """The CRF span tagger: compiled weights (:class:`CompiledCRF`) and its info."""

    crf: Any
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def settings(self) -> dict[str, Any]:
        return {**DEFAULTS, **self.info.get("settings", {})}

    @property
    def use_lexicon(self) -> bool:
        return bool(self.settings["use_lexicon"])

    def predict(self, text: str, lexicon: Sequence[Triple] = ()) -> list[Triple]:
        return self.predict_many([(text, lexicon)])[0]

    def predict_many(self, items: Sequence[tuple[str, Sequence[Triple]]]) -> list[list[Triple]]:
        """Spans of several (text, lexicon spans) at once: all n-grams scored in one numpy pass."""
        texts = [t for t, _ in items]
        if not any(texts):
            return [[] for _ in items]
        cfg = self.settings
        scores = self.crf.scores_many(texts, templates(int(cfg["window"])), None, None)
        out = []
        for (text, lexicon), part in zip(items, scores):
            if self.use_lexicon:
                self.crf.add_other(part, enumerate(lexicon_attributes(text, lexicon, int(cfg["lexicon_window"]))))
            out.append(part)
        labels = self.crf.labels
        paths = viterbi_many([p for p in out if len(p)], self.crf.transitions)
        found = iter(paths)
        return [spans_of([labels[j] for j in next(found)]) if len(p) else [] for p in out]

    def save(self, folder: str | Path) -> Path:
        import numpy as np

        from pipeline.nlp.span_model import write_model_folder

        return write_model_folder(folder, self.info,
                                  lambda tmp: np.savez_compressed(tmp / WEIGHTS_FILE, **self.crf.to_arrays()))

    @classmethod
    def load(cls, folder: str | Path, info: dict[str, Any]) -> "CRFSpanModel":
        import numpy as np

        from pipeline.text.crf_runtime import CompiledCRF

        with np.load(Path(folder) / WEIGHTS_FILE, allow_pickle=False) as arrays:
            crf = CompiledCRF.from_arrays(arrays)
        return cls(crf, info)


#: positions × texts a padded batch may hold (a long text among short ones would pad them all)
BATCH_CELLS = 65536


def viterbi_many(scores: Sequence[Any], transitions: Any) -> list[list[int]]:
    """Best label paths of several (n, L) state-score arrays: texts of like length are decoded
    together, one numpy step per position over all of them (the per-label loops of a plain-Python
    Viterbi cost more than the scoring); a text alone, or too long to pad others to, by the plain
    Viterbi. Ties go to the earlier label, as in crfsuite and :meth:`CompiledCRF.decode`."""
    import numpy as np

    from pipeline.text.crf_runtime import viterbi

    rows = np.asarray(transitions, dtype=np.float64).tolist()
    order = sorted(range(len(scores)), key=lambda i: len(scores[i]))
    paths: list[list[int]] = [[] for _ in scores]
    group: list[int] = []

    def flush() -> None:
        if len(group) < 4:  # numpy's per-step cost outweighs the loops for a text or two
            for i in group:
                paths[i] = viterbi(np.asarray(scores[i]).tolist(), rows)
        else:
            for i, path in zip(group, _viterbi_padded([scores[i] for i in group], transitions)):
                paths[i] = path
        group.clear()

    for i in order:
        if group and (len(group) + 1) * len(scores[i]) > BATCH_CELLS:
            flush()
        group.append(i)
    flush()
    return paths


def _viterbi_padded(scores: Sequence[Any], transitions: Any) -> list[list[int]]:
    """:func:`viterbi_many` of texts padded to the longest, all at once."""
    import numpy as np

    trans = np.asarray(transitions, dtype=np.float64)
    size = trans.shape[0]
    lengths = np.array([len(s) for s in scores])
    steps = int(lengths.max())
    emit = np.zeros((len(scores), steps, size))
    for b, s in enumerate(scores):
        emit[b, : len(s)] = s
    back = np.zeros((len(scores), steps, size), dtype=np.int64)
    best = emit[:, 0, :].copy()
    for t in range(1, steps):
        cand = best[:, :, None] + trans[None, :, :]  # (text, from, to)
        arg = cand.argmax(axis=1)
        back[:, t, :] = arg
        step = np.take_along_axis(cand, arg[:, None, :], axis=1)[:, 0, :] + emit[:, t, :]
        live = (t < lengths)[:, None]
        best = np.where(live, step, best)
    paths = []
    for b, n in enumerate(lengths.tolist()):
        j = int(best[b].argmax())
        path = [j]
        for t in range(n - 1, 0, -1):
            j = int(back[b, t, j])
            path.append(j)
        paths.append(path[::-1])
    return paths


def fit(data: Sequence[Any], settings: Optional[dict[str, Any]] = None,
        log: Optional[Callable[[str], None]] = None) -> CRFSpanModel:
    """A :class:`CRFSpanModel` trained on ``data`` (:class:`pipeline.nlp.span_model.Passage`)."""
    import pycrfsuite

    from pipeline.nlp.span_model import FORMAT
    from pipeline.text.crf_runtime import CompiledCRF

    cfg = {**DEFAULTS, **(settings or {})}
    started = time.perf_counter()
    trainer = pycrfsuite.Trainer(verbose=False)
    for p in data:
        # the spans hidden are drawn per passage, from the seed and its text: a lexicon edit changes
        # the draws of the passages it touches, not of every passage after them (one stream for all
        # moved the dev folds' tuple F1 by up to 0.003 for a term the text writes twice)
        rng = random.Random(f"{int(cfg['seed'])}:{p.text}")
        lexicon = [s for s in p.lexicon if rng.random() >= float(cfg["lexicon_dropout"])] if cfg["use_lexicon"] else []
        trainer.append(features(p.text, lexicon, int(cfg["window"]), int(cfg["lexicon_window"])), bio(len(p.text), p.gold))
    trainer.set_params({"c1": float(cfg["c1"]), "c2": float(cfg["c2"]),
                        "max_iterations": int(cfg["max_iterations"]), "feature.possible_transitions": True})
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "model.crfsuite")
        trainer.train(path)
        tagger = pycrfsuite.Tagger()
        tagger.open(path)
        crf = CompiledCRF.from_tagger(tagger)
        tagger.close()
    if log:
        log(f"CRF trained: {len(crf.labels)} labels, {len(crf.keys)} n-gram weights, {len(crf.other)} other attributes")
    info = {
        "format": FORMAT,
        "kind": KIND,
        "settings": cfg,
        "labels": sorted(SPAN_LABELS),
        "passages": len(data),
        "chars": sum(len(p.text) for p in data),
        "chapters": sorted({p.chapter for p in data}),
        "train_seconds": round(time.perf_counter() - started, 1),
    }
    return CRFSpanModel(crf, info)
