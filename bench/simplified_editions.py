"""Every corpus file and its copy converted to simplified characters, read by `yili process`: how far
the two readings agree (layers per Han character; tuples by actor, verb and clause start).

A scholar's copy of an edition may have been converted to simplified characters (opencc t2s keeps
the length, so offsets compare directly). What the script conversion itself destroys is left in the
figures: the 四庫 writes 于 in the 經 and 於 in the 注, and t2s makes both 于.

    .venv/bin/python bench/simplified_editions.py [--out bench/results/simplified-editions.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


def process(folder: Path, out: Path) -> dict[str, dict]:
    """`yili process` over ``folder``; output records by file name."""
    subprocess.run([sys.executable, "-m", "pipeline.cli", "process", str(folder), "-o", str(out), "-q", "--no-resume",
                    "-j", "2"], check=True, cwd=ROOT)
    return {Path(r["meta"]["source"]).name: r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}


def layers(record: dict) -> list[str]:
    out = ["-"] * len(record["text"])
    for s in record["segments"]:
        out[s["start"]:s["end"]] = [s["layer"]] * (s["end"] - s["start"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "simplified-editions.json")
    args = parser.parse_args()
    import opencc

    t2s = opencc.OpenCC("t2s")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        original, simplified = Path(tmp) / "original", Path(tmp) / "simplified"
        original.mkdir()
        simplified.mkdir()
        for path in sorted(CORPUS.rglob("*")):
            if path.is_file() and path.name != "README.md":
                name = f"{path.parent.name}__{path.name}"
                text = path.read_text(encoding="utf-8")
                (original / name).write_text(text, encoding="utf-8")
                (simplified / name).write_text(t2s.convert(text), encoding="utf-8")
        read = process(original, Path(tmp) / "original.jsonl")
        read_simplified = process(simplified, Path(tmp) / "simplified.jsonl")
    per: dict[str, Counter] = defaultdict(Counter)
    for name, rec in read.items():
        other = read_simplified[name]
        edition = name.split("__")[0]
        a, b = layers(rec), layers(other)
        han = [i for i, c in enumerate(rec["text"]) if ord(c) >= 0x3400]
        per[edition]["han"] += len(han)
        per[edition]["same"] += sum(a[i] == b[i] for i in han)

        def key(t: dict) -> tuple:
            return t2s.convert(t.get("actor") or ""), t2s.convert(t["verb"]), bool(t.get("negated")), t["start"]

        ta, tb = Counter(map(key, rec["actions"])), Counter(map(key, other["actions"]))
        per[edition]["tuples"] += sum(ta.values())
        per[edition]["tuples_simplified"] += sum(tb.values())
        per[edition]["tuples_same"] += sum((ta & tb).values())
    rows = {}
    for edition, c in sorted(per.items()):
        both = c["tuples"] + c["tuples_simplified"]
        rows[edition] = {"han_chars": c["han"], "layer_agreement": round(c["same"] / c["han"], 4),
                         "tuples": c["tuples"], "tuples_simplified": c["tuples_simplified"],
                         "tuple_agreement_f1": round(2 * c["tuples_same"] / both, 4) if both else 1.0}
    figures = {"command": "python bench/simplified_editions.py", "seconds": round(time.perf_counter() - started, 1),
               "editions": rows}
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# Simplified copies of the corpus editions", "",
             f"`{figures['command']}` ({figures['seconds']} s): each corpus file converted with opencc t2s and "
             "read by `yili process`, against the file itself.", "",
             "| edition | Han chars | layer agreement | tuples (original / simplified) | tuple agreement F1 |",
             "| --- | --- | --- | --- | --- |"]
    for edition, row in rows.items():
        lines.append(f"| {edition} | {row['han_chars']} | {row['layer_agreement']} | {row['tuples']} / "
                     f"{row['tuples_simplified']} | {row['tuple_agreement_f1']} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
