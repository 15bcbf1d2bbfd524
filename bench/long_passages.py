"""Long passages on the dev gold: consecutive dev passages read as one, against each read alone.

    .venv/bin/python bench/long_passages.py [--joins 2 3 4 5] [--out bench/results/long-passages.json]

有司徹, which holds 842 of the 1,170 test tuples, writes passages twice as long as any dev chapter's
(a dev passage has 3.5 tuples, a 有司徹 one 7.6; no dev passage reaches 160 characters): a rule that
looks back over the passage (卒爵 to the last drinker, dishes to the giver of the last 拜送) reaches
further there than it ever did on dev. This makes dev passages of that length: each dev chapter's
gold passages, in their order, are joined K at a time into one punctuated passage, read by the
shipped pipeline, and scored against the same gold tuples (offsets moved) on the (actor, verb,
negated) key, beside the same passages read alone.

Gold tuples with no actor are left out on both sides (with their positions): a passage opening on
acts of someone it does not name has the actor of the passage before it when joined, which the
gold, made passage by passage, could not know. The passages of a run are consecutive 經 paragraphs,
so a joined passage is text the edition writes in that order, not a collage. What it lists are the
tuples read differently joined and alone, for reading: a difference is not always an error of
the joined reading (一人洗，舉觶於賓。升… : the gold of the passage that opens on 升 names the
舉觶者 it writes later, the joined reading the 一人 written before; both are the same man).

Writes JSON and Markdown beside each other.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _position(t: dict) -> tuple[int, int]:
    return t["start"], t["end"]


def _moved(tuples: list[dict], offset: int) -> list[dict]:
    return [dict(t, doc=0, start=t["start"] + offset, end=t["end"] + offset) for t in tuples]


def _groups(records: list[dict], k: int) -> list[list[dict]]:
    """``records`` in their order, k at a time; a passage whose quotation the edition leaves open
    (05 p582 …執張弓。 with no 」) ends its group, or the speech would swallow the passages after it."""
    groups: list[list[dict]] = [[]]
    for record in records:
        groups[-1].append(record)
        text = record["text"]
        if len(groups[-1]) == k or sum(text.count(q) for q in "「『") > sum(text.count(q) for q in "」』"):
            groups.append([])
    return [g for g in groups if g]


def read(processor, text: str, verbs) -> list[dict]:
    out = processor.process({"text": text, "meta": {"layer": "JING"}})
    return [t for t in out["actions"] if t.get("verb") in verbs]


def measure(joins: list[int]) -> dict:
    from pipeline.actions.evaluate import match_tuples
    from pipeline.actions.report import gold_actions, load_split
    from pipeline.labels import VERBS
    from pipeline.process import DocumentProcessor
    from pipeline.text.normalise import normalise_str

    processor = DocumentProcessor()
    by_chapter: dict[str, list[dict]] = defaultdict(list)
    for record in load_split("dev"):
        by_chapter[str(record["meta"].get("chapter"))].append(record)
    alone: dict[str, list[dict]] = {}  # passage id → its tuples read alone
    for records in by_chapter.values():
        for record in records:
            alone[record["meta"]["doc"]] = read(processor, record["text"], VERBS)

    rows, differing = [], []
    for k in joins:
        counts = defaultdict(int)
        for chapter, records in sorted(by_chapter.items()):
            for group in _groups(records, k):
                gold, single, offset = [], [], 0
                for record in group:
                    gold += _moved([t for t in gold_actions(record, "punctuated") if t.get("verb") in VERBS], offset)
                    single += _moved(alone[record["meta"]["doc"]], offset)
                    offset += len(record["text"])
                text = "".join(r["text"] for r in group)
                joined = [dict(t, doc=0) for t in read(processor, text, VERBS)]
                nobody = {_position(t) for t in gold if not t.get("actor")}
                gold = [t for t in gold if _position(t) not in nobody]
                single = [t for t in single if _position(t) not in nobody]
                joined = [t for t in joined if _position(t) not in nobody]
                a, j = match_tuples(gold, single, normalise_str), match_tuples(gold, joined, normalise_str)
                counts["gold"] += len(gold)
                counts["alone"] += len(single)
                counts["joined"] += len(joined)
                counts["alone_matched"] += a["matched"]
                counts["joined_matched"] += j["matched"]
                lost = {(_position(t), t.get("actor")) for t in j["missed"]} - {(_position(t), t.get("actor")) for t in a["missed"]}
                if lost and k == max(joins):
                    differing.append({"chapter": chapter, "first": group[0]["meta"]["doc"], "text": text,
                                      "lost": sorted([text[s:e], actor] for (s, e), actor in lost)})
        f1 = lambda m, p: round(2 * m / (counts["gold"] + p), 4) if counts["gold"] + p else 0.0  # noqa: E731
        rows.append({"joined": k, "gold": counts["gold"], "alone_f1": f1(counts["alone_matched"], counts["alone"]),
                     "joined_f1": f1(counts["joined_matched"], counts["joined"])})
        print(rows[-1], flush=True)
    return {"command": "python bench/long_passages.py", "rows": rows, "lost_when_joined": differing}


def markdown(figures: dict) -> str:
    lines = ["# Long passages on the dev gold (issue 5)", "",
             f"`{figures['command']}` (see its docstring): consecutive dev passages of a chapter read as one "
             "punctuated passage, against the same passages read alone; (actor, verb, negated) F1, gold "
             "tuples with no actor left out.", "",
             "| passages joined | gold tuples | read alone | read joined |", "| --- | --- | --- | --- |"]
    lines += [f"| {r['joined']} | {r['gold']} | {r['alone_f1']} | {r['joined_f1']} |" for r in figures["rows"]]
    k = max(r["joined"] for r in figures["rows"])
    lines += ["", f"Gold tuples read right alone and wrong joined, {k} passages at a time:", ""]
    for d in figures["lost_when_joined"]:
        lost = "; ".join(f"{actor} {clause}" for clause, actor in d["lost"])
        lines.append(f"- {d['first']} (+{k - 1}): {lost}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "long-passages.json")
    args = parser.parse_args()
    figures = measure(sorted(args.joins))
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(figures), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
