"""Pre-training the 斷句 BiLSTM (:mod:`pipeline.text.punctuate_lstm`) as a character language model.

The tagger learns from the punctuated XHTML edition only. The unpunctuated editions of the same
chapters (四庫 注疏, 四部叢刊 鄭注, 四部叢刊 單疏) and UD Kyoto (論語, 孟子, 禮記 …; its train and dev
files, not its test file) are more text of the genre. :func:`pretrain` trains the tagger's char
and layer embeddings and its BiLSTM on that text: the forward half of the LSTM predicts the next
character, the backward half the previous one (ELMo-style; the bigram inputs are left out, as the
bigram after a character would give the next one away). :meth:`LSTMTagger.fit` with
``pretrained=`` then starts from those weights (and that vocabulary).

Held-out text stays out: :func:`pretraining_texts` reads only the ``chapters`` it is given, in
every edition, so a benchmark fold pre-trains on its training chapters only.
``python bench/segmentation.py --pretrain`` compares the folds with and without pre-training
(:func:`evaluate_pretraining`); the figures are in ``bench/results/segmentation-pretrain.md``.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterable, Optional, Sequence
from unittest import mock

import numpy as np

from pipeline.text.break_features import LAYER_NAMES
from pipeline.text.marks import strip_marks
from pipeline.text.punctuate import Punctuator
from pipeline.text.punctuate_lstm import LAYER_IDS, UNKNOWN, LSTMTagger, _module

#: the editions read for pre-training (the punctuated one too, its marks stripped)
PRETRAIN_EDITIONS = ("zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck", "danshu-sbck")
#: UD Kyoto files read for pre-training: not the test file, whose breaks the benchmark scores
KYOTO_FILES = ("lzh_kyoto-ud-train.OLD-2019-09-16-108d3a9.conllu", "lzh_kyoto-ud-dev.conllu")


def pretraining_texts(chapters: Iterable[str], editions: Sequence[str] = PRETRAIN_EDITIONS,
                      kyoto: bool = True) -> list[tuple[str, Optional[str]]]:
    """(normalised chars, layer or None) of every 經/注/疏 unit of ``chapters`` in ``editions``
    (the 考證 and other OTHER units left out), plus the UD Kyoto paragraphs with ``kyoto``."""
    from pipeline.corpus import iter_units
    from pipeline.text.normalise import normalise_str

    wanted = sorted({f"{int(c):02d}" for c in chapters})
    out: list[tuple[str, Optional[str]]] = []
    for edition in editions:
        for unit in iter_units(edition, chapters=wanted):
            if unit.layer not in LAYER_NAMES:
                continue
            chars = strip_marks(unit.text).chars
            if len(chars) >= 2:
                out.append((normalise_str(chars), unit.layer))
    if kyoto:
        from pipeline.text.segmentation_eval import kyoto_dir, read_conllu

        for name in KYOTO_FILES:
            paragraphs: dict[int, str] = {}
            for sent in read_conllu(kyoto_dir() / name):
                paragraphs[sent.paragraph] = paragraphs.get(sent.paragraph, "") + sent.text
            out += [(normalise_str(text), None) for text in paragraphs.values() if len(text) >= 2]
    return out


def pretrain(texts: Sequence[tuple[str, Optional[str]]], epochs: int = 3, seed: int = 0, lr: float = 0.003,
             min_count: int = 2, log=None, **sizes) -> dict:
    """Train a tagger-shaped BiLSTM as a two-way character LM on ``texts``; its arrays (``vocab``
    and ``w:…`` weights, as :meth:`LSTMTagger.to_arrays` names them) and ``info``.

    ``sizes``: ``emb``, ``hidden``, ``bigram_emb``, ``dropout``, ``batch``, ``piece``,
    ``unknown_rate`` of :class:`LSTMTagger` (its defaults otherwise; ``emb`` and ``hidden`` must
    be the tagger's). Each direction predicts through its own adaptive softmax."""
    import torch
    import torch.nn as nn

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = random.Random(seed)
    shape = LSTMTagger(**sizes)
    counts = Counter(c for s, _ in texts for c in s)
    vocab = sorted(c for c, n in counts.items() if n >= min_count)
    ids = {c: i + 2 for i, c in enumerate(vocab)}
    n_chars = len(vocab) + 2
    net = _module(n_chars, 2, shape.emb, shape.bigram_emb, shape.hidden, shape.dropout)
    # classes: frequent chars first, so the adaptive softmax's head holds them
    by_freq = sorted(range(n_chars), key=lambda i: -counts.get(vocab[i - 2], 0) if i >= 2 else 0)
    rank = torch.empty(n_chars, dtype=torch.long)
    rank[torch.tensor(by_freq)] = torch.arange(n_chars)
    cutoffs = [c for c in (500, 2500) if c < n_chars - 1] or [max(1, n_chars // 2)]
    heads = nn.ModuleList(nn.AdaptiveLogSoftmaxWithLoss(shape.hidden, n_chars, cutoffs, div_value=4.0) for _ in range(2))
    params = list(net.parameters()) + list(heads.parameters())
    opt = torch.optim.Adam(params, lr=lr)
    data = [(s, (), layer) for s, layer in texts]
    started = time.perf_counter()
    losses: list[float] = []
    for epoch in range(epochs):
        net.train()
        heads.train()
        pieces = shape._pieces(data, rng)
        total, steps = 0.0, 0
        for lo in range(0, len(pieces), shape.batch):
            batch = pieces[lo : lo + shape.batch]
            width = max(len(s) for s, _, _ in batch)
            gold = torch.zeros(len(batch), width, dtype=torch.long)
            for i, (s, _, _) in enumerate(batch):
                gold[i, : len(s)] = torch.tensor([ids.get(c, UNKNOWN) for c in s])
            chars = gold.clone()
            if shape.unknown_rate:
                chars[(torch.rand(chars.shape) < shape.unknown_rate) & (chars > 0)] = UNKNOWN
            layers = torch.tensor([0 if rng.random() < 0.1 else LAYER_IDS.get(layer or "", 0) for _, _, layer in batch])
            x = net.emb(chars) + net.layer(layers)[:, None, :]
            h, _ = net.lstm(net.drop(x))
            h = net.drop(h)
            forward, backward = h[:, :-1, : shape.hidden], h[:, 1:, shape.hidden :]
            loss = 0.0
            for head, states, target in ((heads[0], forward, gold[:, 1:]), (heads[1], backward, gold[:, :-1])):
                keep = target > 0
                loss = loss + head(states[keep], rank[target[keep]]).loss
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(params, 5.0)
            opt.step()
            total += loss.item() / 2
            steps += 1
        losses.append(round(total / max(1, steps), 4))
        if log is not None:
            print(f"pretrain epoch {epoch}: loss {losses[-1]:.4f} ({time.perf_counter() - started:.0f} s)", file=log, flush=True)
    arrays = {f"w:{k}": v.detach().numpy() for k, v in net.state_dict().items() if not k.startswith("bigram")}
    arrays["vocab"] = np.array(vocab or [""])
    info = {"chars": sum(len(s) for s, _ in texts), "texts": len(texts), "vocab": len(vocab), "epochs": epochs,
            "loss": losses, "seconds": round(time.perf_counter() - started, 1)}
    return {"arrays": arrays, "info": info}


def save_pretrained(result: dict, path: Path) -> Path:
    """Write :func:`pretrain`'s arrays to ``path`` (``.npz``, no pickles) and its info beside it."""
    path = Path(path)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **result["arrays"])
    path.with_suffix(".json").write_text(json.dumps(result["info"], ensure_ascii=False), encoding="utf-8")
    return path


def load_pretrained_arrays(path: Path) -> dict:
    with np.load(Path(path), allow_pickle=False) as arrays:
        return {k: np.array(arrays[k]) for k in arrays.files}


class PretrainedPunctuator(Punctuator):
    """A :class:`Punctuator` whose BiLSTM starts from the pre-trained LM at ``lstm_init`` (an
    ``.npz`` of :func:`save_pretrained`) and trains with seed ``lstm_seed``; everything else as the
    plain one (with neither, it is the plain one)."""

    def __init__(self, lstm_init: Optional[str] = None, lstm_seed: int = 0, **params):
        super().__init__(**params)
        self.lstm_init = lstm_init
        self.lstm_seed = lstm_seed

    def get_params(self) -> dict:
        return {**super().get_params(), "lstm_init": self.lstm_init, "lstm_seed": self.lstm_seed}

    def fit(self, texts: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None) -> "PretrainedPunctuator":
        from pipeline.text.normalise import normalise_str

        weight, self.lstm_weight = self.lstm_weight, 0.0
        try:  # the CRF exactly as the plain model trains it
            super().fit(texts, layers)
        finally:
            self.lstm_weight = weight
        if weight:
            layers = list(layers) if layers is not None else [None] * len(texts)
            data = [(normalise_str(st.chars), st.labels, layer if self.use_layer else None)
                    for text, layer in zip(texts, layers) for st in [strip_marks(text)] if len(st.chars) >= 2]
            init = load_pretrained_arrays(self.lstm_init) if self.lstm_init else None
            self.lstm_ = LSTMTagger(epochs=self.lstm_epochs, seed=self.lstm_seed).fit(data, pretrained=init)
            self.training_["lstm"] = self.lstm_.training_
        return self


# -- the benchmark: folds with and without pre-training ----------------------------------------


def _arm(job) -> dict:
    """One fold, one arm, one seed: the benchmark's own fold run (training, prediction, counts),
    after pre-training on the fold's training chapters when ``pretrain_epochs`` (the LM is kept
    in ``cache``, when given, and taken from there by the next run of the same fold)."""
    from pipeline.text import segmentation_eval

    test, units, params, pretrain_epochs, seed, cache = job
    info = None
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        params = dict(params, lstm_seed=seed)
        if pretrain_epochs:
            chapters = sorted({u[0] for u in units} - set(test))
            path = Path(cache or tmp) / f"lm-{''.join(chapters)}-e{pretrain_epochs}.npz"
            if not path.exists():
                lstm = LSTMTagger()
                result = pretrain(pretraining_texts(chapters), epochs=pretrain_epochs, emb=lstm.emb,
                                  hidden=lstm.hidden, log=sys.stderr)
                result["info"].update(chapters=chapters, editions=list(PRETRAIN_EDITIONS), kyoto=list(KYOTO_FILES))
                save_pretrained(result, path)
            info = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
            params["lstm_init"] = str(path)
        with mock.patch.object(segmentation_eval, "Punctuator", PretrainedPunctuator):
            res = segmentation_eval._run_fold((test, units, params, []))
    res["pretrain"] = info
    res["seed"] = seed
    res["seconds"] = round(time.perf_counter() - started, 1)
    return res


def evaluate_pretraining(out_file: Path, folds: int = 4, only: Optional[Sequence[int]] = None,
                         params: Optional[dict] = None, pretrain_epochs: int = 3, workers: int = 2,
                         command: str = "", seeds: Sequence[int] = (0,), arms: Sequence[bool] = (True, False),
                         cache: Optional[Path] = None) -> dict:
    """Each chosen fold (``only``: indices into the benchmark's folds) trained with and without
    pre-training (``arms``), once per BiLSTM seed, everything else equal; break counts as the
    benchmark scores them."""
    from pipeline.text.punctuate import training_units
    from pipeline.text.segmentation_eval import Counts, chapter_folds

    started = time.perf_counter()
    units = training_units()
    groups = chapter_folds([u[0] for u in units], folds)
    chosen = list(only) if only is not None else list(range(len(groups)))
    params = dict(params or {})
    jobs = [(groups[i], units, params, pretrain_epochs if arm else 0, seed, cache)
            for i in chosen for seed in seeds for arm in arms]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            runs = list(pool.map(_arm, jobs))
    else:
        runs = [_arm(job) for job in jobs]
    rows = []
    for (test, _, _, epochs, seed, _), res in zip(jobs, runs):
        total = Counts()
        for counts in res["by_layer"].values():
            total.merge(counts)
        rows.append({
            "fold": test, "pretrained": bool(epochs), "seed": seed, "all": total.scores(),
            "by_layer": {layer: c.scores()["any"] for layer, c in res["by_layer"].items()},
            "layer_not_given": res["unlayered"].scores()["any"],
            "by_chapter": {ch: c.scores()["any"]["f1"] for ch, c in res["by_chapter"].items()},
            "pretrain": res["pretrain"], "train_seconds": res["train_seconds"], "seconds": res["seconds"],
        })
    results = {"command": command, "params": params, "pretrain_epochs": pretrain_epochs, "folds": groups,
               "runs": rows, "seconds": round(time.perf_counter() - started, 1)}
    out_file = Path(out_file)
    out_file.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return results


def pretrain_report(results: dict) -> str:
    """Markdown of :func:`evaluate_pretraining`: per fold, break P/R/F1 without and with."""
    lines = [
        "# 斷句: does pre-training the BiLSTM as a character LM help?",
        "",
        f"Command: `{results['command']}` ({results['seconds']} s).",
        "",
        f"Model settings (both arms): `{json.dumps(results['params'], ensure_ascii=False)}`; pre-training epochs "
        f"{results['pretrain_epochs']}. Folds of the benchmark: {results['folds']}.",
        "",
        "| fold | seed | pre-trained | all any P | R | F1 | all clause F1 | all sentence F1 | JING any F1 | ZHU any F1 | SHU any F1 |"
        " layer not given F1 | pre-train s | fold s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in results["runs"]:
        a, lay = row["all"], row["by_layer"]
        pre = row["pretrain"] or {}
        lines.append(
            f"| {' '.join(row['fold'])} | {row.get('seed', 0)} | {'yes' if row['pretrained'] else 'no'} | {a['any']['p']:.4f} | {a['any']['r']:.4f}"
            f" | **{a['any']['f1']:.4f}** | {a['clause']['f1']:.4f} | {a['sentence']['f1']:.4f} | {lay['JING']['f1']:.4f}"
            f" | {lay['ZHU']['f1']:.4f} | {lay['SHU']['f1']:.4f} | {row['layer_not_given']['f1']:.4f}"
            f" | {pre.get('seconds', '—')} | {row['seconds']} |"
        )
    described: set[str] = set()
    for row in results["runs"]:
        if row["pretrain"] and " ".join(row["fold"]) not in described:
            described.add(" ".join(row["fold"]))
            p = row["pretrain"]
            lines.append("")
            lines.append(f"Fold {' '.join(row['fold'])}: pre-trained on chapters {' '.join(p['chapters'])} of "
                         f"{', '.join(p.get('editions', PRETRAIN_EDITIONS))} and UD Kyoto train+dev: {p['chars']:,} chars, {p['texts']:,} texts, "
                         f"vocabulary {p['vocab']:,}; LM loss per epoch {p['loss']}.")
    return "\n".join(lines) + "\n"
