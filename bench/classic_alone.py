"""A copy of the classic alone, and copies with their commentary, read by `yili process`'s layer stage.

    .venv/bin/python bench/classic_alone.py [--out bench/results/classic-alone.json]

For each chapter fold of `yili evaluate layers`, a layer model is trained on the other chapters (the
classifier and its smoothing, as `yili process` uses them where nothing else decides; no run-together
splitter) and every held-out chapter of the XHTML, 四庫 and SBCK 鄭注 editions is written as three
plain documents, a unit a line and no marker: its 經 alone; its 經 and 注; its 經, 注 and 疏. Each is
read by :meth:`pipeline.process.DocumentProcessor.layers` with ``[layers] classic_alone`` off (the
model decides every line, as before pipeline/layers/classic.py) and on. Scored: the share of Han
characters given their gold layer, and how many documents were read as the classic alone.

Then the rule itself (:func:`pipeline.layers.classic.is_classic_alone`) on every window of those
documents' text (consecutive units, 600 to 3,000 Han characters): the share read as the classic.
Writes JSON and Markdown beside each other.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EDITIONS = ("zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck")
KINDS = {"經 alone": ("JING",), "經 and 注": ("JING", "ZHU"), "經, 注 and 疏": ("JING", "ZHU", "SHU")}
WINDOWS = (600, 800, 1000, 1500, 2000, 3000)


def document(units) -> tuple[str, list[tuple[int, int, str]]]:
    """A unit a line; the gold layer of each line's range."""
    parts, gold, at = [], [], 0
    for u in units:
        text = u.text.replace("\n", "")
        parts.append(text)
        gold.append((at, at + len(text), u.layer))
        at += len(text) + 1
    return "\n".join(parts) + "\n", gold


def agreement(text: str, gold, segments) -> tuple[int, int]:
    """Han characters whose segment's layer is the gold one, and all Han characters of the gold units."""
    from pipeline.layers.features import is_han

    read = [None] * len(text)
    for s in segments:
        read[s.start:s.end] = [s.layer] * (s.end - s.start)
    right = total = 0
    for a, b, layer in gold:
        for i in range(a, b):
            if is_han(text[i]):
                total += 1
                right += read[i] == layer
    return right, total


def windows(units, size: int):
    from pipeline.layers.features import han_count

    chunk, han = [], 0
    for u in units:
        chunk.append(u.text)
        han += han_count(u.text)
        if han >= size:
            yield chunk
            chunk, han = [], 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "classic-alone.json")
    args = ap.parse_args()

    from pipeline.config import load_config
    from pipeline.layers.classic import is_classic_alone
    from pipeline.layers.training import chapter_folds, examples_from_units, fit_classifier, gold_examples, load_units
    from pipeline.process import DocumentProcessor

    started = time.perf_counter()
    units = load_units()
    gold_all = gold_examples()
    chapters = sorted({u.chapter for u in units})
    plan = chapter_folds(chapters, args.folds)
    readers = {on: DocumentProcessor(load_config(overrides={"layers": {"classic_alone": on}})) for on in (False, True)}
    scores: dict[tuple[str, bool], Counter] = {(k, on): Counter() for k in KINDS for on in (False, True)}
    per_chapter: dict[str, dict[str, float]] = {}
    window_counts: dict[tuple[str, int], Counter] = {(k, n): Counter() for k in KINDS for n in WINDOWS}
    for test in plan:
        train = [u for u in units if u.chapter not in test]
        model = fit_classifier(examples_from_units(train) + [e for e in gold_all if e.chapter not in test])
        for reader in readers.values():
            reader._layer_model = model  # the fold's model: it never saw the chapters it reads
        for chapter in test:
            for edition in EDITIONS:
                ed_units = [u for u in units if u.chapter == chapter and u.edition == edition]
                for kind, layers in KINDS.items():
                    chosen = [u for u in ed_units if u.layer in layers]
                    if not chosen:
                        continue
                    for size in WINDOWS:
                        for chunk in windows(chosen, size):
                            window_counts[(kind, size)]["windows"] += 1
                            window_counts[(kind, size)]["classic"] += is_classic_alone(chunk)
                    text, gold = document(chosen)
                    for on, reader in readers.items():
                        layout, segments, _removed = reader.layers({"text": text, "meta": {"source": f"{chapter}.txt"}})
                        right, total = agreement(text, gold, segments)
                        c = scores[(kind, on)]
                        c["right"] += right
                        c["total"] += total
                        c["documents"] += 1
                        c["classic"] += layout == "classic"
                        if kind == "經 alone":
                            per_chapter.setdefault(f"{chapter} {edition}", {})["on" if on else "off"] = round(right / max(total, 1), 4)
    rows = []
    for kind in KINDS:
        off, on = scores[(kind, False)], scores[(kind, True)]
        rows.append({"document": kind, "documents": on["documents"], "han": on["total"],
                     "model": round(off["right"] / max(off["total"], 1), 4),
                     "with the classic-alone reading": round(on["right"] / max(on["total"], 1), 4),
                     "read as the classic alone": on["classic"]})
    window_rows = [{"text": kind, "window": size, "windows": c["windows"], "read as the classic alone": c["classic"],
                    "share": round(c["classic"] / max(c["windows"], 1), 3)}
                   for (kind, size), c in window_counts.items()]
    figures = {"date": _dt.date.today().isoformat(), "command": "python bench/classic_alone.py",
               "folds": plan, "documents": rows, "windows": window_rows, "classic alone, per chapter": per_chapter,
               "seconds": round(time.perf_counter() - started, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    md = [f"# A copy of the classic alone ({figures['date']}, `{figures['command']}`, {figures['seconds']} s)", "",
          "Held-out chapters (fold models), XHTML, 四庫 and SBCK 鄭注 editions, a unit a line, no marker. "
          "Share of Han characters given their gold layer:", "",
          "| document | documents | Han characters | model (before) | with the classic-alone reading | read as the classic alone |",
          "| --- | --- | --- | --- | --- | --- |"]
    md += [f"| {r['document']} | {r['documents']} | {r['han']:,} | {r['model']:.3f} | **{r['with the classic-alone reading']:.3f}** "
           f"| {r['read as the classic alone']} |" for r in rows]
    md += ["", "The rule on every window of consecutive units (`is_classic_alone`):", "",
           "| text | window (Han characters) | windows | read as the classic alone | share |", "| --- | --- | --- | --- | --- |"]
    md += [f"| {r['text']} | {r['window']:,} | {r['windows']} | {r['read as the classic alone']} | {r['share']:.3f} |" for r in window_rows]
    missed = sorted(k for k, v in per_chapter.items() if v.get("on", 0) < 0.999)
    md += ["", f"經-alone documents not read as the classic: {', '.join(missed) or 'none'}."]
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
