"""Layers of the pieces of a run-together string: a linear-chain CRF over sentences.

The run-together splitter cuts a string into pieces (sentences; unpunctuated, clauses) and
needs each piece's layer. The layer classifier reads one piece well but alone: a short 經
sentence (「主人對曰：某也既得見矣，敢辭。」) reads like 注, and a 疏 sentence that quotes the
注 reads like 注 too. What settles it is how the pieces stand to each other, which this model
learns jointly with the layer-to-layer transitions:

- the classifier's log-probabilities of the piece and of its neighbours (out-of-fold when
  training: each half of the training chapters is scored by a classifier fitted on the other);
- whether the piece's opening repeats the text just before (a 注 opens on the words of its
  經: 「凡言，謂己為君言事也」 after 「凡言，非對也…」), and whether a later piece's opening
  repeats words of this one (then this one is what is being explained: a 經, or a 注 under its 疏);
- the piece's first and last characters (若, 乃, 凡 open 經; 謂, 今文, 古文 open 注 notes;
  也 closes a gloss), its length, and the 疏 heads 「X」至「Y」 / 釋曰.
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

import numpy as np

from pipeline.labels import LAYERS
from pipeline.layers.features import fold_script, is_han, ngram_text

_HEAD_RE = re.compile(r"「[^」]{1,12}」至「[^」]{1,12}」|^[○〇]?注「")
_GLOSS = ("也", "谓", "犹", "者", "曰", "言")
#: how far a repeated opening is looked for (Han characters), and how many pieces ahead
LOOKBACK = 120
LOOKAHEAD = 6
#: how many pieces on each side the bigram overlap looks at
COVER = 3


def _opening_repeat(piece: str, window: str, cap: int = 6) -> int:
    """The longest opening of ``piece`` (≤ cap characters) found in ``window``."""
    n = 0
    while n < min(cap, len(piece)) and piece[: n + 1] in window:
        n += 1
    return n


def _punct_after(text: str, n: int) -> bool:
    """Whether punctuation follows the first ``n`` Han characters of ``text``."""
    seen = 0
    for k, ch in enumerate(text):
        if is_han(ch):
            seen += 1
            if seen == n:
                nxt = text[k + 1 : k + 2]
                return bool(nxt) and not is_han(nxt) and not nxt.isspace()
    return False


def _bucket(x: float, edges: Sequence[float]) -> int:
    return int(np.searchsorted(edges, x))


def piece_features(texts: Sequence[str], scores: np.ndarray, punctuated: Optional[bool] = None) -> list[dict]:
    """One feature dict per piece of one run-together string.

    ``texts``: the pieces in reading order (raw); ``scores``: the classifier's decision values
    for each piece (rows in LAYERS order). Decision values, not probabilities: a classifier's
    temperature is fitted on a few held-out chapters and varies from one fit to the next, while
    the margins of the SVM keep their scale.
    """
    n = len(texts)
    han = [ngram_text(t) for t in texts]
    logp = np.clip(np.asarray(scores, dtype=float), -4.0, 4.0)
    J, Z, S = LAYERS.index("JING"), LAYERS.index("ZHU"), LAYERS.index("SHU")
    d = logp[:, J] - logp[:, Z]
    if punctuated is None:
        punctuated = any(not is_han(ch) and not ch.isspace() for t in texts for ch in t)
    # repeats: backwards (this piece opens on earlier words), forwards (a later piece opens on this one's)
    back = []
    for i in range(n):
        before = "".join(han[max(0, i - LOOKAHEAD) : i])[-LOOKBACK:]
        back.append(_opening_repeat(han[i], before) if before else 0)
    quoted = [0] * n
    quoted_next = [0] * n
    for j in range(1, n):
        if back[j] < 2:
            continue
        opening = han[j][: back[j]]
        for i in range(j - 1, max(-1, j - LOOKAHEAD - 1), -1):
            if opening in han[i]:
                quoted[i] = max(quoted[i], back[j])
                if i == j - 1:
                    quoted_next[i] = max(quoted_next[i], back[j])
                break
    grams = [{h[k : k + 2] for k in range(len(h) - 1)} for h in han]
    out: list[dict] = []
    for i in range(n):
        h = han[i]
        nb = back[i]
        after = h[nb : nb + 2]
        glossed = "G" if after[:1] in _GLOSS or after == "之言" else ("P" if _punct_after(texts[i], nb) else "-")
        later = set().union(*grams[i + 1 : i + 1 + COVER]) if i + 1 < n else set()
        earlier = set().union(*grams[max(0, i - COVER) : i]) if i > 0 else set()
        fwd = len(grams[i] & later) / len(grams[i]) if grams[i] else 0.0
        bwd = len(grams[i] & earlier) / len(grams[i]) if grams[i] else 0.0
        f: dict[str, float | str | bool] = {
            "bias": 1.0,
            "lJ": float(logp[i, J]),
            "lZ": float(logp[i, Z]),
            "lS": float(logp[i, S]),
            "dJZ": float(d[i]),
            "dJZ_b": str(_bucket(d[i], (-2, -1, -0.5, -0.2, 0.2, 0.5, 1, 2))),
            "lS_b": str(_bucket(logp[i, S], (-1.5, -1, -0.5, 0))),
            "prev_dJZ": float(d[i - 1]) if i > 0 else 0.0,
            "next_dJZ": float(d[i + 1]) if i + 1 < n else 0.0,
            "prev_lS": float(logp[i - 1, S]) if i > 0 else 0.0,
            "next_lS": float(logp[i + 1, S]) if i + 1 < n else 0.0,
            "rel_dJZ": float(d[i] - d.mean()),
            "back": f"{min(nb, 4)}{glossed if nb else ''}",
            "quoted": str(min(quoted[i], 4)),
            "quoted_next": str(min(quoted_next[i], 4)),
            "first": h[:1],
            "first2": h[:2],
            "last": h[-1:],
            "len": str(_bucket(len(h), (2, 4, 8, 16, 32, 64))),
            "punct": str(bool(punctuated)),
            "head": bool(_HEAD_RE.search(texts[i])),
            "shiyue": "释曰" in fold_script(texts[i]),
            "fwd": fwd,
            "bwd": bwd,
            "fwd_b": str(_bucket(fwd, (0.01, 0.15, 0.3, 0.5))),
            "bwd_b": str(_bucket(bwd, (0.01, 0.15, 0.3, 0.5))),
            "pos": "first" if i == 0 else ("last" if i == n - 1 else "mid"),
        }
        out.append(f)
    return out


class PieceTagger:
    """A linear-chain CRF over the pieces of run-together strings (sklearn-crfsuite)."""

    def __init__(self, c1: float = 0.01, c2: float = 0.05, max_iterations: int = 100):
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations

    def fit(self, X: Sequence[list[dict]], Y: Sequence[list[str]]) -> "PieceTagger":
        import sklearn_crfsuite

        self.crf_ = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=self.c1, c2=self.c2,
                                         max_iterations=self.max_iterations, all_possible_transitions=True)
        self.crf_.fit(list(X), list(Y))
        return self

    def predict(self, feats: list[dict]) -> list[str]:
        return list(self.crf_.predict_single(feats)) if feats else []

    def marginals(self, feats: list[dict], layers: Sequence[str]) -> np.ndarray:
        """Each piece's marginal probability of each of ``layers`` (pieces × layers; 0 for a layer
        the CRF never learned)."""
        rows = self.crf_.predict_marginals_single(feats) if feats else []
        return np.array([[row.get(layer, 0.0) for layer in layers] for row in rows], dtype=float).reshape(len(rows), len(layers))
