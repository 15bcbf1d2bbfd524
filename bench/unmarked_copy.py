"""A copy of the 鄭注 whose 注 is not marked, as plain text: what `yili process`'s layer stage makes of it.

    .venv/bin/python bench/unmarked_copy.py [--cache /tmp/rt_models] [--out bench/results/unmarked-copy.json]

A plain copy of the classic with its commentary often loses what set the 注 apart (small print,
brackets): 經 and 注 run on with no marker, a paragraph a line, all on one line, or cut at a page's
width. For each chapter fold of ``bench/siku_runs.py`` (the layer classifier, splitter and 斷句 model
fitted on the other chapters, cached in ``--cache``), each held-out chapter's 經 and 注, from the 四部叢刊
鄭注 (unpunctuated) and the XHTML e-book (punctuated; also with its 疏, run on after the 注 it
follows), is written so and read by :meth:`pipeline.process.DocumentProcessor.layers`, as `yili
process` reads a file. Scored: the share of
Han characters given their gold layer, by the reading of 2026-11-29 (a hard-wrapped text joined into
its paragraphs, a long undecided stretch split a few sentences at a time, a line per 經 and its 注
read in that shape, a unit a line read a line whole, and later that day a line per 經, its 注 and its 疏
read 疏 from its 疏 head on: :mod:`pipeline.layers.plain_lines`; and in the fourth session a 注疏
whose layers run on, on one line or wrapped, read 疏 from each head to the next 經:
:meth:`~pipeline.layers.seams.SplitPredictor.reads_by_heads`) and by the
one before (a print line at a time; a stretch over 5,000 characters classified a sentence or 400
characters at a time, with no splitter; each line decoded with nothing known of it: ``wrap_width``,
``SPLIT_BUDGET``, ``[layers] pair_lines``, ``unit_lines`` and ``shu_lines`` and the splitter's
``read_by_heads`` switched off here to read it so).
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
sys.path.insert(0, str(REPO / "bench"))
from pipeline.actions.report import split_chapters  # noqa: E402

EDITIONS = {"zhengzhu-sbck": "四部叢刊 鄭注 (unpunctuated)", "zhushu-xhtml": "XHTML e-book (punctuated)"}
SHAPES = ("a line per 經 and its 注", "a line per unit", "one line", "wrapped at 18", "wrapped at 30",
          "a line per 經, its 注 and any 疏", "經, 注 and 疏 on one line", "經, 注 and 疏 wrapped at 18")
#: the shapes written with the 疏
WITH_SHU = SHAPES[5:]
DEV = split_chapters("dev")


def document(units, shape: str) -> tuple[str, list]:
    """The units' text written in ``shape``, with the gold layer of each character (None: a line break)."""
    from pipeline.layers.features import is_han

    chars: list[tuple[str, object]] = []
    for u in units:
        if chars and ((shape in (SHAPES[0], SHAPES[5]) and u.layer == "JING") or shape == SHAPES[1]):
            chars.append(("\n", None))
        chars += [(c, u.layer if is_han(c) else None) for c in u.text.replace("\n", "")]
    if "wrapped" in shape:
        width = int(shape.rsplit(" ", 1)[1])
        wrapped: list[tuple[str, object]] = []
        for i, pair in enumerate(chars):
            if i and i % width == 0:
                wrapped.append(("\n", None))
            wrapped.append(pair)
        chars = wrapped
    chars.append(("\n", None))
    return "".join(c for c, _ in chars), [g for _, g in chars]


def score(text: str, gold: list, segments) -> tuple[int, int]:
    read = [None] * len(text)
    for s in segments:
        read[s.start:s.end] = [s.layer] * (s.end - s.start)
    pairs = [(g, r) for g, r in zip(gold, read) if g]
    return sum(g == r for g, r in pairs), len(pairs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/rt_models"))
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "unmarked-copy.json")
    args = ap.parse_args()

    import pipeline.process as process_module
    import pipeline.read.web as web
    from siku_runs import fold_models

    from pipeline.config import load_config

    started = time.perf_counter()
    joined_width, budget = web.wrap_width, process_module.SPLIT_BUDGET
    before = process_module.DocumentProcessor(load_config(overrides={"layers": {"pair_lines": False, "unit_lines": False, "shu_lines": False}}))
    readings = {"before": (before, lambda raw, content: None, 0), "now": (process_module.DocumentProcessor(), joined_width, budget)}
    totals: dict[tuple, Counter] = {}
    per_chapter: dict[str, dict] = {}
    plan = []
    for held_out, units, model, breaks in fold_models(args.cache):
        plan.append(held_out)
        model.splitter_.break_model_ = breaks
        for reader, _width, _budget in readings.values():
            reader._layer_model = model  # the fold's model: it never saw the chapters it reads
        for chapter in held_out:
            for edition in EDITIONS:
                chosen = sorted((u for u in units if u.chapter == chapter and u.edition == edition and u.layer in ("JING", "ZHU", "SHU")),
                                key=lambda u: u.index)
                if not chosen:
                    continue
                for shape in SHAPES:
                    with_shu = shape in WITH_SHU
                    if with_shu and not any(u.layer == "SHU" for u in chosen):
                        continue  # the 鄭注 has no 疏
                    text, gold = document([u for u in chosen if with_shu or u.layer != "SHU"], shape)
                    for name, (reader, width, split_budget) in readings.items():
                        web.wrap_width, process_module.SPLIT_BUDGET = width, split_budget
                        model.splitter_.read_by_heads = name == "now"
                        try:
                            _layout, segments, _removed = reader.layers({"text": text, "meta": {"source": f"{chapter}.txt"}})
                        finally:
                            web.wrap_width, process_module.SPLIT_BUDGET = joined_width, budget
                            del model.splitter_.read_by_heads  # the class's setting again
                        right, total = score(text, gold, segments)
                        split = "dev" if chapter in DEV else "test"
                        for key in ((edition, shape, name, split), (edition, shape, name, "all")):
                            totals.setdefault(key, Counter()).update(right=right, total=total)
                        per_chapter.setdefault(f"{chapter} {edition} {shape}", {})[name] = round(right / max(total, 1), 4)
            print(f"chapter {chapter} done ({time.perf_counter() - started:.0f} s)", flush=True)
    rows = []
    for edition, label in EDITIONS.items():
        for shape in SHAPES:
            if not any(key[:2] == (edition, shape) for key in totals):
                continue
            row = {"edition": label, "written": shape}
            for split in ("dev", "test", "all"):
                for name in readings:
                    c = totals.get((edition, shape, name, split), Counter())
                    row[f"{split} {name}"] = round(c["right"] / max(c["total"], 1), 4)
            rows.append(row)
    figures = {"date": _dt.date.today().isoformat(), "command": "python bench/unmarked_copy.py", "folds": plan,
               "rows": rows, "per chapter": per_chapter, "seconds": round(time.perf_counter() - started, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    md = [f"# The 鄭注 with its 注 unmarked, as plain text ({figures['date']}, `{figures['command']}`, {figures['seconds']} s)", "",
          "Held-out chapters (fold models: classifier, splitter, 斷句), 經 and 注 (and, in the last three rows, the 疏), nothing marking them. "
          "Share of Han characters given their gold layer, read as `yili process` reads a file now and before "
          "2026-11-29 (a print line at a time; a long stretch classified without the splitter; no line read "
          "as 經 then 注, none whole, no 疏 read from its head to its line's end or to the next 經). "
          f"Dev chapters {', '.join(DEV)}; test the others.", "",
          "| edition | written | dev before | dev now | test before | test now | all before | all now |",
          "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    md += [f"| {r['edition']} | {r['written']} | {r['dev before']:.3f} | **{r['dev now']:.3f}** | {r['test before']:.3f} | "
           f"**{r['test now']:.3f}** | {r['all before']:.3f} | **{r['all now']:.3f}** |" for r in rows]
    args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
