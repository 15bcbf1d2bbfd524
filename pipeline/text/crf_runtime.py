"""A trained crfsuite CRF as numpy arrays: scored without feature strings, decoded by Viterbi.

Used by the 斷句 model (:mod:`pipeline.text.punctuate`) and the span CRF
(:mod:`pipeline.nlp.span_crf`).
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from pipeline.text.break_features import LAYER_NAMES, PAD_LEFT, PAD_RIGHT, LexiconMarks, other_attributes


class CompiledCRF:
    """The CRF's weights as arrays, scored with numpy and decoded by Viterbi in plain Python.

    crfsuite needs every feature as a string; building ~25 strings per character is what made
    prediction slow. Here every (n-gram template, value) the model weights is one integer key —
    ``template index * radix**3 + the chars' ids in base radix`` — in one sorted array with a
    weight row per key, so all templates at all positions are looked up at once, in a numpy hash
    table of the keys (:mod:`pipeline.text.punctuate_hash`; 3–4 times faster than ``searchsorted``).
    The sparse other attributes (lexicon terms, text ends, the layer) go through a dict.
    Same weights, same features and the same Viterbi as crfsuite (whose dump keeps 6 decimals).
    """

    CHUNK = 16384  # positions scored at once (bounds the memory of long texts)

    def __init__(self, labels, transitions, alphabet, names, keys, weights, other):
        import numpy as np

        self.labels = list(labels)  # label of each weight column
        self.transitions = np.asarray(transitions, dtype=np.float64)  # (L, L): from row to column label
        self.alphabet = list(alphabet)  # char of id 1, 2, …; id 0 = never seen in a feature
        self.char_ids = {c: i + 1 for i, c in enumerate(self.alphabet)}
        self.radix = len(self.alphabet) + 1
        self.names = list(names)  # template name of each template index
        self.keys = np.asarray(keys, dtype=np.int64)  # sorted
        self.weights = np.asarray(weights, dtype=np.float64)  # (K, L)
        self.other = other  # attribute -> (L,) weights
        self._plans: dict = {}

    @classmethod
    def from_tagger(cls, tagger) -> "CompiledCRF":
        import numpy as np

        info = tagger.info()
        labels = list(tagger.labels())
        col = {label: j for j, label in enumerate(labels)}
        trans = np.zeros((len(labels), len(labels)))
        for (a, b), w in info.transitions.items():
            trans[col[a], col[b]] = w
        grams: dict[tuple[str, str], np.ndarray] = {}
        other: dict[str, np.ndarray] = {}
        for (attr, label), w in info.state_features.items():
            name, eq, value = attr.partition("=")
            table, key = (grams, (name, value)) if eq else (other, attr)
            row = table.get(key)
            if row is None:
                row = table[key] = np.zeros(len(labels))
            row[col[label]] = w
        alphabet = sorted({c for _, value in grams for c in value})
        names = sorted({name for name, _ in grams})
        model = cls(labels, trans, alphabet, names, np.zeros(0, dtype=np.int64), np.zeros((0, len(labels))), other)
        index = {name: t for t, name in enumerate(names)}
        items = list(grams.items())
        codes = np.array([model._code(index[name], value) for (name, value), _ in items], dtype=np.int64)
        order = np.argsort(codes)
        model.keys = codes[order]
        model.weights = np.stack([w for _, w in items])[order] if items else model.weights
        return model

    def _table(self):
        """The hash table of the keys and the weight rows with a zero row appended (the row of
        a missing key); built on first use, again whenever ``keys`` was replaced."""
        import numpy as np

        from pipeline.text.punctuate_hash import KeyTable

        cached = getattr(self, "_lookup", None)
        if cached is None or cached[0] is not self.keys:
            zero = np.zeros((1, len(self.labels)))
            cached = (self.keys, KeyTable.build(self.keys), np.vstack([self.weights, zero]))
            self._lookup = cached
        return cached[1], cached[2]

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_lookup", None)  # rebuilt on first use (tens of ms); several MB
        state.pop("_other_matrix", None)
        return state

    def _code(self, template: int, value: str) -> int:
        code = 0
        for c in value:
            code = code * self.radix + self.char_ids[c]
        return template * self.radix**3 + code

    def _plan(self, templates: Sequence[tuple[str, tuple[int, ...]]]):
        """Per n-gram length: (template indexes, offsets) of the templates this model weights."""
        import numpy as np

        key = tuple(templates)
        if key not in self._plans:
            index = {name: t for t, name in enumerate(self.names)}
            groups: dict[int, tuple[list[int], list[tuple[int, ...]]]] = {}
            for name, offsets in templates:
                if name in index:
                    tids, offs = groups.setdefault(len(offsets), ([], []))
                    tids.append(index[name])
                    offs.append(offsets)
            self._plans[key] = [
                (np.array(tids, dtype=np.int64), np.array(offs, dtype=np.int64)) for tids, offs in groups.values()
            ]
        return self._plans[key]

    def scores(self, s: str, templates, layer: Optional[str], lexicon: Optional[LexiconMarks]):
        """(n, L) state scores of the boundaries of the normalised string ``s``; ``templates`` as
        :func:`ngram_templates` gives them for ``layer``."""
        return self.scores_many([s], templates, layer, lexicon)[0]

    def scores_many(self, strings: Sequence[str], templates, layer: Optional[str], lexicon: Optional[LexiconMarks]):
        """:meth:`scores` of several strings of one layer in one pass (numpy's per-call cost is paid
        once): the strings are laid end to end, each between its own padding."""
        import numpy as np

        size = len(self.labels)
        get = self.char_ids.get
        pad = max((abs(k) for _, offsets in templates for k in offsets), default=0) + 2
        left, right = [get(PAD_LEFT, 0)] * pad, [get(PAD_RIGHT, 0)] * pad
        flat: list[int] = []
        starts: list[int] = []
        for s in strings:
            flat += left
            starts.append(len(flat))
            flat += [get(c, 0) for c in s]
            flat += right
        ids = np.array(flat, dtype=np.int64)
        positions = np.concatenate(
            [np.arange(start, start + len(s)) for start, s in zip(starts, strings)] or [np.zeros(0, dtype=np.int64)]
        )
        n = len(positions)
        total = np.zeros((n, size))
        radix = self.radix
        shift = radix**3
        plan = self._plan(templates)
        table, weights = self._table()
        for lo in range(0, n, self.CHUNK):
            at_pos = positions[lo : lo + self.CHUNK]
            parts = []
            for tids, offs in plan:
                gram = np.zeros((len(tids), len(at_pos)), dtype=np.int64)
                for j in range(offs.shape[1]):
                    gram = gram * radix + ids[offs[:, j][:, None] + at_pos[None, :]]
                parts.append(tids[:, None] * shift + gram)
            if not parts or not len(self.keys):
                continue
            rows = table.lookup(np.concatenate(parts).ravel())  # a missing key gets the zero row
            total[lo : lo + len(at_pos)] += weights[rows].reshape(-1, len(at_pos), size).sum(axis=0)
        if layer in LAYER_NAMES and f"L{layer}" in self.other:
            total += self.other[f"L{layer}"]

        def attributes():  # (boundary of the strings laid end to end, its attributes)
            offset = 0
            for s in strings:
                for i, attrs in other_attributes(s, layer, lexicon).items():
                    yield offset + i, attrs
                offset += len(s)

        self.add_other(total, attributes())
        out = []
        offset = 0
        for s in strings:
            out.append(total[offset : offset + len(s)])
            offset += len(s)
        return out

    def add_other(self, scores, attributes: Iterable[tuple[int, Iterable[str]]]) -> None:
        """Add to the (n, L) ``scores`` the weights of the attributes that are not n-grams, given
        as (position, attributes): one numpy call, unbuffered and in the order given, so the very
        sums of adding them one by one."""
        import numpy as np

        index, matrix = self._other_rows()
        at: list[int] = []
        rows: list[int] = []
        for i, attrs in attributes:
            for a in attrs:
                k = index.get(a)
                if k is not None:
                    at.append(i)
                    rows.append(k)
        if at:
            np.add.at(scores, np.array(at, dtype=np.int64), matrix[np.array(rows, dtype=np.int64)])

    def _other_rows(self):
        """The weights of the attributes that are not n-grams as one matrix, and each one's row."""
        import numpy as np

        cached = getattr(self, "_other_matrix", None)
        if cached is None or cached[0] is not self.other:
            names = list(self.other)
            matrix = np.stack([self.other[a] for a in names]) if names else np.zeros((0, len(self.labels)))
            cached = (self.other, {a: k for k, a in enumerate(names)}, matrix)
            self._other_matrix = cached
        return cached[1], cached[2]

    def decode(self, scores) -> list[str]:
        """Viterbi: the best label sequence for (n, L) state scores and the transition weights
        (ties go to the earlier label, as in crfsuite)."""
        n, size = scores.shape
        if n == 0:
            return []
        if size == 3:
            path = viterbi3(scores.tolist(), self.transitions.tolist())
        else:
            path = viterbi(scores.tolist(), self.transitions.tolist())
        labels = self.labels
        return [labels[j] for j in path]

    def to_arrays(self) -> dict:
        import numpy as np

        size = len(self.labels)
        return {
            "labels": np.array(self.labels),
            "transitions": self.transitions,
            "alphabet": np.array(self.alphabet or [""]),
            "names": np.array(self.names or [""]),
            "keys": self.keys,
            "weights": self.weights.astype(np.float32),
            "other_names": np.array(list(self.other) or [""]),
            "other_weights": np.stack(list(self.other.values())).astype(np.float32) if self.other else np.zeros((1, size)),
        }

    @classmethod
    def from_arrays(cls, arrays) -> "CompiledCRF":
        import numpy as np

        labels = [str(x) for x in arrays["labels"]]
        alphabet = [str(x) for x in arrays["alphabet"] if str(x)]
        names = [str(x) for x in arrays["names"] if str(x)]
        other_w = arrays["other_weights"].astype(np.float64)
        other = {str(a): other_w[i] for i, a in enumerate(arrays["other_names"]) if str(a)}
        return cls(labels, arrays["transitions"], alphabet, names, arrays["keys"], arrays["weights"].astype(np.float64), other)


def viterbi(rows: list[list[float]], trans: list[list[float]]) -> list[int]:
    size = len(trans)
    prev = rows[0]
    back: list[list[int]] = []
    for row in rows[1:]:
        cur: list[float] = []
        ptr: list[int] = []
        for b in range(size):
            best, arg = prev[0] + trans[0][b], 0
            for a in range(1, size):
                v = prev[a] + trans[a][b]
                if v > best:
                    best, arg = v, a
            cur.append(best + row[b])
            ptr.append(arg)
        back.append(ptr)
        prev = cur
    j = max(range(size), key=lambda b: prev[b])
    path = [j]
    for ptr in reversed(back):
        j = ptr[j]
        path.append(j)
    path.reverse()
    return path


def viterbi3(rows: list[list[float]], trans: list[list[float]]) -> list[int]:
    """:func:`viterbi` unrolled for three labels (N, C, S): about twice as fast in CPython."""
    (t00, t01, t02), (t10, t11, t12), (t20, t21, t22) = trans
    p0, p1, p2 = rows[0]
    back: list[tuple[int, int, int]] = []
    append = back.append
    for r0, r1, r2 in rows[1:]:
        best, k0 = p0 + t00, 0
        v = p1 + t10
        if v > best:
            best, k0 = v, 1
        v = p2 + t20
        if v > best:
            best, k0 = v, 2
        n0 = best + r0
        best, k1 = p0 + t01, 0
        v = p1 + t11
        if v > best:
            best, k1 = v, 1
        v = p2 + t21
        if v > best:
            best, k1 = v, 2
        n1 = best + r1
        best, k2 = p0 + t02, 0
        v = p1 + t12
        if v > best:
            best, k2 = v, 1
        v = p2 + t22
        if v > best:
            best, k2 = v, 2
        p0, p1, p2 = n0, n1, best + r2
        append((k0, k1, k2))
    j = 0
    if p1 > p0:
        j = 1
    if p2 > (p0, p1)[j]:
        j = 2
    path = [j]
    for ptr in reversed(back):
        j = ptr[j]
        path.append(j)
    path.reverse()
    return path
