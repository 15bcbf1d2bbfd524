"""`yili classify` on held-out chapters: one unit per record, in their document's order or not.

    .venv/bin/python bench/classify_order.py [--folds 4] [--out bench/results/classify-order.json]

For each chapter fold (the folds of `yili evaluate layers`), the layer model is trained on the other
chapters and every unit of the held-out chapters (XHTML, 四庫 and SBCK 鄭注 editions) is classified as
`yili classify` does it (:func:`pipeline.layers.predict.classify_records`), each edition's chapter one
document, in five ways of handing the records over: all units in order; a random half and a random
fifth, in order (gaps); all units shuffled; and all units in order with no document key. Scored:
macro-F1 of the text alone, of the learned transitions taken as if the units were adjacent, and of
what `yili classify` does (the order weighed first). Writes JSON and Markdown beside each other.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EDITIONS = ("zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck")
SCENARIOS = ("in order", "half, in order", "a fifth, in order", "shuffled", "in order, no document key")


def records_for(units, scenario: str, seed: int) -> list[dict]:
    rng = random.Random(seed)
    chosen = list(units)
    if scenario.startswith("half"):
        chosen = [u for u in chosen if rng.random() < 0.5]
    elif scenario.startswith("a fifth"):
        chosen = [u for u in chosen if rng.random() < 0.2]
    records = [{"text": u.text, "meta": {"source": u.source}} for u in chosen]
    if scenario == "shuffled":
        rng.shuffle(records)
    if scenario.endswith("no document key"):
        records = [{"text": r["text"]} for r in records]
    return records


def main(argv=None) -> dict:
    from pipeline.labels import LAYERS
    from pipeline.layers.predict import classify_records
    from pipeline.layers.training import chapter_folds, examples_from_units, fit_classifier, gold_examples, layer_metrics, load_units

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "classify-order.json")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    units = load_units()
    gold = gold_examples()
    plan = chapter_folds(sorted({u.chapter for u in units}), args.folds)
    labels: dict[str, dict[str, list[str]]] = {s: {"gold": [], "text alone": [], "as if adjacent": [], "yili classify": []} for s in SCENARIOS}
    orders: dict[str, Counter] = {s: Counter() for s in SCENARIOS}
    for test in plan:
        model = fit_classifier(examples_from_units([u for u in units if u.chapter not in test]) + [e for e in gold if e.chapter not in test])
        for edition in EDITIONS:
            for chapter in test:
                doc = sorted((u for u in units if u.chapter == chapter and u.edition == edition and u.text.strip()), key=lambda u: u.index)
                if not doc:
                    continue
                truth = {u.text: u.layer for u in doc}
                for scenario in SCENARIOS:
                    records = records_for(doc, scenario, seed=len(chapter) + int(chapter))
                    texts = [r["text"] for r in records]
                    report: dict[str, int] = {}
                    out = list(classify_records(records, model, report))
                    orders[scenario].update(report)
                    bucket = labels[scenario]
                    bucket["gold"] += [truth[t] for t in texts]
                    bucket["text alone"] += [LAYERS[i] for i in model.text_proba(texts).argmax(axis=1)]
                    bucket["as if adjacent"] += [LAYERS[i] for i in model.predict_proba(texts, ["doc"] * len(texts)).argmax(axis=1)]
                    bucket["yili classify"] += [o["label"] for o in out]
    result = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
              "command": "python bench/classify_order.py" + (f" --folds {args.folds}" if args.folds != 4 else ""),
              "folds": plan, "editions": EDITIONS, "seconds": round(time.perf_counter() - started, 1), "scenarios": {}}
    for scenario, bucket in labels.items():
        result["scenarios"][scenario] = {"units": len(bucket["gold"]), "orders chosen": dict(orders[scenario]),
                                         **{k: layer_metrics(bucket["gold"], v)["macro_f1"] for k, v in bucket.items() if k != "gold"}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = [f"# `yili classify` and the order of its records ({result['date']})", "",
             f"`{result['command']}` ({result['seconds']} s): each chapter fold's model (trained on the other chapters) classifies "
             f"every unit of its held-out chapters, one record per unit, each edition's chapter ({', '.join(EDITIONS)}) one "
             "document (`meta.source`). Macro-F1 over JING/ZHU/SHU/OTHER:", "",
             "| records handed over | units | text alone | learned transitions, as if adjacent | `yili classify` (order weighed) | orders chosen |",
             "| --- | --- | --- | --- | --- | --- |"]
    for scenario, row in result["scenarios"].items():
        chosen = ", ".join(f"{k} {n}" for k, n in sorted(row["orders chosen"].items()))
        lines.append(f"| {scenario} | {row['units']} | {row['text alone']} | {row['as if adjacent']} | **{row['yili classify']}** | {chosen} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return result


if __name__ == "__main__":
    main()
