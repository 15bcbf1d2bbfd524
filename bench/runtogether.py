"""Quick harness for the run-together splitter: held-out chapter folds, character accuracy.

Makes the same held-out run-together strings as ``yili evaluate layers``
(:func:`pipeline.layers.training._splitter_sets` on each of the 4 chapter folds), trains only
what the seam model needs on the fold's training chapters, and prints character accuracy
(Han characters) per set. Settings are chosen on the training chapters only (a nested split
of them into two halves), never on the held-out fold.

    .venv/bin/python bench/runtogether.py [--orders 4,5,6] [--penalties=0,2,4] [--current] [--out FILE]
    .venv/bin/python bench/runtogether.py --combine [--weights 0,0.25,0.5,1] [--out FILE]

Default mode: the two-state segmental model with character language models alone
(:class:`pipeline.layers.charlm.LMSegmenter`; order and switch penalty chosen on the training
chapters). ``--current`` also fits and scores the shipped splitter (slow). ``--combine``: the
shipped splitter (classifier + splitter fitted per fold and per inner half, kept in ``--cache``)
with each piece's LM log-likelihood added to its emissions, weight chosen on the inner halves.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

JZ_SETS = (
    "JING+ZHU punctuated (XHTML pairs)",
    "JING+ZHU unpunctuated (SBCK pairs)",
    "JING+ZHU unpunctuated (XHTML pairs, stripped)",
    "ZHU+JING unpunctuated (XHTML pairs, stripped)",
    "JING+ZHU chains punctuated (XHTML, 8 units)",
    "JING+ZHU chains unpunctuated (SBCK, 8 units)",
)


def accuracy(predict, sequences) -> tuple[int, int]:
    from pipeline.layers.features import is_han

    right = total = 0
    for seq in sequences:
        text = "".join(t for _l, t in seq)
        gold = [l for l, t in seq for _ in t]
        pred = predict(text)
        idx = [i for i, ch in enumerate(text) if is_han(ch)]
        total += len(idx)
        right += sum(1 for i in idx if gold[i] == pred[i])
    return right, total


def cached_model(name: str, train, cache: Path):
    """The shipped pipeline's classifier + splitter fitted on ``train`` (kept in ``cache``)."""
    import joblib

    from pipeline.layers.training import examples_from_units, fit_classifier, fit_splitter

    path = cache / f"{name}.joblib"
    if path.is_file():
        model = joblib.load(path)
    else:
        model = fit_classifier(examples_from_units(train))
        model.splitter_ = fit_splitter(train)
        cache.mkdir(parents=True, exist_ok=True)
        joblib.dump(model, path)
    memo: dict[str, np.ndarray] = {}
    raw = model._logits

    def logits(texts):
        missing = [t for t in dict.fromkeys(texts) if t not in memo]
        if missing:
            for t, row in zip(missing, raw(missing)):
                memo[t] = row
        return np.array([memo[t] for t in texts])

    model._logits = logits  # the grid re-reads the same pieces: score each once
    splitter = model.splitter_
    crf_memo: dict[str, list] = {}
    crf_raw = splitter._crf_labels

    def crf_labels(text):
        if text not in crf_memo:
            crf_memo[text] = crf_raw(text)
        return list(crf_memo[text])

    splitter._crf_labels = crf_labels
    return model


class _MemoLM:
    """An LMSegmenter whose per-string results are remembered (the grid asks again and again)."""

    def __init__(self, seg):
        self.seg, self.layers, self._lp, self._seams = seg, seg.layers, {}, {}

    def char_logprobs(self, han):
        if han not in self._lp:
            self._lp[han] = self.seg.char_logprobs(han)
        return self._lp[han].copy()

    def unit_edges(self, han):
        key = ("edges", han)
        if key not in self._lp:
            self._lp[key] = self.seg.unit_edges(han)
        return self._lp[key]

    def seams(self, text):
        key = (text, self.seg.switch_penalty)
        if key not in self._seams:
            self._seams[key] = self.seg.seams(text)
        return self._seams[key]


def combine(args, units, plan) -> None:
    """The shipped splitter with the character LMs added (piece emissions, extra cuts), tuned nested."""
    from pipeline.layers.charlm import LMSegmenter
    from pipeline.layers.training import _splitter_sets

    grid = [(w, cuts, 0.0) for w in [float(x) for x in args.weights.split(",")] for cuts in args.cuts.split(",")]
    totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    folds: list[dict] = []
    for f, test_chapters, train, inner in fold_splits(units, plan, args.only):
        t0 = time.perf_counter()
        test = set(test_chapters)
        scores: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
        for h, half in enumerate(inner):
            fit_u = [u for u in train if u.chapter not in half]
            model = cached_model(f"f{f}_inner{h}{args.suffix}", fit_u, args.cache)
            sp = model.splitter_
            sp.lm_ = _MemoLM(LMSegmenter(order=args.order).fit(lm_units(fit_u)))
            dev = _splitter_sets([u for u in train if u.chapter in half])
            for w, cuts, pen in grid:
                sp.lm_weight, sp.extra_cuts, sp.lm_.seg.switch_penalty = w, cuts, pen
                for name in JZ_SETS[:4]:
                    r, t = accuracy(lambda s: sp.predict_labels(s, model), dev[name])
                    scores[(w, cuts, pen)][0] += r
                    scores[(w, cuts, pen)][1] += t
        best = max(scores, key=lambda k: scores[k][0] / scores[k][1])
        inner_line = "  ".join(f"{k}: {v[0] / v[1]:.4f}" for k, v in scores.items())
        model = cached_model(f"f{f}_outer{args.suffix}", train, args.cache)
        sp = model.splitter_
        sp.lm_ = _MemoLM(LMSegmenter(order=args.order).fit(lm_units(train)))
        sets = _splitter_sets([u for u in units if u.chapter in test])
        lines = [f"fold {f} {test_chapters}: chose {best}; inner {inner_line}"]
        for label, (w, cuts, pen) in (("current", (0.0, "qwW", 0.0)), ("combined", best)):
            sp.lm_weight, sp.extra_cuts, sp.lm_.seg.switch_penalty = w, cuts, pen
            for name in JZ_SETS:
                r, t = accuracy(lambda s: sp.predict_labels(s, model), sets[name])
                totals[name][label][0] += r
                totals[name][label][1] += t
                lines.append(f"  {label:9s} {name}: {r / t:.4f}")
        folds.append({"fold": f, "held_out": test_chapters, "chosen": list(best),
                      "inner": {"/".join(map(str, k)): round(v[0] / v[1], 4) for k, v in scores.items()}})
        print("\n".join(lines), f"({time.perf_counter() - t0:.0f}s)", flush=True)
    print("\nall folds:")
    result = {}
    for name in JZ_SETS:
        result[name] = {k: round(v[0] / v[1], 4) for k, v in totals[name].items() if v[1]}
        print(f"  {name}: " + "  ".join(f"{k} {v}" for k, v in result[name].items()))
    if args.out:
        args.out.write_text(json.dumps({"mode": "combine", "grid": grid, "figures": result, "folds": folds},
                                       ensure_ascii=False, indent=2), encoding="utf-8")


def fold_splits(units, plan, only: str):
    """(fold number, held-out chapters, training units, the training chapters' two inner halves)."""
    from pipeline.layers.training import chapter_folds

    wanted = {int(x) for x in only.split(",") if x}
    for f, test_chapters in enumerate(plan, 1):
        if wanted and f not in wanted:
            continue
        train = [u for u in units if u.chapter not in set(test_chapters)]
        yield f, test_chapters, train, chapter_folds(sorted({u.chapter for u in train}), 2)


def lm_units(units):
    return [(u.layer, u.text) for u in units if u.layer in ("JING", "ZHU")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--current", action="store_true", help="also score the shipped splitter (slow)")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--only", default="", help="comma-separated fold numbers (1-based) to run")
    parser.add_argument("--penalties", default="0,2,4,6,8,12")
    parser.add_argument("--orders", default="5")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--combine", action="store_true", help="the shipped splitter with the LMs added, tuned nested")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/rt_models"), help="fitted models per fold (--combine)")
    parser.add_argument("--order", type=int, default=5)
    parser.add_argument("--suffix", default="", help="cached model name suffix (--combine)")
    parser.add_argument("--weights", default="0,0.1,0.25", help="LM weights to try (--combine)")
    parser.add_argument("--cuts", default="qwW,qwWl", help="extra_cuts settings to try (--combine)")
    parser.add_argument("--biases", default="0", help="per-character 經 biases to try (LM alone)")
    args = parser.parse_args()

    from pipeline.layers.charlm import LMSegmenter
    from pipeline.layers.training import _splitter_sets, chapter_folds, load_units

    units = load_units()
    chapters = sorted({u.chapter for u in units})
    plan = chapter_folds(chapters, args.folds)
    only = {int(x) for x in args.only.split(",") if x}
    penalties = [float(x) for x in args.penalties.split(",")]
    orders = [int(x) for x in args.orders.split(",")]
    biases = [float(x) for x in args.biases.split(",")]
    if args.combine:
        combine(args, units, plan)
        return 0
    totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    chosen = []
    # nested: the settings are chosen on the training chapters' two halves
    for f, test_chapters, train, inner in fold_splits(units, plan, args.only):
        t0 = time.perf_counter()
        test = set(test_chapters)
        inner_scores: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
        for half in inner:
            fit_u = [u for u in train if u.chapter not in half]
            dev_sets = _splitter_sets([u for u in train if u.chapter in half])
            for order in orders:
              seg = LMSegmenter(order=order).fit(lm_units(fit_u))
              for cz in biases:
                seg.bias = {"JING": cz}
                for pen in penalties:
                    seg.switch_penalty = pen
                    for name in JZ_SETS[:4]:
                        r, t = accuracy(seg.predict_labels, dev_sets[name])
                        inner_scores[(order, cz, pen)][0] += r
                        inner_scores[(order, cz, pen)][1] += t
        best = max(inner_scores, key=lambda k: inner_scores[k][0] / inner_scores[k][1])
        chosen.append({"fold": f, "order": best[0], "bias": best[1], "penalty": best[2],
                       "inner": {"/".join(map(str, k)): round(v[0] / v[1], 4) for k, v in sorted(inner_scores.items())}})
        seg = LMSegmenter(order=best[0], switch_penalty=best[2], bias={"JING": best[1]}).fit(lm_units(train))
        sets = _splitter_sets([u for u in units if u.chapter in test])
        line = [f"fold {f} {test_chapters} chose order/bias/penalty {best}; inner {chosen[-1]['inner']}"]
        for name in JZ_SETS:
            r, t = accuracy(seg.predict_labels, sets[name])
            totals[name]["lm"][0] += r
            totals[name]["lm"][1] += t
            line.append(f"  lm  {name}: {r / t:.4f}")
        if args.current:
            from pipeline.layers.training import examples_from_units, fit_classifier, fit_splitter

            model = fit_classifier(examples_from_units(train))
            splitter = fit_splitter(train)
            for name in JZ_SETS:
                r, t = accuracy(lambda s: splitter.predict_labels(s, model), sets[name])
                totals[name]["current"][0] += r
                totals[name]["current"][1] += t
                line.append(f"  cur {name}: {r / t:.4f}")
        print("\n".join(line), f"({time.perf_counter() - t0:.0f}s)", flush=True)
    print("\nall folds:")
    result = {}
    for name in JZ_SETS:
        row = {k: round(v[0] / v[1], 4) for k, v in totals[name].items() if v[1]}
        result[name] = row
        print(f"  {name}: " + "  ".join(f"{k} {v}" for k, v in row.items()))
    if args.out:
        args.out.write_text(json.dumps({"figures": result, "chosen": chosen}, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
