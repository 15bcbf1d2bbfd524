"""A copy of the classic alone, and copies with their commentary, read by `yili process`'s layer stage.

    .venv/bin/python bench/classic_alone.py [--out bench/results/classic-alone.json]

For each chapter fold of `yili evaluate layers`, a layer model is trained on the other chapters (the
classifier and its smoothing, as `yili process` uses them where nothing else decides; no run-together
splitter) and every held-out chapter of the XHTML, 四庫 and SBCK 鄭注 editions is written as three
plain documents, a unit a line and no marker: its 經 alone; its 經 and 注; its 經, 注 and 疏. Each is
read by :meth:`pipeline.process.DocumentProcessor.layers` with ``[layers] classic_alone`` off (the
model decides every line, as before pipeline/layers/classic.py) and on. Scored: the share of Han
characters given their gold layer, and how many documents were read as the classic alone.

Then short excerpts, as a scholar pastes a few passages: each document cut into windows of
consecutive units (``EXCERPTS``: from 200, 300 and 450 Han characters), each window read as a
document of its own, with the reading off and on, and on as it was before 2026-11-29 (nothing under
600 Han characters read as the classic: ``--short-min`` sets that "before"). Dev chapters (03 04 05
07 10 15) and the others apart.

Then the rule itself (:func:`pipeline.layers.classic.is_classic_alone`) on every window of those
documents' text (consecutive units, 200 to 3,000 Han characters): the share read as the classic.
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
from pipeline.actions.report import split_chapters  # noqa: E402

EDITIONS = ("zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck")
KINDS = {"經 alone": ("JING",), "經 and 注": ("JING", "ZHU"), "經, 注 and 疏": ("JING", "ZHU", "SHU")}
WINDOWS = (200, 300, 450, 600, 800, 1000, 1500, 2000, 3000)
#: the excerpts read as documents of their own (Han characters, at least)
EXCERPTS = (200, 300, 450)
DEV = frozenset(split_chapters("dev"))


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


def windows(units, size: int, as_units: bool = False):
    """Consecutive units of at least ``size`` Han characters: their texts (``as_units``: the units)."""
    from pipeline.layers.features import han_count

    chunk, han = [], 0
    for u in units:
        chunk.append(u if as_units else u.text)
        han += han_count(u.text)
        if han >= size:
            yield chunk
            chunk, han = [], 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "classic-alone.json")
    ap.add_argument("--short-min", type=int, default=600, help="MIN_HAN_SHORT of the excerpts' \"before\" column")
    args = ap.parse_args()

    from pipeline.config import load_config
    from pipeline.layers import classic
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
    shipped_min = classic.MIN_HAN_SHORT
    # (kind, size, dev or others) → right / total per reading: off, on as before, on now
    excerpt_counts: dict[tuple[str, int, str], Counter] = {}
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
                    for size in EXCERPTS:
                        c = excerpt_counts.setdefault((kind, size, "dev" if chapter in DEV else "others"), Counter())
                        for chunk in windows(chosen, size, as_units=True):
                            c["excerpts"] += 1
                            text, gold = document(chunk)
                            for name, reader, short_min in (("off", readers[False], shipped_min), ("before", readers[True], args.short_min),
                                                            ("now", readers[True], shipped_min)):
                                classic.MIN_HAN_SHORT = short_min
                                layout, segments, _removed = reader.layers({"text": text, "meta": {"source": f"{chapter}.txt"}})
                                right, total = agreement(text, gold, segments)
                                c[name] += right
                                c["total " + name] += total
                                c["classic " + name] += layout == "classic"
                            classic.MIN_HAN_SHORT = shipped_min
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
    excerpt_rows = [{"text": kind, "excerpt": size, "chapters": part, "excerpts": c["excerpts"],
                     **{name: round(c[name] / max(c["total " + name], 1), 4) for name in ("off", "before", "now")},
                     "read as the classic before": c["classic before"], "read as the classic now": c["classic now"]}
                    for (kind, size, part), c in sorted(excerpt_counts.items(), key=lambda kv: (list(KINDS).index(kv[0][0]), kv[0][1], kv[0][2]))]
    figures = {"date": _dt.date.today().isoformat(), "command": "python bench/classic_alone.py",
               "folds": plan, "documents": rows, "excerpts": excerpt_rows, "windows": window_rows, "classic alone, per chapter": per_chapter,
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
    md += ["", f"Excerpts (consecutive units of at least so many Han characters, each read as a document of its own): share of "
           f"Han characters given their gold layer by the model alone, by the reading as before (nothing under {args.short_min} "
           f"Han characters read as the classic) and now (from {shipped_min}):", "",
           "| text | excerpt | chapters | excerpts | model alone | before | now | read as the classic before / now |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    md += [f"| {r['text']} | {r['excerpt']:,}+ | {r['chapters']} | {r['excerpts']} | {r['off']:.3f} | {r['before']:.3f} | **{r['now']:.3f}** "
           f"| {r['read as the classic before']} / {r['read as the classic now']} |" for r in excerpt_rows]
    md += ["", "The rule on every window of consecutive units (`is_classic_alone`):", "",
           "| text | window (Han characters) | windows | read as the classic alone | share |", "| --- | --- | --- | --- | --- |"]
    md += [f"| {r['text']} | {r['window']:,} | {r['windows']} | {r['read as the classic alone']} | {r['share']:.3f} |" for r in window_rows]
    missed = sorted(k for k, v in per_chapter.items() if v.get("on", 0) < 0.999)
    md += ["", f"經-alone documents not read as the classic: {', '.join(missed) or 'none'}."]
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
