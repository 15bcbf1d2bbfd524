"""The document memory on run-together pairs of held-out chapters (issue 3).

``python bench/siku_runs.py`` measures the memory (:mod:`pipeline.layers.memory`) on the real 四庫
runs: 157 dev and 55 test runs. This scores it on the thousands of 經+注 / 注+經 pairs that
``yili evaluate layers`` builds from held-out chapters ("shape known" rows), each pair split with
and without a memory made of the other 經 and 注 units of its chapter in the same edition — as if
the rest of the document were decided and only that pair ran together. The pair's own strings
are taken out of the memory.

Models: for each of the 4 chapter folds, the classifier + splitter and the 斷句 model fitted on the
other chapters (cached in ``--cache``, shared with bench/siku_runs.py).

    .venv/bin/python bench/pairs_memory.py [--cache DIR] [--out bench/results/pairs-memory.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


class _Without:
    """A memory's strings of one layer, less those of the pair being split (``in`` only)."""

    def __init__(self, counts: Counter, own: Counter):
        self.counts, self.own = counts, own

    def __contains__(self, gram: str) -> bool:
        return self.counts.get(gram, 0) - self.own.get(gram, 0) > 0


def grams(text: str, order: int) -> Counter:
    from pipeline.layers.features import ngram_text

    han = ngram_text(text)
    return Counter(han[i : i + order] for i in range(len(han) - order + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/rt_models"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "pairs-memory.json")
    args = parser.parse_args()

    from siku_runs import fold_models

    from pipeline.layers.features import is_han
    from pipeline.layers.memory import ORDER, DocumentMemory
    from pipeline.layers.training import SHAPED_SETS, _splitter_sets, _streams

    plan = []
    edition_of = {"JING+ZHU punctuated (XHTML pairs)": "zhushu-xhtml", "JING+ZHU unpunctuated (SBCK pairs)": "zhengzhu-sbck",
                  "ZHU+JING unpunctuated (SBCK pairs)": "zhengzhu-sbck", "ZHU+JING unpunctuated (XHTML pairs, stripped)": "zhushu-xhtml"}
    totals: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    per_chapter: dict[str, dict[str, dict[str, float]]] = defaultdict(dict)
    for held_out, units, model, breaks in fold_models(args.cache):
        plan.append(held_out)
        splitter = model.splitter_
        splitter.break_model_ = breaks
        for chapter in held_out:
            chapter_units = [u for u in units if u.chapter == chapter]
            counts = {}
            for (edition, _c), stream in _streams(chapter_units).items():
                counts[edition] = {layer: sum((grams(u.text, ORDER) for u in stream if u.layer == layer), Counter())
                                   for layer in ("JING", "ZHU")}
            for name, seqs in _splitter_sets(chapter_units).items():
                if name not in SHAPED_SETS or edition_of[name] not in counts:
                    continue
                mem_counts = counts[edition_of[name]]
                for seq in seqs:
                    text = "".join(t for _l, t in seq)
                    gold = [l for l, t in seq for _ in t]
                    own = {layer: sum((grams(t, ORDER) for l, t in seq if l == layer), Counter()) for layer in ("JING", "ZHU")}
                    memory = DocumentMemory(_Without(mem_counts["JING"], own["JING"]), _Without(mem_counts["ZHU"], own["ZHU"]))  # type: ignore[arg-type]
                    idx = [i for i, ch in enumerate(text) if is_han(ch)]
                    for key, mem in (("shape known", None), ("shape known + memory", memory)):
                        pred = splitter.predict_labels(text, model, SHAPED_SETS[name], mem)
                        cell = totals[name][key]
                        cell[0] += sum(gold[i] == pred[i] for i in idx)
                        cell[1] += len(idx)
                        per = per_chapter[chapter].setdefault(f"{name} | {key}", [0, 0])
                        per[0] += sum(gold[i] == pred[i] for i in idx)
                        per[1] += len(idx)
            print(chapter, {k: round(r / t, 4) for k, (r, t) in per_chapter[chapter].items() if t}, flush=True)
        splitter.break_model_ = None
    figures = {"command": "python bench/pairs_memory.py", "folds": plan,
               "sets": {name: {k: {"chars": t, "char_accuracy": round(r / t, 4)} for k, (r, t) in row.items()}
                        for name, row in totals.items()},
               "chapters": {c: {k: round(r / t, 4) for k, (r, t) in row.items() if t} for c, row in per_chapter.items()}}
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# The document memory on run-together pairs of held-out chapters (issue 3)", "",
             f"`{figures['command']}`: each pair split with the 斷句 seam of `yili process`, without and with a memory "
             "made of the other 經 and 注 units of its chapter in its edition (the pair's own strings left out).", "",
             "| pairs (held-out chapters) | Han chars | shape known | + memory |", "| --- | --- | --- | --- |"]
    for name, row in sorted(figures["sets"].items()):
        lines.append(f"| {name} | {row['shape known']['chars']} | {row['shape known']['char_accuracy']} "
                     f"| {row['shape known + memory']['char_accuracy']} |")
    lines += ["", "Per chapter (dev 03 04 05 07 10 15, test 11 12 13 14 17):", "",
              "| chapter | set | shape known | + memory |", "| --- | --- | --- | --- |"]
    for chapter, row in sorted(figures["chapters"].items()):
        for name in sorted({k.split(" | ")[0] for k in row}):
            lines.append(f"| {chapter} | {name} | {row.get(name + ' | shape known', '–')} | {row.get(name + ' | shape known + memory', '–')} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(json.dumps(figures["sets"], ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
