"""A character BiLSTM for 斷句, used beside the CRF of :mod:`pipeline.text.punctuate`.

The CRF sees ±4 characters; the BiLSTM (over char, bigram and layer embeddings) reads the whole
paragraph in both directions, which helps most with sentence vs clause marks and with the 疏's
quotations (云…者). :class:`pipeline.text.punctuate.Punctuator` adds its log-probabilities to the
CRF's state scores (``lstm_weight``) before the Viterbi search; the figures of the combination are
in ``bench/results/segmentation-punctuate-lstm.md``.

It is several times slower than the CRF (torch on one thread), so the default model does not
use it: ``models/punctuate-lstm`` is the CRF + BiLSTM model, chosen with
``[sentences] model = "models/punctuate-lstm"``. Weights are kept as numpy arrays (``lstm.npz``):
the folder is loaded without pickles.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

LABEL_IDS = {"N": 0, "C": 1, "S": 2}
LAYER_IDS = {"JING": 1, "ZHU": 2, "SHU": 3}  # 0: layer not given
UNKNOWN = 1  # char id of a char not in the vocabulary; 0 pads


def _module(n_chars: int, n_bigrams: int, emb: int, bigram_emb: int, hidden: int, dropout: float):
    import torch
    import torch.nn as nn

    class BiLSTMTagger(nn.Module):
        """Char + layer embeddings, plus the embeddings of the bigrams c[i-1:i+1] and c[i:i+2]
        (the one across the boundary is the strongest single cue), into one BiLSTM layer."""

        def __init__(self) -> None:
            super().__init__()
            self.emb = nn.Embedding(n_chars, emb)
            self.layer = nn.Embedding(len(LAYER_IDS) + 1, emb)
            self.bigram = nn.Embedding(n_bigrams, bigram_emb)
            self.bigram_in = nn.Linear(2 * bigram_emb, emb)
            self.lstm = nn.LSTM(emb, hidden, bidirectional=True, batch_first=True)
            self.drop = nn.Dropout(dropout)
            self.out = nn.Linear(2 * hidden, len(LABEL_IDS))

        def forward(self, chars, bigrams, layers):
            right = self.bigram(bigrams)  # bigram (i, i+1)
            left = torch.cat([torch.zeros_like(right[:, :1]), right[:, :-1]], 1)  # bigram (i-1, i)
            x = self.emb(chars) + self.layer(layers)[:, None, :] + self.bigram_in(torch.cat([right, left], -1))
            h, _ = self.lstm(self.drop(x))
            return self.out(self.drop(h))

    return BiLSTMTagger()


@dataclass
class LSTMTagger:
    """Fit on (normalised chars, N/C/S labels, layer) triples; :meth:`log_probs` per character.

    Trained on 150-char pieces at random offsets (each epoch cuts them anew), Adam, a few
    characters replaced by the unknown id so that unseen characters are no surprise.
    """

    emb: int = 64
    bigram_emb: int = 32
    hidden: int = 128
    dropout: float = 0.3
    epochs: int = 8
    batch: int = 64
    piece: int = 150
    lr: float = 0.003
    unknown_rate: float = 0.03
    seed: int = 0
    vocab_: list[str] = field(default_factory=list)
    bigrams_: list[str] = field(default_factory=list)
    training_: dict = field(default_factory=dict)

    def get_params(self) -> dict:
        names = ("emb", "bigram_emb", "hidden", "dropout", "epochs", "batch", "piece", "lr", "unknown_rate", "seed")
        return {k: getattr(self, k) for k in names}

    def _ids(self) -> tuple[dict[str, int], dict[str, int]]:
        if getattr(self, "_char_ids", None) is None:
            self._char_ids = ({c: i + 2 for i, c in enumerate(self.vocab_)}, {g: i + 2 for i, g in enumerate(self.bigrams_)})
        return self._char_ids

    def _batch(self, pieces: Sequence[tuple[str, Sequence[str], Optional[str]]], rng: Optional[random.Random] = None):
        import torch

        ids, bigram_ids = self._ids()
        width = max(len(s) for s, _, _ in pieces)
        chars = torch.zeros(len(pieces), width, dtype=torch.long)
        bigrams = torch.zeros(len(pieces), width, dtype=torch.long)
        gold = torch.full((len(pieces), width), -100, dtype=torch.long)
        for i, (s, labels, _) in enumerate(pieces):
            row = [ids.get(c, UNKNOWN) for c in s]
            pairs = [bigram_ids.get(s[j : j + 2], UNKNOWN) for j in range(len(s))]
            if rng is not None and self.unknown_rate:
                row = [UNKNOWN if rng.random() < self.unknown_rate else c for c in row]
                pairs = [UNKNOWN if rng.random() < self.unknown_rate else c for c in pairs]
            chars[i, : len(s)] = torch.tensor(row)
            bigrams[i, : len(s)] = torch.tensor(pairs)
            if labels:  # the last char of a piece has no target: what follows it is not in the piece
                gold[i, : len(s) - 1] = torch.tensor([LABEL_IDS[x] for x in labels[: len(s) - 1]])
        layers = [LAYER_IDS.get(layer or "", 0) for _, _, layer in pieces]
        if rng is not None:  # now and then no layer, so that "layer not given" is learned too
            layers = [0 if rng.random() < 0.1 else x for x in layers]
        layers = torch.tensor(layers)
        return chars, bigrams, gold, layers

    def fit(self, data: Sequence[tuple[str, Sequence[str], Optional[str]]], log=None,
            pretrained: Optional[dict] = None) -> "LSTMTagger":
        """Train on ``data``. ``pretrained``: arrays of a character language model
        (:func:`pipeline.text.pretrain_lstm.pretrain`, same ``emb`` and ``hidden``): its vocabulary
        replaces the one of ``data`` and its char, layer and LSTM weights are the starting point."""
        import torch
        import torch.nn as nn

        torch.set_num_threads(1)
        torch.manual_seed(self.seed)
        rng = random.Random(self.seed)
        counts = Counter(c for s, _, _ in data for c in s)
        self.vocab_ = sorted(c for c, n in counts.items() if n >= 2)
        if pretrained is not None:
            self.vocab_ = [str(c) for c in pretrained["vocab"] if str(c)]
        pairs = Counter(s[j : j + 2] for s, _, _ in data for j in range(len(s) - 1))
        self.bigrams_ = sorted(g for g, n in pairs.items() if n >= 2)
        self._char_ids = None
        net = self._net()
        if pretrained is not None:
            load_pretrained(net, pretrained)
        opt = torch.optim.Adam(net.parameters(), lr=self.lr)
        loss_of = nn.CrossEntropyLoss(ignore_index=-100)
        started = time.perf_counter()
        for epoch in range(self.epochs):
            net.train()
            if epoch >= self.epochs - 2:  # the last two epochs at a lower rate
                for group in opt.param_groups:
                    group["lr"] = self.lr / (3 if epoch == self.epochs - 2 else 10)
            pieces = self._pieces(data, rng)
            total = 0.0
            for lo in range(0, len(pieces), self.batch):
                chars, bigrams, gold, layers = self._batch(pieces[lo : lo + self.batch], rng)
                loss = loss_of(net(chars, bigrams, layers).reshape(-1, len(LABEL_IDS)), gold.reshape(-1))
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 5.0)
                opt.step()
                total += loss.item()
            if log is not None:
                print(f"lstm epoch {epoch}: loss {total / max(1, len(pieces) / self.batch):.4f}", file=log, flush=True)
        net.eval()
        self.net_ = net
        self.training_ = {"chars": sum(len(s) for s, _, _ in data), "vocab": len(self.vocab_),
                          "bigrams": len(self.bigrams_), "seconds": round(time.perf_counter() - started, 1)}
        return self

    def _net(self):
        return _module(len(self.vocab_) + 2, len(self.bigrams_) + 2, self.emb, self.bigram_emb, self.hidden, self.dropout)

    def _pieces(self, data, rng: random.Random) -> list:
        out = []
        size = self.piece
        for s, labels, layer in data:
            start = rng.randrange(size) if len(s) > size else 0
            cuts = ([0] if start else []) + list(range(start, len(s), size))
            for a in cuts:
                if len(s) - a >= 2:
                    out.append((s[a : a + size], labels[a : a + size], layer))
        rng.shuffle(out)
        return out

    def log_probs(self, strings: Sequence[str], layers: Sequence[Optional[str]], batch: int = 64) -> list[np.ndarray]:
        """(n, 3) log-probabilities of N, C, S after each char of each normalised string."""
        import torch

        torch.set_num_threads(1)
        order = sorted(range(len(strings)), key=lambda i: len(strings[i]))
        out: list[np.ndarray] = [np.zeros((0, len(LABEL_IDS)))] * len(strings)
        with torch.no_grad():
            for lo in range(0, len(order), batch):
                members = [i for i in order[lo : lo + batch] if strings[i]]
                if not members:
                    continue
                chars, bigrams, _, lays = self._batch([(strings[i], (), layers[i]) for i in members])
                logp = torch.log_softmax(self.net_(chars, bigrams, lays), -1).numpy()
                for j, i in enumerate(members):
                    out[i] = logp[j, : len(strings[i])].astype(np.float64)
        return out

    # -- persistence: plain arrays, no pickle -------------------------------------------------
    def to_arrays(self) -> dict:
        arrays = {f"w:{k}": v.detach().numpy() for k, v in self.net_.state_dict().items()}
        arrays["vocab"] = np.array(self.vocab_ or [""])
        arrays["bigrams"] = np.array(self.bigrams_ or [""])
        return arrays

    @classmethod
    def from_arrays(cls, arrays, params: dict) -> "LSTMTagger":
        model = cls(**params)
        model._set_arrays({k: np.array(arrays[k]) for k in arrays.files if k.startswith("w:") or k in ("vocab", "bigrams")})
        return model

    def _set_arrays(self, arrays: dict) -> None:
        import torch

        self.vocab_ = [str(c) for c in arrays["vocab"] if str(c)]
        self.bigrams_ = [str(g) for g in arrays["bigrams"] if str(g)]
        self._char_ids = None
        net = self._net()
        net.load_state_dict({k[2:]: torch.from_numpy(v) for k, v in arrays.items() if k.startswith("w:")})
        net.eval()
        self.net_ = net

    # pickled (e.g. for worker processes) as arrays: the torch module is a local class
    def __getstate__(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("net_", "_char_ids")}
        if getattr(self, "net_", None) is not None:
            state["arrays_"] = self.to_arrays()
        return state

    def __setstate__(self, state: dict) -> None:
        arrays = state.pop("arrays_", None)
        self.__dict__.update(state)
        self._char_ids = None
        if arrays is not None:
            self._set_arrays(arrays)


def load_pretrained(net, arrays: dict) -> list[str]:
    """Copy the ``w:``-arrays of ``arrays`` whose names the tagger ``net`` has into it (the LM's
    own output layers are skipped); the names copied. A shape that differs is an error."""
    import torch

    own = net.state_dict()
    weights = {k[2:]: torch.from_numpy(np.asarray(v)) for k, v in arrays.items() if k.startswith("w:") and k[2:] in own}
    for name, value in weights.items():
        if tuple(value.shape) != tuple(own[name].shape):
            raise ValueError(f"pretrained {name} has shape {tuple(value.shape)}, the tagger {tuple(own[name].shape)}:"
                             " pre-train with the tagger's emb and hidden sizes")
    net.load_state_dict(weights, strict=False)
    return sorted(weights)


#: Settings of the CRF + BiLSTM model (``models/punctuate-lstm``), chosen on held-out folds.
ENSEMBLE_PARAMS = {"lstm_weight": 1.0, "break_bias": 1.3}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m pipeline.text.punctuate_lstm [--out DIR]``: train and save the CRF + BiLSTM model."""
    import argparse
    from pathlib import Path

    from pipeline.text.punctuate import default_model_dir, train_punctuator

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--out", type=Path, default=default_model_dir().parent / "punctuate-lstm")
    args = parser.parse_args(argv)
    info = train_punctuator(args.out, **ENSEMBLE_PARAMS)
    print(f"wrote {info['model']} ({info['chars']} chars, {info.get('train_seconds')} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
