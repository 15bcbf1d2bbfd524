"""Collation with a witness (`yili process --witness`): how much of an edition the witness reaches.

Each chapter of the 四庫 注疏 and of the 四部叢刊 鄭注 (both unpunctuated) is read twice by `yili
process`, alone and with the chapter's punctuated XHTML e-book as witness, and compared:

- the share of the document's characters that line up with the witness;
- the share of the boundaries between characters of its unpunctuated 經/注/疏 segments that the
  witness decides (a break, or none), and the break P/R/F1 there of the 斷句 model alone against the
  e-book's editor: what the witness changes. The model of each chapter is one trained without that
  chapter's fold (`pipeline.actions.report.unseen_processors`, ~3 min): the shipped one was trained
  on every corpus chapter, the e-book's punctuation of these chapters included;
- the characters whose layer the witness changed (of those the layer model had decided).

The breaks the witness decides are the e-book editor's by construction (scored against him they
would be right by definition); what a witness does for the layers is scored against another edition in
bench/siku_runs.py (column "+ XHTML witness"), and for the tuples in
`bench/siku_actions.py --witness`.

    .venv/bin/python bench/witness.py [--out bench/results/witness.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"


def layer_of(segments: list[dict], length: int) -> list[str]:
    out = [""] * length
    for seg in segments:
        for i in range(seg["start"], seg["end"]):
            out[i] = seg["layer"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "witness.json")
    args = parser.parse_args()

    from pipeline.actions.evaluate import _prf
    from pipeline.process import _working_text
    from pipeline.read.inputs import read_file
    from pipeline.text.normalise import segment_view
    from pipeline.text.sentences import is_punctuated
    from pipeline.text.view import overlapping

    from pipeline.actions.report import unseen_processors

    readers = unseen_processors([p.name[:2] for p in (CORPUS / "zhushu-siku").glob("*_*.txt")])
    rows = []
    totals: Counter = Counter()
    for edition in ("zhushu-siku", "zhengzhu-sbck"):
        for path in sorted((CORPUS / edition).glob("*_*.txt")):
            chapter = path.name[:2]
            witness = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*"))
            record = read_file(path).record
            proc = readers[chapter]
            proc.use_witness(None)
            alone = proc.process(record)
            proc.use_witness([str(witness)])
            started = time.perf_counter()
            collated = proc.process(record)
            seconds = time.perf_counter() - started
            # the boundaries the witness decides, in the views `yili process` reads
            work = _working_text(record["text"])
            _layout, segments, removed = proc.layers({**record, "text": work})
            segments, collation = proc.collate(record["text"], segments, removed, work)
            drop = sorted((r.start, r.end) for r in removed)
            alone_breaks = {c["start"] for c in alone["clauses"]}
            decided = boundaries = tp = model_n = editor_n = 0
            for seg in segments:
                if seg.layer == "OTHER":
                    continue
                view = segment_view(work, seg.start, seg.end, overlapping(drop, seg.start, seg.end))
                if not view.text or is_punctuated(view.text):
                    continue
                boundaries += len(view.text) - 1
                said = collation.breaks(view.starts, view.text) if collation is not None else {}
                decided += len(said)
                for pos, kind in said.items():
                    model_says = view.starts[pos] in alone_breaks
                    tp += model_says and kind is not None
                    model_n += model_says
                    editor_n += kind is not None
            before = layer_of(alone["segments"], len(record["text"]))
            after = layer_of(collated["segments"], len(record["text"]))
            modelled = {i for seg in alone["segments"] if seg["evidence"] == "model" for i in range(seg["start"], seg["end"])}
            changed = sum(1 for i in modelled if before[i] != after[i] and not record["text"][i].isspace())
            row = {"edition": edition, "chapter": chapter, "share": round(collation.share, 4) if collation else 0.0,
                   "boundaries": boundaries, "decided": decided, "tp": tp, "model_breaks": model_n, "editor_breaks": editor_n,
                   "model_chars": len(modelled), "layer_changed": changed, "seconds": round(seconds, 2)}
            rows.append(row)
            for key in ("boundaries", "decided", "tp", "model_breaks", "editor_breaks", "model_chars", "layer_changed"):
                totals[(edition, key)] += row[key]
            print(row, flush=True)
    figures = {"command": "python bench/witness.py", "rows": rows,
               "editions": {ed: {"decided": round(totals[(ed, "decided")] / max(1, totals[(ed, "boundaries")]), 4),
                                 "model": _prf(totals[(ed, "tp")], totals[(ed, "editor_breaks")], totals[(ed, "model_breaks")]),
                                 "layer_changed": totals[(ed, "layer_changed")], "model_chars": totals[(ed, "model_chars")]}
                            for ed in ("zhushu-siku", "zhengzhu-sbck")}}
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# Collation with a witness", "",
             f"`{figures['command']}`: each chapter of the 四庫 注疏 and the 四部叢刊 鄭注 read by `yili process` "
             "alone and with the chapter's XHTML e-book as witness (`--witness`).", "",
             "decided: the share of the boundaries between characters of the unpunctuated 經/注/疏 that the witness "
             "decides (a break or none); model F1: there, the breaks of the 斷句 model alone (trained without the "
             "chapter) against the e-book editor's, which the witness puts in their place; layer changed: "
             "characters the layer model had decided whose layer the witness changed.", "",
             "| edition | chapter | characters lined up | boundaries | decided | model F1 there | layer model's chars | layer changed | seconds (with witness) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['edition']} | {r['chapter']} | {r['share']} | {r['boundaries']} | "
                     f"{r['decided'] / max(1, r['boundaries']):.4f} | {_prf(r['tp'], r['editor_breaks'], r['model_breaks'])['f1']} | "
                     f"{r['model_chars']} | {r['layer_changed']} | {r['seconds']} |")
    for ed, fig in figures["editions"].items():
        lines.append(f"| {ed} | all | | | **{fig['decided']}** | {fig['model']['f1']} | {fig['model_chars']} | {fig['layer_changed']} | |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
