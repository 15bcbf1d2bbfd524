"""斷句: restore clause and sentence breaks in unpunctuated 經, 注 and 疏.

A linear-chain CRF labels each character with what followed it in a punctuated edition: ``N``
nothing, ``C`` a clause mark (，、：︰), ``S`` a sentence mark (。？！；, and ○, which opens a new
part of a 疏). Quotation marks, brackets and the interpuncts of book titles (‧．·) are not breaks:
a quotation starts wherever its own clause starts, and the colon before it (曰︰「…」) is the break
when the editor wrote one.

Features per character boundary (between char *i* and *i+1*), all on the normalised form
(:func:`pipeline.text.normalise.normalise_str`, so traditional, simplified and variant forms read
alike): the characters in a ±``window`` window, the character bigrams and trigrams around the
boundary, whether a ritual-lexicon term (``configs/lexicon``: ACTOR, VERB, OBJECT, LOCATION, FACING)
ends at *i*, starts at *i+1* or runs across the boundary, the first and last boundaries of the
text, and the layer (經/注/疏) crossed with the characters at the boundary. Function words (也 矣 焉
曰 者 之 而 以 于 …) need no list of their own: their unigram and n-gram features carry them.

crfsuite (``pycrfsuite``, installed with sklearn-crfsuite) trains the model; prediction does not
use it: :class:`CompiledCRF` holds the same weights as arrays and scores all features of all
positions with numpy, which is several times faster than building crfsuite's feature strings.
The model folder is self-contained: the lexicon terms it was trained with are saved beside the
weights, so editing ``configs/lexicon`` later does not silently change what an old model sees.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

from pipeline.text.normalise import normalise_str
from pipeline.text.sentences import Break  # (pos, kind): a new unit starts at ``pos``; kind "clause" / "sentence"

#: The file names inside a model folder.
MODEL_FILE = "weights.npz"
LSTM_FILE = "lstm.npz"  # the BiLSTM beside the CRF, only in models trained with lstm_weight > 0
SETTINGS_FILE = "settings.json"
CARD_FILE = "MODEL_CARD.md"
REBUILD_COMMAND = "yili train punctuate"
LSTM_REBUILD_COMMAND = "python -m pipeline.text.punctuate_lstm"  # models/punctuate-lstm (CRF + BiLSTM)
FORMAT_VERSION = 1

#: Marks that end a sentence, and marks that end a clause (full-width and ASCII forms).
SENTENCE_MARKS = frozenset("。？！；﹗?!;○")
CLAUSE_MARKS = frozenset("，、︰：,:﹐﹑")
#: Marks that are neither text nor breaks: quotes, brackets, book-title interpuncts, lacuna rules.
NEUTRAL_MARKS = frozenset("「」『』‘’“”《》〈〉（）()［］[]【】‧．·・")

LABELS = ("N", "C", "S")
KINDS = {"C": "clause", "S": "sentence"}
LAYER_NAMES = ("JING", "ZHU", "SHU")


class ModelError(RuntimeError):
    """The 斷句 model cannot be loaded: the message names the path and the command that rebuilds it."""


def default_model_dir() -> Path:
    """``models/punctuate`` of the checkout, else the copy installed inside the package."""
    from pipeline.config import shipped

    return shipped("models/punctuate")


@dataclass
class Stripped:
    """A text without its marks: the characters the model reads, what followed each, where each was."""

    chars: str
    labels: list[str]  # "N" / "C" / "S" per char: the strongest mark between it and the next char
    index: list[int]  # index of each char in the original text
    mark_end: list[int]  # index right after the last mark that follows each char (= index + 1 if none)


_NOT_TEXT = re.compile(
    "[\\s\\x00-\\x7f" + re.escape("".join(sorted(SENTENCE_MARKS | CLAUSE_MARKS | NEUTRAL_MARKS))) + "]"
)


def is_text_char(ch: str) -> bool:
    """Whether ``ch`` is part of the text the model reads (not a mark, space or ASCII furniture)."""
    return _NOT_TEXT.match(ch) is None


def strip_marks(text: str) -> Stripped:
    """Split a (punctuated or not) text into its characters and the breaks its marks make."""
    if not _NOT_TEXT.search(text):  # the usual case for an unpunctuated view: nothing to strip
        n = len(text)
        return Stripped(text, ["N"] * n, list(range(n)), list(range(1, n + 1)))
    chars: list[str] = []
    labels: list[str] = []
    index: list[int] = []
    mark_end: list[int] = []
    pos = 0
    for m in _NOT_TEXT.finditer(text + "\n"):
        for i in range(pos, m.start()):
            chars.append(text[i])
            labels.append("N")
            index.append(i)
            mark_end.append(i + 1)
        pos = m.end()
        ch = m.group()
        if not labels or m.start() >= len(text):
            continue
        if ch in SENTENCE_MARKS:
            labels[-1] = "S"
            mark_end[-1] = m.end()
        elif ch in CLAUSE_MARKS:
            if labels[-1] != "S":
                labels[-1] = "C"
            mark_end[-1] = m.end()
    return Stripped("".join(chars), labels, index, mark_end)


# -- features ---------------------------------------------------------------------------------


def _shift(seq: Sequence[str], k: int, pad: str) -> list[str]:
    """``seq`` moved so that item i holds ``seq[i + k]`` (``pad`` beyond the ends)."""
    n = len(seq)
    if k >= 0:
        return list(seq[k:]) + [pad] * min(k, n)
    return [pad] * min(-k, n) + list(seq[: n + k])


def _trie_pattern(terms: list[str]) -> str:
    """A regex matching any of ``terms``, longest first, as a character trie: ``主(?:人|婦)?…``.

    Much faster than an alternation of the terms, which the regex engine tries one by one at
    every position; greedy optional groups make the longest term win, as a longest-match would.
    """
    trie: dict = {}
    for term in terms:
        node = trie
        for ch in term:
            node = node.setdefault(ch, {})
        node[""] = True

    def build(node: dict) -> str:
        branches = [re.escape(ch) + build(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" in node:
            return "(?:" + body + ")?"
        return body

    return build(trie)


class LexiconMarks:
    """Greedy longest-match of the lexicon terms on a normalised string (leftmost, longest first).

    ``pairs``: the boundary between two terms also gets the pair of their labels (``P``), and a
    term next to a non-term the label with the other side's character (``Q`` / ``R``): "a verb
    then an actor" is a break in the 經 whatever the words (held-out 經 F1 +0.3 to +1.1 points on
    three chapter folds, the other layers unchanged)."""

    def __init__(self, terms: dict[str, list[str]], pairs: bool = False):
        self.pairs = pairs
        table: dict[str, set[str]] = {}
        for label, items in terms.items():
            for term in items:
                if term:
                    table.setdefault(term, set()).add(label[:3])
        self.table = {t: "+".join(sorted(labels)) for t, labels in table.items()}
        self.pattern = re.compile(_trie_pattern(list(self.table))) if self.table else None

    def matches(self, s: str) -> list[tuple[int, int, str]]:
        """(start, end, tag) of each term found; ``tag`` = label(s) + length (capped at 3)."""
        if self.pattern is None:
            return []
        table = self.table
        return [(m.start(), m.end(), f"{table[m.group()]}{min(m.end() - m.start(), 3)}") for m in self.pattern.finditer(s)]


def ngram_templates(window: int, layer: Optional[str] = None) -> list[tuple[str, tuple[int, ...]]]:
    """(name, offsets) of the character n-gram templates; offset 0 is the char before the boundary.

    Unigrams c[i-w+1] … c[i+w], bigrams c[i-2:i] … c[i+2:i+4], trigrams c[i-2:i+1] … c[i+1:i+4];
    with a layer, the boundary's two chars and their bigram crossed with the layer. (Bags of the
    chars beyond the window, distances to function words and char clusters learned from the
    unpunctuated editions were tried and gave nothing on held-out chapters.)
    """
    out = [(f"u{k}", (k,)) for k in range(-window + 1, window + 1)]
    out += [(f"b{k}", (k, k + 1)) for k in range(-2, 3)]
    out += [(f"t{k}", (k, k + 1, k + 2)) for k in range(-2, 2)]
    if layer in LAYER_NAMES:
        out += [(f"L0{layer}", (0,)), (f"L1{layer}", (1,)), (f"Lb{layer}", (0, 1))]
    return out


PAD_LEFT, PAD_RIGHT = "<", ">"  # ASCII: never a text char (see is_text_char)


#: a character, or two, written again right after: the boundary between them (``dup1`` / ``dup2``)
_DOUBLED_ONE = re.compile(r"(?=(.)\1)")
_DOUBLED_TWO = re.compile(r"(?=(..)\1)")


def other_attributes(s: str, layer: Optional[str], lexicon: Optional[LexiconMarks]) -> dict[int, list[str]]:
    """The attributes that are not character n-grams, sparse (boundary index → attributes):
    a lexicon term ends at i (``E…``), starts at i+1 (``S…``) or runs across the boundary (``in``);
    the same one or two characters on both sides (``dup1``, ``dup2``: in the dev 經 the editors
    break there 92% and 100% of the time); the first two and last two boundaries of the text. The
    layer's own bias is added by the caller."""
    n = len(s)
    rows: dict[int, list[str]] = {}
    if lexicon is not None:
        matches = lexicon.matches(s)
        for start, end, tag in matches:
            rows.setdefault(end - 1, []).append(f"E{tag}")
            if start > 0:
                rows.setdefault(start - 1, []).append(f"S{tag}")
            for k in range(start, end - 1):
                rows.setdefault(k, []).append("in")
        if lexicon.pairs:
            ends = {end - 1: tag for _start, end, tag in matches}
            starts = {start: tag for start, _end, tag in matches}
            for i, left in ends.items():
                right = starts.get(i + 1)
                if right is not None:
                    rows[i].append(f"P{left}|{right}")
                elif i + 1 < n:
                    rows[i].append(f"Q{left}|{s[i + 1]}")
            for j, right in starts.items():
                if j > 0 and j - 1 not in ends:
                    rows[j - 1].append(f"R{s[j - 1]}|{right}")
    for m in _DOUBLED_ONE.finditer(s):  # 告于公|公許, 升賓|賓升: the one acted on, then acting
        rows.setdefault(m.start(), []).append("dup1")
    for m in _DOUBLED_TWO.finditer(s):  # 命小史|小史命
        rows.setdefault(m.start() + 1, []).append("dup2")
    for i in (0, 1):
        if i < n and n - i > 2:
            rows.setdefault(i, []).append(f"beg{i}")
    for i in range(max(0, n - 2), n):
        rows.setdefault(i, []).append(f"end{n - i}")
    return rows


def boundary_features(s: str, layer: Optional[str], window: int, lexicon: Optional["LexiconMarks"]) -> list[list[str]]:
    """Feature strings for the boundary after each character of the normalised string ``s``
    (what crfsuite trains on; :class:`CompiledCRF` scores the same features without strings)."""
    n = len(s)
    if n == 0:
        return []
    chars = list(s)
    shifted: dict[int, list[str]] = {}
    cols: list[list[str]] = []
    for name, offsets in ngram_templates(window, layer):
        for k in offsets:
            if k not in shifted:
                shifted[k] = _shift(chars, k, PAD_LEFT if k < 0 else PAD_RIGHT)
        cols.append([f"{name}={''.join(g)}" for g in zip(*(shifted[k] for k in offsets))])
    rows = [list(row) for row in zip(*cols)]
    for i, extra in other_attributes(s, layer, lexicon).items():
        rows[i].extend(extra)
    if layer in LAYER_NAMES:
        for row in rows:
            row.append(f"L{layer}")
    return rows


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
            path = _viterbi3(scores.tolist(), self.transitions.tolist())
        else:
            path = _viterbi(scores.tolist(), self.transitions.tolist())
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


def _viterbi(rows: list[list[float]], trans: list[list[float]]) -> list[int]:
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


def _viterbi3(rows: list[list[float]], trans: list[list[float]]) -> list[int]:
    """:func:`_viterbi` unrolled for three labels (N, C, S): about twice as fast in CPython."""
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


# -- the model --------------------------------------------------------------------------------


class Punctuator:
    """Restores clause and sentence breaks; a CRF over character windows (see the module doc).

    Settings (scikit-learn style, nothing learned here): ``window`` characters each side of a
    boundary; ``c1`` / ``c2`` the L1 / L2 penalties and ``max_iterations`` of crfsuite's L-BFGS;
    ``use_lexicon`` the ritual-lexicon features (terms from ``lexicon_dir``, default
    ``configs/lexicon``); ``use_layer`` the 經/注/疏 features; ``lexicon_pairs`` the lexicon
    labels on both sides of a boundary (:class:`LexiconMarks`; off in models saved before it
    existed); ``jing_repeat`` how many times the CRF sees each 經 text (the 經 is an eighth of
    the characters and reads unlike the commentaries: 3 gave held-out 經 +0.8 to +1.3 points on
    three chapter folds). The defaults were chosen on three
    chapters held out of training (05, 11, 14): a stronger L1 penalty with 60 iterations gives the
    F1 of 100 iterations at half the training time and a smaller model.

    ``break_bias`` is taken from the score of "no break" before decoding: given the layer, the CRF
    finds fewer breaks than the editor made (precision 0.83, recall 0.72), and trading a little
    precision for recall raises F1 at no cost in speed. Without the layer it finds too many
    already (precision 0.68, recall 0.81), so there the bias is not applied. ``sentence_kinds``: the
    kind (sentence or clause) of each break in the 經 decided again from the clauses on both sides
    (:mod:`pipeline.text.sentence_kind`; off in models saved before it existed). ``lstm_weight`` > 0 trains a character BiLSTM
    (:mod:`pipeline.text.punctuate_lstm`, ``lstm_epochs``) beside the CRF and adds that many times
    its log-probabilities to the CRF's scores: better, but several times slower.
    """

    def __init__(
        self,
        window: int = 4,
        c1: float = 0.2,
        c2: float = 0.005,
        max_iterations: int = 60,
        use_lexicon: bool = True,
        use_layer: bool = True,
        lexicon_dir: Optional[str] = None,
        lexicon_pairs: bool = True,
        jing_repeat: int = 3,
        break_bias: float = 0.8,
        sentence_kinds: bool = True,
        lstm_weight: float = 0.0,
        lstm_epochs: int = 8,
    ):
        self.window = window
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.use_lexicon = use_lexicon
        self.use_layer = use_layer
        self.lexicon_dir = lexicon_dir
        self.lexicon_pairs = lexicon_pairs
        self.jing_repeat = max(1, int(jing_repeat))
        self.break_bias = break_bias
        self.sentence_kinds = sentence_kinds
        self.lstm_weight = lstm_weight
        self.lstm_epochs = lstm_epochs

    def get_params(self) -> dict:
        names = ("window", "c1", "c2", "max_iterations", "use_lexicon", "use_layer", "lexicon_dir", "lexicon_pairs", "jing_repeat", "break_bias",
                 "sentence_kinds", "lstm_weight", "lstm_epochs")
        return {k: getattr(self, k) for k in names}

    # -- features -----------------------------------------------------------------------------
    def _lexicon(self) -> Optional[LexiconMarks]:
        if not self.use_lexicon:
            return None
        if getattr(self, "lexicon_terms_", None) is None:
            from pipeline.nlp.lexicon import Lexicon

            lex = Lexicon.load(Path(self.lexicon_dir) if self.lexicon_dir else None)
            self.lexicon_terms_ = lex.normalised(normalise_str)
        if getattr(self, "_marks", None) is None:
            self._marks = LexiconMarks(self.lexicon_terms_, pairs=self.lexicon_pairs)
        return self._marks

    def features(self, chars: str, layer: Optional[str] = None) -> list[list[str]]:
        """Features of each boundary of ``chars`` (unpunctuated, not yet normalised)."""
        return boundary_features(
            normalise_str(chars), layer if self.use_layer else None, self.window, self._lexicon()
        )

    # -- learning -----------------------------------------------------------------------------
    def fit(self, texts: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None) -> "Punctuator":
        """Learn where the marks of the punctuated ``texts`` are (``layers``: JING/ZHU/SHU per text)."""
        import pycrfsuite

        layers = list(layers) if layers is not None else [None] * len(texts)
        if len(layers) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(layers)} layers")
        self.lexicon_terms_ = None
        self._marks = None
        trainer = pycrfsuite.Trainer(verbose=False)
        chars = 0
        counts = {label: 0 for label in LABELS}
        for text, layer in zip(texts, layers):
            st = strip_marks(text)
            if len(st.chars) < 2:
                continue
            feats = self.features(st.chars, layer)
            for _ in range(self.jing_repeat if layer == "JING" else 1):
                trainer.append(feats, st.labels)
            chars += len(st.chars)
            for label in st.labels[:-1]:
                counts[label] += 1
        if not chars:
            raise ValueError("no text to learn from: every text is empty or shorter than two characters")
        trainer.set_params(
            {"c1": self.c1, "c2": self.c2, "max_iterations": self.max_iterations, "feature.possible_transitions": True}
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "model.crfsuite"
            trainer.train(str(path))
            tagger = pycrfsuite.Tagger()
            tagger.open(str(path))
            self.crf_ = CompiledCRF.from_tagger(tagger)
            tagger.close()
            self.crfsuite_bytes_ = path.read_bytes()  # kept in memory to check the compiled scorer
        last = trainer.logparser.last_iteration or {}
        self.training_ = {
            "texts": len(texts),
            "chars": chars,
            "boundaries": counts,
            "iterations": last.get("num"),
            "active_features": last.get("active_features"),
            "loss": last.get("loss"),
        }
        self.kinds_ = self._fit_kinds(texts, layers) if self.sentence_kinds else None
        self.lstm_ = None
        if self.lstm_weight:
            from pipeline.text.punctuate_lstm import LSTMTagger

            data = []
            for text, layer in zip(texts, layers):
                st = strip_marks(text)
                if len(st.chars) >= 2:
                    data.append((normalise_str(st.chars), st.labels, layer if self.use_layer else None))
            self.lstm_ = LSTMTagger(epochs=self.lstm_epochs).fit(data)
            self.training_["lstm"] = self.lstm_.training_
        return self

    def _fit_kinds(self, texts: Sequence[str], layers: Sequence[Optional[str]]):
        """The 經's sentence-or-clause model (:class:`~pipeline.text.sentence_kind.SentenceKinds`)
        on the 經 texts' own breaks; None when there is no 經 with both kinds to learn from."""
        from pipeline.text.sentence_kind import SentenceKinds

        jing = [strip_marks(text) for text, layer in zip(texts, layers) if layer == "JING"]
        jing = [st for st in jing if len(st.chars) >= 2]
        self._lexicon()
        actors = (getattr(self, "lexicon_terms_", None) or {}).get("ACTOR", [])
        try:
            return SentenceKinds(actors=actors).fit([normalise_str(st.chars) for st in jing], [st.labels for st in jing])
        except ValueError:
            return None

    # -- prediction ---------------------------------------------------------------------------
    def _check(self) -> None:
        if getattr(self, "crf_", None) is None:
            raise ModelError(f"this Punctuator is not fitted; call fit() or load a model (`{REBUILD_COMMAND}`)")

    def predict_labels(self, chars: str, layer: Optional[str] = None) -> list[str]:
        """``N``/``C``/``S`` after each character of an unpunctuated string of text characters."""
        return self.predict_labels_many([chars], [layer])[0]

    def predict_labels_many(
        self, strings: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None
    ) -> list[list[str]]:
        """:meth:`predict_labels` of many strings, scored together per layer (much faster for many
        short texts than one call each)."""
        import numpy as np

        self._check()
        layers = list(layers) if layers is not None else [None] * len(strings)
        crf, lexicon = self.crf_, self._lexicon()
        out: list[list[str]] = [[] for _ in strings]
        groups: dict[Optional[str], list[int]] = {}
        for i, (chars, layer) in enumerate(zip(strings, layers)):
            if chars:
                groups.setdefault(layer if self.use_layer and layer in LAYER_NAMES else None, []).append(i)
        for layer, members in groups.items():
            normalised = [normalise_str(strings[i]) for i in members]
            templates = ngram_templates(self.window, layer)
            scored = crf.scores_many(normalised, templates, layer, lexicon)
            lstm = getattr(self, "lstm_", None)
            if lstm is not None and self.lstm_weight:
                from pipeline.text.punctuate_lstm import LABEL_IDS

                columns = [LABEL_IDS[label] for label in crf.labels]
                logp = lstm.log_probs(normalised, [layer] * len(normalised))
                scored = [scores + self.lstm_weight * lp[:, columns] for scores, lp in zip(scored, logp)]
            if self.break_bias and layer is not None:  # without the layer it already over-predicts
                shift = np.array([-self.break_bias if label == "N" else 0.0 for label in crf.labels])
                scored = [scores + shift for scores in scored]
            kinds = getattr(self, "kinds_", None) if layer == "JING" else None
            for i, text, scores in zip(members, normalised, scored):
                out[i] = crf.decode(scores)
                if kinds is not None:
                    out[i] = kinds.relabel(text, out[i])
        return out

    def breaks(self, text: str, layer: Optional[str] = None) -> list[Break]:
        """The clause and sentence breaks of ``text`` (meant for unpunctuated text, e.g. a view's text).

        Spaces, line breaks, quotes and other marks are skipped when reading; marks that make a
        break (。，…) are kept as breaks and the model fills in the boundaries between them.
        ``pos`` is the index right after the unit's last character (after its mark, if any); no
        break is reported at the end of the text.
        """
        return self.breaks_many([text], [layer])[0]

    def for_layer(self, layer: Optional[str]) -> "LayerPunctuator":
        """This model with the layer fixed: an object with ``.breaks(text)``, the splitter interface
        of :func:`pipeline.text.sentences.split_units`. Without the layer, breaks F1 drops by
        about three points (see the evaluation)."""
        return LayerPunctuator(self, layer)

    def breaks_many(self, texts: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None) -> list[list[Break]]:
        """:meth:`breaks` of many texts at once (e.g. all unpunctuated segments of a document)."""
        stripped = [strip_marks(text) for text in texts]
        predicted = self.predict_labels_many([st.chars for st in stripped], layers)
        return [_breaks_of(st, guess) for st, guess in zip(stripped, predicted)]

    def punctuate(self, text: str, layer: Optional[str] = None, clause: str = "，", sentence: str = "。") -> str:
        """``text`` with a mark written at each predicted break (for reading and review)."""
        parts: list[str] = []
        pos = 0
        for b in self.breaks(text, layer):
            if pos < b.pos:
                parts.append(text[pos : b.pos])
                pos = b.pos
            if not (b.pos > 0 and (text[b.pos - 1] in SENTENCE_MARKS or text[b.pos - 1] in CLAUSE_MARKS)):
                parts.append(clause if b.kind == "clause" else sentence)
        parts.append(text[pos:])
        return "".join(parts)

    # -- persistence --------------------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_marks"] = None  # rebuilt from lexicon_terms_ on first use
        state.pop("crfsuite_bytes_", None)  # only for checking right after fit; large
        return state

    def crfsuite_labels(self, chars: str, layer: Optional[str] = None) -> list[str]:
        """The labels crfsuite itself gives (only right after :meth:`fit`): the reference that
        :class:`CompiledCRF` must reproduce."""
        import pycrfsuite

        if getattr(self, "crfsuite_bytes_", None) is None:
            raise ModelError("the crfsuite model is only kept in memory after fit()")
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(self.crfsuite_bytes_)
        try:
            return list(tagger.tag(self.features(chars, layer)))
        finally:
            tagger.close()

    def save(self, folder: Path) -> Path:
        """Write the weights (``weights.npz``) and the settings (``settings.json``) to ``folder``."""
        import numpy as np

        self._check()
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self._lexicon()  # the terms the model was trained with are saved with it
        with open(folder / MODEL_FILE, "wb") as fh:
            np.savez_compressed(fh, **self.crf_.to_arrays())
        if getattr(self, "lstm_", None) is not None:
            with open(folder / LSTM_FILE, "wb") as fh:
                np.savez_compressed(fh, **self.lstm_.to_arrays())
        settings = {
            "format": FORMAT_VERSION,
            "params": self.get_params(),
            "lexicon_terms": getattr(self, "lexicon_terms_", None),
            "training": getattr(self, "training_", None),
            "lstm": self.lstm_.get_params() if getattr(self, "lstm_", None) is not None else None,
            "sentence_kinds": self.kinds_.to_dict() if getattr(self, "kinds_", None) is not None else None,
        }
        (folder / SETTINGS_FILE).write_text(json.dumps(settings, ensure_ascii=False, indent=1), encoding="utf-8")
        return folder

    @classmethod
    def load(cls, folder: Optional[Path] = None) -> "Punctuator":
        """The model saved in ``folder`` (default: :func:`default_model_dir`).

        A missing or unreadable model raises :class:`ModelError` naming the path and the command
        that rebuilds it.
        """
        import numpy as np

        from pipeline.config import model_path

        folder = model_path(folder) if folder is not None else default_model_dir()
        model_path, settings_path = folder / MODEL_FILE, folder / SETTINGS_FILE
        for path in (model_path, settings_path):
            if not path.is_file():
                raise ModelError(f"斷句 model not found: {path}; rebuild it with `{REBUILD_COMMAND}`")
        command = REBUILD_COMMAND
        try:
            settings = json.loads(settings_path.read_text(encoding="utf-8"))
            if settings.get("format") != FORMAT_VERSION:
                raise ValueError(f"format {settings.get('format')!r}, expected {FORMAT_VERSION}")
            model = cls(**{"lexicon_pairs": False, "jing_repeat": 1, "sentence_kinds": False, **settings["params"]})  # older models
            if model.lstm_weight:
                command = LSTM_REBUILD_COMMAND
            model.lexicon_terms_ = settings.get("lexicon_terms")
            if model.use_lexicon and not model.lexicon_terms_:
                raise ValueError("the settings hold no lexicon terms")
            model.training_ = settings.get("training")
            model.kinds_ = None
            if model.sentence_kinds and settings.get("sentence_kinds"):
                from pipeline.text.sentence_kind import SentenceKinds

                model.kinds_ = SentenceKinds.from_dict(settings["sentence_kinds"])
            with np.load(model_path, allow_pickle=False) as arrays:
                model.crf_ = CompiledCRF.from_arrays(arrays)
            model.lstm_ = None
            if model.lstm_weight:
                from pipeline.text.punctuate_lstm import LSTMTagger

                if not (folder / LSTM_FILE).is_file():
                    raise FileNotFoundError(f"{folder / LSTM_FILE} is missing")
                with np.load(folder / LSTM_FILE, allow_pickle=False) as arrays:
                    model.lstm_ = LSTMTagger.from_arrays(arrays, settings.get("lstm") or {})
            if sorted(model.crf_.labels) != sorted(LABELS):
                raise ValueError(f"labels {model.crf_.labels}, expected {list(LABELS)}")
            model._marks = None
        except ModuleNotFoundError as exc:
            if exc.name != "torch":
                raise
            raise ModelError(
                f"斷句 model in {folder} has a BiLSTM, which needs torch (not installed): "
                "`pip install torch==2.13.0` (CPU), or leave `[sentences] model` unset for the CRF model"
            ) from exc
        except Exception as exc:  # truncated, corrupt or foreign files
            raise ModelError(
                f"斷句 model in {folder} cannot be read ({type(exc).__name__}: {exc}); rebuild it with `{command}`"
            ) from exc
        return model


@dataclass(frozen=True)
class LayerPunctuator:
    """A :class:`Punctuator` bound to one layer (see :meth:`Punctuator.for_layer`)."""

    model: Punctuator
    layer: Optional[str]

    def breaks(self, text: str) -> list[Break]:
        return self.model.breaks(text, self.layer)


def _breaks_of(st: Stripped, predicted: Sequence[str]) -> list[Break]:
    """Breaks from the marks a text has and the labels predicted for its characters."""
    out: list[Break] = []
    last = len(st.chars) - 1
    for i, (marked, guess) in enumerate(zip(st.labels, predicted)):
        if i == last:
            break  # the end of the text ends its last unit anyway
        label = marked if marked != "N" else guess
        if label == "N":
            continue
        pos = st.mark_end[i] if marked != "N" else st.index[i] + 1
        out.append(Break(pos, KINDS[label]))
    return out


# -- training data and the shipped model ------------------------------------------------------


def training_units(chapters: Optional[Iterable[str]] = None) -> list[tuple[str, str, str]]:
    """(chapter, layer, punctuated text) of every 經/注/疏 unit of the punctuated XHTML edition."""
    from pipeline.corpus import iter_units

    return [
        (u.chapter, u.layer, u.text)
        for u in iter_units("zhushu-xhtml", chapters=chapters)
        if u.layer in LAYER_NAMES
    ]


def default_results_file() -> Path:
    """``bench/results/segmentation.json``: where ``yili evaluate segmentation`` writes its figures."""
    return Path(__file__).resolve().parents[2] / "bench" / "results" / "segmentation.json"


def train_punctuator(out: Optional[Path] = None, chapters: Optional[Iterable[str]] = None, **params) -> dict:
    """``yili train punctuate``: fit on the XHTML edition (all its chapters, or ``chapters``), save to
    ``out`` (default ``models/punctuate``) with a model card; returns a summary."""
    import time

    out = Path(out) if out is not None else default_model_dir()
    units = training_units(chapters)
    if not units:
        raise ValueError("no training units: is ../shared/corpus/zhushu-xhtml there?")
    started = time.perf_counter()
    model = Punctuator(**params).fit([u[2] for u in units], [u[1] for u in units])
    model.training_.update(
        chapters=sorted({u[0] for u in units}),
        edition="zhushu-xhtml",
        train_seconds=round(time.perf_counter() - started, 1),
    )
    model.save(out)
    write_model_card(out)
    return {"model": str(out), "params": model.get_params(), "size_bytes": (out / MODEL_FILE).stat().st_size,
            **model.training_}


def write_model_card(folder: Path, results_file: Optional[Path] = None) -> Path:
    """MODEL_CARD.md of the model in ``folder``: what it is, what it was trained on (from its
    settings), and the figures of the latest evaluation (``results_file``, default
    :func:`default_results_file`, when it exists)."""
    folder = Path(folder)
    settings = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
    training = settings.get("training") or {}
    size = (folder / MODEL_FILE).stat().st_size
    results = Path(results_file) if results_file is not None else default_results_file()
    lines = [
        "# 斷句 model (clause and sentence breaks)",
        "",
        "A linear-chain CRF that labels each character of unpunctuated 經, 注 or 疏 with the break that",
        "follows it: none, clause (，、：︰) or sentence (。？！；, ○). Trained with crfsuite, scored by",
        "`CompiledCRF` (numpy). Code: `pipeline/text/punctuate.py`; use: `Punctuator.load().breaks(text, layer)`.",
        f"Rebuild: `{REBUILD_COMMAND}` (reads `../shared/corpus/zhushu-xhtml`).",
        "",
    ]
    params = settings.get("params") or {}
    if params.get("lstm_weight"):
        lstm = training.get("lstm") or {}
        lines[-2] = f"Rebuild: `{LSTM_REBUILD_COMMAND}` (reads `../shared/corpus/zhushu-xhtml`)."
        lines += [
            f"Beside the CRF, a character BiLSTM (`pipeline/text/punctuate_lstm.py`, `{LSTM_FILE}`,"
            f" {(folder / LSTM_FILE).stat().st_size / 1e6:.1f} MB, {lstm.get('vocab')} chars, trained in {lstm.get('seconds')} s):",
            f"{params['lstm_weight']} × its log-probabilities are added to the CRF's scores before the Viterbi search.",
            "",
        ]
    if params.get("break_bias"):
        lines += [
            f"Before decoding, {params['break_bias']} is taken from the score of \"no break\" at every character of a text",
            "whose layer is given: the CRF alone finds fewer breaks than the editor made, and this trades a little",
            "precision for recall (without the layer it already finds too many: no bias there).",
            "",
        ]
    lines += [
        "## Training data",
        "",
        f"- 儀禮注疏, punctuated XHTML edition (after the 東里書齋 text), chapters {', '.join(training.get('chapters', []))}:",
        f"  {training.get('texts')} paragraphs (經, 注, 疏), {training.get('chars')} characters once the marks are stripped.",
        f"- Boundaries (after each char but a paragraph's last): {training.get('boundaries')} — N none, C clause, S sentence.",
        "- Quotes, brackets and title interpuncts are dropped without a break; ○ counts as a sentence break.",
        "- Texts are read through `normalise_str` (opencc t2s + the edition variants), so 賓/賔/宾 are one character.",
        "",
        "## Settings and size",
        "",
        f"- {json.dumps(settings.get('params'), ensure_ascii=False)}",
        f"- L-BFGS iterations: {training.get('iterations')}; active features: {training.get('active_features')};"
        f" `{MODEL_FILE}` {size / 1e6:.1f} MB; training time {training.get('train_seconds')} s.",
        "",
        "## Evaluation",
        "",
    ]
    if results.is_file():
        data = json.loads(results.read_text(encoding="utf-8"))
        brk = data.get("breaks", {})
        lines += [
            f"Chapters never seen in training ({brk.get('folds')} chapter-level folds), from `{data.get('command')}`:",
            "",
            "| layer | any P | any R | any F1 | clause F1 | sentence F1 |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        rows = dict(brk.get("by_layer", {}))
        if "all" in brk:
            rows["all"] = brk["all"]
        for layer, row in rows.items():
            lines.append(
                f"| {layer} | {row['any']['p']:.3f} | {row['any']['r']:.3f} | **{row['any']['f1']:.3f}** |"
                f" {row['clause']['f1']:.3f} | {row['sentence']['f1']:.3f} |"
            )
        agree = data.get("self_agreement")
        if agree:
            lines += ["", f"The edition against itself (a 疏 quoting its 經/注 verbatim vs the source): F1 {agree['f1']:.3f}."]
        other = data.get("edition_agreement")
        if other:
            lines += [f"Two editors on the 經 of {', '.join(other['chapters'])} (seed {other['seed'][:3]} against the XHTML "
                      f"edition, {other['passages']} passages): F1 {other['any']['f1']:.3f}."]
        kyoto = data.get("kyoto_breaks")
        if kyoto:
            lines += [f"Another genre (UD Kyoto test, its sentence ends as gold): F1 {kyoto['f1']:.3f}."]
        speed = data.get("punctuator_speed")
        if speed:
            lines += [
                f"Speed, one process, per CPU-second: {speed['chars_per_s']:,} chars/s one paragraph per call,"
                f" {speed['chars_per_s_batched']:,} chars/s with `breaks_many`."
            ]
    else:
        lines.append("Run `yili evaluate segmentation` (or `python bench/segmentation.py`) for the figures.")
    lines += [
        "",
        "## Limits",
        "",
        "- One editor's punctuation, not always consistent with itself (云︰「…」 beside 云「…」; clause vs",
        "  sentence marks; its quotations drop breaks). Two editors agree on the 經 far better than the model",
        "  does (`edition_agreement` in `yili evaluate segmentation`): the gap is the model's, not the data's.",
        "- Local context only (±window characters; the BiLSTM, when there is one, reads the paragraph but was",
        "  trained on 150-char pieces): parallel clauses and long lists are often cut wrong;",
        "  clause vs sentence is much weaker than break vs no break.",
        "- Trained on the 儀禮 and its commentaries only: on other genres (論語, 孟子) it is far weaker.",
    ]
    path = folder / CARD_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
