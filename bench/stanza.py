"""Stanza for Classical Chinese, offline: the shipped word tokenizer on UD Kyoto test, and a stanza
tokenizer trained as a 斷句 model against the CRF on one chapter-level fold.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/stanza.py [--fold 0] [--steps 4000]

Writes bench/results/stanza.json and stanza.md. One thread throughout (torch.set_num_threads(1)).

Part 1 — tokens: ``models/stanza-lzh`` on ``lzh_kyoto-ud-test`` with punctuation removed, scored
as :func:`pipeline.text.segmentation_eval.tokenizer_scores` scores every backend (exact spans,
one call per sentence): the model alone and the yili ``stanza`` backend (lexicon re-aligned).

Part 2 — breaks: the chapters of the punctuated XHTML edition are dealt into the same folds as
``yili evaluate segmentation`` (:func:`segmentation_eval.chapter_folds`, 4 folds); one fold is held
out. A stanza tokenizer (every character a token, a "sentence" = the run between two marks) is
trained on the other folds' units with their marks stripped (every 20th training unit kept aside
for stanza's early stopping), then predicts the held-out chapters' stripped units. The CRF
(:class:`pipeline.text.punctuate.Punctuator`, the shipped model's settings) is trained and tested on
exactly the same split. Break P/R/F1 for "any" break (the last character of a unit not counted).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
# this file is named stanza.py: keep its folder off the path, or `import stanza` finds it
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "bench" / "results"


def tokens_part() -> dict:
    from pipeline.nlp.stanza_tokenizer import default_model_dir
    from pipeline.nlp.stanza_training import evaluate_kyoto, MODEL_NAME

    folder = default_model_dir()
    out = evaluate_kyoto(folder)
    # throughput on long text: the Kyoto test paragraphs joined (one call per paragraph), as the
    # pipeline calls the tokenizer on whole views rather than on short sentences
    from pipeline.nlp.stanza_training import load_pipeline
    from pipeline.text.segmentation_eval import read_conllu, kyoto_dir

    paragraphs: dict[int, str] = {}
    for sent in read_conllu(kyoto_dir() / "lzh_kyoto-ud-test.conllu"):
        paragraphs[sent.paragraph] = paragraphs.get(sent.paragraph, "") + sent.text
    pipe = load_pipeline(folder / MODEL_NAME)
    texts = list(paragraphs.values())
    pipe(texts[0])
    started = time.perf_counter()
    for t in texts:
        pipe(t)
    out["raw"]["chars_per_s_per_paragraph"] = round(sum(map(len, texts)) / (time.perf_counter() - started))
    out["raw"]["paragraphs"] = len(texts)
    out["model"] = str((folder / MODEL_NAME).relative_to(ROOT))
    out["model_bytes"] = (folder / MODEL_NAME).stat().st_size
    return out


def breaks_part(fold: int, steps: int, save: Path | None, extra: list[str] | None = None) -> dict:
    from pipeline.nlp.stanza_training import load_pipeline, predict_breaks, train_breaks
    from pipeline.text.marks import strip_marks
    from pipeline.text.punctuate import Punctuator, training_units
    from pipeline.text.segmentation_eval import Counts, _run_fold, chapter_folds

    units = training_units()
    groups = chapter_folds([u[0] for u in units], 4)
    test = groups[fold]
    train_units = [u for u in units if u[0] not in test]
    dev_units = train_units[::20]
    fit_units = [u for i, u in enumerate(train_units) if i % 20]
    tested = [(ch, layer, st) for ch, layer, text in units if ch in test
              for st in [strip_marks(text)] if len(st.chars) >= 2]
    chars = sum(len(st.chars) for _, _, st in tested)

    result: dict = {"folds": [list(g) for g in groups], "fold": fold, "test_chapters": list(test),
                    "test_units": len(tested), "test_chars": chars}

    # stanza
    with tempfile.TemporaryDirectory(prefix="yili-stanza-bench-") as tmp:
        model_path = Path(tmp) / "lzh_breaks_tokenizer.pt"
        started = time.perf_counter()
        train_breaks([u[2] for u in fit_units], [u[2] for u in dev_units], model_path, steps=steps, extra=extra or [])
        train_seconds = time.perf_counter() - started
        pipe = load_pipeline(model_path)
        texts = [st.chars for _, _, st in tested]
        predict_breaks(pipe, texts[:3])
        started = time.perf_counter()
        preds = predict_breaks(pipe, texts)
        seconds = time.perf_counter() - started
        counts, by_layer = Counts(), {}
        for (_, layer, st), pred in zip(tested, preds):
            counts.add(st.labels, pred)
            by_layer.setdefault(layer, Counts()).add(st.labels, pred)
        # one call per unit, as the pipeline would call it paragraph by paragraph
        started = time.perf_counter()
        for t in texts[:300]:
            predict_breaks(pipe, [t])
        one_seconds = time.perf_counter() - started
        size = model_path.stat().st_size
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / model_path.name).write_bytes(model_path.read_bytes())
            (save / "resources.json").write_text("{}", encoding="utf-8")
    result["stanza"] = {
        "any": counts.scores()["any"],
        "by_layer": {k: v.scores()["any"] for k, v in by_layer.items()},
        "train_units": len(fit_units), "dev_units": len(dev_units),
        "train_chars": sum(len(strip_marks(u[2]).chars) for u in fit_units),
        "steps": steps, "stanza_options": extra or [], "train_seconds": round(train_seconds, 1),
        "chars_per_s_batched": round(chars / seconds),
        "chars_per_s_one_call_per_unit": round(sum(len(t) for t in texts[:300]) / one_seconds),
        "model_bytes": size,
    }

    # the CRF on the same split (the shipped model's settings)
    try:
        params = {k: v for k, v in Punctuator.load().get_params().items() if k != "lexicon_dir"}
    except Exception:  # noqa: BLE001
        params = {}
    started = time.perf_counter()
    res = _run_fold((test, units, params, []))
    crf = Counts()
    for c in res["by_layer"].values():
        crf.merge(c)
    result["crf"] = {
        "any": crf.scores()["any"],
        "any_layer_not_given": res["unlayered"].scores()["any"],
        "by_layer": {k: v.scores()["any"] for k, v in res["by_layer"].items()},
        "params": params,
        "train_seconds": res["train_seconds"],
        "chars_per_s_batched": round(res["predict_chars"] / res["predict_seconds"]) if res["predict_seconds"] else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    return result


def markdown(results: dict) -> str:
    lines = ["# Stanza for Classical Chinese (offline)", "", "Commands (in order; each part keeps its latest figures): "
             + "; ".join(f"`{c}`" for c in results.get("commands", [results["command"]])) + ". One thread.", ""]
    tok = results.get("tokens")
    if tok:
        raw = tok["raw"]
        lines += [
            "## Word tokens on UD Kyoto test (punctuation removed, exact spans)",
            "",
            f"Model `{tok['model']}` ({tok['model_bytes'] / 1e6:.2f} MB), trained by `yili train stanza`.",
            "",
            "| tokenizer | token P | token R | token F1 | chars/s |",
            "| --- | --- | --- | --- | --- |",
            f"| stanza model alone | {raw['tokens']['p']:.3f} | {raw['tokens']['r']:.3f} | **{raw['tokens']['f1']:.3f}** | {raw['chars_per_s']:,} |",
        ]
        b = tok.get("backend") or {}
        if "tokens" in b:
            lines.append(f"| yili `stanza` backend (lexicon re-aligned) | {b['tokens']['p']:.3f} | {b['tokens']['r']:.3f} | "
                         f"**{b['tokens']['f1']:.3f}** | {b['chars_per_s']:,} |")
        lines += ["", "chars/s: one call per Kyoto sentence (~5 chars; stanza's per-call overhead dominates), as",
                  "`yili evaluate segmentation` times every backend. On whole paragraphs "
                  f"({raw['paragraphs']} test paragraphs, one call each): {raw['chars_per_s_per_paragraph']:,} chars/s.",
                  "", "Other backends (bench/results/segmentation.md): char 0.954, jieba 0.819, udkanbun 0.964.", ""]
    brk = results.get("breaks")
    if brk:
        s, c = brk["stanza"], brk["crf"]
        lines += [
            f"## 斷句: stanza tokenizer vs CRF on one chapter-level fold (fold {brk['fold']}: chapters {', '.join(brk['test_chapters'])})",
            "",
            f"Folds as `yili evaluate segmentation`: {brk['folds']}. Tested: {brk['test_units']:,} units, "
            f"{brk['test_chars']:,} characters, marks stripped. \"any\" break.",
            "",
            "| model | P | R | F1 | gold breaks | chars/s (one thread) | train |",
            "| --- | --- | --- | --- | --- | --- | --- |",
            f"| stanza tokenizer ({s['steps']} steps) | {s['any']['p']:.3f} | {s['any']['r']:.3f} | **{s['any']['f1']:.3f}** | "
            f"{s['any']['gold']} | {s['chars_per_s_batched']:,} batched, {s['chars_per_s_one_call_per_unit']:,} one call per unit | {s['train_seconds']} s |",
            f"| CRF (layer given) | {c['any']['p']:.3f} | {c['any']['r']:.3f} | **{c['any']['f1']:.3f}** | {c['any']['gold']} | "
            f"{c['chars_per_s_batched']:,} batched | {c['train_seconds']} s |",
            f"| CRF (layer not given) | {c['any_layer_not_given']['p']:.3f} | {c['any_layer_not_given']['r']:.3f} | "
            f"**{c['any_layer_not_given']['f1']:.3f}** | {c['any_layer_not_given']['gold']} | | |",
            "",
            "By layer (F1): " + "; ".join(
                f"{layer} stanza {s['by_layer'][layer]['f1']:.3f} / CRF {c['by_layer'][layer]['f1']:.3f}"
                for layer in c["by_layer"] if layer in s["by_layer"]),
            "",
        ]
        beats = s["any"]["f1"] >= c["any"]["f1"] + 0.02 and s["chars_per_s_batched"] >= 20000
        lines += [
            ("Verdict: the stanza 斷句 model clearly beats the CRF on this fold and is fast enough."
             if beats else
             f"Verdict: the stanza 斷句 model does not clearly beat the CRF (F1 {s['any']['f1']:.3f} vs "
             f"{c['any']['f1']:.3f}; it does not see the layer, which the CRF uses: without it the CRF gives "
             f"{c['any_layer_not_given']['f1']:.3f}), so no model is saved to models/punctuate-stanza."),
            "",
        ]
        runs = results.get("breaks_runs") or []
        if len(runs) > 1:
            lines += ["All stanza runs on this fold (same split, same CRF):", "",
                      "| steps | stanza options | P | R | F1 | chars/s batched | model MB | train s |",
                      "| --- | --- | --- | --- | --- | --- | --- | --- |"]
            for r in runs:
                lines.append(f"| {r['steps']} | {' '.join(r['stanza_options']) or 'defaults'} | {r['any']['p']:.3f} | "
                             f"{r['any']['r']:.3f} | **{r['any']['f1']:.3f}** | {r['chars_per_s_batched']:,} | "
                             f"{r['model_bytes'] / 1e6:.2f} | {r['train_seconds']} |")
            lines.append("")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--skip-tokens", action="store_true")
    ap.add_argument("--skip-breaks", action="store_true")
    ap.add_argument("--save-breaks", type=Path, default=None, help="also keep the 斷句 model in this folder")
    ap.add_argument("--stanza-options", default="", help='extra stanza trainer options, e.g. "--hidden_dim 128"')
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    out = RESULTS / "stanza.json"
    results = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    command = "OMP_NUM_THREADS=1 nice -n 10 python bench/stanza.py " + shlex.join(sys.argv[1:])
    results["commands"] = [c for c in results.get("commands", []) if c != command] + [command]
    results["command"] = "OMP_NUM_THREADS=1 nice -n 10 python bench/stanza.py " + shlex.join(sys.argv[1:])
    if not args.skip_tokens:
        results["tokens"] = tokens_part()
    if not args.skip_breaks:
        results["breaks"] = breaks_part(args.fold, args.steps, args.save_breaks, args.stanza_options.split())
        s = results["breaks"]["stanza"]
        results.setdefault("breaks_runs", []).append(
            {k: s[k] for k in ("steps", "stanza_options", "any", "chars_per_s_batched", "model_bytes", "train_seconds")})
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    out.with_suffix(".md").write_text(markdown(results), encoding="utf-8")
    print(out.with_suffix(".md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
