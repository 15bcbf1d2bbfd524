"""Character language models per layer, and a two-state segmental decoder (an experiment).

The 經 is formulaic (主人阼階上北面再拜…) and the 注 has its own idiom (X，Y也; 謂; 猶;
今文…古文…; 者): a character n-gram model of each layer, with a long history, tells which layer
a stretch of text reads like. :class:`CharLM` is an interpolated Kneser–Ney model over folded
Han characters (``^`` opens a unit, ``$`` closes it), pure Python/numpy, kept in backoff form
(log-probabilities at float16 precision, rarer long n-grams optionally pruned) so that it can be
written as arrays.

:class:`LMSegmenter` decodes a run-together string with an HMM whose states are (layer, how many
characters into the current unit, capped at order − 1): the emission of a character is its
log-probability under the layer's model given the history *since the unit began* (``^`` + the
unit's characters), so a state switch restarts the history, and leaving a unit costs the
log-probability of ``$`` (a 注 ends in 也, a 經 in 再拜) plus a switch penalty. In punctuated
text a unit may only end after a sentence end (。！？；, closing quotes). ``copy`` mixes in a
copy model at a unit's start (a 注 opens on the words of its 經).

Measured on held-out chapter folds (``bench/runtogether.py``, figures in
``bench/results/runtogether.md``), the models alone split 經+注 text worse than the shipped
splitter, and added to the splitter's piece emissions (:meth:`pipeline.layers.seams.SplitPredictor._lm_emissions`,
``lm_`` / ``lm_weight``) they help 注+經 strings and slightly hurt 經+注 ones; the shipped
splitter does not use them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Iterable, Optional, Sequence

import numpy as np

from pipeline.layers.features import fold_script, ngram_text
from pipeline.layers.seams import _SENTENCE_END, _fill_forward, han_positions

BOS, EOS = "^", "$"
#: in punctuated text a unit may end only after one of these (a sentence end, or a closing quote)
_UNIT_MAY_END_AFTER = set("。！？；﹗」”』")


def _half(x: float) -> float:
    """``x`` at the precision it is stored with (float16), so the stored model reads as the fitted one."""
    return float(np.float16(x))


class CharLM:
    """Interpolated Kneser–Ney character n-gram model (fixed discount per order)."""

    def __init__(self, order: int = 5, discount: float = 0.75, min_count: int = 1):
        self.order = order
        self.discount = discount
        self.min_count = min_count

    def fit(self, texts: Iterable[str]) -> "CharLM":
        n = self.order
        counts: list[dict[str, dict[str, int]]] = [defaultdict(lambda: defaultdict(int)) for _ in range(n)]
        vocab: set[str] = set()
        for text in texts:
            if not text:
                continue
            s = BOS + text + EOS
            vocab.update(text)
            for i in range(1, len(s)):
                for k in range(n):  # context length k
                    if i - k < 0:
                        break
                    counts[k][s[i - k : i]][s[i]] += 1
        # continuation counts for the lower orders: how many distinct left extensions a k+1-gram has
        cont: list[dict[str, dict[str, int]]] = [defaultdict(lambda: defaultdict(int)) for _ in range(n)]
        for k in range(1, n):
            for ctx, nxt in counts[k].items():
                for c in nxt:
                    cont[k - 1][ctx[1:]][c] += 1
        self.vocab_size_ = len(vocab) + 2
        self._compile(counts, cont)
        return self

    def _compile(self, counts: list, cont: list) -> None:
        """The model in backoff form: log P(c | h) of every n-gram seen (``logp_``, keyed h + c) and
        the log weight a context h gives what it did not see (``backoff_``); an n-gram whose
        context is two or more symbols and whose count is below ``min_count`` is left out (read
        through the backoff instead), which keeps the model small."""
        n, D = self.order, self.discount
        full: dict[str, float] = {}
        self.backoff_: dict[str, float] = {}
        self.logp_: dict[str, float] = {}
        base = 1.0 / self.vocab_size_
        for k in range(n):
            # the highest order reads raw counts, the lower ones continuation counts, except a
            # context opening with BOS, which has no left extension
            src = counts[k] if k == n - 1 else cont[k]
            table = dict(src)
            if k < n - 1:
                table.update((h, nxt) for h, nxt in counts[k].items() if h.startswith(BOS))
            for h, nxt in table.items():
                total = float(sum(nxt.values()))
                gamma = D * len(nxt) / total
                self.backoff_[h] = _half(math.log(gamma))
                for c, cnt in nxt.items():
                    lower = math.exp(full[h[1:] + c]) if k else base
                    p = max(cnt - D, 0.0) / total + gamma * lower
                    full[h + c] = math.log(p)
                    if k < 2 or cnt >= self.min_count:
                        self.logp_[h + c] = _half(math.log(p))
        self._cache: dict[tuple[str, str], float] = {}

    def prob(self, ctx: str, c: str) -> float:
        """P(c | ctx), ``ctx`` at most order − 1 symbols (longer is cut to its tail)."""
        return math.exp(self.logprob(ctx, c))

    def logprob(self, ctx: str, c: str) -> float:
        """log P(c | ctx), ``ctx`` at most order − 1 symbols (longer is cut to its tail)."""
        ctx = ctx[-(self.order - 1) :] if self.order > 1 else ""
        key = (ctx, c)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        acc = 0.0
        out = None
        for k in range(len(ctx), -1, -1):
            h = ctx[len(ctx) - k :]
            v = self.logp_.get(h + c)
            if v is not None:
                out = acc + v
                break
            acc += self.backoff_.get(h, 0.0)
        if out is None:
            out = acc - math.log(self.vocab_size_)
        if len(self._cache) < 500_000:
            self._cache[key] = out
        return out

    # -- compact form ---------------------------------------------------------------------------
    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The backoff form as arrays (keys as UTF-8, newline-separated; values float32)."""
        out = {}
        for name, table in (("logp", self.logp_), ("backoff", self.backoff_)):
            keys = list(table)
            out[f"{prefix}{name}_keys"] = np.frombuffer("\n".join(keys).encode("utf-8"), dtype=np.uint8)
            out[f"{prefix}{name}_values"] = np.array([table[k] for k in keys], dtype=np.float16)
        out[f"{prefix}meta"] = np.array([self.order, self.discount, self.vocab_size_, self.min_count], dtype=np.float64)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict, prefix: str) -> "CharLM":
        order, discount, vocab, min_count = arrays[f"{prefix}meta"].tolist()
        lm = cls(int(order), float(discount), int(min_count))
        lm.vocab_size_ = int(vocab)
        for name in ("logp", "backoff"):
            raw = bytes(arrays[f"{prefix}{name}_keys"]).decode("utf-8")
            keys = raw.split("\n") if raw or len(arrays[f"{prefix}{name}_values"]) else []
            setattr(lm, f"{name}_", dict(zip(keys, arrays[f"{prefix}{name}_values"].astype(float).tolist())))
        lm._cache = {}
        return lm


def lm_text(text: str) -> str:
    """What the language models read: the string the classifier's n-grams are read from."""
    return ngram_text(text)


class LMSegmenter:
    """Viterbi over (layer, characters into the unit) with per-layer :class:`CharLM` emissions."""

    def __init__(self, layers: Sequence[str] = ("JING", "ZHU"), order: int = 5, discount: float = 0.75,
                 switch_penalty: float = 4.0, copy: Optional[dict] = None, copy_window: int = 60,
                 min_count: int = 1, bias: Optional[dict] = None):
        self.layers = tuple(layers)
        self.bias = bias
        self.min_count = min_count
        self.copy = copy
        self.copy_window = copy_window
        self.order = order
        self.discount = discount
        self.switch_penalty = switch_penalty

    def fit(self, units: Iterable[tuple[str, str]]) -> "LMSegmenter":
        """``units``: (layer, text) pairs."""
        by_layer: dict[str, list[str]] = {l: [] for l in self.layers}
        for layer, text in units:
            if layer in by_layer:
                s = lm_text(text)
                if s:
                    by_layer[layer].append(s)
        self.lms_ = {l: CharLM(self.order, self.discount, self.min_count).fit(by_layer[l]) for l in self.layers}
        return self

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Both models' backoff forms as arrays (``lm_<LAYER>_…``), for the runtime form."""
        out: dict[str, np.ndarray] = {}
        for layer in self.layers:
            out.update(self.lms_[layer].to_arrays(f"lm_{layer}_"))
        return out

    @classmethod
    def from_arrays(cls, layers: Sequence[str], arrays: dict, **settings) -> "LMSegmenter":
        seg = cls(tuple(layers), **settings)
        seg.lms_ = {l: CharLM.from_arrays(arrays, f"lm_{l}_") for l in seg.layers}
        seg.order = next(iter(seg.lms_.values())).order if seg.lms_ else seg.order
        return seg

    def emissions(self, han: str) -> tuple[np.ndarray, np.ndarray]:
        """E[l, d, k] = log P_l(han[k] | unit history of d chars); F[l, d, k] = log P_l($ | history of d chars ending before k)."""
        n, K, D = len(han), len(self.layers), self.order
        E = np.zeros((K, D, n))
        F = np.zeros((K, D, n + 1))
        for li, layer in enumerate(self.layers):
            lm = self.lms_[layer]
            for k in range(n + 1):
                for d in range(D):
                    if d < D - 1:
                        ok = d <= k
                        ctx = BOS + han[k - d : k]
                    else:
                        ok = k >= D - 1
                        ctx = han[k - D + 1 : k]
                    if not ok:
                        if k < n:
                            E[li, d, k] = -1e9
                        F[li, d, k] = -1e9
                        continue
                    if k < n:
                        lam = float((self.copy or {}).get(layer, 0.0))
                        if lam and d < D - 1:
                            E[li, d, k] = math.log((1 - lam) * lm.prob(ctx, han[k]) + lam * self._copy(han, k - d, k))
                        else:
                            E[li, d, k] = lm.logprob(ctx, han[k])
                    F[li, d, k] = lm.logprob(ctx, EOS)
            # a per-character prior: the 注 model, learned from more and more varied text, reads
            # unseen chapters' 經 better than the 經 model does
            E[li] += float((self.bias or {}).get(layer, 0.0))
        return E, F

    def _copy(self, han: str, s: int, k: int) -> float:
        """How likely han[k] is as the next character of a unit (begun at s) that repeats the text before it."""
        window = han[max(0, s - self.copy_window) : s]
        if not window:
            return 0.0
        have = window.count(han[s:k]) if k > s else len(window)
        return window.count(han[s : k + 1]) / have if have else 0.0

    def decode(self, han: str, allowed: Optional[Sequence[bool]] = None) -> list[int]:
        """Layer index per character. ``allowed[k]``: a unit may start at k (k ≥ 1)."""
        n, K, D = len(han), len(self.layers), self.order
        if n == 0:
            return []
        E, F = self.emissions(han)
        NEG = -1e18
        # state s = li * D + d
        S = K * D
        score = np.full(S, NEG)
        for li in range(K):
            score[li * D + 0] = E[li, 0, 0]
        back = np.zeros((n, S), dtype=np.int64)
        back[0] = -1
        for k in range(1, n):
            new = np.full(S, NEG)
            arg = np.zeros(S, dtype=np.int64)
            # stay: (li, d) -> (li, min(d+1, D-1))
            for li in range(K):
                for d in range(D):
                    nd = min(d + 1, D - 1)
                    s, t = li * D + d, li * D + nd
                    v = score[s]
                    if v > new[t]:
                        new[t], arg[t] = v, s
            # switch: (li, d) -> (lj, 0), closing the unit with $
            if allowed is None or allowed[k]:
                for li in range(K):
                    ends = score[li * D : (li + 1) * D] + F[li, :, k]
                    d = int(ends.argmax())
                    v = ends[d] - self.switch_penalty
                    for lj in range(K):
                        if lj == li:
                            continue
                        t = lj * D
                        if v > new[t]:
                            new[t], arg[t] = v, li * D + d
            for li in range(K):
                new[li * D : (li + 1) * D] += E[li, :, k]
            score, back[k] = new, arg
        final = score + np.concatenate([F[li, :, n] for li in range(K)])
        s = int(final.argmax())
        out = [0] * n
        for k in range(n - 1, -1, -1):
            out[k] = s // D
            s = int(back[k, s]) if k > 0 else s
        return out

    def predict_labels(self, text: str) -> list[str]:
        """The layer of every character of ``text`` (non-Han: the layer of the Han character before)."""
        folded = fold_script(text)
        pos = han_positions(folded)
        han = "".join(folded[i] for i in pos)
        if not han:
            return [self.layers[0]] * len(text)
        allowed = None
        if any(ch in _SENTENCE_END for ch in text):
            allowed = [False] * len(han)
            for j in range(1, len(han)):
                gap = folded[pos[j - 1] + 1 : pos[j]]
                allowed[j] = any(ch in _UNIT_MAY_END_AFTER for ch in gap)
        path = self.decode(han, allowed)
        out = [""] * len(text)
        for j, p in enumerate(pos):
            out[p] = self.layers[path[j]]
        return _fill_forward(out, self.layers[0])

    def char_logprobs(self, han: str) -> np.ndarray:
        """(len(han), n_layers): log P_l(han[k] | the Han characters before it), the history not
        restarted (the string's start is a unit start)."""
        D = self.order
        out = np.zeros((len(han), len(self.layers)))
        for li, layer in enumerate(self.layers):
            lm = self.lms_[layer]
            for k, c in enumerate(han):
                ctx = BOS + han[:k] if k < D - 1 else han[k - D + 1 : k]
                out[k, li] = lm.logprob(ctx, c)
        return out

    def seams(self, text: str) -> list[int]:
        """Raw offsets in ``text`` where the decoded layer changes."""
        labels = self.predict_labels(text)
        return [i for i in range(1, len(labels)) if labels[i] != labels[i - 1]]
