"""Run-together text: where 經 and 注 (or 注 and 疏) follow each other with no marker, find the seams.

The 四庫 edition does not mark where a 注 ends when the next 經 follows; web copies print the 注
straight after its 經 (seed 004). Two models work together:

1. a character CRF (sklearn-crfsuite) that labels every Han character with its layer, from local
   evidence (below); on its own it is the fallback;
2. with the layer classifier at hand (:meth:`RunTogetherSplitter.predict_labels` ``classifier=``),
   the text is cut into pieces — its sentences where it is punctuated; else clauses ending in
   也 / 矣 / 焉, cut again at the CRF's seams — the classifier scores each piece, and a Viterbi
   pass with learned sentence-to-sentence transitions (經 → 經, 經 → 注, 注 → 經 …) picks the
   layers. A whole sentence tells 經 from 注 far better than a window of characters does;
3. in punctuated text, a CRF over the sentences (:mod:`pipeline.layers.pieces`, learned from
   classifiers cross-fitted on halves of the training chapters) decides 疏: the Viterbi of 2.
   let a 疏 sentence that quotes the 注 fall back to 注 (held-out ZHU+SHU text 0.77).

What a character sees in the CRF:

- how 經-like, 注-like or 疏-like the text is in windows to its left, to its right and around it
  (4 to 32 characters). A window's score is that of a linear model over its character 1–3-grams
  (hashed), trained on windows cut from corpus units; being linear in n-gram counts, the score of
  every window of a string comes from prefix sums in one pass. These give the CRF the wider view
  a character's neighbours lack: the seam goes where the left stops reading like 經 and the
  right starts reading like 注;
- the punctuation around it (a 經 sentence ends in 。 before its 注 begins) and the characters
  themselves;
- whether the words starting here repeat the text just before (a 注 opens by repeating the word of
  the 經 it explains: 「適室，正寢之室也」 after …死于適室) and are followed by a gloss
  (也 / 謂 / 猶 / 者 / 之言).

The window model is cross-fitted during training (each half of the training chapters is scored by
a model fitted on the other half), so the CRF learns how far to trust it on unseen text; the two
halves' weights, averaged, score new text.
Punctuation is not labelled by the CRF: it belongs to the Han character before it.
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Iterable, Optional, Sequence

import numpy as np
from sklearn.base import BaseEstimator

from pipeline.layers.features import ngram_text
from pipeline.layers.seams import (  # noqa: F401  (names this module has always exported)
    _GLOSS_NEXT, _PIECE_ENDS, _SENTENCE_END, _SENTENCE_RE, Pieces, SplitPredictor, WindowScores, _decision,
    _fill_forward, _hash, _merge_short, _punct_kind, _repeat_lengths, _runs_of, _sentences, char_accuracy,
    han_positions,
)


class WindowScorer(WindowScores):
    """Fits the window model (:class:`~pipeline.layers.seams.WindowScores` scores it).

    Fitted with sklearn's HashingVectorizer (l1-normalised counts, so a window's score is the mean
    of its n-grams' weights) and a linear SVM.
    """

    def _vectorizer(self):
        from sklearn.feature_extraction.text import HashingVectorizer

        return HashingVectorizer(analyzer="char", ngram_range=(min(self.orders), max(self.orders)), norm="l1",
                                 alternate_sign=False, n_features=self.n_features, lowercase=False)

    def fit(self, strings: Iterable[tuple[str, str]], max_windows: int = 40_000) -> "WindowScorer":
        """``strings``: (layer, text) units; windows of each width are cut from them."""
        from sklearn.svm import LinearSVC

        rng = random.Random(self.random_state)
        windows, labels = [], []
        for layer, text in strings:
            s = ngram_text(text)
            if layer not in self.layers or not s:
                continue
            for w in self.widths:
                if len(s) <= w:
                    windows.append(s)
                    labels.append(layer)
                    continue
                offset = rng.randrange(w)
                for i in range(offset, len(s) - w + 1, w):
                    windows.append(s[i : i + w])
                    labels.append(layer)
        if len(windows) > max_windows:
            keep = sorted(rng.sample(range(len(windows)), max_windows))
            windows = [windows[i] for i in keep]
            labels = [labels[i] for i in keep]
        svm = LinearSVC(C=self.C, random_state=self.random_state)
        svm.fit(self._vectorizer().transform(windows), labels)
        order = [list(svm.classes_).index(c) for c in self.layers]
        self.coef_ = svm.coef_[order].T.astype(np.float32)  # (n_features, n_layers)
        self.intercept_ = svm.intercept_[order].astype(np.float32)
        return self

    @classmethod
    def average(cls, scorers: Sequence["WindowScorer"]) -> "WindowScorer":
        """One scorer whose weights are the mean of ``scorers``' (the cross-fitted halves, for prediction)."""
        first = scorers[0]
        out = cls(first.layers, first.n_features, first.orders, first.widths, first.C, first.random_state)
        out.coef_ = np.mean([s.coef_ for s in scorers], axis=0).astype(np.float32)
        out.intercept_ = np.mean([s.intercept_ for s in scorers], axis=0).astype(np.float32)
        return out



class RunTogetherSplitter(SplitPredictor, BaseEstimator):
    """Find the layer runs in a string where 經, 注 and 疏 follow each other without markers."""

    def __init__(
        self,
        layers: tuple[str, ...] = ("JING", "ZHU", "SHU"),
        widths: tuple[int, ...] = (4, 8, 16, 32),
        lookback: int = 40,
        c1: float = 0.05,
        c2: float = 0.05,
        max_iterations: int = 60,
        min_piece: int = 2,
        crf_smoothing: float = 0.2,
        max_segment: int = 8,
        decoding: str = "pieces",
        quote_lookback: int = 160,
        quote_weight: float = 1.0,
        extra_cuts: str = "qwW",
        random_state: int = 0,
    ):
        self.layers = layers
        self.widths = widths
        self.lookback = lookback
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.min_piece = min_piece
        self.crf_smoothing = crf_smoothing
        self.max_segment = max_segment
        self.decoding = decoding
        self.quote_lookback = quote_lookback
        self.quote_weight = quote_weight
        self.extra_cuts = extra_cuts
        self.random_state = random_state

    @staticmethod
    def _gold(pieces: Pieces) -> tuple[str, list[str]]:
        """The run-together string and the layer of each of its characters."""
        text = "".join(t for _l, t in pieces)
        labels = [layer for layer, t in pieces for _ in t]
        return text, labels

    def _scorer(self, strings: Iterable[tuple[str, str]]) -> WindowScorer:
        return WindowScorer(self.layers, widths=self.widths, random_state=self.random_state).fit(strings)

    # -- learning -----------------------------------------------------------------------------
    def fit(self, sequences: Sequence[Pieces], groups: Optional[Sequence[Hashable]] = None,
            units: Optional[Sequence[tuple[str, str, Hashable]]] = None,
            streams: Optional[Sequence[Pieces]] = None) -> "RunTogetherSplitter":
        """Learn from run-together strings given as their gold pieces.

        ``groups`` (chapter per sequence) decides the halves the window model is cross-fitted on;
        ``units`` ((layer, text, group) triples) are what the window model learns from (default:
        the pieces of the sequences); ``streams`` (whole documents as (layer, text) units in
        reading order, uncut) teach the sentence-to-sentence transitions (default: the sequences,
        whose long units are cut short).
        """
        import sklearn_crfsuite

        sequences = [list(s) for s in sequences]
        if groups is None:
            groups = [i % 2 for i in range(len(sequences))]
        groups = [str(g) for g in groups]
        names = sorted(set(groups))
        side = {g: i % 2 for i, g in enumerate(names)}
        if units is None:
            units = [(l, t, g) for s, g in zip(sequences, groups) for l, t in s]
        units = [(l, t, str(g)) for l, t, g in units]
        scorers = [self._scorer((l, t) for l, t, g in units if side.get(g, hash(g) % 2) != h) for h in (0, 1)]
        X, Y = [], []
        for s, g in zip(sequences, groups):
            text, labels = self._gold(s)
            feats, pos = self._char_features(text, scorers[side[g]])
            if feats:
                X.append(feats)
                Y.append([labels[p] for p in pos])
        self.crf_ = sklearn_crfsuite.CRF(
            algorithm="lbfgs", c1=self.c1, c2=self.c2, max_iterations=self.max_iterations, all_possible_transitions=True
        )
        self.crf_.fit(X, Y)
        self.scorer_ = WindowScorer.average(scorers)
        self.piece_transitions_ = self._piece_transitions(streams if streams is not None else sequences)
        self.unit_transitions_ = self._unit_transitions(streams if streams is not None else sequences)
        self.quote_factors_ = self._quote_factors(streams if streams is not None else sequences)
        return self

    # -- the 注 repeats the 經 it explains ------------------------------------------------------
    def _quote_factors(self, sequences: Sequence[Pieces]) -> dict[str, np.ndarray]:
        """log P(category | layer) − log P(category) of :meth:`_quote_cats`, from training documents."""
        k = len(self.layers)
        counts: dict[str, np.ndarray] = {}
        for seq in sequences:
            text, spans, labels, offset = "", [], [], 0
            for layer, unit in seq:
                for piece in _sentences(unit):
                    if layer in self.layers:
                        spans.append((offset, offset + len(piece)))
                        labels.append(self.layers.index(layer))
                    offset += len(piece)
                text += unit
            for cat, j in zip(self._quote_cats(text, spans), labels):
                counts.setdefault(cat, np.zeros(k))[j] += 1
        if not counts:
            return {}
        cats = sorted(counts)
        table = np.array([counts[c] for c in cats]) + 1.0
        given = table / table.sum(axis=0, keepdims=True)  # P(cat | layer)
        marginal = table.sum(axis=1) / table.sum()
        return {c: np.log(given[r]) - np.log(marginal[r]) for r, c in enumerate(cats)}

    def _unit_transitions(self, sequences: Sequence[Pieces]) -> np.ndarray:
        """Layer-to-layer transitions between consecutive units (runs of one layer) of the training documents."""
        k = len(self.layers)
        counts = np.ones((k, k))
        for seq in sequences:
            labels = [self.layers.index(layer) for layer, _text in seq if layer in self.layers]
            for a, b in zip(labels, labels[1:]):
                counts[a, b] += 1
        return counts / counts.sum(axis=1, keepdims=True)

    def _piece_transitions(self, sequences: Sequence[Pieces]) -> np.ndarray:
        """Layer-to-layer transitions between consecutive sentences (pieces) of the training strings."""
        k = len(self.layers)
        counts = np.ones((k, k))
        for seq in sequences:
            labels = [self.layers.index(layer) for layer, text in seq if layer in self.layers for _p in _sentences(text)]
            for a, b in zip(labels, labels[1:]):
                counts[a, b] += 1
        return counts / counts.sum(axis=1, keepdims=True)

    def _training_pieces(self, seq: Pieces) -> tuple[list[str], list[str]]:
        """The pieces of one training string (cut at its gold seams too) and their gold layers."""
        text, labels = self._gold(seq)
        seams, offset = [], 0
        for _layer, unit in seq[:-1]:
            offset += len(unit)
            seams.append(offset)
        spans = self._pieces(text, seams)
        return [text[a:b] for a, b in spans], [labels[a] for a, _b in spans]

    def fit_pieces(self, sequences: Sequence[Pieces], groups: Sequence[Hashable], classifiers: dict) -> "RunTogetherSplitter":
        """Learn the piece CRF (:mod:`pipeline.layers.pieces`) from run-together strings.

        ``classifiers`` maps each group (chapter) to a layer classifier that never saw it, so the
        CRF learns how far to trust the classifier on unseen text.
        """
        from pipeline.layers.pieces import PieceTagger, piece_features

        cut = [self._training_pieces(s) for s in sequences]
        by_model: dict[int, list[int]] = {}
        for n, g in enumerate(groups):
            by_model.setdefault(id(classifiers[g]), []).append(n)
        probas: list[Any] = [None] * len(cut)
        for rows in by_model.values():
            model = classifiers[groups[rows[0]]]
            flat = [t for n in rows for t in cut[n][0]]
            proba = _decision(model, flat)
            k = 0
            for n in rows:
                m = len(cut[n][0])
                probas[n] = proba[k : k + m]
                k += m
        X = [piece_features(texts, p) for (texts, _labels), p in zip(cut, probas) if texts]
        Y = [labels for texts, labels in cut if texts]
        self.piece_tagger_ = PieceTagger().fit(X, Y)
        return self
