"""The 四庫 注疏's unmarked 注 ends, split on chapters the models never saw (issue 3).

In ../shared/corpus/zhushu-siku a 注 opens with its marker but its end is not marked when the
next 經 follows directly: the reader gives such a run back undecided, with its shape (注, then
經, one seam; :class:`pipeline.records.RunShape`). This scores the run-together splitter on those
real runs, with gold taken from the 四部叢刊 鄭注 edition of the same chapter (經 outside
parentheses, 注 inside), aligned character by character after folding the script; a run less
than 80% aligned is left out.

Models: for each of the 4 chapter folds of ``yili evaluate layers``, the layer classifier and
splitter fitted on the other chapters (cached in ``--cache``); each chapter is split by the fold
that held it out. Four decodings are compared: the splitter free (as before the shape was passed),
within the shape, and within the shape with the seam held to a clause end of the fold's 斷句 model
(trained on the same chapters; `[layers] seam_breaks`), and that with the document's own decided
經 and 注 as memory (:mod:`pipeline.layers.memory`): what `yili process` does.

    .venv/bin/python bench/siku_runs.py [--cache DIR] [--out bench/results/siku-runs.json] [--seams FILE]

``--seams FILE`` also writes each aligned run of the dev chapters (03 04 05 07 10 15, the chapters
rules are chosen on) as a JSONL record: its Han characters, the gold and the read layer of each
(``J`` / ``Z``, what `yili process` decides), the seam of each (Han characters before it) and how
many characters are wrong, the worst first — the list to read before changing the splitter. The
test chapters' runs are scored, never listed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from pipeline.actions.report import split_chapters  # noqa: E402
CORPUS = ROOT.parent / "shared" / "corpus"
#: the chapters whose runs ``--seams`` lists (the dev chapters of annotations/actions/SPLITS.md)
DEV = split_chapters("dev")


def han_stream(text: str, segments) -> tuple[str, list[str], list[int]]:
    """Folded Han characters of the segments, their layers and raw offsets."""
    from pipeline.layers.features import fold_script, is_han

    chars, labels, where = [], [], []
    for seg in segments:
        folded = fold_script(text[seg.start:seg.end])
        for k, ch in enumerate(folded):
            if is_han(ch):
                chars.append(ch)
                labels.append(seg.layer)
                where.append(seg.start + k)
    return "".join(chars), labels, where


def gold_labels(run: str, ref: str, ref_labels: list[str], hint: int) -> tuple[list[str] | None, int]:
    """Each character of ``run`` labelled from its aligned character in ``ref`` (None if < 80%)."""
    start = -1
    for k in range(0, max(1, len(run) - 8), 4):
        start = ref.find(run[k:k + 8], max(0, hint - 200))
        if start < 0:
            start = ref.find(run[k:k + 8])
        if start >= 0:
            start = max(0, start - k)
            break
    if start < 0:
        return None, hint
    lo, hi = max(0, start - 30), min(len(ref), start + int(len(run) * 1.3) + 30)
    blocks = difflib.SequenceMatcher(None, run, ref[lo:hi], autojunk=False).get_matching_blocks()
    out: list[str | None] = [None] * len(run)
    matched = 0
    for a, b, size in blocks:
        for d in range(size):
            out[a + d] = ref_labels[lo + b + d]
        matched += size
    if matched < 0.8 * len(run):
        return None, hint
    last = next((x for x in out if x), "ZHU")
    for i, x in enumerate(out):
        last = out[i] = x or last
    return out, lo + blocks[-2][1] + blocks[-2][2] if len(blocks) > 1 else hi  # type: ignore[return-value]


def fold_breaks(held_out: list[str], train_chapters: list[str], cache: Path):
    """The fold's 斷句 model (pickled in ``cache``, named by the held-out chapters)."""
    import pickle

    from pipeline.layers.training import fold_punctuator

    path = cache / f"punct_{'-'.join(held_out)}.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    model = fold_punctuator(train_chapters)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(model))
    return model


def fold_models(cache: Path):
    """For each of the 4 chapter folds of ``yili evaluate layers``: (held-out chapters, every corpus
    unit, the classifier + splitter and the 斷句 model fitted on the other chapters), cached in ``cache``."""
    from runtogether import cached_model

    from pipeline.layers.training import chapter_folds, load_units

    units = load_units()
    for f, held_out in enumerate(chapter_folds(sorted({u.chapter for u in units}), 4), 1):
        train = [u for u in units if u.chapter not in set(held_out)]
        yield held_out, units, cached_model(f"f{f}_outer", train, cache), fold_breaks(held_out, sorted({u.chapter for u in train}), cache)


def with_witness(text: str, segments, removed, witness_path: Path):
    """``segments`` with those the models decided cut to the layers of the witness edition (the
    witness read by its markers alone, as `yili process --witness` reads it but for the model)."""
    from pipeline.layers import segment_layers
    from pipeline.text.collate import Collation, Witness, WitnessIndex

    wtext = witness_path.read_text(encoding="utf-8")
    wres = segment_layers(wtext, str(witness_path))
    witness = Witness.from_segments(str(witness_path), wtext, wres.segments, wres.removed)
    collation = Collation.of(text, removed, WitnessIndex([witness]))
    if collation is None:
        return segments
    return [p for s in segments for p in (collation.layers(text, s) if s.evidence in ("model", "default") else [s])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/rt_models"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "siku-runs.json")
    parser.add_argument("--seams", type=Path, default=None, help="write the dev chapters' runs, gold and read, to this JSONL file")
    args = parser.parse_args()
    listed: list[dict] = []

    from pipeline.layers import segment_layers
    from pipeline.records import Segment

    plan = []
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_chapter: dict[str, dict] = {}
    for held_out, _units, model, breaks in fold_models(args.cache):
        plan.append(held_out)
        for chapter in held_out:
            siku = next((CORPUS / "zhushu-siku").glob(f"{chapter}_*.txt"), None)
            sbck = next((CORPUS / "zhengzhu-sbck").glob(f"{chapter}_*.txt"), None)
            if siku is None or sbck is None:
                continue
            ref_text = sbck.read_text(encoding="utf-8")
            ref_segs = [s for s in segment_layers(ref_text, str(sbck)).segments if s.layer in ("JING", "ZHU")]
            ref, ref_labels, _ = han_stream(ref_text, ref_segs)
            text = siku.read_text(encoding="utf-8")
            result = segment_layers(text, str(siku))
            runs = [s for s in result.segments if s.evidence == "default" and s.shape is not None]
            # the whole document is resolved, as `yili process` does: the decided segments are
            # the memory the splitter reads (pipeline.layers.memory)
            free = [Segment(s.layer, s.start, s.end, s.text, s.evidence, s.score) if s.shape is not None else s
                    for s in result.segments]
            splitter = model.splitter_
            weights = (splitter.memory_cut_weight, splitter.memory_piece_weight)
            splitter.memory_cut_weight = splitter.memory_piece_weight = 0.0
            splitter.break_model_ = None
            decided = {"free": model.resolve_segments(text, free, result.removed),
                       "shape": model.resolve_segments(text, result.segments, result.removed)}
            splitter.break_model_ = breaks
            decided["shape+breaks"] = model.resolve_segments(text, result.segments, result.removed)
            splitter.memory_cut_weight, splitter.memory_piece_weight = weights
            decided["shape+breaks+memory"] = model.resolve_segments(text, result.segments, result.removed)
            splitter.break_model_ = None
            xhtml = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*"), None)
            if xhtml is not None:  # collated with the punctuated e-book (`yili process --witness`)
                decided["witness"] = with_witness(text, decided["shape+breaks+memory"], result.removed, xhtml)
            counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
            hint, kept = 0, 0
            for seg in runs:
                run, _labels, where = han_stream(text, [seg])
                gold, hint = gold_labels(run, ref, ref_labels, hint)
                if gold is None:
                    continue
                kept += 1
                for name, segs in decided.items():
                    layer_at = {}
                    for s in segs:
                        if s.end > seg.start and s.start < seg.end:
                            for i in range(max(s.start, seg.start), min(s.end, seg.end)):
                                layer_at[i] = s.layer
                    right = sum(1 for g, i in zip(gold, where) if layer_at.get(i) == g)
                    counts[name][0] += right
                    counts[name][1] += len(gold)
                    if name == "shape+breaks+memory" and args.seams is not None and chapter in DEV:
                        listed.append(seam_record(chapter, seg.start, run, gold, [layer_at.get(i) for i in where]))
            per_chapter[chapter] = {"runs": len(runs), "aligned": kept,
                                    **{k: round(r / t, 4) for k, (r, t) in counts.items() if t}}
            for k, (r, t) in counts.items():
                totals[k][0] += r
                totals[k][1] += t
            print(chapter, per_chapter[chapter], flush=True)
    figures = {"command": "python bench/siku_runs.py", "folds": plan, "chapters": per_chapter,
               "chars": totals["shape"][1],
               "char_accuracy": {k: round(r / t, 4) for k, (r, t) in totals.items() if t}}
    print(json.dumps(figures["char_accuracy"]))
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    acc = figures["char_accuracy"]
    lines = ["# 四庫 注 runs with an unmarked end, on held-out chapters (issue 3)", "",
             f"`{figures['command']}`; gold from the 四部叢刊 鄭注 edition, aligned (see the script's docstring).", "",
             f"Character accuracy over {figures['chars']} Han characters of aligned runs: "
             f"splitter free {acc.get('free')}, within the run's shape (注 then 經) {acc.get('shape')}, "
             f"within the shape with the seam at a clause end of the 斷句 model {acc.get('shape+breaks')}, "
             f"and with the document's own 經 and 注 as memory (what `yili process` does) {acc.get('shape+breaks+memory')}; "
             f"that collated with the chapter's XHTML e-book as witness (`yili process --witness`: its 經/注 split "
             f"wherever the texts line up; another edition than the gold's) {acc.get('witness')}.", "",
             "| chapter | runs | aligned | free | shape | shape + 斷句 | shape + 斷句 + memory | + XHTML witness |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for chapter, row in sorted(per_chapter.items()):
        lines.append(f"| {chapter} | {row['runs']} | {row['aligned']} | {row.get('free', '–')} | {row.get('shape', '–')} "
                     f"| {row.get('shape+breaks', '–')} | {row.get('shape+breaks+memory', '–')} | {row.get('witness', '–')} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if args.seams is not None:
        listed.sort(key=lambda r: (-r["wrong"], r["chapter"], r["start"]))
        args.seams.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in listed), encoding="utf-8")
    return 0


def seam_record(chapter: str, start: int, run: str, gold: list[str], read: list) -> dict:
    """One run for ``--seams``: its Han characters with the gold and read layer of each (J / Z, ?
    where nothing was read), the first seam of each (Han characters before it; None: no seam) and the
    characters read wrong; ``start`` is the run's offset in the 四庫 file."""
    def seam(labels: list) -> int | None:
        return next((k for k in range(1, len(labels)) if labels[k] != labels[k - 1]), None)

    return {"chapter": chapter, "start": start, "wrong": sum(g != r for g, r in zip(gold, read)),
            "gold_seam": seam(gold), "read_seam": seam(read), "run": run,
            "gold": "".join(g[0] for g in gold), "read": "".join((r or "?")[0] for r in read)}


if __name__ == "__main__":
    raise SystemExit(main())
