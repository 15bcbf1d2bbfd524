"""Span model beside the lexicon: leave-one-dev-chapter-out P/R/F1 per label, lexicon vs lexicon+model.

    .venv/bin/python bench/spans.py [--workers 2] [--out bench/results/spans.json]

Only the dev gold (``annotations/actions/dev``, chapters 03 04 05 07 10 15) is read: for each
chapter, a span model (:mod:`pipeline.nlp.span_model`) is trained on the five others and the
held-out chapter is tagged

- at character level, for every way of joining the model's spans to the lexicon's (``MODES``);
- through the real pipeline (``DocumentProcessor`` with ``[nlp] span_model`` set to the fold's
  model, the default jieba tokenizer), for the tuple F1 and the span F1 ``yili evaluate actions`` reports:
  each passage alone, the chapter's passages as one document, and the passages as the records of
  one JSONL file through `yili process` (``BatchRunner``), each naming its document in ``meta.doc``.

Two settings:

- ``loco``: the lexicon as shipped. It was written while reading the dev chapters, so it already
  knows every held-out chapter's terms: this flatters the lexicon;
- ``unseen``: the held-out chapter's *new* terms (gold span texts of that chapter that no other dev
  chapter has as a span; verbs are a closed list and stay) are removed from the lexicon for that
  fold, as the held-out test chapters' new terms are missing from it.

Writes ``bench/results/spans.json`` and ``spans.md``. ``--errors FILE`` also writes the held-out
passages with a tuple or span wrong (as ``yili evaluate actions --errors`` does for dev, here read
by fold models that never saw the chapter); ``--keep DIR`` keeps each fold's lexicon and model.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Optional

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pipeline.labels import SPAN_LABELS  # noqa: E402
from pipeline.actions.report import split_chapters  # noqa: E402

CHAPTERS = split_chapters("dev")
#: name → (mode, labels the model may add or change; None = all)
MODES: dict[str, tuple[str, Optional[tuple[str, ...]]]] = {
    "fill": ("fill", None),
    "override": ("override", None),
    "model": ("model", None),
    "override LOCATION": ("override", ("LOCATION",)),
    "override LOCATION+ACTOR": ("override", ("LOCATION", "ACTOR")),
    "override LOCATION+OBJECT": ("override", ("LOCATION", "OBJECT")),
    "override LOCATION+ACTOR+OBJECT": ("override", ("LOCATION", "ACTOR", "OBJECT")),
    "fill LOCATION+OBJECT": ("fill", ("LOCATION", "OBJECT")),
}
FORMS = ("punctuated", "unpunctuated")


def _ablated_lexicon(held_out: str, folder: Path) -> Path:
    """A copy of the lexicon without the held-out chapter's new terms (see the module docstring)."""
    from pipeline.nlp.lexicon import FILES, default_lexicon_dir
    from pipeline.nlp.span_model import load_gold
    from pipeline.text.normalise import normalise_str

    def span_texts(chapters):
        return {normalise_str(r["text"][s["start"]:s["end"]]) for r in load_gold(chapters) for s in r.get("spans") or []
                if s["label"] != "VERB"}

    new = span_texts([held_out]) - span_texts([c for c in CHAPTERS if c != held_out])
    src = default_lexicon_dir()
    folder.mkdir(parents=True, exist_ok=True)
    removed = []
    for item in src.iterdir():
        if not item.is_file():
            continue
        lines = item.read_text(encoding="utf-8").splitlines()
        if item.name in FILES.values() and item.name != FILES["VERB"]:
            kept = []
            for line in lines:
                head = line.split("\t")[0].strip()
                if head and not head.startswith("#") and normalise_str(head) in new:
                    removed.append(head)
                    continue
                kept.append(line)
            lines = kept
        (folder / item.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "REMOVED").write_text("\n".join(removed), encoding="utf-8")
    return folder


def fold_span_model(held_out: str, settings: dict[str, Any], work: Path, new_terms_out: bool = True):
    """The fold that leaves ``held_out`` out: the configuration (its lexicon without the chapter's
    new terms when ``new_terms_out``), the lexicon-only nlp of it, a span model trained on the other
    dev chapters, the folder it is saved in (under ``work``), and the terms taken out."""
    from pipeline.config import load_config
    from pipeline.nlp import span_model as sm
    from pipeline.nlp.build import build_nlp, lexicon_only

    config = load_config()
    removed: list[str] = []
    if new_terms_out:
        lex_dir = _ablated_lexicon(held_out, work / "lexicon")
        removed = [w for w in (lex_dir / "REMOVED").read_text(encoding="utf-8").split("\n") if w]
        config = {**config, "paths": {**(config.get("paths") or {}), "lexicon": str(lex_dir)}}
    lexicon_nlp = build_nlp(lexicon_only(config))
    cfg = {**sm.defaults_for(settings), **settings}
    train = sm.passages(sm.load_gold([c for c in CHAPTERS if c != held_out]), lexicon_nlp, unpunctuated=bool(cfg["unpunctuated"]))
    model = sm.fit(train, cfg)
    return config, lexicon_nlp, model, model.save(work / "model"), removed


def _count(bucket: dict[str, Counter], gold, pred) -> None:
    g, p = Counter(gold), Counter(pred)
    for (s, e, label), n in g.items():
        bucket[label]["gold"] += n
        bucket[label]["tp"] += min(n, p.get((s, e, label), 0))
    for (_s, _e, label), n in p.items():
        bucket[label]["pred"] += n


def _through_yili_process(processor: Any, records: list[dict[str, Any]], path: Path) -> list[dict[str, Any]]:
    """``records`` written to one JSONL file at ``path`` and read back from `yili process`'s output."""
    import srsly

    from pipeline.batch.runner import BatchRunner

    srsly.write_jsonl(path, records)
    out = path.with_name(path.stem + ".out.jsonl")
    BatchRunner(processor.config, jobs=1, resume=False, processor=processor).run([str(path)], out)
    return list(srsly.read_jsonl(out))


def run_fold(held_out: str, setting: str, settings: dict[str, Any], pipeline_mode: str, workdir: str,
             keep: Optional[str] = None) -> dict[str, Any]:
    from pipeline.actions.report import _Scores, error_records, gold_actions, variant
    from pipeline.nlp import span_model as sm
    from pipeline.process import DocumentProcessor
    from pipeline.text.normalise import normalise_str

    started = time.perf_counter()
    work = Path(workdir) / f"{setting}-{held_out}"
    config, lexicon_nlp, model, model_dir, removed = fold_span_model(held_out, settings, work, setting == "unseen")
    records = sm.load_gold([held_out])

    # character level: every mode
    char_counts: dict[str, dict[str, dict[str, Counter]]] = {}
    for form in FORMS:
        test = [sm.Passage(*sm._view_of(r["text"], r.get("spans") or [], form == "unpunctuated"), []) for r in records]
        from pipeline.nlp.build import tag_spans

        for p in test:
            p.lexicon = tag_spans(lexicon_nlp, p.text)
        preds = model.predict_many([(p.text, p.lexicon) for p in test])
        counts = {name: defaultdict(Counter) for name in ("lexicon", *MODES)}
        for p, found in zip(test, preds):
            _count(counts["lexicon"], p.gold, p.lexicon)
            for name, (mode, labels) in MODES.items():
                _count(counts[name], p.gold, sm.combine(p.lexicon, found, mode, labels))
        char_counts[form] = {k: {lb: dict(c) for lb, c in v.items()} for k, v in counts.items()}

    # the real pipeline, lexicon alone and with the fold's model; "document": the model, the chapter's
    # passages read as one document (DocumentProcessor.process_document), as `yili process` reads a
    # chapter file (the per-passage gold is scored passage by passage); "records": the same passages as
    # the records of one JSONL file through `yili process` (BatchRunner), each naming its document in
    # meta.doc as the gold does (pipeline/batch/passages.py)
    pipeline: dict[str, Any] = {}
    errors: list[dict[str, Any]] = []
    model_cfg = {"span_model": str(model_dir), "span_model_mode": MODES[pipeline_mode][0], "span_model_labels": MODES[pipeline_mode][1]}
    for name, nlp_cfg in (("lexicon", {"span_model": None}), ("model", model_cfg), ("document", model_cfg), ("records", model_cfg)):
        processor = DocumentProcessor({**config, "nlp": {**config["nlp"], **nlp_cfg}})
        per_form = {}
        for form in FORMS:
            docs = [{"text": variant(rec, form)[0], "meta": {"layer": "JING"}} for rec in records]
            if name == "records":
                outs = _through_yili_process(processor, [{**d, "meta": {**d["meta"], "doc": rec["meta"]["doc"]}}
                                                         for d, rec in zip(docs, records)], work / f"{form}.jsonl")
            else:
                outs = processor.process_document(docs) if name == "document" else [processor.process(d) for d in docs]
            scores = _Scores()
            texts, spans = {}, {}
            for n, (rec, out) in enumerate(zip(records, outs)):
                text, gold_spans = variant(rec, form)
                doc = str(rec["meta"].get("doc", n))
                scores.add(doc, gold_actions(rec, form), out["actions"], gold_spans, out["spans"])
                texts[doc], spans[doc] = (held_out, text), (gold_spans, out["spans"])
            per_form[form] = {"gold": scores.gold, "pred": scores.pred, "spans": {k: dict(v) for k, v in scores.span_counts.items()}}
            if name in ("model", "document"):
                scores.figures(normalise_str)
                errors += [{"setting": setting, "reading": "passage" if name == "model" else "chapter as document", **r}
                           for r in error_records(scores.scored, texts, form, spans)]
        pipeline[name] = per_form
    if keep:
        shutil.copytree(work, Path(keep) / f"{setting}-{held_out}", dirs_exist_ok=True)
    return {"chapter": held_out, "setting": setting, "chars": char_counts, "pipeline": pipeline, "removed_terms": removed, "errors": errors,
            "train_seconds": model.info["train_seconds"], "seconds": round(time.perf_counter() - started, 1)}


def _prf(c: Counter) -> dict[str, float]:
    from pipeline.actions.evaluate import _prf as prf

    return {**prf(c.get("tp", 0), c.get("gold", 0), c.get("pred", 0)), "gold": c.get("gold", 0)}


def _label_table(per_label: dict[str, Counter]) -> dict[str, Any]:
    out = {lb: _prf(per_label.get(lb, Counter())) for lb in SPAN_LABELS}
    total = Counter()
    for lb in SPAN_LABELS:
        total.update(per_label.get(lb, Counter()))
    out["all"] = _prf(total)
    return out


def aggregate(folds: list[dict[str, Any]]) -> dict[str, Any]:
    from pipeline.actions.evaluate import match_tuples
    from pipeline.text.normalise import normalise_str

    out: dict[str, Any] = {}
    for setting in sorted({f["setting"] for f in folds}):
        mine = [f for f in folds if f["setting"] == setting]
        chars: dict[str, Any] = {}
        for form in FORMS:
            by_mode: dict[str, Any] = {}
            for mode in ("lexicon", *MODES):
                pooled: dict[str, Counter] = defaultdict(Counter)
                for f in mine:
                    for lb, c in f["chars"][form][mode].items():
                        pooled[lb].update(c)
                by_mode[mode] = _label_table(pooled)
            chars[form] = by_mode
        pipe: dict[str, Any] = {}
        for name in ("lexicon", "model", "document", "records"):
            per_form = {}
            for form in FORMS:
                gold = [t for f in mine for t in f["pipeline"][name][form]["gold"]]
                pred = [t for f in mine for t in f["pipeline"][name][form]["pred"]]
                tuples = match_tuples(gold, pred, normalise_str)
                pooled = defaultdict(Counter)
                for f in mine:
                    for lb, c in f["pipeline"][name][form]["spans"].items():
                        pooled[lb].update(c)
                per_form[form] = {"tuples": {k: tuples[k] for k in ("gold", "pred", "matched", "precision", "recall", "f1")},
                                  "spans": _label_table(pooled)}
            pipe[name] = per_form
        per_chapter = {}
        for f in mine:
            row = {}
            for mode in ("lexicon", *MODES):
                row[mode] = _label_table({lb: Counter(c) for lb, c in f["chars"]["punctuated"][mode].items()})["all"]["f1"]
            per_chapter[f["chapter"]] = row
        out[setting] = {"chars": chars, "pipeline": pipe, "chapters": per_chapter,
                        "removed_terms": {f["chapter"]: f["removed_terms"] for f in mine}}
    return out


def markdown(result: dict[str, Any]) -> list[str]:
    lines = [f"# Span model beside the lexicon — leave-one-dev-chapter-out ({result['date']})", "",
             f"`{result['command']}`; model settings `{json.dumps(result['settings'], ensure_ascii=False)}`; "
             f"pipeline runs use mode `{result['pipeline_mode']}`. Dev gold only: the held-out test chapters are not read here.", ""]
    for setting, r in result["cv"].items():
        lines += [f"## {setting}: " + ("lexicon as shipped (knows every dev chapter's terms)" if setting == "loco"
                  else "held-out chapter's new terms removed from the lexicon"), ""]
        for form in FORMS:
            lines += [f"### span F1 per label, character level, {form} (P/R/F1 of all)", "",
                      "| spans from | P | R | F1 | " + " | ".join(SPAN_LABELS) + " |",
                      "| --- | --- | --- | --- | " + " | ".join("---" for _ in SPAN_LABELS) + " |"]
            for mode, t in r["chars"][form].items():
                a = t["all"]
                lines.append(f"| {'lexicon' if mode == 'lexicon' else 'lexicon+model ' + mode} | {a['precision']:.3f} | "
                             f"{a['recall']:.3f} | {a['f1']:.3f} | " + " | ".join(f"{t[lb]['f1']:.3f}" for lb in SPAN_LABELS) + " |")
            lines.append("")
        lines += ["### through the real pipeline (tuples and spans as `yili evaluate actions` scores them)", "",
                  "| spans from | form | tuple P | tuple R | tuple F1 | span P | span R | span F1 | " + " | ".join(SPAN_LABELS) + " |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | " + " | ".join("---" for _ in SPAN_LABELS) + " |"]
        for name, per_form in r["pipeline"].items():
            for form, v in per_form.items():
                t, s = v["tuples"], v["spans"]
                label = {"lexicon": "lexicon", "model": "lexicon+model " + result["pipeline_mode"],
                         "document": "lexicon+model " + result["pipeline_mode"] + ", chapter as one document",
                         "records": "lexicon+model " + result["pipeline_mode"] + ", passages as records of one JSONL file (`yili process`)"}[name]
                lines.append(f"| {label} | {form} | "
                             f"{t['precision']:.3f} | {t['recall']:.3f} | {t['f1']:.3f} | {s['all']['precision']:.3f} | "
                             f"{s['all']['recall']:.3f} | {s['all']['f1']:.3f} | " + " | ".join(f"{s[lb]['f1']:.3f}" for lb in SPAN_LABELS) + " |")
        modes = ["lexicon", *MODES]
        lines += ["", "### span F1 per held-out chapter (character level, punctuated)", "",
                  "| chapter | " + " | ".join(modes) + " |", "| --- | " + " | ".join("---" for _ in modes) + " |"]
        for ch, row in sorted(r["chapters"].items()):
            lines.append(f"| {ch} | " + " | ".join(f"{row[m]:.3f}" for m in modes) + " |")
        lines.append("")
    return lines


def main(argv: Optional[list[str]] = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "spans.json")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--settings", default="{}", help="JSON overrides of span_model.DEFAULTS (or span_crf.DEFAULTS with --kind crf)")
    ap.add_argument("--kind", default="ner", choices=("ner", "crf"), help="the span model trained per fold: spaCy ner or the CRF")
    ap.add_argument("--mode", default="override", choices=list(MODES), help="how model spans join the lexicon's in the pipeline runs")
    ap.add_argument("--setting", action="append", choices=("loco", "unseen"), help="default: both")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--errors", type=Path, help="also write the passages with a tuple or span wrong, read with each fold's model "
                    "(each passage alone and the chapter as one document), as JSONL: what to read when changing a rule")
    ap.add_argument("--keep", type=Path, help="keep each fold's lexicon and model under this folder (SETTING-CHAPTER/)")
    args = ap.parse_args(argv)
    settings = json.loads(args.settings)
    if args.kind == "crf":
        settings = {**settings, "kind": "crf"}
    started = time.perf_counter()
    jobs = [(ch, st) for st in (args.setting or ["loco", "unseen"]) for ch in CHAPTERS]
    work = tempfile.mkdtemp(prefix="yili-spans-")
    keep = str(args.keep.resolve()) if args.keep else None
    try:
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                folds = list(pool.map(run_fold, *zip(*[(ch, st, settings, args.mode, work, keep) for ch, st in jobs])))
        else:
            folds = [run_fold(ch, st, settings, args.mode, work, keep) for ch, st in jobs]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    from pipeline.nlp.span_model import defaults_for

    result = {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": "python bench/spans.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "settings": {**defaults_for(settings), **settings},
        "pipeline_mode": args.mode,
        "chapters": list(CHAPTERS),
        "cv": aggregate(folds),
        "fold_seconds": {f"{f['setting']}-{f['chapter']}": f["seconds"] for f in folds},
        "seconds": round(time.perf_counter() - started, 1),
    }
    if args.errors:
        import srsly

        args.errors.parent.mkdir(parents=True, exist_ok=True)
        srsly.write_jsonl(args.errors, [r for f in folds for r in f["errors"]])
    md = markdown(result)
    if not args.no_write:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        args.out.with_suffix(".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return result


if __name__ == "__main__":
    main()
