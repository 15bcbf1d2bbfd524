"""Prediction with the layer model, without scikit-learn: what the fitted model and its runtime form share.

:class:`LayerPredictor` holds everything the layer model does with its decision values — the
calibrated probabilities, the document-order smoothing, the resolution of undecided segments —
for any class that provides ``_logits`` (decision values in LAYERS order) and the fitted
``classes_``, ``temperature_``, ``calibration_``, ``transitions_``, ``start_`` and ``use_context``.
:class:`~pipeline.layers.classifier.LayerClassifier` (training, scikit-learn) and
:class:`~pipeline.layers.runtime.RuntimeLayerModel` (arrays, loaded without scikit-learn) both
inherit it, so the two forms of one model cannot drift apart.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from pathlib import Path
from typing import Any, Hashable, Iterable, Iterator, Optional, Sequence

import numpy as np

from pipeline.labels import LAYERS
from pipeline.layers.features import han_count
from pipeline.layers.memory import DocumentMemory

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
    from pipeline.config import shipped

    return shipped("models/layers")


def readable(text: str) -> bool:
    """Whether the model can say anything about ``text``: it needs at least one Han character."""
    return han_count(text or "") > 0


class LayerPredictor:
    """The layer model's prediction, from ``_logits`` (see the module docstring)."""

    use_context: bool = True
    #: whether a run of known shape is split with the rest of the document as memory
    #: (:mod:`pipeline.layers.memory`; ``[layers] document_memory``)
    use_memory: bool = True

    def _check(self) -> None:
        """Raise if the model is not fitted (the runtime form always is)."""

    def _logits(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

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
            out[ok] = self._calibrated(self._remembered_logits([texts[i] for i in ok]), separate)
        return out

    def _remembered_logits(self, texts: list[str]) -> np.ndarray:
        """:meth:`_logits`, each text scored once per :meth:`resolve_segments` call: the splitter
        scores a run's pieces and the segments then score the same text again (a one-passage
        record is both)."""
        memo = getattr(self, "_logit_memo", None)
        if memo is None:
            return self._logits(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in memo))
        if missing:
            for t, row in zip(missing, self._logits(missing)):
                memo[t] = row
        return np.array([memo[t] for t in texts])

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

    def smooth(self, proba: np.ndarray, clamp: Optional[Sequence[Optional[str]]] = None,
               transitions: Optional[np.ndarray] = None) -> np.ndarray:
        """Forward–backward posteriors for one document's units, from text-only probabilities.

        The chain runs over the units that are 經, 注 or 疏 (a unit the text calls OTHER, or that
        ``clamp`` fixes as OTHER, is stepped over and keeps its probabilities); each chain unit keeps
        its OTHER probability and shares the rest among 經/注/疏 by its posterior. The text-only
        probabilities serve as emissions. ``clamp`` fixes the layer of units that markers or anchors
        already decided (``None`` where free). ``transitions`` replaces the learned layer-to-layer
        matrix (:meth:`order_proba` passes one for units with gaps between them).
        """
        other = LAYERS.index("OTHER")
        proba = np.asarray(proba, dtype=float)
        out = proba.copy()
        fixed = [None] * len(proba) if clamp is None else list(clamp)
        chain, e = _chain(proba, fixed)
        if len(chain) < 2:
            return out
        n, k = e.shape
        trans = self.transitions_ if transitions is None else transitions
        alpha, _loglik = _forward(e, self.start_, trans)
        beta = np.ones((n, k))
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

    def order_proba(self, texts: Sequence[str]) -> tuple[np.ndarray, str]:
        """Probabilities for units given in an order that may be their document's (``yili classify``).

        Where the order is the document's, the neighbours count (a 注 follows its 經) as in
        :meth:`predict_proba` with contexts; but records may also be a sample of a document's units
        (gaps between them) or in no order at all, where the learned transitions mislead. So the
        order is weighed first: the sequence of text-only probabilities is scored under the
        transitions of adjacent units, of units with gaps of geometric length (:func:`gapped`,
        keep rates in :data:`GAP_RATES`) and of no order (every row the start distribution), and
        the likeliest is used; "none" leaves the text-only probabilities. Returns the
        probabilities and the name of the order chosen.
        """
        proba = np.concatenate([self.text_proba(texts[i:i + 512]) for i in range(0, len(texts), 512)] or
                               [np.zeros((0, len(LAYERS)))])
        if not self.use_context or len(proba) < 2:
            return proba, "none"
        choices = order_transitions(self.transitions_, self.start_)
        scores = {name: self._sequence_loglik(proba, trans) for name, trans in choices.items()}
        best = max(scores, key=lambda name: (scores[name], name == "none"))
        if best == "none":
            return proba, best
        readable_rows = np.array([readable(t or "") for t in texts])
        smoothed = self.smooth(proba, transitions=choices[best])
        proba[readable_rows] = smoothed[readable_rows]
        return proba, best

    def _sequence_loglik(self, proba: np.ndarray, trans: np.ndarray) -> float:
        """Log-likelihood of the 經/注/疏 chain of ``proba`` (as :meth:`smooth` builds it) under ``trans``."""
        chain, e = _chain(proba, [None] * len(proba))
        return _forward(e, self.start_, trans)[1] if len(chain) >= 2 else 0.0

    # -- the pipeline's use -------------------------------------------------------------------
    def resolve_segments(self, text: str, segments: list, removed: Iterable = (), splitter: Any = "attached") -> list:
        """Decide the segments nothing else decided (``evidence == "default"``).

        Each undecided segment is first offered to the run-together splitter (when one is
        attached or given): a segment where 經 and 注 (or 注 and 疏) run together comes back as
        several pieces. Every undecided piece is then classified from its text (removed ranges
        left out), with the decided segments around it as context, and gets ``evidence="model"``
        and the model's probability as ``score``. Where the reader knew the segment's shape (a
        :class:`~pipeline.records.RunShape`), the splitter decodes within it and its layers stand.
        Decided segments are returned unchanged.
        """
        self._logit_memo: Optional[dict] = {}
        try:
            return self._resolve(text, segments, removed, splitter)
        finally:
            self._logit_memo = None

    def _resolve(self, text: str, segments: list, removed: Iterable, splitter: Any) -> list:
        from pipeline.records import Segment

        if splitter == "attached":
            splitter = getattr(self, "splitter_", None)
        kept = _KeptText(text, sorted((r.start, r.end) for r in removed))
        # what the rest of the document says: its decided 經 and 注 (see pipeline.layers.memory)
        memory = None
        if self.use_memory and splitter is not None and any(seg.evidence == "default" and seg.shape is not None for seg in segments):
            memory = DocumentMemory.of((seg.layer, seg.text) for seg in segments if seg.evidence != "default")
        pieces: list[tuple[Any, Optional[tuple[int, int]]]] = []  # (segment or None, undecided span)
        origin: list[int] = []  # which input segment each piece comes from
        shaped: dict[int, str] = {}  # piece index → the layer the splitter gave it (a known shape, or 疏 heads)
        for n, seg in enumerate(segments):
            if seg.evidence != "default":
                pieces.append((seg, None))
                origin.append(n)
                continue
            spans = [(seg.start, seg.end)]
            if splitter is not None and seg.shape is not None:
                shape = _with_lemma(seg.shape, kept(seg.start, seg.end), segments[:n])
                runs = splitter.split_runs(text, seg.start, seg.end, kept.within(seg.start, seg.end), classifier=self,
                                           shape=shape, memory=memory)
                shaped.update((len(pieces) + j, layer) for j, (_a, _b, layer) in enumerate(runs))
                spans = [(a, b) for a, b, _layer in runs]
            elif splitter is not None:
                runs = splitter.split_runs(text, seg.start, seg.end, kept.within(seg.start, seg.end), classifier=self)
                if len(runs) > 1:
                    spans = [(a, b) for a, b, _layer in runs]
                    if splitter.reads_by_heads(kept(seg.start, seg.end)):
                        # a 注疏 read by its 疏 heads: the order of its layers decided them
                        shaped.update((len(pieces) + j, layer) for j, (_a, _b, layer) in enumerate(runs))
            pieces.extend((None, span) for span in spans)
            origin.extend([n] * len(spans))
        free = [i for i, (seg, _span) in enumerate(pieces) if seg is None]
        if not free:
            return list(segments)
        texts = [kept(*pieces[i][1]) if pieces[i][0] is None else pieces[i][0].text for i in range(len(pieces))]
        clamp = [pieces[i][0].layer if pieces[i][0] is not None and pieces[i][0].layer in LAYERS else None for i in range(len(pieces))]
        # a decided segment is clamped to its layer in the smoothing and keeps it: its text need
        # not be scored (most of a 四庫 file's text is 疏 decided by its marker)
        scored = [i for i in range(len(pieces)) if clamp[i] is None]
        proba = self.text_proba([""] * len(pieces))
        if scored:
            proba[scored] = self.text_proba([texts[i] for i in scored])
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
            if i in shaped and shaped[i] in LAYERS and readable(texts[i]):
                # the splitter decoded the run within what the reader knows of it (the 注 → 經 of
                # an unmarked 四庫 注): its layer stands, scored by the classifier's belief in it
                layer = shaped[i]
                score = float(proba[i, LAYERS.index(layer)])
            elif readable(texts[i]):
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


def _align(svm: Any, raw: np.ndarray) -> np.ndarray:
    """Decision values in LAYERS order (-1e9 for a layer the training data never had); ``svm``:
    the fitted SVM, or the classes it learned."""
    learned = [str(c) for c in getattr(svm, "classes_", svm)]
    if raw.ndim == 2 and raw.shape[1] == 1:  # X @ coef.T of a two-class SVM
        raw = raw[:, 0]
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


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _chain(proba: np.ndarray, fixed: Sequence[Optional[str]]) -> tuple[list[int], np.ndarray]:
    """The units of a document's chain (those neither fixed nor read as OTHER) and their emissions
    over 經/注/疏 (OTHER zeroed, rows summing to one); a fixed unit emits its layer only."""
    other = LAYERS.index("OTHER")
    emis = np.clip(proba, 1e-12, None).copy()
    for i, label in enumerate(fixed):
        if label is not None:
            emis[i] = 1e-12
            emis[i, LAYERS.index(label)] = 1.0
    chain = [i for i in range(len(proba)) if (fixed[i] or LAYERS[int(proba[i].argmax())]) != "OTHER"]
    e = emis[chain].copy()
    e[:, other] = 0.0
    e /= e.sum(axis=1, keepdims=True)
    return chain, e


def _forward(e: np.ndarray, start: np.ndarray, trans: np.ndarray) -> tuple[np.ndarray, float]:
    """The forward pass over a chain's emissions: each step's probabilities normalised to one, and
    the log-likelihood of the chain (the sum of the logs of the normalisers)."""
    alpha = np.zeros(e.shape)
    total = 0.0
    for i in range(len(e)):
        alpha[i] = e[i] * (start if i == 0 else alpha[i - 1] @ trans)
        step = alpha[i].sum()
        total += float(np.log(step))
        alpha[i] /= step
    return alpha, total


#: keep rates of :func:`gapped` transitions that :meth:`LayerPredictor.order_proba` weighs, besides
#: adjacent units (1.0) and no order; chosen on the held-out chapters of ``bench/classify_order.py``
GAP_RATES = (0.5, 0.25)


def gapped(trans: np.ndarray, keep: float, steps: int = 40) -> np.ndarray:
    """Transitions between two units of a document when each unit between them was left out with
    probability ``1 - keep``: the learned matrix raised to a geometric number of steps."""
    out = np.zeros_like(trans)
    power = np.eye(len(trans))
    weight = keep
    for _ in range(steps):
        power = power @ trans
        out += weight * power
        weight *= 1.0 - keep
    return out / out.sum(axis=1, keepdims=True)


def order_transitions(trans: np.ndarray, start: np.ndarray) -> dict[str, np.ndarray]:
    """The orders :meth:`LayerPredictor.order_proba` weighs: adjacent units, units with gaps, none."""
    trans = np.asarray(trans, dtype=float)
    start = np.asarray(start, dtype=float)
    out = {"adjacent": trans}
    out.update({f"gaps {keep}": gapped(trans, keep) for keep in GAP_RATES})
    out["none"] = np.tile(start / start.sum(), (len(start), 1))
    return out


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


def _with_lemma(shape: Any, run: str, before: Sequence[Any]) -> Any:
    """``shape`` with how many characters of an unmarked 注's run repeat the 經 it follows
    (:func:`~pipeline.layers.seams.quoted_lemma`). The 經: the last segment before the run but
    for OTHER (音義 notes), if it is 經 or another such run, which ends in its 經."""
    from dataclasses import replace

    from pipeline.layers.seams import quoted_lemma

    if shape.first != "ZHU" or not shape.one_switch:
        return shape
    previous = next((seg for seg in reversed(before) if seg.layer != "OTHER" or seg.evidence == "default"), None)
    if previous is None:
        return shape
    if previous.evidence == "default":  # another run: its 經 is its end
        ends_in_jing = previous.shape is not None and previous.shape.last == "JING"
    else:
        ends_in_jing = previous.layer == "JING"
    return replace(shape, quoted=quoted_lemma(run, previous.text)) if ends_in_jing else shape


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


class _KeptText:
    """:func:`_kept_text` of one document's text and removed ranges (sorted by start), with the
    ranges indexed once: a 四庫 file removes thousands (a ¶ ends every printed line), and each
    run or piece needs only the few inside it — the splitter too (:meth:`within`)."""

    def __init__(self, text: str, drops: list[tuple[int, int]]) -> None:
        self.text, self.drops = text, drops
        self.starts = [s for s, _e in drops]
        self.reach = list(accumulate((e for _s, e in drops), max))  # the furthest end so far

    def within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The ranges that may overlap ``[start, end)``, in order (every other one lies wholly
        before or after it)."""
        lo = bisect_right(self.reach, start)  # every range before ends at or before start
        hi = bisect_left(self.starts, end)  # every range from here starts at or after end
        return self.drops[lo:hi]

    def __call__(self, start: int, end: int) -> str:
        return _kept_text(self.text, start, end, self.within(start, end))




def document_key(record: Any) -> Hashable:
    """The document a ``yili classify`` record comes from: ``meta.source``, else the part of
    ``meta.doc`` before ``#`` (``03_shixiangjianli.xhtml#p15``); ``""`` when it does not say (all
    such records, one after another, are one document)."""
    meta = record.get("meta") if isinstance(record, dict) else None
    if not isinstance(meta, dict):
        return ""
    source = meta.get("source")
    if isinstance(source, str) and source:
        return source
    doc = meta.get("doc")
    if isinstance(doc, (str, int)) and str(doc):
        return str(doc).split("#", 1)[0]
    return ""


def _reading_order(records: Sequence[Any], rows: list[int]) -> list[int]:
    """``rows`` in their document's order: by ``meta.start`` where every one of them has it, else as given."""
    starts = []
    for i in rows:
        meta = records[i].get("meta") if isinstance(records[i], dict) else None
        start = meta.get("start") if isinstance(meta, dict) else None
        if not isinstance(start, int) or isinstance(start, bool):
            return rows
        starts.append(start)
    return [i for _s, i in sorted(zip(starts, rows))]


def classify_records(records: Iterable[dict], model: LayerPredictor, report: Optional[dict] = None) -> Iterator[dict]:
    """``yili classify``: each record back with ``label`` and ``scores`` (layer → probability).

    Records that say they come from one document (:func:`document_key`; consecutive records with
    no key count as one) are read together, in the document's order (``meta.start`` where every
    one has it, else the order given), by :meth:`LayerPredictor.order_proba`: where that order
    looks like the document's, a unit's neighbours count; where it does not (a sample with gaps,
    a shuffled set), less or not at all. A record without readable text (empty, or no Han
    characters) gets OTHER with a low score; a record whose ``text`` is not a string gets an
    ``error`` field. Every other field is kept. ``report`` (a dict) counts the orders chosen.
    """
    records = list(records)
    texts = []
    for record in records:
        text = record.get("text") if isinstance(record, dict) else None
        texts.append(text if isinstance(text, str) else "")
    proba = np.zeros((len(records), len(LAYERS)))
    keys = [document_key(r) for r in records]
    for rows in _runs(keys):
        ordered = _reading_order(records, rows)
        proba[ordered], order = model.order_proba([texts[i] for i in ordered])
        if report is not None:
            report[order] = report.get(order, 0) + 1
    for record, text, row in zip(records, texts, proba):
        out = dict(record) if isinstance(record, dict) else {"record": record}
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            out["error"] = "record has no 'text' string"
        scores = {label: round(float(p), 4) for label, p in zip(LAYERS, row)}
        out["label"] = max(scores, key=scores.get) if readable(text) else "OTHER"
        out["scores"] = scores
        yield out
