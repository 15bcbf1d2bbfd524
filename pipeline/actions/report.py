"""``yili evaluate actions``: the whole pipeline scored against the hand-made action gold.

Each gold record (one 經 passage, SCHEMA section 5) goes through :class:`DocumentProcessor` as a
record with ``meta.layer = "JING"`` and its ``meta.chapter`` — the same path ``yili process`` takes —
in these forms:

- ``punctuated``: the edition's text as annotated;
- ``unpunctuated``: every mark stripped, so sentences come from the 斷句 model;
- ``simplified``: the text converted character by character to simplified script;
- ``unpunctuated-unseen``: the unpunctuated form, its 斷句 by a model that never saw the chapter
  (trained with the shipped model's settings on the other chapter folds of ``yili evaluate
  segmentation``). The shipped 斷句 model was trained on every corpus chapter, the test chapters
  too, so the ``unpunctuated`` form flatters it: this form is what a chapter never seen gets.

Tuples are matched on the (actor, verb, negated) key (both sides folded by the normaliser, so a
simplified 宾 matches a traditional 賓), role accuracies are taken on the matched pairs, and the
lexicon spans are scored against the gold spans per label (exact offsets). Figures are per split
(dev = developed on, test = held-out chapters) and per chapter, never pooled across the two.
"""

from __future__ import annotations

import datetime as _dt
import json
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

from pipeline.actions.evaluate import _prf, match_tuples
from pipeline.labels import SPAN_LABELS, VERBS

REPO = Path(__file__).resolve().parents[2]
GOLD_DIR = REPO / "annotations" / "actions"
RESULTS = REPO / "bench" / "results"
VARIANTS: tuple[str, ...] = ("punctuated", "unpunctuated", "simplified")
#: the unpunctuated form read by a 斷句 model that never saw the passage's chapter
UNSEEN = "unpunctuated-unseen"


def split_chapters(split: str, folder: Optional[Path] = None) -> tuple[str, ...]:
    """The chapters of a split of the gold (``dev``: the ones developed on), from its files
    ``folder/split/NN.jsonl`` — the one place that says which chapters a split holds."""
    folder = folder if folder is not None else GOLD_DIR
    chapters = tuple(sorted(f.stem for f in (folder / split).glob("*.jsonl") if f.stem.isdigit()))
    if not chapters:
        raise FileNotFoundError(f"no gold chapters under {folder / split}")
    return chapters


def load_split(split: str, folder: Optional[Path] = None, refused: Optional[list[str]] = None) -> list[dict]:
    """The gold records of ``folder/split/*.jsonl``, each tagged with its chapter. A line that is no
    valid record is named in ``refused`` and left out (None: it raises;
    :func:`pipeline.annotate.gold.read_gold`)."""
    from pipeline.annotate.gold import read_gold_folder

    folder = folder if folder is not None else GOLD_DIR
    records = read_gold_folder(folder / split, refused)
    if not records:
        raise FileNotFoundError(f"no gold records under {folder / split}")
    return records


def _strip(text: str) -> tuple[str, list[int]]:
    """``text`` without punctuation or spaces, and for each old index its new index."""
    from pipeline.text.marks import is_text_char

    kept: list[str] = []
    where: list[int] = []
    for ch in text:
        where.append(len(kept))
        if is_text_char(ch):
            kept.append(ch)
    where.append(len(kept))
    return "".join(kept), where


def _simplify(text: str) -> str:
    """Traditional → simplified with opencc, character by character where a phrase rule would move offsets."""
    from pipeline.text.normalise import _t2s

    convert = _t2s().convert
    out = convert(text)
    if len(out) != len(text):
        out = "".join(c if len(c := convert(ch)) == 1 else ch for ch in text)
    return out


def variant(record: dict, name: str) -> tuple[str, list[dict]]:
    """The text of ``record`` in form ``name`` and its gold spans moved into that text."""
    text = record["text"]
    spans = [dict(s) for s in record.get("spans", [])]
    if name in ("unpunctuated", UNSEEN):
        stripped, where = _strip(text)
        for s in spans:
            s["start"], s["end"] = where[s["start"]], where[s["end"]]
        return stripped, [s for s in spans if s["end"] > s["start"]]
    if name == "simplified":
        return _simplify(text), spans
    return text, spans


_ROLE_TEXTS = ("actor", "object", "target", "location", "facing", "purpose")


def gold_actions(record: dict, name: str) -> list[dict]:
    """The gold tuples of ``record`` as they can be written in form ``name``: in the unpunctuated
    form a plural role written 賓、介 in the edition can only be read as 賓介, so the marks are
    dropped from the gold strings too, and the clause offsets move into the stripped text (the verb,
    counts and flags are unchanged)."""
    actions = record.get("actions", [])
    if name not in ("unpunctuated", UNSEEN):
        return actions
    where = _strip(record["text"])[1]
    return [{**a, **{r: _strip(a[r])[0] for r in _ROLE_TEXTS if isinstance(a.get(r), str)},
             **{k: where[a[k]] for k in ("start", "end") if isinstance(a.get(k), int)}} for a in actions]


class _Scores:
    """Tuples and spans gathered over a set of records."""

    def __init__(self) -> None:
        self.gold: list[dict] = []
        self.pred: list[dict] = []
        self.span_counts: dict[str, Counter] = defaultdict(Counter)
        self.scored: dict[str, Any] = {}  # what match_tuples said, once figures() has run

    def add(self, doc: str, gold: list[dict], pred: list[dict], gold_spans: list[dict], pred_spans: list[dict]) -> None:
        allowed = set(VERBS)
        self.gold += [dict(t, doc=doc) for t in gold if t.get("verb") in allowed]
        self.pred += [dict(t, doc=doc) for t in pred if t.get("verb") in allowed]
        g = Counter((s["start"], s["end"], s["label"]) for s in gold_spans)
        p = Counter((s["start"], s["end"], s["label"]) for s in pred_spans)
        for (s, e, label), n in g.items():
            self.span_counts[label]["gold"] += n
            self.span_counts[label]["tp"] += min(n, p.get((s, e, label), 0))
        for (_s, _e, label), n in p.items():
            self.span_counts[label]["pred"] += n

    def figures(self, normalise: Callable[[str], str]) -> dict[str, Any]:
        tuples = self.scored = match_tuples(self.gold, self.pred, normalise)
        out: dict[str, Any] = {k: tuples[k] for k in ("gold", "pred", "matched", "precision", "recall", "f1")}
        out["roles"] = {role: v["accuracy"] for role, v in tuples["roles"].items()}
        out["errors"] = tuples["errors"]
        spans: dict[str, Any] = {}
        total = Counter()
        for label in SPAN_LABELS:
            c = self.span_counts.get(label, Counter())
            total.update(c)
            spans[label] = {**_prf(c["tp"], c["gold"], c["pred"]), "gold": c["gold"]}
        spans["all"] = {**_prf(total["tp"], total["gold"], total["pred"]), "gold": total["gold"]}
        out["spans"] = spans
        return out


def _meta(record: dict) -> dict[str, Any]:
    """What the reader is told of a gold passage: a 經 passage, and its chapter (the annotator knew
    it; in 士喪禮 and 既夕禮 尸 is the corpse: :mod:`pipeline.actions.rites`)."""
    chapter = (record.get("meta") or {}).get("chapter")
    return {"layer": "JING", **({"chapter": chapter} if chapter is not None else {})}


def score_records(records: Sequence[dict], processor: Any, variants: Iterable[str] = VARIANTS,
                  unseen: Optional[dict[str, Any]] = None, as_documents: bool = False,
                  errors: Optional[list[dict]] = None) -> dict[str, Any]:
    """Figures per variant for ``records`` overall and per chapter. ``unseen`` (chapter → processor
    whose 斷句 model never saw that chapter, from :func:`unseen_processors`) adds the form :data:`UNSEEN`.
    Each passage is read alone; with ``as_documents`` the passages of a chapter are read as one
    document's (``DocumentProcessor.process_document``: the names any of them gives hold in all).
    ``errors``, a list, gets one record per passage and form with a tuple wrong (:func:`error_records`)."""
    from pipeline.text.normalise import normalise_str

    def chapter(rec: dict) -> str:
        return str((rec.get("meta") or {}).get("chapter"))

    result: dict[str, Any] = {}
    for name in [*variants, *([UNSEEN] if unseen else [])]:
        overall = _Scores()
        chapters: dict[str, _Scores] = defaultdict(_Scores)
        outputs: dict[int, dict] = {}
        if as_documents:
            documents: dict[str, list[int]] = defaultdict(list)
            for n, rec in enumerate(records):
                documents[chapter(rec)].append(n)
            for ch, mine in documents.items():
                reader = unseen[ch] if name == UNSEEN else processor
                done = reader.process_document([{"text": variant(records[n], name)[0], "meta": _meta(records[n])} for n in mine])
                outputs.update(zip(mine, done))
        texts: dict[str, tuple[str, str]] = {}
        spans: dict[str, tuple[list[dict], list[dict]]] = {}
        for n, rec in enumerate(records):
            text, gold_spans = variant(rec, name)
            meta = rec.get("meta") or {}
            reader = unseen[chapter(rec)] if name == UNSEEN else processor
            out = outputs[n] if as_documents else reader.process({"text": text, "meta": _meta(rec)})
            doc = str(meta.get("doc", n))
            texts[doc] = (str(meta.get("chapter", "?")), text)
            spans[doc] = (gold_spans, out["spans"])
            for bucket in (overall, chapters[str(meta.get("chapter", "?"))]):
                bucket.add(doc, gold_actions(rec, name), out["actions"], gold_spans, out["spans"])
        result[name] = {"all": overall.figures(normalise_str),
                        "chapters": {ch: s.figures(normalise_str) for ch, s in sorted(chapters.items())}}
        if errors is not None:
            errors.extend(error_records(overall.scored, texts, name, spans))
    return result


def span_errors(text: str, gold: list[dict], pred: list[dict]) -> list[dict[str, Any]]:
    """The spans of one passage that are not read exactly as the gold has them, each once: a gold span
    read with other ends (``boundary``: the read span of its label that overlaps it most), read with
    the same ends under another label (``label``), not read at all (``missed``); and read spans no
    gold span accounts for (``spurious``). Each gold span not read exactly is one record (boundary,
    label or missed, under the gold's label), and so is each read span not in the gold (the ``read``
    of a boundary or label record, or spurious): a label's records add up to its gold − tp, and its
    read − tp counts its spurious records and the reads of its label."""
    def key(s: dict) -> tuple[int, int, str]:
        return (s["start"], s["end"], s["label"])

    left_gold = Counter(key(s) for s in gold)
    left_pred = Counter(key(s) for s in pred)
    for k in list(left_gold):
        both = min(left_gold[k], left_pred[k])
        left_gold[k] -= both
        left_pred[k] -= both
    out: list[dict[str, Any]] = []
    for s, e, label in sorted(k for k, n in left_gold.items() for _ in range(n)):
        same_ends = next(((s, e, lb) for lb in sorted(SPAN_LABELS) if left_pred[s, e, lb] > 0), None)
        overlapping = sorted((k for k in left_pred if left_pred[k] > 0 and k[2] == label and k[0] < e and s < k[1]),
                             key=lambda k: (-(min(e, k[1]) - max(s, k[0])), k))
        read = same_ends or (overlapping[0] if overlapping else None)
        if read is not None:
            left_pred[read] -= 1
        kind = "label" if same_ends else "boundary" if read else "missed"
        out.append({"kind": kind, "label": label, "start": s, "end": e, "text": text[s:e],
                    "read": None if read is None else {"label": read[2], "start": read[0], "end": read[1], "text": text[read[0]:read[1]]}})
    for k in sorted(k for k, n in left_pred.items() for _ in range(n)):
        out.append({"kind": "spurious", "label": k[2], "start": k[0], "end": k[1], "text": text[k[0]:k[1]], "read": None})
    return sorted(out, key=lambda x: (x["start"], x["end"], x["label"]))


def _error_order(e: dict[str, Any]) -> tuple:
    """Text order, then a fixed order for the errors of one clause (they come in set order)."""
    return (e["start"] is None, e["start"] or 0, e["verb"] or "", e["kind"], str(e["gold_actor"]), str(e["actor"]))


def error_records(tuples: dict[str, Any], texts: dict[str, tuple[str, str]], form: str,
                  spans: Optional[dict[str, tuple[list[dict], list[dict]]]] = None) -> list[dict[str, Any]]:
    """One record per passage with a tuple or a span wrong: its text, each unmatched tuple with its
    kind (``tuples["unmatched"]``, what :func:`match_tuples` said), the gold and the read actor, and the
    clause (``errors``); and, given ``spans`` (doc → gold and read spans), the spans read wrong
    (``span_errors``, :func:`span_errors`)."""
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (kind, gold, pred), carried in zip(tuples["unmatched"], tuples["carried_kinds"]):
        some = gold or pred
        text = texts[str(some["doc"])][1]
        clause = next((t for t in (gold, pred) if t is not None and t.get("start") is not None), None)
        by_doc[str(some["doc"])].append({
            "kind": kind, "verb": some.get("verb"), "negated": bool(some.get("negated")),
            "gold_actor": gold.get("actor") if gold else None, "actor": pred.get("actor") if pred else None,
            "actor_inferred": gold.get("actor_inferred") if gold else None, "carried": carried,
            "clause": text[clause["start"]:clause["end"]] if clause else None,
            "start": some.get("start"),
        })
    wrong_spans = {doc: span_errors(texts[doc][1], *pair) for doc, pair in (spans or {}).items()}
    docs = set(by_doc) | {doc for doc, found in wrong_spans.items() if found}
    return [{"form": form, "chapter": texts[doc][0], "doc": doc, "text": texts[doc][1],
             "errors": sorted(by_doc.get(doc, []), key=_error_order),
             **({"span_errors": wrong_spans[doc]} if spans is not None else {})}
            for doc in sorted(docs, key=lambda d: (texts[d][0], d))]


def unseen_processors(chapters: Iterable[str], config: Optional[dict] = None, workers: int = 2) -> dict[str, Any]:
    """chapter → a processor whose 斷句 model was trained without that chapter's fold (the chapter
    folds of ``yili evaluate segmentation``, the shipped model's settings and lexicon terms; ~1 min
    per fold). With the shipped terms an edit of the lexicon changes the reader, not the folds' cuts
    (before 2026-12-01 the folds read the lexicon as it was, and each edit moved a dozen passages)."""
    from concurrent.futures import ProcessPoolExecutor
    from functools import partial

    from pipeline.layers.training import fold_punctuator
    from pipeline.process import DocumentProcessor
    from pipeline.text.punctuate import training_units
    from pipeline.text.segmentation_eval import chapter_folds

    every = sorted({u[0] for u in training_units()})
    folds = [fold for fold in chapter_folds(every, 4) if set(fold) & set(chapters)]
    train = [[ch for ch in every if ch not in fold] for fold in folds]
    if workers > 1 and len(train) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(train))) as pool:
            models = list(pool.map(partial(fold_punctuator, shipped_terms=True), train))
    else:
        models = [fold_punctuator(chapters_, shipped_terms=True) for chapters_ in train]
    out: dict[str, Any] = {}
    for fold, model in zip(folds, models):
        reader = DocumentProcessor(config, splitter=model)
        out.update({ch: reader for ch in fold})
    return out


def chosen_forms(forms: Optional[Iterable[str]] = None) -> list[str]:
    """The forms of :data:`VARIANTS` named in ``forms`` (every one when none is), in their order; an
    unknown one is a ValueError naming the choices."""
    forms = list(forms or VARIANTS)
    unknown = [f for f in forms if f not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown --form {', '.join(unknown)}: choose from {', '.join(VARIANTS)}")
    return [f for f in VARIANTS if f in forms]


def evaluate_actions(out_file: Optional[Path] = None, splits: Sequence[str] = ("dev", "test"),
                     config: Optional[dict] = None, config_path: Optional[Path] = None, unseen: bool = True,
                     workers: int = 2, documents: bool = True, refused: Optional[list[str]] = None,
                     forms: Optional[Iterable[str]] = None, errors_file: Optional[Path] = None,
                     error_splits: Sequence[str] = ("dev",)) -> dict[str, Any]:
    """Score every split in each of ``forms`` (:func:`chosen_forms`); write JSON to ``out_file`` and a
    Markdown summary beside it. With ``unseen`` also the form :data:`UNSEEN` (trains a 斷句 model per
    chapter fold first); with ``documents`` every form again, each chapter's passages read as one
    document. Gold lines that are no valid record are named in ``refused`` and left out (None: the
    first raises). With ``errors_file``, the passages of ``error_splits`` with a tuple or span wrong are
    written there as JSONL (:func:`error_records`, each passage read alone): the held-out split is
    left out unless named, since reading its errors is developing on it."""
    forms = chosen_forms(forms)
    from pipeline.process import DocumentProcessor

    out_file = Path(out_file) if out_file is not None else RESULTS / "actions.json"
    started = time.perf_counter()
    gold = {split: load_split(split, refused=refused) for split in splits}
    processor = DocumentProcessor(config)
    readers = None
    if unseen:
        chapters = {str((r.get("meta") or {}).get("chapter")) for records in gold.values() for r in records}
        readers = unseen_processors(chapters, config, workers)
    figures: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": "yili evaluate actions" + (f" -c {config_path}" if config_path else "") + ("" if unseen else " --no-unseen")
                   + ("" if documents else " --no-documents") + ("".join(f" --form {f}" for f in forms) if len(forms) < len(VARIANTS) else ""),
        "note": "dev chapters were used to develop the rules; test chapters (12 13 14 17) were never looked at "
                "while developing. Tuple key (actor, verb, negated); roles on matched tuples; spans exact.",
        "splits": {},
        #: the same, each chapter's passages read as one document (the names any gives hold in all)
        "documents": {},
    }
    wrong: list[dict] = []
    for split, records in gold.items():
        mine: Optional[list[dict]] = [] if errors_file is not None and split in error_splits else None
        figures["splits"][split] = {"passages": len(records), **score_records(records, processor, forms, unseen=readers, errors=mine)}
        wrong += [{"split": split, **record} for record in mine or []]
        if documents:
            figures["documents"][split] = score_records(records, processor, forms, unseen=readers, as_documents=True)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps(figures, ensure_ascii=False, indent=1), encoding="utf-8")
    out_file.with_suffix(".md").write_text("\n".join(markdown(figures)) + "\n", encoding="utf-8")
    if errors_file is not None:
        import srsly

        Path(errors_file).parent.mkdir(parents=True, exist_ok=True)
        srsly.write_jsonl(errors_file, wrong)
    return figures


def markdown(figures: dict[str, Any]) -> list[str]:
    """The headline tables: per split and form, then per chapter (punctuated)."""
    roles = ("object", "target", "location", "facing", "count", "response", "purpose")
    lines = [
        "| split | form | passages | gold tuples | P | R | F1 | " + " | ".join(roles) + " | span F1 |",
        "| --- | --- | --- | --- | --- | --- | --- | " + " | ".join("---" for _ in roles) + " | --- |",
    ]
    for split, s in figures["splits"].items():
        for form, a in [(form, s[form]["all"]) for form in (*VARIANTS, UNSEEN) if form in s] + [
                (form + ", chapter as document", d["all"]) for form, d in figures.get("documents", {}).get(split, {}).items()]:
            lines.append(
                f"| {split} | {form} | {s['passages']} | {a['gold']} | {a['precision']:.3f} | {a['recall']:.3f} | "
                f"{a['f1']:.3f} | " + " | ".join(f"{a['roles'].get(r, 0):.3f}" for r in roles)
                + f" | {a['spans']['all']['f1']:.3f} |"
            )
    if any(UNSEEN in s for s in figures["splits"].values()):
        lines += ["", "`unpunctuated` is read by the shipped 斷句 model, which was trained on every corpus chapter (the",
                  "test chapters too); `unpunctuated-unseen` by a 斷句 model trained without the passage's chapter fold:",
                  "what a chapter never seen gets."]
    if figures.get("documents"):
        lines += ["", "Each passage is read alone, as the gold was made; \"chapter as document\": the passages of a",
                  "chapter are read as one document's, as `yili process` reads the chapter's file (a participant the",
                  "lexicon lacks, read in one passage or from the clause openings of all, is one in every passage)."]
    lines += error_table(figures)
    lines += ["", "| split | chapter | gold tuples | F1 (punctuated) | F1 (unpunctuated) | F1 (unpunctuated-unseen) | span F1 | "
              + " | ".join(SPAN_LABELS) + " |", "| --- | --- | --- | --- | --- | --- | --- | "
              + " | ".join("---" for _ in SPAN_LABELS) + " |"]
    nan = float("nan")
    for split, s in figures["splits"].items():
        scored = [s[form] for form in (*VARIANTS, UNSEEN) if form in s]
        for ch in (scored[0]["chapters"] if scored else {}):  # a form left out (--form) reads nan
            a, u, v = (s.get(form, {}).get("chapters", {}).get(ch) for form in ("punctuated", "unpunctuated", UNSEEN))
            gold = scored[0]["chapters"][ch]["gold"]  # the same tuples in every form
            lines.append(
                f"| {split} | {ch} | {gold} | {a['f1'] if a else nan:.3f} | {u['f1'] if u else nan:.3f} | "
                f"{v['f1'] if v else nan:.3f} | "
                f"{a['spans']['all']['f1'] if a else nan:.3f} | "
                + " | ".join(f"{a['spans'][lb]['f1'] if a else nan:.3f}" for lb in SPAN_LABELS) + " |"
            )
    return lines


def error_table(figures: dict[str, Any]) -> list[str]:
    """Where the tuples go wrong, per split and form (each passage alone): recall of the tuples whose
    actor the clause writes and of those carried over, then the unmatched tuples by kind
    (:func:`pipeline.actions.evaluate.error_kinds`)."""
    rows = []
    for split, s in figures["splits"].items():
        for form in ("punctuated", UNSEEN):
            errors = s.get(form, {}).get("all", {}).get("errors")
            if not errors:
                continue
            w, i = errors["by_actor"]["written"], errors["by_actor"]["inferred"]
            c = errors.get("carried", {})
            rows.append(f"| {split} | {form} | {w['gold']} | {w['recall']:.3f} | {i['gold']} | {i['recall']:.3f} | "
                        f"{errors['actor_wrong']} | {errors['actor_none']} | {errors['verb_missed']} | {errors['verb_spurious']} | "
                        + " | ".join(str(c.get(k, "–")) for k in ("handed_on", "reader_kept", "reader_changed", "both_changed")) + " |")
    if not rows:
        return []
    return ["", "Where the tuples go wrong (passages alone): recall of the gold tuples whose actor the clause writes",
            "and of those whose actor is carried over (subject ellipsis); then the unmatched tuples — an act given",
            "to the wrong actor or to nobody (each costs a missed and a spurious tuple), a verb missed, a verb read",
            "where the gold has none. The acts of a carried actor given to the wrong one, by what went wrong: the",
            "reader and the gold both kept the actor of the act before (the error handed on from it), the reader",
            "kept it where the gold changes it, changed it where the gold keeps it, or both changed it.", "",
            "| split | form | actor written | recall | actor carried | recall | wrong actor | no actor | verb missed | verb spurious "
            "| carried: handed on | reader kept | reader changed | both changed |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rows]
