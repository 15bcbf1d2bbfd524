"""Prediction of the run-together splitter (:mod:`pipeline.layers.splitter`), without scikit-learn.

:class:`SplitPredictor` holds everything the splitter does with a fitted model — the character
features, the window scores, the pieces, the Viterbi and CRF decodings — and
:class:`WindowScores` the window model's scoring. The training classes
(:class:`~pipeline.layers.splitter.RunTogetherSplitter`, :class:`~pipeline.layers.splitter.WindowScorer`)
inherit them, and so does the runtime form of the model (:mod:`pipeline.layers.runtime`): one
implementation for both. The CRFs are read through ``predict_single`` (sklearn-crfsuite's CRF
when training, :class:`pipeline.layers.crf.CrfTagger` at run time: the same crfsuite tagger).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from pipeline.layers.anchors import SHU_OPENING_RE, cited_before_heads
from pipeline.layers.features import fold_script, is_han, strip_non_han
from pipeline.layers.memory import DocumentMemory
from pipeline.records import RunShape
from pipeline.text.normalise import normalise_str

#: (layer, text) pieces in reading order: one run-together string with its gold layers.
Pieces = Sequence[tuple[str, str]]

_SENTENCE_END = set("。！？；")
_SENTENCE_RE = re.compile(r"[^。！？；]*[。！？；]+[」”』’]*|[^。！？；]+$")
#: where an unpunctuated piece may end: the particles that close a 注 sentence
_PIECE_ENDS = set("也矣焉")
_CLAUSE = set("，、：︰")
_GLOSS_NEXT = ("也", "谓", "犹", "者", "之言", "曰", "言")


def _hash(gram: str, n_features: int) -> int:
    """sklearn's ``murmurhash3_32(gram, seed=0)`` (MurmurHash3 x86 32-bit of the UTF-8 bytes,
    signed), from the ``murmurhash`` package, which imports no scikit-learn."""
    from murmurhash.mrmr import hash as murmur

    return abs(murmur(gram, 0)) % n_features


class WindowScores:
    """Layer scores of every window of a string, from one linear model over hashed 1–3-grams.

    The weights (``coef_``, ``intercept_``) come from :class:`~pipeline.layers.splitter.WindowScorer`;
    scored by prefix sums over per-position weights, with the hash it was fitted with
    (murmurhash3, seed 0), so no vocabulary needs to be stored.
    """

    def __init__(self, layers: Sequence[str], n_features: int = 2**18, orders: tuple[int, ...] = (1, 2, 3),
                 widths: Sequence[int] = (4, 8, 16, 32), C: float = 0.5, random_state: int = 0):
        self.layers = list(layers)
        self.n_features = n_features
        self.orders = orders
        self.widths = tuple(widths)
        self.C = C
        self.random_state = random_state

    def window_scores(self, s: str) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For each width: scores of the windows left of, right of and around each position of ``s``.

        ``s`` is Han-only folded text. Each array is (len(s), n_layers).
        """
        n, k = len(s), len(self.layers)
        if n == 0:
            return [(np.zeros((0, k)),) * 3 for _ in self.widths]
        prefix = {}
        for order in self.orders:
            rows = [self.coef_[_hash(s[i : i + order], self.n_features)] for i in range(n - order + 1)]
            arr = np.vstack(rows) if rows else np.zeros((0, k), dtype=np.float32)
            prefix[order] = np.vstack([np.zeros((1, k)), np.cumsum(arr, axis=0)])
        idx = np.arange(n)
        # the windows of every width and side at once (left, right, centre per width): numpy's
        # per-call cost is paid once, not twelve times (it dominated short texts)
        bounds = []
        for w in self.widths:
            half = max(w // 2, 1)
            bounds += [(idx - w, idx), (idx, idx + w), (idx - half, idx + half)]
        lo = np.clip(np.concatenate([b[0] for b in bounds]), 0, n)
        hi = np.clip(np.concatenate([b[1] for b in bounds]), 0, n)
        total = np.zeros((len(lo), k))
        count = np.zeros(len(lo))
        for order, csum in prefix.items():
            last = np.clip(hi - order + 1, lo, None)  # n-grams starting in [lo, last) lie inside
            last = np.minimum(last, len(csum) - 1)
            lo_ = np.minimum(lo, len(csum) - 1)
            total += csum[last] - csum[lo_]
            count += np.maximum(last - lo_, 0)
        means = (total / np.maximum(count, 1)[:, None] + self.intercept_).reshape(len(self.widths), 3, n, k)
        return [(m[0], m[1], m[2]) for m in means]


def _repeat_lengths(s: str, lookback: int, cap: int = 4) -> list[int]:
    """For each i: the longest n (≤ cap) such that s[i:i+n] occurs in the ``lookback`` characters before i."""
    out = []
    for i in range(len(s)):
        window = s[max(0, i - lookback) : i]
        n = 0
        while n < cap and i + n < len(s) and s[i : i + n + 1] in window:
            n += 1
        out.append(n)
    return out


def han_positions(text: str) -> list[int]:
    return [i for i, ch in enumerate(text) if is_han(ch)]


def _folded_han(text: str) -> tuple[str, list[int], str]:
    """``text`` script-folded, its Han characters' positions, and those characters."""
    folded = fold_script(text)
    pos = han_positions(folded)
    return folded, pos, "".join(folded[i] for i in pos)


class SplitPredictor:
    """The run-together splitter's prediction (see the module docstring)."""

    #: how much the document's own 經 and 注 (:class:`~pipeline.layers.memory.DocumentMemory`)
    #: weigh, per character where the one seam is sought and per piece (its mean vote) in the
    #: Viterbi; chosen on the dev chapters' 四庫 runs (bench/siku_runs.py)
    memory_cut_weight: float = 6.0
    memory_piece_weight: float = 4.0
    #: where the one seam of a 注 → 經 run is sought, each character left in the 注 adds this much:
    #: the CRF ends a 注 early (of the 74 dev 四庫 runs read with one seam misplaced, 52 end the 注
    #: too early, 42 of them by 1–4 characters, and 22 too late: 取脯重得君之賜 cut after 取脯, 某大夫名
    #: after 某). Chosen on those runs (bench/siku_runs.py with the fold models: 0.935 → 0.940; 0.2
    #: and 0.5 gave 0.936; a length prior instead, 2–3 per character a 注 falls short of 6–12
    #: characters, gave 0.940 as well; the one number was kept as the simpler)
    seam_lean: float = 1.0
    #: whether a punctuated string holding 疏 heads is read by them (:meth:`reads_by_heads`); off, as
    #: before 2026-11-29's fourth session (bench/unmarked_copy.py reads its "before" so)
    read_by_heads: bool = True
    #: a run read by its 疏 heads (:meth:`reads_by_heads`) weighs the piece CRF's marginals by this
    #: much beside the classifier and the character CRF. Chosen on the dev chapters' 注疏 copied
    #: on one line (the fold models of bench/siku_runs.py): 1 0.941, 3 0.954, 6 0.955, 12 0.956
    head_marginal_weight: float = 6.0

    # -- features -----------------------------------------------------------------------------
    def _char_features(self, text: str, scorer: WindowScores) -> tuple[list[dict], list[int]]:
        """One feature dict per Han character of ``text``, and the characters' positions.

        Within one :meth:`predict_labels` call the same text is featurised by the seams, the
        piece Viterbi and the single-cut search alike: the result is kept for that call only."""
        return self._per_call(("features", id(scorer), text), lambda: self._char_features_of(text, scorer))

    def _window_scores(self, scorer: WindowScores, han: str) -> list:
        return self._per_call(("windows", id(scorer), han), lambda: scorer.window_scores(han))

    def _per_call(self, key: tuple, compute: Any) -> Any:
        """``compute()``, remembered under ``key`` while a :meth:`predict_labels` call runs."""
        memo = getattr(self, "_call_memo", None)
        if memo is None:
            return compute()
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def _han(self, text: str) -> tuple[str, list[int], str]:
        """``text`` script-folded, the positions of its Han characters and those characters: once
        per :meth:`predict_labels` call (the features, the seam search, the memory and the pieces
        all read them)."""
        return self._per_call(("han", text), lambda: _folded_han(text))

    def _char_features_of(self, text: str, scorer: WindowScores) -> tuple[list[dict], list[int]]:
        folded, pos, han = self._han(text)
        n = len(han)
        before, after = [""] * n, [""] * n
        for j, p in enumerate(pos):
            start = pos[j - 1] + 1 if j > 0 else 0
            before[j] = _punct_kind(folded[start:p]) or "none"
            if j > 0:
                after[j - 1] = before[j]
        if n:
            after[-1] = _punct_kind(folded[pos[-1] + 1 :]) or "END"
        windows = self._window_scores(scorer, han)
        repeat = _repeat_lengths(han, self.lookback)
        feats: list[dict] = []
        pad = "^^" + han + "$$$$"
        for j in range(n):
            c = j + 2
            gloss = next((g for g in _GLOSS_NEXT if g in pad[c + 1 : c + 4]), "")
            f: dict[str, float | str] = {
                "c0": pad[c],
                "c-1c0": pad[c - 1 : c + 1],
                "c0c+1": pad[c : c + 2],
                "p-": before[j],
                "p+": after[j],
                "p-c0": before[j] + pad[c],
                "c0p+": pad[c] + after[j],
                "rep": str(min(repeat[j], 2)),
                "rep_gloss": f"{min(repeat[j], 2)}{gloss}",
                "rep_p-": f"{min(repeat[j], 2)}{before[j]}",
            }
            for w, (left, right, centre) in zip(self.widths, windows):
                for k, layer in enumerate(scorer.layers):
                    f[f"L{w}{layer}"] = float(left[j, k])
                    f[f"R{w}{layer}"] = float(right[j, k])
                    f[f"C{w}{layer}"] = float(centre[j, k])
            feats.append(f)
        return feats, pos

    def _quote_cats(self, text: str, spans: Sequence[tuple[int, int]]) -> list[str]:
        """For each piece: how long a start of it repeats the text just before, and what follows.

        A 注 sentence opens with the words of the 經 it glosses, then a comma or a gloss word:
        「不敢為儀，言不敢外貌為威儀」 after 「某不敢為儀」; 「將食猶進食」 after 「若有將食者」.
        The category is the repeated length (0–4+) and ``P`` (punctuation follows), ``G`` (a
        gloss word 也/謂/猶/者/之言/曰/言 follows) or ``-``.
        """
        folded = self._han(text)[0]
        out = []
        for a, b in spans:
            pos = [i for i in range(a, b) if is_han(folded[i])]
            piece = "".join(folded[i] for i in pos)
            before = [i for i in range(max(0, a - 3 * self.quote_lookback), a) if is_han(folded[i])][-self.quote_lookback :]
            window = "".join(folded[i] for i in before)
            n = 0
            while n < min(6, len(piece)) and piece[: n + 1] in window:
                n += 1
            if n == 0:
                out.append("0")
                continue
            nxt = pos[n] if n < len(pos) else b
            gap = folded[pos[n - 1] + 1 : nxt]
            rest = piece[n : n + 2]
            flag = "P" if gap.strip() else ("G" if rest[:1] in "也谓犹者曰言" or rest == "之言" else "-")
            out.append(f"{min(n, 4)}{flag}")
        return out

    def _quote_emissions(self, text: str, spans: Sequence[tuple[int, int]]) -> np.ndarray:
        factors = getattr(self, "quote_factors_", None)
        out = np.zeros((len(spans), len(self.layers)))
        if not factors:
            return out
        for r, cat in enumerate(self._quote_cats(text, spans)):
            if cat in factors:
                out[r] = factors[cat]
        return out

    def _memory_emissions(self, text: str, spans: Sequence[tuple[int, int]], memory: DocumentMemory) -> np.ndarray:
        """Per piece, ``memory_piece_weight`` × its characters' mean vote for 經 (against 注)."""
        out = np.zeros((len(spans), len(self.layers)))
        if "JING" not in self.layers or "ZHU" not in self.layers:
            return out
        _folded, pos, han = self._han(text)
        if not pos:
            return out
        votes = self._votes(memory, han)
        sums = _piece_sums(len(text), pos, np.stack([votes, np.ones(len(pos))], axis=1), spans)
        lean = self.memory_piece_weight * sums[:, 0] / np.maximum(sums[:, 1], 1.0)  # the mean vote
        out[:, self.layers.index("JING")] += lean
        out[:, self.layers.index("ZHU")] -= lean
        return out

    def _votes(self, memory: DocumentMemory, han: str) -> np.ndarray:
        """``memory.votes(han)``, once per :meth:`predict_labels` call (the cut and the pieces both read them)."""
        return self._per_call(("votes", id(memory), han), lambda: memory.votes(han))

    def _lm_emissions(self, text: str, spans: Sequence[tuple[int, int]]) -> Optional[np.ndarray]:
        """``lm_weight`` × each piece's log-likelihood under each layer's character model
        (:mod:`pipeline.layers.charlm`), centred over the modelled layers (others: 0).

        None unless ``lm_`` and ``lm_weight`` are set: the shipped splitter has neither (on
        held-out chapters this helped 注+經 strings and hurt 經+注 ones, see
        bench/results/runtogether.md); ``bench/runtogether.py --combine`` sets them."""
        lm, w = getattr(self, "lm_", None), float(getattr(self, "lm_weight", 0.0) or 0.0)
        if lm is None or not w or not spans or any(ch in _SENTENCE_END for ch in text):
            return None  # punctuated text: the sentences' classifier scores did better alone
        _folded, pos, han = self._han(text)
        out = np.zeros((len(spans), len(self.layers)))
        if not pos:
            return out
        lp = lm.char_logprobs(han)
        lp -= lp.mean(axis=1, keepdims=True)
        sums = _piece_sums(len(text), pos, lp, spans)
        for m, layer in enumerate(lm.layers):
            if layer in self.layers:
                out[:, self.layers.index(layer)] = w * sums[:, m]
        return out

    # -- predicting ---------------------------------------------------------------------------
    def predict_labels(self, text: str, classifier: Any = None, shape: Optional[RunShape] = None,
                       memory: Optional[DocumentMemory] = None) -> list[str]:
        """The layer of every character of ``text`` (punctuation and other non-Han: the layer before).

        With a ``classifier`` (a fitted LayerClassifier), the text is cut into pieces (its sentences
        where it is punctuated; else after 也 / 矣 / 焉 and at the CRF's seams), each piece is scored
        by the classifier, and a Viterbi pass over the pieces with the learned sentence-to-sentence
        transitions chooses their layers: the classifier reads a whole sentence far better than the
        CRF reads a character window. Without one, the CRF's labels.

        ``shape`` is what the reader knows of the run (the layer it opens or closes with, a single
        seam): the Viterbi then keeps to it. On held-out chapters this is where most of the
        remaining errors went (a 經+注 pair read as 注 from end to end, extra seams). ``memory``
        (the rest of the document's 經 and 注) weighs in where the shape is known.
        """
        if not hasattr(self, "crf_"):
            raise RuntimeError("RunTogetherSplitter is not fitted")
        self._call_memo: Optional[dict] = {}  # features of this call's text (see _char_features)
        try:
            if classifier is not None and any(is_han(ch) for ch in text):
                if shape is not None:
                    return _snap_seams(text, self._sentence_labels(text, classifier, shape, memory))
                return _snap_seams(text, self._piece_labels(text, classifier))
            return self._crf_labels(text)
        finally:
            self._call_memo = None

    def reads_by_heads(self, text: str) -> bool:
        """Whether :meth:`predict_labels` reads ``text``, with no shape given, by its 疏 heads: a
        punctuated string with a sentence that opens a 疏 (「X」至「Y」, 注「A」至「B」, 釋曰) —
        a 注疏 whose layers run together (copied on one line, or hard-wrapped). Each 疏 is then read
        from its head to the next 經 (:func:`_viterbi_by_heads`), and the layers found stand."""
        if not self._can_read_heads() or getattr(self, "decoding", "pieces") in ("crf", "segments"):
            return False  # (another decoding does not go through :meth:`_sentence_labels`)
        if not any(ch in _SENTENCE_END for ch in text):
            return False
        return bool(_shu_heads([text[a:b] for a, b in self._pieces(text)]))

    def _can_read_heads(self) -> bool:
        """Reading by heads is on, and the splitter has what it needs: the 疏 among its layers, a piece CRF."""
        return self.read_by_heads and "SHU" in self.layers and getattr(self, "piece_tagger_", None) is not None

    def _pieces(self, text: str, seams: Optional[Iterable[int]] = None) -> list[tuple[int, int]]:
        """Where ``text`` is cut before its pieces get layers: sentences, or unpunctuated, clauses
        ending in 也/矣/焉, the CRF's seams (or the given ``seams``, when training) and cue cuts."""
        if any(ch in _SENTENCE_END for ch in text):
            spans = [(m.start(), m.end()) for m in _SENTENCE_RE.finditer(text) if m.end() > m.start()]
            if seams:
                bounds = sorted({b for span in spans for b in span} | set(seams) | {0, len(text)})
                spans = [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
            return spans or [(0, len(text))]
        cuts = {i + 1 for i, ch in enumerate(text) if ch in _PIECE_ENDS}
        if seams is None:
            seams = [start for start, _end, _layer in _runs_of(self._crf_labels(text))[1:]]
        cuts |= set(seams)
        mode = str(getattr(self, "extra_cuts", "") or "")
        if mode:
            cuts |= self._cue_cuts(text, mode)
        bounds = [0] + sorted(c for c in cuts if 0 < c < len(text)) + [len(text)]
        return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]

    def _cue_cuts(self, text: str, mode: str) -> set[int]:
        """Extra places an unpunctuated 注 may begin (raw offsets).

        ``q``: where two or more characters repeat the text just before and a gloss word
        (也/謂/猶/者/之言) follows within three characters — a 注 opening on the 經's words
        (「不敢為儀言不敢外貌為威儀」); ``w``: where the window model's 經-minus-注 score turns
        from the left side's favour to the right side's (16-character windows); ``W``: also where
        it turns from 注 to 經.
        """
        _folded, pos, han = self._han(text)
        out: set[int] = set()
        if "q" in mode:
            rep = _repeat_lengths(han, self.lookback, cap=4)
            for j, n in enumerate(rep):
                if n >= 2 and j > 0 and any(g in han[j + n : j + n + 3] for g in ("也", "谓", "犹", "者", "之言")):
                    out.add(pos[j])
        if "w" in mode and "JING" in self.scorer_.layers and "ZHU" in self.scorer_.layers:
            J, Z = self.scorer_.layers.index("JING"), self.scorer_.layers.index("ZHU")
            widths = list(self.scorer_.widths)
            w = 16 if 16 in widths else widths[-1]
            left, right, _c = self._window_scores(self.scorer_, han)[widths.index(w)]
            d = (left[:, J] - left[:, Z]) - (right[:, J] - right[:, Z])
            for j in range(2, len(han) - 2):
                if d[j] > 0 and d[j] >= d[j - 1] and d[j] >= d[j + 1] and left[j, J] > left[j, Z] and right[j, Z] > right[j, J]:
                    out.add(pos[j])
                if "W" in mode and d[j] < 0 and d[j] <= d[j - 1] and d[j] <= d[j + 1] and left[j, Z] > left[j, J] and right[j, J] > right[j, Z]:
                    out.add(pos[j])  # and from 注 to 經
        return out

    def _piece_labels(self, text: str, classifier: Any) -> list[str]:
        decoding = getattr(self, "decoding", "pieces")
        if decoding == "crf" and getattr(self, "piece_tagger_", None) is not None:
            return self._tagged_labels(text, classifier)
        if decoding == "segments" and hasattr(self, "unit_transitions_"):
            return self._segment_labels(text, classifier)
        return self._sentence_labels(text, classifier)

    # -- the piece CRF ----------------------------------------------------------------------------
    def _tagged_labels(self, text: str, classifier: Any) -> list[str]:
        spans = self._pieces(text)
        texts = [text[a:b] for a, b in spans]
        return self._tags_to_chars(text, spans, self._piece_tags(texts, _decision(classifier, texts)))

    def _piece_features(self, texts: list[str], logits: np.ndarray) -> list[dict]:
        """The piece CRF's features of ``texts``: once per :meth:`predict_labels` call (the tags and,
        read by heads, the marginals both read them)."""
        from pipeline.layers.pieces import piece_features

        return self._per_call(("piece features", tuple(texts)), lambda: piece_features(texts, logits))

    def _piece_tags(self, texts: list[str], logits: np.ndarray) -> list[str]:
        return self.piece_tagger_.predict(self._piece_features(texts, logits))

    def _piece_marginals(self, texts: list[str], logits: np.ndarray) -> np.ndarray:
        return self.piece_tagger_.marginals(self._piece_features(texts, logits), self.layers)

    def _tags_to_chars(self, text: str, spans: Sequence[tuple[int, int]], tags: Sequence[str]) -> list[str]:
        out = [""] * len(text)
        for (a, b), tag in zip(spans, tags):
            for i in range(a, b):
                out[i] = tag
        return _fill_forward(out, self.layers[0])

    def _proba(self, classifier: Any, texts: list[str]) -> np.ndarray:
        try:
            return classifier.text_proba(texts, separate=False)
        except TypeError:  # a classifier without the 疏 sigmoid
            return classifier.text_proba(texts)

    def _segment_labels(self, text: str, classifier: Any) -> list[str]:
        """Semi-Markov decoding: runs of consecutive pieces, each run scored by the classifier as one text.

        A 經 of three sentences reads as 經 far more surely as a whole than sentence by sentence;
        so every run of up to ``max_segment`` pieces is a candidate unit, scored on its whole
        text, and a Viterbi pass over the piece boundaries with the learned unit-to-unit
        transitions (經 → 注 → 經 …, 經 → 經 rare) picks the units and their layers.
        """
        from pipeline.labels import LAYERS

        spans = self._pieces(text)
        n, k = len(spans), len(self.layers)
        L = max(1, int(self.max_segment))
        cands = [(i, j) for i in range(n) for j in range(i + 1, min(n, i + L) + 1)]
        proba = self._proba(classifier, [text[spans[i][0] : spans[j - 1][1]] for i, j in cands])
        cols = [LAYERS.index(layer) for layer in self.layers]
        # likelihood ratios (posterior over prior), so one run and several runs are comparable
        emis = np.log(np.clip(proba[:, cols], 1e-12, None)) + np.log(len(self.layers)) * float(getattr(self, "segment_bonus", 1.0))
        if "SHU" in self.layers:
            crf = self._crf_labels(text)
            is_shu = np.array([label == "SHU" for label in crf], dtype=float)
            csum = np.concatenate([[0.0], np.cumsum(is_shu)])
            for row, (i, j) in enumerate(cands):
                a, b = spans[i][0], spans[j - 1][1]
                shu = (csum[b] - csum[a]) / max(b - a, 1)
                for c, layer in enumerate(self.layers):
                    emis[row, c] += np.log((shu if layer == "SHU" else 1.0 - shu) + self.crf_smoothing)
        index = {c: r for r, c in enumerate(cands)}
        trans = np.log(self.unit_transitions_)
        best = np.full((n + 1, k), -np.inf)
        back: list[list[tuple[int, int]]] = [[(-1, -1)] * k for _ in range(n + 1)]
        for j in range(1, n + 1):
            for i in range(max(0, j - L), j):
                e = emis[index[(i, j)]]
                if i == 0:
                    for c in range(k):
                        if e[c] > best[j, c]:
                            best[j, c], back[j][c] = e[c], (0, -1)
                    continue
                total = best[i][:, None] + trans  # previous layer × this layer
                prev = total.argmax(axis=0)
                for c in range(k):
                    v = total[prev[c], c] + e[c]
                    if v > best[j, c]:
                        best[j, c], back[j][c] = v, (i, int(prev[c]))
        out = [""] * len(text)
        j, c = n, int(best[n].argmax())
        while j > 0:
            i, p = back[j][c]
            for pos in range(spans[i][0], spans[j - 1][1]):
                out[pos] = self.layers[c]
            j, c = i, p
        return _fill_forward(out, self.layers[0])

    def _sentence_labels(self, text: str, classifier: Any, shape: Optional[RunShape] = None,
                         memory: Optional[DocumentMemory] = None) -> list[str]:
        """Viterbi over the pieces with the classifier's probabilities (see :meth:`predict_labels`).

        In punctuated text, with a piece CRF fitted, 疏 is the piece CRF's call: a 疏 sentence
        that quotes the 注 reads like 注 to the classifier, and the CRF, which weighs the
        classifier against the 疏 heads, 釋曰 and how sentences follow each other, tells them
        apart far better (held-out ZHU+SHU text: 0.75 → 0.95 char accuracy). 經 against 注
        stays with the Viterbi, which did better there on held-out chapters.
        """
        from pipeline.labels import LAYERS

        spans = self._pieces(text)
        columns = self._shape_columns(shape)
        sentences = any(ch in _SENTENCE_END for ch in text)  # punctuated: its marks end the pieces
        bounds = None
        if columns[2]:
            first, last = self.layers[columns[0]], self.layers[columns[1]]
            _folded, pos, han = self._han(text)
            noted, hi = seam_bounds(han, first, last, glosses=not sentences)
            lo = max(noted, min(shape.quoted + 1, len(pos) - 1)) if first == "ZHU" and shape.quoted else noted
            if (lo > 0 or hi < len(pos)) and lo <= hi:
                bounds = tuple(pos[k] if k < len(pos) else len(text) for k in (lo, hi))
            if not sentences:
                spans = _cut_at(spans, self._best_single_cut(text, first, last, memory, (lo, hi), leans=not noted))
            if bounds is not None:  # a bound is a place the seam may fall, unless it leaves a scrap
                for at in bounds:
                    spans = _cut_unless_scrap(spans, at, pos)
        texts = [text[a:b] for a, b in spans]
        tagger = getattr(self, "piece_tagger_", None)
        shu_sentences = "SHU" in self.layers and sentences
        heads = _shu_heads(texts) if shu_sentences else set()
        by_heads = bool(heads) and shape is None and self._can_read_heads()
        if by_heads:
            heads = _with_lead_citations(texts, heads)
        marginals = None
        if tagger is not None and shu_sentences:
            logits = _decision(classifier, texts)
            proba = classifier._calibrated(logits, separate=False) if hasattr(classifier, "_calibrated") else self._proba(classifier, texts)
            tagged = self._piece_tags(texts, logits)
            if by_heads:
                marginals = self._piece_marginals(texts, logits)
        else:
            proba, tagged = self._proba(classifier, texts), None
        cols = [LAYERS.index(layer) for layer in self.layers]
        # a product of two experts on 疏 against the rest: the classifier, and the share of the
        # piece's characters the CRF calls 疏 (the CRF tells 疏 well, a lone 疏 sentence can read
        # like 注); 經 against 注 is the classifier's alone
        emis = np.log(np.clip(proba[:, cols], 1e-12, None))
        emis += float(self.quote_weight) * self._quote_emissions(text, spans)
        lm = self._lm_emissions(text, spans)
        if lm is not None:
            emis += lm
        if memory:
            emis += self._memory_emissions(text, spans, memory)
        if "SHU" in self.layers:
            crf = self._crf_labels(text)
            shu = np.array([sum(1 for i in range(a, b) if crf[i] == "SHU") / max(b - a, 1) for a, b in spans])
            for j, layer in enumerate(self.layers):
                emis[:, j] += np.log((shu if layer == "SHU" else 1.0 - shu) + self.crf_smoothing)
        for j in heads:  # a 疏 head (「X」至「Y」, 釋曰) is written only by the 疏: a marker, not a guess
            emis[j, :] = np.log(1e-12)
            emis[j, self.layers.index("SHU")] = 0.0
        if bounds is not None:  # the seam falls between them, at a piece's edge: the pieces across keep their side
            for r, (a, b) in enumerate(spans):
                if a < bounds[0]:
                    emis[r, columns[1]] = -np.inf
                elif b > bounds[1]:
                    emis[r, columns[0]] = -np.inf
        if by_heads:
            # the piece CRF's belief in each piece's layer, under the order a 注疏 keeps
            emis += self.head_marginal_weight * np.log(np.clip(marginals, 1e-6, None))
            # what each head cites right before it (not -inf: a 注 cited right after a 疏, where no
            # path leads, is left to the order)
            for r, layer in cited_before_heads(texts, heads).items():
                emis[r, :] = np.log(1e-12)
                emis[r, self.layers.index(layer)] = 0.0
            path = _viterbi_by_heads(emis, np.log(self.piece_transitions_), heads, self.layers)
            return self._tags_to_chars(text, spans, [self.layers[j] for j in path])
        path = _viterbi(emis, np.log(self.piece_transitions_), columns)
        tags = [self.layers[j] for j in path]
        if tagged is not None and "SHU" in self.layers and shape is None:
            # 疏 where the piece CRF and the character CRF agree on it; a piece the Viterbi
            # called 疏 that they do not is given the piece CRF's layer
            agree = [j in heads or (b == "SHU" and share >= 0.5) for j, (b, share) in enumerate(zip(tagged, shu))]
            tags = ["SHU" if ok else (b if a == "SHU" else a) for a, b, ok in zip(tags, tagged, agree)]
        return self._tags_to_chars(text, spans, tags)

    def _best_single_cut(self, text: str, first: str, last: str, memory: Optional[DocumentMemory] = None,
                         bounds: Optional[tuple[int, int]] = None, leans: bool = True) -> Optional[int]:
        """Where the character CRF would put the one seam of a ``first`` → ``last`` run (a raw
        offset of ``text``): the cut that maximises the summed log marginals of ``first`` before it
        and ``last`` after it. In unpunctuated text the seam often falls inside a piece (no 也
        closes the 注, the CRF's own labels see no seam); offered as one more cut, it gained 1.5–2.5
        points of character accuracy on held-out 注+經 strings (the Viterbi still decides).

        With a 斷句 model attached (``break_model_``, a :class:`~pipeline.text.punctuate.Punctuator`),
        the cut is taken among the places it would break the ``first`` layer's text, where there
        are any: a 經 passage or a 注 ends at a clause end, and the 斷句 model finds clause ends far
        better than the layer CRF finds seams (held-out unpunctuated pairs +1.1 to +1.4 points).

        In a 注 → 經 run each character left in the 注 adds :attr:`seam_lean`: the CRF's
        marginals end the 注 early. Not where the 注 ends on a note on the readings or a citation
        (the caller passes ``leans`` False): the note says where the 注 ends, and the lean would
        carry the seam past it (今文席為筵|若諸公…). A quoted lemma (:attr:`RunShape.quoted`) raises
        the lower bound and keeps the lean.

        No cut ends the first layer on a word that neither layer ends on, or opens the second on one
        that neither opens on (:func:`fits_seam`), where another cut is left.

        With a ``memory``, each character's vote (+1 written elsewhere in the document's 經, −1 in
        its 注) × ``memory_cut_weight`` is added to its 經 side and taken from its 注 side. ``bounds``
        (:func:`seam_bounds`, Han characters before the cut) limit where it may fall."""
        feats, pos = self._char_features(text, self.scorer_)
        if len(pos) < 2:
            return None
        marg = self.crf_.predict_marginals_single(feats)
        a = np.log(np.array([m.get(first, 0.0) for m in marg]) + 1e-6)
        b = np.log(np.array([m.get(last, 0.0) for m in marg]) + 1e-6)
        han = self._han(text)[2]
        if memory and {first, last} == {"JING", "ZHU"}:
            lean = self.memory_cut_weight * self._votes(memory, han)
            a, b = (a - lean, b + lean) if last == "JING" else (a + lean, b - lean)
        before = np.cumsum(a)[:-1]  # first k+1 characters in `first`
        after = np.cumsum(b[::-1])[::-1][1:]  # the rest in `last`
        score = before + after
        if first == "ZHU" and last == "JING" and self.seam_lean and leans:
            score = score + self.seam_lean * np.arange(1, len(pos))  # characters left in the 注
        breaks = self._clause_ends(text, pos, first)
        if breaks is not None and breaks.any():
            score = np.where(breaks, score, -np.inf)
        if {first, last} == {"JING", "ZHU"}:  # no 經 or 注 ends on 於 or 以, none opens on 也 or 者
            fits = np.array([fits_seam(han, k) for k in range(1, len(pos))], dtype=bool)
            if (fits & np.isfinite(score)).any():
                score = np.where(fits, score, -np.inf)
        # within the bounds a note on the readings sets (score[k]: k + 1 characters before the cut);
        # where the 斷句 model breaks nowhere inside them, anywhere inside them
        lo, hi = bounds if bounds is not None else (0, len(pos))
        before_cut = np.arange(1, len(pos))
        allowed = (before_cut >= lo) & (before_cut <= hi)
        if allowed.any():
            inside = score if np.isfinite(score[allowed]).any() else before + after
            score = np.where(allowed, inside, -np.inf)
        return pos[int(np.argmax(score)) + 1]

    def _clause_ends(self, text: str, pos: Sequence[int], layer: str) -> Optional[np.ndarray]:
        """Whether the attached 斷句 model breaks after each Han character of ``text`` (``pos``)
        but the last, reading it as ``layer``; None without a model."""
        model = getattr(self, "break_model_", None)
        if model is None:
            return None
        labels = model.predict_labels("".join(text[p] for p in pos), layer)
        return np.array([label != "N" for label in labels[:-1]], dtype=bool)

    def _crf_labels(self, text: str) -> list[str]:
        feats, pos = self._char_features(text, self.scorer_)
        if not feats:
            return ["OTHER"] * len(text)
        tags = self.crf_.predict_single(feats)
        out = [""] * len(text)
        for p, t in zip(pos, tags):
            out[p] = t
        current = tags[0]
        for i in range(len(text)):
            if out[i]:
                current = out[i]
            else:
                out[i] = current
        return out

    def _shape_columns(self, shape: Optional[RunShape]) -> tuple[Optional[int], Optional[int], bool]:
        """``shape`` as columns of ``self.layers`` (None where it says nothing or names a layer the
        splitter does not know)."""
        if shape is None:
            return None, None, False
        first = self.layers.index(shape.first) if shape.first in self.layers else None
        last = self.layers.index(shape.last) if shape.last in self.layers else None
        return first, last, bool(shape.one_switch and first is not None and last is not None and first != last)

    def predict(self, text: str, classifier: Any = None, shape: Optional[RunShape] = None,
                memory: Optional[DocumentMemory] = None) -> list[tuple[int, int, str]]:
        """The runs of ``text``: (start, end, layer), covering it from 0 to len(text).

        A run shorter than ``min_piece`` Han characters is merged into the run before it (or after
        it, at the start): a seam needs evidence on both sides. Not when the ``shape`` has one
        seam: the short run is then what the shape asks for (the 經 after an unmarked 注 may be short).
        """
        runs = _runs_of(self.predict_labels(text, classifier, shape, memory))
        return runs if shape is not None and shape.one_switch else _merge_short(runs, text, self.min_piece)

    def split_span(self, text: str, start: int, end: int, drops: Sequence[tuple[int, int]] = (),
                   classifier: Any = None, shape: Optional[RunShape] = None) -> list[tuple[int, int]]:
        """The pieces of ``text[start:end]`` (raw offsets); removed ranges are skipped when reading."""
        return [(a, b) for a, b, _layer in self.split_runs(text, start, end, drops, classifier, shape)]

    def split_runs(self, text: str, start: int, end: int, drops: Sequence[tuple[int, int]] = (),
                   classifier: Any = None, shape: Optional[RunShape] = None,
                   memory: Optional[DocumentMemory] = None) -> list[tuple[int, int, str]]:
        """:meth:`split_span` with each piece's layer as the splitter decoded it (``memory``: the
        rest of the document's 經 and 注, see :meth:`predict_labels`)."""
        kept: list[int] = []
        drops = sorted(drops)
        d = 0
        for i in range(start, end):
            while d < len(drops) and drops[d][1] <= i:
                d += 1
            if d < len(drops) and drops[d][0] <= i < drops[d][1]:
                continue
            kept.append(i)
        if not kept:
            return [(start, end, shape.first if shape is not None and shape.first else "OTHER")]
        view = "".join(text[i] for i in kept)
        runs = self.predict(view, classifier, shape, memory)
        if len(runs) <= 1:
            return [(start, end, runs[0][2] if runs else "OTHER")]
        bounds = [start] + [kept[s] for s, _e, _l in runs[1:]] + [end]
        return [(a, b, layer) for a, b, (_s, _e, layer) in zip(bounds, bounds[1:], runs) if b > a]


_NAMES: Optional[frozenset[str]] = None

#: 鄭玄's notes on the text's readings (今文X為Y, 古文X作Y, 今文無X): only a 注 writes them
_READING_NOTE = re.compile("[今古]文")
_NOTE_VERB = re.compile("[为作无]")
#: 鄭玄 citing another text: a chapter of the 儀禮 by its title, or a book or chapter with 曰 / 云
#: (士喪禮賓繼兄弟北上…, 周禮膳夫品嘗食, 曲禮曰…, 鄉飲酒曰…, 詩云…), or another reading (舊說云, 或曰).
#: In the corpus's 經 a title stands only at the head of its own chapter (覲禮。至于郊) and none of
#: these with 曰 / 云 at all; 有司徹 is left out, the 經 writes it as an act.
_CITATION = re.compile(fold_script(
    "(?:士冠禮|士昏禮|士相見禮|鄉飲酒禮|鄉射禮|燕禮|大射儀|聘禮|公食大夫禮|覲禮|士喪禮|既夕禮|士虞禮|特牲饋食禮"
    "|少牢饋食禮|周禮|禮記|(?:曲禮|檀弓|王制|月令|郊特牲|玉藻|明堂位|雜記|喪大記|祭統|祭義|內則|少儀|大射|特牲|少牢"
    "|既夕|鄉飲酒|鄉射|士冠|士昏|聘|燕|士喪|士虞|公食|覲|記|春秋傳|詩|書|論語|爾雅|孝經|易|舊說|或)[曰云])"))
#: a citation goes on: 又曰 after one (鄉射禮曰…又曰…)
_CITED_AGAIN = re.compile(fold_script("又[曰云]"))
#: forms in the titles that fold_script keeps (鄕射禮曰, 郷飮酒曰 in the 四部叢刊 鄭注), read as the
#: titles are written (one for one)
_TITLE_FORMS = str.maketrans("鄕郷鄊飮昬", "乡乡乡饮昏")
#: words only a 注 writes about the 經 (不言 "it does not say", 可知 "one can tell", 嫌 "lest one think"): of
#: the 四部叢刊 鄭注 of the dev chapters, 60 in the 注 and one 不言 in the 經 (故 and 是以, 注 words there
#: too, are the 喪服 傳's as well: 18 and 1 in its 經)
_ZHU_WORDS = re.compile(fold_script("不言|可知|嫌"))
#: how many characters of the quotation a citation carries into the 注 at least
CITATION_QUOTE = 2
#: the 注 ends with its notes on the readings: at most this many Han characters past where the last
#: one ends at the least (SBCK 注 of the dev chapters: 134 of 143 with a note end so)
NOTE_TAIL = 4
#: ... unless the 注 goes on about the reading: another (又曰坐奠之), or a judgement of it (序乃夏后氏之學，
#: 亦非也; 非也)
_NOTE_GOES_ON = re.compile("[又非]")
#: the 曰 of speech (曰：「某也願見」), in which the 經 writes the 也 that closes a 注's gloss: of the dev
#: chapters' 1,156 SBCK 經, 32 write 也, 14 of them with no 曰 before it
_SPEECH = fold_script("曰")
#: ... not counting the 經's 可也 ("may", 請退可也) and 也則 (若膳觶也，則降: "if it is …, then")
_GLOSS_END = re.compile(fold_script("(?<!可)也(?!則)"))
#: what never ends a 經 or a 注 that the other layer follows: a preposition, a conjunction or a word
#: that wants the word after it (告於|君, 取其|餘: the text runs on to it). In the 四部叢刊 鄭注 of the
#: dev chapters, none of the 1,156 經 that their 注 follows ends on one, against 3 to 32 expected from
#: how often the 經 writes them; of the 1,150 注 that a 經 follows, 以 其 為 end one each and 于
#: three, the others none, against 3 to 20 expected: three of the six end a note on the readings
#: (古文無以, 今文於為于, 古文用為于: such a note ends where it likes, see :func:`fits_seam`), two gloss a
#: word by one (諸，於; 備，其 for 具), one is 如燕禮媵爵之為; those three the rule gets wrong.
NO_LAYER_END = fold_script("于於以其而則及乃為自諸將曰謂猶")
#: what never opens a 經 or a 注 that follows the other: the particles that close a sentence, 者 and
#: 之, and 則, which follows its condition (none of the 1,150 經 openings, 2 to 19 expected; none of
#: the 1,156 注 openings, 1 to 58 expected)
NO_LAYER_START = fold_script("也矣焉耳者之則")
#: the fewest Han characters a 注 has: none of the 1,150 注 of the 四部叢刊 鄭注 that a 經 follows in
#: the dev chapters has one, 25 have two (作，使; 受館)
MIN_ZHU = 2
#: where a 注's sentence has just ended (也|其餘如右獲: the 經 may open on the word after it)
_ZHU_SENTENCE_END = fold_script("也矣焉")


def seam_bounds(han: str, first: str, last: str, glosses: bool = False) -> tuple[int, int]:
    """Where the one seam of a ``first`` → ``last`` run of 經 and 注 may fall, as (lo, hi): the
    number of Han characters (folded) before it is at least lo and at most hi.

    A note on the readings (今文揖為升, 古文壹皆作一, 今文司馬師無司馬) is the 注's own: the 注
    runs at least one character past the 為 / 作 / 無 of its last such note (four past 今文 when
    none follows), and a 經 ends before the first. The notes close the 注: where the last one's 為 /
    作 / 無 is found and no citation follows it, the 注 ends at most :data:`NOTE_TAIL` characters
    past that least (古文壹為一|賓出，使擯者還其贄: the 經 is no 注 for being a 經 of speech). So is a citation of another text
    (:data:`_CITATION`): the 注 runs ``CITATION_QUOTE`` characters past its last one at least, and a
    經 ends before the first (a title opening a 經 → 注 run is its own chapter's head). A 注 → 經 run's
    注 runs past the last word only a 注 writes (:data:`_ZHU_WORDS`: 不言, 可知, 嫌). With
    ``glosses`` (unpunctuated text), a 經 → 注 run's 經 also ends before its first 也 outside speech
    (:data:`_GLOSS_END`), which closes the 注's gloss. A run with none of these: (0, len(han)).
    """
    n = len(han)
    if {first, last} != {"JING", "ZHU"}:
        return 0, n
    notes = [m.start() for m in _READING_NOTE.finditer(han)]
    cites = [m for m in _CITATION.finditer(han.translate(_TITLE_FORMS)) if m.start() > 0 or first == "ZHU"]
    if cites:  # 鄉射禮曰使二人舉觶…又曰執觶者洗…: the same text cited again
        cites += [m for m in _CITED_AGAIN.finditer(han, cites[0].end())]
        cites.sort(key=lambda m: m.start())
    lo = 0
    if first == "ZHU":
        hi = n
        if notes:
            verb = _NOTE_VERB.search(han, notes[-1] + 2, notes[-1] + 10)
            lo = min(verb.end() + 1 if verb else notes[-1] + 4, n)
            cited_after = bool(cites) and cites[-1].start() > notes[-1]
            if verb and not cited_after and not _NOTE_GOES_ON.search(han, lo, lo + NOTE_TAIL + 2):
                hi = min(n, lo + NOTE_TAIL)  # where the note ends is known: the 注 ends soon after
        if cites:
            lo = max(lo, min(cites[-1].end() + CITATION_QUOTE, n))
        said = [m.end() for m in _ZHU_WORDS.finditer(han)]
        if said:  # …不言君矢，小臣以授矢人于東堂下可知|司馬釋弓: the 注 runs past its own words
            lo = max(lo, min(said[-1], n))
        return lo, hi
    starts = notes + [m.start() for m in cites]
    gloss = _GLOSS_END.search(han) if glosses else None
    ye = gloss.start() if gloss else -1
    if ye >= 3 and _SPEECH not in han[:ye]:  # (士也，有執膳爵者: a 經 and a gloss before it take three)
        starts.append(ye)  # 「X，Y也」: the 注's gloss; the 經 says 也 in speech (曰某也) and seldom else
    return 0, min(starts) if starts else n


def quoted_lemma(run: str, jing: str, longest: int = 12) -> int:
    """How many Han characters at the start of ``run`` (an unmarked 注 running into the next 經)
    repeat words of ``jing``, the 經 the 注 follows: 注 「再拜稽首，拜君命」 after 經 「…再拜稽首，
    公答拜」 opens on four. Two or more found anywhere in the 經, or one that ends it (對，答 after
    「…賓對」). The 注 quotes its lemma to gloss it, so it runs on past them (0: no such opening)."""
    r, j = strip_non_han(fold_script(run)), strip_non_han(fold_script(jing))
    k = 0
    for m in range(2, min(longest, len(r) - 1) + 1):
        if r[:m] not in j:
            break
        k = m
    if not k and len(r) > 1 and j.endswith(r[0]):
        k = 1
    return k


def _shu_heads(texts: Sequence[str]) -> set[int]:
    """The punctuated pieces that open with a 疏 head, 「X」至「Y」 citing the 經 or 注, or with 釋曰
    (:data:`~pipeline.layers.anchors.SHU_OPENING_RE`). The models learn these well from the
    corpus, but a retrained model once read 「主人」至「走見」。 as 注; the head is a marker and is
    kept 疏 whatever the weights say."""
    return {j for j, t in enumerate(texts) if SHU_OPENING_RE.match(t)}


def _participant_names() -> frozenset[str]:
    """The ritual lexicon's participant names: the ones a seam must not cut (two
    characters or more: :func:`_name_around` never reads a single character as cut) and the ones a
    經 opens on (:func:`_before_opening_name`). In the pipeline's matching form
    (:func:`~pipeline.text.normalise.normalise_str`), as :func:`_snap_seams` reads the run: the 四庫
    writes 矦氏 and 賛者 for the lexicon's 侯氏 and 贊者, which the layer model's own folding keeps
    apart."""
    global _NAMES
    if _NAMES is None:
        try:
            from pipeline.nlp.lexicon import Lexicon

            _NAMES = frozenset(normalise_str(t) for t in Lexicon.load().terms.get("ACTOR", []))
        except (FileNotFoundError, OSError, ValueError):  # no lexicon: no snapping
            _NAMES = frozenset()
    return _NAMES


def _snap_seams(text: str, labels: list[str], longest: int = 4) -> list[str]:
    """Seams moved out of participant names: where the 經 resumes with 主人 or 主婦 after an
    unmarked 注, the character CRF (and the pieces cut at its seams) tends to cut 主|人; a seam
    inside a name moves to the name's start (held-out 注+經 strings: see bench/results/siku-runs.md).
    Names are read over the Han characters, so a line break inside one (諸¶公, a hard-wrapped 四庫
    line) does not hide it, and the seam moves on while it still falls inside one: 諸公|卿大夫 moves
    to 諸|公卿 (公卿 is a name), then out of 諸公 to the list's start. A seam between 經 and 注 that
    leaves the one on a word neither ends on, or opens the other on one neither opens on (告於|君,
    也|者), or leaves a run that opens with its 注 fewer than :data:`MIN_ZHU` characters of it (酢|報), is
    then moved where it fits (:func:`fits_seam`, :func:`_fitting_seam`); one right after a name, the
    經 then opening on none, goes before the name (:func:`_before_opening_name`). Read in the
    pipeline's matching form (a 四庫 glyph is the lexicon's: 矦氏 is 侯氏); every rule here reads
    that form as it reads the folded one (於 and 于 both end no layer)."""
    names = _participant_names()
    matching = normalise_str(text)
    pos = han_positions(matching)
    han = "".join(matching[p] for p in pos)
    out = list(labels)
    for k in range(1, len(pos)):
        if out[pos[k]] == out[pos[k - 1]]:
            continue
        start = k
        while True:
            inside = _name_around(han, start, names, longest)
            if inside is None:
                break
            start = inside[0]
        after_zhu = out[pos[k - 1]] == "ZHU"
        # the first seam of a run that opens with its 注 leaves it MIN_ZHU characters at least
        least = MIN_ZHU if after_zhu and all(out[pos[j]] == "ZHU" for j in range(k)) else 0
        if {out[pos[k - 1]], out[pos[k]]} == {"ZHU", "JING"} and (0 < start < least or not fits_seam(han, start)):
            start = _fitting_seam(han, start, names, longest, after_zhu=after_zhu, least=least)
        if after_zhu and out[pos[k]] == "JING":
            start = _before_opening_name(han, start, names, longest, least)
        if start < k:
            for j in range(pos[start], pos[k]):
                out[j] = out[pos[k]]
        elif start > k:
            for j in range(pos[k], pos[start]):
                out[j] = out[pos[k - 1]]
    return out


def _before_opening_name(han: str, k: int, names: frozenset[str], longest: int = 4, least: int = 0) -> int:
    """A 注 → 經 seam right after a participant's name, where the 經 would then open on no name,
    moved before the name: of the 1,150 經 of the 四部叢刊 鄭注 that follow a 注 in the dev chapters,
    691 open on a name and 63 of those 注 end on one (注 「某，大夫名」, 經 「擯者命賓」 was cut
    某大夫名擯者|命賓). The 注 keeps ``least`` characters; unmoved where that does not fit."""
    if any(han[k:k + m] in names for m in range(1, longest + 1)):
        return k
    for n in range(longest, 0, -1):
        q = k - n
        if q >= max(least, 1) and han[q:k] in names and fits_seam(han, q):
            return q
    return k


def _name_around(han: str, k: int, names: frozenset[str], longest: int = 4) -> Optional[tuple[int, int]]:
    """The (start, end) of a name of ``names`` that a seam before ``han[k]`` would cut, or None."""
    for q in range(max(0, k - longest + 1), k):
        for n in range(k - q + 1, longest + 1):
            if han[q:q + n] in names:
                return q, q + n
    return None


def fits_seam(han: str, k: int) -> bool:
    """May a seam between 經 and 注 fall before ``han[k]`` (``han``: the run's Han characters,
    folded)? Not after a word that never ends either (:data:`NO_LAYER_END`), unless it is the last
    word of a note on the readings (古文用為于), nor before one that never opens either
    (:data:`NO_LAYER_START`)."""
    if k <= 0 or k >= len(han):
        return True
    if han[k] in NO_LAYER_START:
        return False
    return han[k - 1] not in NO_LAYER_END or (k >= 2 and _NOTE_VERB.match(han[k - 2]) is not None)


def _fitting_seam(han: str, k: int, names: frozenset[str], longest: int = 4, reach: int = 4,
                  after_zhu: bool = True, least: int = 0) -> int:
    """A seam before ``han[k]`` that :func:`fits_seam` refuses, moved: one back where a 注's sentence
    ended just before (變於右也|其餘如右獲; ``after_zhu``: the 注 comes first), else on past the word
    the first layer still wants (以賓之辭告於君|又命之, 齊而取其餘|若右勝; a participant's name passed
    whole) and to ``least`` characters at least (酢報|主人), at most ``reach`` characters and never to
    the run's end; unmoved where neither fits. Of the 78 dev 四庫 runs whose seam the splitter
    misplaced, 44 ended the 注 too early, several right after such a word."""
    if after_zhu and k - 1 >= max(least, 1) and han[k - 2] in _ZHU_SENTENCE_END and fits_seam(han, k - 1):
        return k - 1
    q = k
    while q < min(len(han) - 1, k + reach):
        q += 1
        name = _name_around(han, q, names, longest)
        if name is not None:
            q = name[1]
        if q >= len(han):
            break
        if q >= least and fits_seam(han, q):
            return q
    return k


def _cut_at(spans: list[tuple[int, int]], at: Optional[int]) -> list[tuple[int, int]]:
    """``spans`` (consecutive, covering the text) with the one containing ``at`` cut there."""
    if at is None:
        return spans
    out: list[tuple[int, int]] = []
    for a, b in spans:
        out.extend([(a, at), (at, b)] if a < at < b else [(a, b)])
    return out


def _piece_sums(length: int, pos: Sequence[int], values: np.ndarray, spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """Per span of a text of ``length``, the sum of ``values`` (one row per Han character, at the
    offsets ``pos``) over the characters inside it."""
    at = np.zeros((length + 1, values.shape[1]))
    at[np.array(pos) + 1] = values
    csum = np.cumsum(at, axis=0)  # over the characters before each offset
    return np.array([csum[b] - csum[a] for a, b in spans]).reshape(len(spans), values.shape[1])


def _cut_unless_scrap(spans: list[tuple[int, int]], at: int, pos: Sequence[int], least: int = 2) -> list[tuple[int, int]]:
    """:func:`_cut_at`, unless a side of the cut piece would hold fewer than ``least`` of the Han
    characters at ``pos`` (a one-character piece reads as anything and draws the seam to it)."""
    for a, b in spans:
        if a < at < b:
            inside = [p for p in pos if a <= p < b]
            if sum(p < at for p in inside) < least or sum(p >= at for p in inside) < least:
                return spans
    return _cut_at(spans, at)


def _viterbi(emis: np.ndarray, trans: np.ndarray, shape: tuple[Optional[int], Optional[int], bool] = (None, None, False)) -> list[int]:
    """The best column path through ``emis`` (pieces × layers, log scores) under ``trans``
    (log, previous × next), opening in column ``first`` and closing in ``last`` where given; with
    ``one_switch``, ``first`` for a while and then ``last`` to the end (both present when there
    are two pieces or more)."""
    first, last, one_switch = shape
    n, k = emis.shape
    if one_switch:
        if n == 1:
            return [first]
        # two states: still in `first`, or already in `last` (switched at piece `cut`)
        stay_a = emis[0, first]
        in_b = -np.inf
        cut = 1
        for i in range(1, n):
            via_a = stay_a + trans[first, last]
            via_b = in_b + trans[last, last]
            if via_a >= via_b:
                cut = i
            in_b = max(via_a, via_b) + emis[i, last]
            stay_a = stay_a + trans[first, first] + emis[i, first]
        return [first] * cut + [last] * (n - cut)
    score = emis[0].copy()
    if first is not None:
        score = np.where(np.arange(k) == first, score, -np.inf)
    back = np.zeros((n, k), dtype=int)
    for i in range(1, n):
        total = score[:, None] + trans
        back[i] = total.argmax(axis=0)
        score = total.max(axis=0) + emis[i]
    path = [int(last if last is not None and np.isfinite(score[last]) else score.argmax())]
    for i in range(n - 1, 0, -1):
        path.append(int(back[i][path[-1]]))
    path.reverse()
    return path


#: a sentence that is one citation and nothing else (「賓降洗」。, 注「不受賤不敢也」。): right before a head
#: (:func:`_shu_heads`), the head's first part. Alone it is no head: the 經 and the 注 quote too. Most of
#: the 183 of the dev chapters' 939 e-book 疏 that open on no head open so (「X」。○注「A」至「B」。○釋曰…),
#: and those sentences had been read as 經 or 注 in a run-on 注疏 (dev one line 0.965 → 0.972)
_LEAD_CITE = re.compile(r"^[\s\u3000○]*注?「[^」「]{1,24}」[。.]?[\s\u3000]*$")


def _with_lead_citations(texts: Sequence[str], heads: set[int]) -> set[int]:
    """``heads`` and the lone citations (:data:`_LEAD_CITE`, two at most: the 經's, the 注's) right before
    each: 「司正降階」。○注「西階」至「之義」。○釋曰 and 「賓降洗」。○注「將酢主人」。○釋曰 are one head each."""
    out = set(heads)
    for j in sorted(heads):
        k = j - 1
        while k >= 0 and k not in out and j - k <= 2 and _LEAD_CITE.match(texts[k]):
            out.add(k)
            k -= 1
    return out


def _viterbi_by_heads(emis: np.ndarray, trans: np.ndarray, heads: set[int], layers: Sequence[str]) -> list[int]:
    """:func:`_viterbi` in the order a 注疏 keeps: a 疏 opens on a head (a piece in ``heads``)
    and runs until the next 經 — never into a 注 (in the XHTML 注疏 of the eleven chapters, 58 of
    the 1,898 疏 that something follows are followed by a 注, 1,840 by a 經). The string opens in a
    疏 only on a head: free to open in one, whole short lines of a 經, its 注 and its 疏 were read 疏
    (a line per 經, dev chapters 0.994 → 0.991); a copy cut up mid-疏 loses the 疏 before its first head."""
    shu = layers.index("SHU")
    open_ = trans.copy()
    if "ZHU" in layers:
        open_[shu, layers.index("ZHU")] = -np.inf
    closed = open_.copy()  # between heads: no way into the 疏 but from itself
    closed[[j for j in range(len(layers)) if j != shu], shu] = -np.inf
    n, k = emis.shape
    score = emis[0].copy()
    if 0 not in heads:
        score[shu] = -np.inf
    back = np.zeros((n, k), dtype=int)
    for i in range(1, n):
        total = score[:, None] + (open_ if i in heads else closed)
        back[i] = total.argmax(axis=0)
        score = total.max(axis=0) + emis[i]
    path = [int(score.argmax())]
    for i in range(n - 1, 0, -1):
        path.append(int(back[i][path[-1]]))
    path.reverse()
    return path


def _fill_forward(out: list[str], default: str) -> list[str]:
    """Characters outside the pieces (none expected) take the layer before them."""
    current = next((x for x in out if x), default)
    for i, label in enumerate(out):
        if label:
            current = label
        else:
            out[i] = current
    return out


def _decision(classifier: Any, texts: list[str]) -> np.ndarray:
    """The classifier's decision values (LAYERS order), unreadable texts scored 0 for every layer."""
    from pipeline.layers.predict import readable

    out = np.zeros((len(texts), 4))
    ok = [i for i, t in enumerate(texts) if readable(t)]
    if ok:
        score = getattr(classifier, "_remembered_logits", None) or classifier._logits  # once per text in a call
        out[ok] = score([texts[i] for i in ok])
    return out


def _sentences(text: str) -> list[str]:
    """The sentences of a punctuated text; an unpunctuated one is one piece per 也/矣/焉 clause."""
    if any(ch in _SENTENCE_END for ch in text):
        return [m.group() for m in _SENTENCE_RE.finditer(text) if m.group()]
    parts, start = [], 0
    for i, ch in enumerate(text):
        if ch in _PIECE_ENDS:
            parts.append(text[start : i + 1])
            start = i + 1
    if start < len(text):
        parts.append(text[start:])
    return parts or [text]


def _punct_kind(gap: str) -> str:
    """What separates two Han characters: a sentence end, a clause mark, a quote, or nothing."""
    if not gap:
        return ""
    if any(ch in _SENTENCE_END for ch in gap):
        return "END"
    if any(ch in "」”』" for ch in gap):
        return "QEND"
    if any(ch in "「“『" for ch in gap):
        return "QOPEN"
    if any(ch in _CLAUSE for ch in gap):
        return "CL"
    if any(ch in "○〇[]【】" for ch in gap):
        return "MARK"
    if gap.strip() == "":
        return "SP"
    return "OTH"


def _runs_of(labels: list[str]) -> list[tuple[int, int, str]]:
    runs: list[tuple[int, int, str]] = []
    for i, label in enumerate(labels):
        if runs and runs[-1][2] == label:
            runs[-1] = (runs[-1][0], i + 1, label)
        else:
            runs.append((i, i + 1, label))
    return runs


def _merge_short(runs: list[tuple[int, int, str]], text: str, min_piece: int) -> list[tuple[int, int, str]]:
    def han_len(s: int, e: int) -> int:
        return sum(1 for ch in text[s:e] if is_han(ch))

    changed = True
    while changed and len(runs) > 1:
        changed = False
        for i, (s, e, _label) in enumerate(runs):
            if han_len(s, e) < min_piece:
                if i > 0:
                    ps, _pe, pl = runs[i - 1]
                    runs[i - 1] = (ps, e, pl)
                else:
                    _ns, ne, nl = runs[1]
                    runs[1] = (s, ne, nl)
                del runs[i]
                changed = True
                break
    merged: list[tuple[int, int, str]] = []
    for s, e, label in runs:
        if merged and merged[-1][2] == label:
            merged[-1] = (merged[-1][0], e, label)
        else:
            merged.append((s, e, label))
    return merged


def char_accuracy(gold: Sequence[str], predicted: Sequence[str], text: Optional[str] = None) -> float:
    """Share of characters (Han characters only when ``text`` is given) whose layer is right."""
    idx = list(range(len(gold))) if text is None else [i for i, ch in enumerate(text) if is_han(ch)]
    if not idx:
        return 1.0
    return sum(1 for i in idx if gold[i] == predicted[i]) / len(idx)
