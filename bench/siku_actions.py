"""Action tuples from the 四庫 edition end to end (layers → 斷句 → tuples), against the 經 gold.

The action gold (annotations/actions) is written on the punctuated XHTML edition. The 四庫
注疏 (../shared/corpus/zhushu-siku) carries the same 經, unpunctuated, cut by its 注 and 疏, some
注 with unmarked ends: ``yili process`` has to find the 經, restore its breaks and read the acts.
Each gold passage is located in the 經 of the 四庫 file, the 四部叢刊 鄭注 file (unpunctuated, 經
outside parentheses) and the XHTML file, each processed whole
by ``yili process`` (its normalised Han characters found in the stream of the 經 segments, ≥ 80%
aligned, scored only where every edition holds it), and the tuples given for that stretch are
scored on the (actor, verb, negated) key against the passage's gold. The XHTML file is the
comparison: the difference is the edition's (no punctuation, 經 found among 注 and 疏). Both are
also read with ``[actions] scope = "document"``, the actor carried from passage to passage, where
the gold (made passage by passage, as SCHEMA section 4 asks) says null.

Dev and test chapters are reported apart; test figures are computed, never studied.

    .venv/bin/python bench/siku_actions.py [--out bench/results/siku-actions.json]
    .venv/bin/python bench/siku_actions.py --unseen   # → bench/results/siku-actions-unseen.json

``--unseen``: each chapter's files read with a 斷句 model trained without that chapter's fold (the
shipped one saw every chapter; see ``pipeline.actions.report.unseen_processors``); ~2 min more.

``--new-terms-out``: the dev chapters only, each read with its new terms out of the lexicon and a
span CRF trained on the other dev chapters (``bench/spans.py``'s "unseen" setting): a chapter whose
participants, things and places the lexicon does not know, read whole as ``yili process`` reads it
(→ bench/results/siku-actions-new-terms.json).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"


def jing_stream(text: str, segments: list[dict]) -> tuple[str, list[int]]:
    from pipeline.layers.features import is_han
    from pipeline.text.normalise import normalise_str

    chars, where = [], []
    for seg in segments:
        if seg["layer"] != "JING":
            continue
        folded = normalise_str(text[seg["start"]:seg["end"]])  # one character per character
        for k, ch in enumerate(folded):
            if is_han(ch):
                chars.append(ch)
                where.append(seg["start"] + k)
    return "".join(chars), where


def locate(passage: str, stream: str, hint: int) -> tuple[int, int] | None:
    """The stretch of ``stream`` that is ``passage`` (indices into the stream), if ≥ 80% aligns."""
    for k in range(0, max(1, len(passage) - 6), 3):
        at = stream.find(passage[k:k + 6], max(0, hint - 50))
        if at < 0:
            at = stream.find(passage[k:k + 6])
        if at >= 0:
            lo = max(0, at - k - 10)
            hi = min(len(stream), lo + len(passage) + 30)
            sm = difflib.SequenceMatcher(None, passage, stream[lo:hi], autojunk=False)
            blocks = [b for b in sm.get_matching_blocks() if b.size]
            if blocks and sum(b.size for b in blocks) >= 0.8 * len(passage):
                # the ends of the passage may be a variant character or two the match skipped (矦
                # for 侯); more is 經 the edition has elsewhere (read as 注), not the stream's to give
                head = blocks[0].a if blocks[0].a <= 2 else 0
                tail = len(passage) - (blocks[-1].a + blocks[-1].size)
                tail = tail if tail <= 2 else 0
                return max(0, lo + blocks[0].b - head), min(len(stream), lo + blocks[-1].b + blocks[-1].size + tail)
            return None
    return None


def new_terms_out_processors(document_config: dict) -> dict[str, dict]:
    """dev chapter → {"": processor, "-document": processor with ``document_config``'s scope}, each
    with the chapter's new terms out of the lexicon and a span CRF trained on the other dev chapters."""
    import tempfile

    sys.path.insert(0, str(ROOT / "bench"))
    from spans import CHAPTERS, fold_span_model

    from pipeline.process import DocumentProcessor

    work = Path(tempfile.mkdtemp(prefix="yili-new-terms-"))
    out = {}
    for chapter in CHAPTERS:
        config, _nlp, _model, model_dir, _removed = fold_span_model(chapter, {"kind": "crf"}, work / chapter)
        nlp = {**config["nlp"], "span_model": str(model_dir), "span_model_mode": "override", "span_model_labels": ["LOCATION", "ACTOR"]}
        out[chapter] = {"": DocumentProcessor({**config, "nlp": nlp}),
                        "-document": DocumentProcessor({**config, "nlp": nlp, "actions": {**config["actions"], **document_config["actions"]}})}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON figures (default bench/results/siku-actions.json, or siku-actions-unseen.json)")
    parser.add_argument("--unseen", action="store_true", help="a 斷句 model that never saw the chapter, per chapter fold")
    parser.add_argument("--new-terms-out", action="store_true",
                        help="dev chapters only, each with its new terms out of the lexicon and a span CRF that never saw it")
    parser.add_argument("--witness", action="store_true",
                        help="also read the 四庫 and SBCK files with the chapter's XHTML file as witness (`yili process --witness`)")
    args = parser.parse_args()
    if args.out is None:
        name = "siku-actions-new-terms.json" if args.new_terms_out else "siku-actions-unseen.json" if args.unseen else "siku-actions.json"
        name = name.replace(".json", "-witness.json") if args.witness else name
        args.out = ROOT / "bench" / "results" / name

    from pipeline.actions.evaluate import _prf, match_tuples
    from pipeline.actions.report import gold_actions, load_split
    from pipeline.config import load_config
    from pipeline.labels import VERBS
    from pipeline.layers.features import strip_non_han
    from pipeline.process import DocumentProcessor
    from pipeline.read.inputs import read_file
    from pipeline.text.normalise import normalise_str

    config = load_config()
    config["actions"]["scope"] = "document"
    procs = {"": DocumentProcessor(), "-document": DocumentProcessor(config)}
    unseen = {}
    if args.unseen:
        from pipeline.actions.report import unseen_processors

        chapters = {str(r["meta"]["chapter"]) for split in ("dev", "test") for r in load_split(split)}
        unseen = {ch: {"": reader, "-document": DocumentProcessor(config, splitter=reader.splitter)}
                  for ch, reader in unseen_processors(chapters).items()}
    if args.new_terms_out:
        unseen = new_terms_out_processors(config)
    figures: dict = {"command": "python bench/siku_actions.py" + (" --unseen" if args.unseen else "")
                     + (" --new-terms-out" if args.new_terms_out else "") + (" --witness" if args.witness else ""), "splits": {}}
    for split in ("dev",) if args.new_terms_out else ("dev", "test"):
        records = load_split(split)
        by_chapter: dict[str, list] = defaultdict(list)
        for rec in records:
            by_chapter[rec["meta"]["chapter"]].append(rec)
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # matched, gold, predicted
        chapters = {}
        for chapter, recs in sorted(by_chapter.items()):
            editions = {}
            for key, folder in (("siku", "zhushu-siku"), ("xhtml", "zhushu-xhtml"), ("sbck", "zhengzhu-sbck")):
                path = next((CORPUS / folder).glob(f"{chapter}_*"), None)
                if path is None:
                    break
                for suffix, proc in (unseen.get(chapter) or procs).items():
                    out = proc.process(read_file(path).record)
                    stream, where = jing_stream(out["text"], out["segments"])
                    editions[key + suffix] = (stream, where, [a for a in out["actions"] if a.get("verb") in VERBS])
            if len(editions) < 2 * len(procs):
                continue
            if args.witness:  # the unpunctuated editions collated with the punctuated one
                reader = (unseen.get(chapter) or procs)[""]
                reader.use_witness([str(next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*")))])
                for key, folder in (("siku+witness", "zhushu-siku"), ("sbck+witness", "zhengzhu-sbck")):
                    out = reader.process(read_file(next((CORPUS / folder).glob(f"{chapter}_*"))).record)
                    stream, where = jing_stream(out["text"], out["segments"])
                    editions[key] = (stream, where, [a for a in out["actions"] if a.get("verb") in VERBS])
                reader.use_witness(None)
            counts = {key: [0, 0, 0] for key in editions}
            located = 0
            hints = {key: 0 for key in editions}
            for rec in sorted(recs, key=lambda r: int(str(r["meta"].get("doc", "p0")).rsplit("p", 1)[-1] or 0)):
                passage = normalise_str(strip_non_han(rec["text"]))
                # the unpunctuated gold writes a plural role 賓、介 as 賓介, as an unpunctuated edition can
                gold = {form: [t for t in gold_actions(rec, form) if t.get("verb") in VERBS]
                        for form in ("punctuated", "unpunctuated")}
                found = {}
                for key, (stream, where, actions) in editions.items():
                    span = locate(passage, stream, hints[key])
                    if span is not None:
                        hints[key] = span[1]
                        a, b = where[span[0]], where[span[1] - 1] + 1
                        found[key] = [t for t in actions if a <= t["start"] and t["end"] <= b + 1]
                if len(found) < len(editions):  # scored only where every edition holds the passage
                    continue
                located += 1
                for key, pred in found.items():
                    mm = match_tuples(gold["punctuated" if key.startswith("xhtml") else "unpunctuated"], pred, normalise_str)
                    for i, field in enumerate(("matched", "gold", "pred")):
                        counts[key][i] += mm[field]
            row = {"passages": len(recs), "located": located}
            for key, (tp, g, p) in counts.items():
                row[key] = _prf(tp, g, p)["f1"]
                for i in range(3):
                    totals[key][i] += counts[key][i]
            chapters[chapter] = row
            print(split, chapter, row, flush=True)
        overall = {key: {**_prf(tp, g, p), "gold": g} for key, (tp, g, p) in totals.items()}
        figures["splits"][split] = {"all": overall, "chapters": chapters}
        print(split, overall, flush=True)
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# Action tuples from the 四庫 edition end to end", "",
             f"`{figures['command']}`: each gold 經 passage located in the 四庫 file's 經 and scored on the "
             "(actor, verb, negated) key; the SBCK 鄭注 and XHTML files processed the same way (whole files).", "",
             ("Each dev chapter with its new terms out of the lexicon and a span CRF trained on the other dev "
              "chapters (bench/spans.py, setting unseen): a chapter the lexicon was not written from." if args.new_terms_out else
              "The 斷句 of each chapter by a model trained without that chapter's fold (what a chapter never seen "
              "gets); the layer model is the shipped one, trained on every chapter." if args.unseen else
              "The shipped 斷句 and layer models, trained on every corpus chapter (the test chapters too): "
              "`--unseen` reads each chapter with a 斷句 model that never saw it (siku-actions-unseen.md)."), "",
             "`-document`: the same with `[actions] scope = \"document\"` (the actor carried across passages, "
             "where the gold, made passage by passage as SCHEMA asks, says null).", "",
             *(["`+ witness`: the 四庫 and SBCK files read with the chapter's XHTML file as witness (`yili process "
                "--witness`): the e-book's 斷句 (and its layers, where the models decided) wherever the texts line up.", ""]
               if args.witness else []),
             "| split | chapter | passages | located in all | 四庫 file | SBCK 鄭注 file | XHTML file | 四庫, document scope | XHTML, document scope |"
             + (" 四庫 + witness | SBCK + witness |" if args.witness else ""),
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- | --- |" if args.witness else "")]
    for split, fig in figures["splits"].items():
        for chapter, row in fig["chapters"].items():
            lines.append(f"| {split} | {chapter} | {row['passages']} | {row['located']} | {row['siku']} | {row['sbck']} | {row['xhtml']} "
                         f"| {row['siku-document']} | {row['xhtml-document']} |"
                         + (f" {row['siku+witness']} | {row['sbck+witness']} |" if args.witness else ""))
        a = fig["all"]
        lines.append(f"| {split} | all | | | **{a['siku']['f1']}** | {a['sbck']['f1']} | {a['xhtml']['f1']} | {a['siku-document']['f1']} "
                     f"| {a['xhtml-document']['f1']} |"
                     + (f" {a['siku+witness']['f1']} | {a['sbck+witness']['f1']} |" if args.witness else ""))
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
