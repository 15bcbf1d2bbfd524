"""Training and evaluating the layer model and the run-together splitter.

Data: the units of ../shared/corpus (:mod:`pipeline.corpus`: four editions, eleven chapters, the
readers' corrections applied) and the gold layer records of ``annotations/layers/`` (from the
seeds, checked by hand). What the model learns from, per unit:

- the unit as the edition gives it (punctuated in the XHTML, unpunctuated elsewhere);
- the XHTML unit with its punctuation stripped, so punctuated and unpunctuated input look alike;
- the single sentences of multi-sentence XHTML 經 and 注 units, because the pipeline meets short
  units (one 經 sentence) too.

Left out: the 四庫 注 runs whose end is unmarked (``unmarked-end``: they may run into the next 經)
and 喪服's 子夏傳 (``zixia-zhuan``: tagged 經 by the e-book, neither 經 nor 注 for a scholar).

Evaluation is by chapter only: the chapters are dealt into folds, each fold's chapters are
held out while the model learns from the others, and every figure is on held-out chapters.
The plain baseline (TF-IDF character 1–3-grams + LinearSVC) is trained on the same data in the
same folds.
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
import random
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

import numpy as np

from pipeline.labels import LAYERS
from pipeline.records import RunShape
from pipeline.layers.classifier import CARD_FILE, LayerClassifier, default_model_dir
from pipeline.layers.features import is_han, strip_non_han
from pipeline.layers.splitter import RunTogetherSplitter

ROOT = Path(__file__).resolve().parents[2]
ANNOTATIONS = ROOT / "annotations" / "layers"
RESULTS = ROOT / "bench" / "results"

#: unit notes (see pipeline.corpus) whose layer is doubtful: never learned from nor scored
EXCLUDE_NOTES = frozenset({"unmarked-end", "zixia-zhuan"})
PUNCTUATED_EDITION = "zhushu-xhtml"
#: seeds whose gold records cover the document in reading order (their neighbours are real
#: neighbours); seed 000's records are a selection, so they stand alone
ORDERED_SEEDS = frozenset({"001", "002", "003", "004"})
_SENTENCE = re.compile(r"[^。！？；]*[。！？；]+[」”』]*|[^。！？；]+$")

Log = Callable[[str], None]


def _quiet(_message: str) -> None:
    pass


@dataclass
class Example:
    """One text with its gold layer, where it comes from, and how it was made."""

    text: str
    label: str
    chapter: str
    edition: str
    #: document key: consecutive examples with the same key are neighbours (None: on its own)
    doc: Optional[str]
    #: "unit" (as the edition gives it), "stripped" (its punctuation removed), "sentence", "gold"
    kind: str
    #: the gold file's document ("seed003") for gold examples
    source: str = ""


# -- data -------------------------------------------------------------------------------------


def load_units(chapters: Optional[Iterable[str]] = None) -> list:
    """Corpus units (every edition), doubtful ones left out."""
    from pipeline.corpus import iter_units

    return [u for u in iter_units(chapters=chapters) if u.note not in EXCLUDE_NOTES and u.text.strip()]


def sentences_of(text: str) -> list[str]:
    return [m.group() for m in _SENTENCE.finditer(text) if m.group().strip()]


def examples_from_units(units: Sequence, stripped: bool = True, sentences: bool = True) -> list[Example]:
    """The training examples of some corpus units (see the module docstring)."""
    out: list[Example] = []
    for u in units:
        doc = f"{u.edition}/{u.chapter}"
        out.append(Example(u.text, u.layer, u.chapter, u.edition, doc, "unit"))
    if stripped:
        for u in units:
            if u.edition == PUNCTUATED_EDITION:
                out.append(Example(strip_non_han(u.text), u.layer, u.chapter, u.edition, f"{u.edition}~stripped/{u.chapter}", "stripped"))
    if sentences:
        for u in units:
            if u.edition == PUNCTUATED_EDITION and u.layer in ("JING", "ZHU"):
                parts = sentences_of(u.text)
                if len(parts) > 1:
                    out.extend(Example(p, u.layer, u.chapter, u.edition, None, "sentence") for p in parts)
    return [e for e in out if e.text.strip()]


def gold_records(folder: Path = ANNOTATIONS, refused: Optional[list[str]] = None) -> list[tuple[str, dict]]:
    """(file name, record) of the gold layer files ``annotations/layers/*.jsonl`` (SCHEMA section 5),
    read once for the examples and the seeds' run-together lines. A line that is no valid record is
    named in ``refused`` and left out (None: it raises; see :func:`pipeline.annotate.gold.read_gold`)."""
    from pipeline.annotate.gold import read_gold

    return [(path.stem, record) for path in sorted(Path(folder).glob("*.jsonl")) for record in read_gold(path, refused)]


def gold_examples(folder: Path = ANNOTATIONS, refused: Optional[list[str]] = None,
                  records: Optional[Sequence[tuple[str, dict]]] = None) -> list[Example]:
    """The gold layer records (``label`` a layer) as examples: of ``records`` (:func:`gold_records`)
    when given, else read from ``folder``."""
    out: list[Example] = []
    for stem, record in records if records is not None else gold_records(folder, refused):
        label = record.get("label")
        text = record.get("text")
        if record.get("answer", "accept") != "accept" or label not in LAYERS or not isinstance(text, str):
            continue
        meta = record.get("meta") or {}
        chapter = str(meta.get("chapter") or "seed")
        doc = str(meta.get("doc", stem))
        out.append(Example(text, label, chapter, "seed", f"seed{doc}" if doc in ORDERED_SEEDS else None, "gold", f"seed{doc}"))
    return out


def _inputs(examples: Sequence[Example]) -> tuple[list[str], list[str], list[Optional[str]], list[str]]:
    return ([e.text for e in examples], [e.label for e in examples], [e.doc for e in examples], [e.chapter for e in examples])


def fit_classifier(examples: Sequence[Example], **params: Any) -> LayerClassifier:
    texts, labels, contexts, groups = _inputs(examples)
    return LayerClassifier(**params).fit(texts, labels, contexts=contexts, groups=groups)


def baseline_model():
    """The plain baseline the issue names: TF-IDF character 1–3-grams + LinearSVC."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import LinearSVC

    return make_pipeline(TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True), LinearSVC(random_state=0))


# -- run-together sequences -------------------------------------------------------------------


def _streams(units: Sequence) -> dict[tuple[str, str], list]:
    streams: dict[tuple[str, str], list] = defaultdict(list)
    for u in units:
        streams[(u.edition, u.chapter)].append(u)
    return streams


def _cap(text: str, head: bool, tail: bool, limit: int) -> str:
    """A long unit cut to what a seam needs: its head and/or tail."""
    if len(text) <= limit:
        return text
    if head and tail:
        return text[: limit // 2] + text[-limit // 2 :]
    return text[:limit] if head else text[-limit:]


def _draw(candidates: list, rng: random.Random, max_chars: int) -> tuple[list, list]:
    """(sequence, chapter) candidates shuffled, kept while they fit in ``max_chars`` characters."""
    rng.shuffle(candidates)
    sequences, groups, total = [], [], 0
    for seq, chapter in candidates:
        size = sum(len(t) for _l, t in seq)
        if total + size > max_chars:
            continue
        sequences.append(seq)
        groups.append(chapter)
        total += size
    return sequences, groups


def splitter_sequences(units: Sequence, seed: int = 0, limit: int = 80, max_chars: int = 80_000) -> tuple[list, list, list]:
    """Run-together training strings from corpus units joined in reading order.

    From each edition's chapter: chunks of 2–5 consecutive 經/注/疏 units (the XHTML also with
    its punctuation stripped, and without its 疏, the 經+注 text of web copies); long units cut
    to their head and tail (``limit`` characters). At most ``max_chars`` characters in all,
    drawn evenly. Returns (sequences, chapter per sequence, (layer, text, chapter) units for
    the window model).
    """
    rng = random.Random(seed)
    layers = ("JING", "ZHU", "SHU")
    candidates: list[tuple[list[tuple[str, str]], str]] = []
    window_units: list[tuple[str, str, str]] = []
    for (edition, chapter), stream in sorted(_streams(units).items()):
        stream = [u for u in stream if u.layer in layers]
        window_units.extend((u.layer, u.text, chapter) for u in stream)
        variants = [[(u.layer, u.text) for u in stream]]
        if edition == PUNCTUATED_EDITION:
            jz = [(u.layer, u.text) for u in stream if u.layer != "SHU"]
            variants += [jz, [(l, strip_non_han(t)) for l, t in jz]]
        for pieces in variants:
            i = 0
            while i < len(pieces):
                k = rng.randint(2, 5)
                chunk = pieces[i : i + k]
                i += k
                if len({l for l, _t in chunk}) < 2:
                    continue
                capped = [(l, _cap(t, j > 0, j < len(chunk) - 1, limit)) for j, (l, t) in enumerate(chunk)]
                candidates.append((capped, chapter))
    sequences, groups = _draw(candidates, rng, max_chars)
    return sequences, groups, window_units


def document_streams(units: Sequence) -> list[list[tuple[str, str]]]:
    """Each edition's chapters as (layer, text) units in reading order (經/注/疏 only), and the
    XHTML's also without its 疏 (the 經+注 text of web copies)."""
    out = []
    for (edition, _chapter), stream in sorted(_streams(units).items()):
        pieces = [(u.layer, u.text) for u in stream if u.layer in ("JING", "ZHU", "SHU")]
        out.append(pieces)
        if edition == PUNCTUATED_EDITION:
            out.append([(l, t) for l, t in pieces if l != "SHU"])
    return out


def piece_sequences(units: Sequence, seed: int = 1, max_units: int = 8, shu_limit: int = 200,
                    max_chars: int = 300_000) -> tuple[list, list]:
    """Run-together strings for the piece CRF: chunks of 2–``max_units`` whole consecutive units.

    From the punctuated edition's chapters (as they are, and without their 疏); a 疏 is cut to
    ``shu_limit`` characters (its head, or its tail before a 經). The piece CRF is used on
    punctuated text only. Returns (sequences, chapter per sequence).
    """
    rng = random.Random(seed)
    candidates: list[tuple[list[tuple[str, str]], str]] = []
    for (edition, chapter), stream in sorted(_streams(units).items()):
        if edition != PUNCTUATED_EDITION:
            continue
        pieces = [(u.layer, u.text) for u in stream if u.layer in ("JING", "ZHU", "SHU")]
        variants = [pieces, [(l, t) for l, t in pieces if l != "SHU"]]
        for variant in variants:
            i = 0
            while i < len(variant):
                k = rng.randint(2, max_units)
                chunk = variant[i : i + k]
                i += k
                if len({l for l, _t in chunk}) < 2:
                    continue
                last = len(chunk) - 1
                chunk = [(l, _cap(t, j == last or j == 0, j < last, shu_limit) if l == "SHU" else t) for j, (l, t) in enumerate(chunk)]
                candidates.append((chunk, chapter))
    return _draw(candidates, rng, max_chars)


def fit_splitter(units: Sequence, pieces: bool = True, log: Log = _quiet, **params: Any) -> RunTogetherSplitter:
    """The run-together splitter; with ``pieces``, also its piece CRF, which learns from layer
    classifiers cross-fitted on the two halves of the chapters (each half scored by the other's)."""
    sequences, groups, window_units = splitter_sequences(units)
    splitter = RunTogetherSplitter(**params).fit(sequences, groups, window_units, streams=document_streams(units))
    if pieces:
        t0 = time.perf_counter()
        chapters = sorted({u.chapter for u in units})
        half = {c: i % 2 for i, c in enumerate(chapters)}
        # decision values only: no temperature to fit
        models = [fit_classifier(examples_from_units([u for u in units if half[u.chapter] != h]), calibrate=False) for h in (0, 1)]
        t1 = time.perf_counter()
        seqs, seq_groups = piece_sequences(units)
        splitter.fit_pieces(seqs, seq_groups, {c: models[half[c]] for c in chapters})
        log(f"piece CRF: half classifiers {t1 - t0:.1f}s, CRF {time.perf_counter() - t1:.1f}s, {len(seqs)} strings")
    return splitter


# -- training ---------------------------------------------------------------------------------


def train_layers(
    out: Optional[Path] = None,
    chapters: Optional[Iterable[str]] = None,
    with_gold: bool = True,
    with_splitter: bool = True,
    log: Log = _quiet,
    refused: Optional[list[str]] = None,
) -> dict[str, Any]:
    """``yili train layers``: fit on the whole corpus (and the gold), write the model and its card.

    Returns what was trained: counts, seconds, the model file's size and path. Gold lines that are
    no valid record are named in ``refused`` and left out (None: the first raises).
    """
    out = Path(out) if out is not None else default_model_dir()
    started = time.perf_counter()
    units = load_units(chapters)
    examples = examples_from_units(units)
    if with_gold:
        examples += gold_examples(refused=refused)
    t_data = time.perf_counter()
    log(f"data: {len(units)} corpus units, {len(examples)} examples ({t_data - started:.1f}s)")
    model = fit_classifier(examples)
    t_model = time.perf_counter()
    log(f"classifier: fitted in {t_model - t_data:.1f}s (temperature {model.temperature_:.3f})")
    if with_splitter:
        model.splitter_ = fit_splitter(units)
        log(f"splitter: fitted in {time.perf_counter() - t_model:.1f}s")
    t_fit = time.perf_counter()
    model.save(out)
    info: dict[str, Any] = {
        "trained": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "model_dir": str(out),
        "units": len(units),
        "units_by_edition_layer": {f"{e}/{l}": n for (e, l), n in sorted(Counter((u.edition, u.layer) for u in units).items())},
        "examples": dict(Counter(e.kind for e in examples)),
        "examples_by_label": dict(Counter(e.label for e in examples)),
        "chapters": sorted({u.chapter for u in units}),
        "seconds": {
            "data": round(t_data - started, 1),
            "classifier": round(t_model - t_data, 1),
            "splitter": round(t_fit - t_model, 1),
            "total": round(t_fit - started, 1),
        },
        "temperature": round(float(model.temperature_), 4),
        "params": {k: (list(v) if isinstance(v, tuple) else v) for k, v in model.get_params().items()},
        "splitter": bool(with_splitter),
        "model_bytes": (out / "classifier.joblib").stat().st_size,
        "python": platform.python_version(),
    }
    (out / "training.json").write_text(json.dumps(info, ensure_ascii=False, indent=2), encoding="utf-8")
    write_model_card(out, info)
    log(f"wrote {out} ({info['model_bytes'] / 1e6:.1f} MB) in {info['seconds']['total']}s")
    return info


def refresh_model_card(folder: Optional[Path] = None, evaluation: Optional[Path] = None) -> Path:
    """Rewrite MODEL_CARD.md of a trained model folder (after ``yili evaluate layers``), from its training.json."""
    folder = Path(folder) if folder is not None else default_model_dir()
    info = json.loads((folder / "training.json").read_text(encoding="utf-8"))
    return write_model_card(folder, info, evaluation)


def write_model_card(folder: Path, info: dict[str, Any], evaluation: Optional[Path] = None) -> Path:
    """MODEL_CARD.md: what the model is, what it learned from, when, and the held-out figures."""
    import sklearn

    evaluation = evaluation or RESULTS / "layers.json"
    figures = json.loads(evaluation.read_text(encoding="utf-8")) if evaluation.is_file() else None
    lines = [
        "# Layer model (經 JING / 注 ZHU / 疏 SHU / OTHER) and run-together splitter",
        "",
        f"- Trained: {info['trained']} by `yili train layers` (scikit-learn {sklearn.__version__}, Python {info['python']}).",
        f"- File: `classifier.joblib` ({info['model_bytes'] / 1e6:.1f} MB), loaded by `LayerClassifier.load()`; "
        "the run-together splitter is stored inside it (`splitter_`). Its runtime form, `runtime.npz` + "
        "`runtime.json` (the same model as arrays, with the sha256 of the joblib file it was made from), is what "
        "`yili process` and `yili classify` load: no scikit-learn import, a second less start-up "
        "(`python -m pipeline.layers.runtime models/layers` rewrites it from the joblib file).",
        f"- Training time: {info['seconds']['total']} s (data {info['seconds']['data']} s, classifier "
        f"{info['seconds']['classifier']} s, splitter {info['seconds']['splitter']} s).",
        "",
        "## Model",
        "",
        "- Classifier: character 1–4-grams (TF-IDF) of a script-folded, punctuation-free copy of the text, plus the cues of "
        "`pipeline/layers/features.py` (glosses 「X，Y也」, 謂/猶/者, 「X」至「Y」 heads, 釋曰, 云…者, 《…》, length, "
        "punctuation density, 反切 closing a note, modern vernacular), a linear SVM, and a softmax over its decision values whose "
        f"temperature ({info['temperature']}) was fitted on held-out chapters; the odds of 疏 against the rest come from "
        "their own sigmoid of the 疏 margin (fitted on the same held-out chapters), because the SVM tells 疏 apart far more "
        "surely than 經 from 注. With a document's order of units, forward–backward over learned layer transitions smooths "
        "the probabilities.",
        "- Splitter (`splitter_`): cuts run-together text into sentences (or, unpunctuated, 也/矣/焉 clauses, the seams of a "
        "character CRF over window scores, punctuation and repetition cues, places where two or more characters repeat the "
        "text just before and a gloss word follows, and places where the window model turns from 經 to 注), scores each "
        "piece with the classifier, adds how the piece's opening repeats the text before it (a 注 opens on the words of "
        "its 經: 「不敢為儀，言…」; learned as per-layer likelihood ratios from the training documents), and picks the "
        "layers by Viterbi over learned sentence-to-sentence transitions. In punctuated text 疏 is decided by a CRF over the "
        "sentences (`piece_tagger_`: the classifier's decision values of a sentence and its neighbours, whether a later "
        "sentence opens on its words, 疏 heads and 釋曰, first and last characters), learned from classifiers cross-fitted "
        "on halves of the chapters, where it and the character CRF agree.",
        "",
        "## Data",
        "",
        f"- ../shared/corpus, chapters {', '.join(info['chapters'])}: {info['units']} units "
        "(unmarked-end 四庫 注 runs and 喪服's 子夏傳 left out).",
    ]
    lines += [f"  - {k}: {v}" for k, v in info["units_by_edition_layer"].items()]
    lines += [
        f"- Examples by kind: {', '.join(f'{k} {v}' for k, v in info['examples'].items())}; by label: "
        f"{', '.join(f'{k} {v}' for k, v in info['examples_by_label'].items())}.",
        "- Gold: `annotations/layers/*.jsonl` (records from the five seeds, aligned with the corpus and checked by hand).",
        "",
        "## Held-out figures",
        "",
    ]
    if figures:
        lines += [f"From `{evaluation.relative_to(ROOT) if evaluation.is_relative_to(ROOT) else evaluation}` "
                  f"({figures.get('date', '?')}, `yili evaluate layers`; chapter folds {figures.get('folds')}):", ""]
        lines += summary_table(figures)
    else:
        lines.append("Not evaluated yet: run `yili evaluate layers`.")
    lines += [
        "",
        "## Limits",
        "",
        "- 經 and 注 are told apart from the text alone far less surely than 疏: short 經 clauses (「帷堂。」) and short "
        "注 glosses read alike. Document order (context) fixes most of that; run-together text has no such help.",
        "- Learned from 11 chapters of one tradition (鄭注 賈疏); other commentaries are OTHER only where the gold shows them.",
    ]
    path = Path(folder) / CARD_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- evaluation -------------------------------------------------------------------------------


def chapter_folds(chapters: Sequence[str], k: int) -> list[list[str]]:
    """Chapters dealt into ``k`` folds in order (deterministic)."""
    chapters = sorted(chapters)
    k = max(2, min(k, len(chapters)))
    return [chapters[i::k] for i in range(k)]


def layer_metrics(gold: Sequence[str], predicted: Sequence[str]) -> dict[str, Any]:
    """Per-layer P/R/F1 and support, macro-F1 over the layers present in the gold, accuracy, confusion."""
    from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

    present = [l for l in LAYERS if l in set(gold)]
    p, r, f, s = precision_recall_fscore_support(gold, predicted, labels=present, zero_division=0)
    cm = confusion_matrix(gold, predicted, labels=list(LAYERS))
    return {
        "n": len(gold),
        "accuracy": round(float(np.mean([a == b for a, b in zip(gold, predicted)])) if gold else 0.0, 4),
        "macro_f1": round(float(np.mean(f)) if len(f) else 0.0, 4),
        "per_layer": {l: {"precision": round(float(a), 4), "recall": round(float(b), 4), "f1": round(float(c), 4), "support": int(d)}
                      for l, a, b, c, d in zip(present, p, r, f, s)},
        "confusion": {"labels": list(LAYERS), "rows_gold_cols_predicted": cm.tolist()},
    }


def expected_calibration_error(proba: np.ndarray, gold: Sequence[str], bins: int = 10) -> float:
    """ECE of the top label's probability: how far confidence is from accuracy, averaged over bins."""
    if len(gold) == 0:
        return 0.0
    conf = proba.max(axis=1)
    right = np.array([LAYERS[i] == g for i, g in zip(proba.argmax(axis=1), gold)], dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        mask = (conf > lo) & (conf <= hi)
        if mask.any():
            total += mask.mean() * abs(conf[mask].mean() - right[mask].mean())
    return round(float(total), 4)


@dataclass
class _Set:
    name: str
    texts: list[str]
    labels: list[str]
    contexts: list[Optional[str]]


def _test_sets(units: Sequence, gold: Sequence[Example]) -> list[_Set]:
    """What is scored on a fold's held-out chapters."""
    sets: dict[str, _Set] = {}

    def add(name: str, text: str, label: str, ctx: Optional[str]) -> None:
        if not text.strip():
            return
        s = sets.setdefault(name, _Set(name, [], [], []))
        s.texts.append(text)
        s.labels.append(label)
        s.contexts.append(ctx)

    for u in units:
        doc = f"{u.edition}/{u.chapter}"
        if u.edition == PUNCTUATED_EDITION:
            add("punctuated", u.text, u.layer, doc)
            add("unpunctuated", strip_non_han(u.text), u.layer, doc + "~stripped")
            add("edition:zhushu-xhtml-stripped", strip_non_han(u.text), u.layer, doc + "~stripped")
            if u.layer in ("JING", "ZHU"):
                for sentence in sentences_of(u.text):
                    add("short:punctuated", sentence, u.layer, None)
                    add("short:unpunctuated", strip_non_han(sentence), u.layer, None)
        else:
            add("unpunctuated", u.text, u.layer, doc)
        add(f"edition:{u.edition}", u.text, u.layer, doc)
    for e in gold:
        add(f"gold:{e.source}", e.text, e.label, e.doc)
    return list(sets.values())


def _pairs(stream: list, first: str, second: str) -> list[list[tuple[str, str]]]:
    return [[(a.layer, a.text), (b.layer, b.text)] for a, b in zip(stream, stream[1:]) if a.layer == first and b.layer == second]


def _splitter_sets(units: Sequence) -> dict[str, list[list[tuple[str, str]]]]:
    """Run-together test strings from held-out chapters, by kind."""
    streams = _streams(units)
    out: dict[str, list] = defaultdict(list)
    for (edition, _chapter), stream in sorted(streams.items()):
        stream = [u for u in stream if u.layer in ("JING", "ZHU", "SHU")]
        if edition == PUNCTUATED_EDITION:
            jz = [u for u in stream if u.layer != "SHU"]
            out["JING+ZHU punctuated (XHTML pairs)"] += _pairs(jz, "JING", "ZHU")
            out["JING+ZHU unpunctuated (XHTML pairs, stripped)"] += [[(l, strip_non_han(t)) for l, t in p] for p in _pairs(jz, "JING", "ZHU")]
            out["ZHU+JING unpunctuated (XHTML pairs, stripped)"] += [[(l, strip_non_han(t)) for l, t in p] for p in _pairs(jz, "ZHU", "JING")]
            out["ZHU+SHU punctuated (XHTML pairs, 疏 cut to 200)"] += [[(a, t1), (b, t2[:200])] for (a, t1), (b, t2) in _pairs(stream, "ZHU", "SHU")]
            out["JING+ZHU chains punctuated (XHTML, 8 units)"] += [[(u.layer, u.text) for u in jz[i : i + 8]] for i in range(0, len(jz), 8)]
        if edition == "zhengzhu-sbck":
            out["JING+ZHU unpunctuated (SBCK pairs)"] += _pairs(stream, "JING", "ZHU")
            out["ZHU+JING unpunctuated (SBCK pairs)"] += _pairs(stream, "ZHU", "JING")
            out["JING+ZHU chains unpunctuated (SBCK, 8 units)"] += [[(u.layer, u.text) for u in stream[i : i + 8]] for i in range(0, len(stream), 8)]
    return out


#: run-together sets scored again with the shape a reader would know (see RunShape):
#: a pair is one seam between its two layers; seed 004's run-on lines open with their 經
SHAPED_SETS = {
    "JING+ZHU punctuated (XHTML pairs)": RunShape("JING", "ZHU", one_switch=True),
    "JING+ZHU unpunctuated (SBCK pairs)": RunShape("JING", "ZHU", one_switch=True),
    "ZHU+JING unpunctuated (SBCK pairs)": RunShape("ZHU", "JING", one_switch=True),
    "ZHU+JING unpunctuated (XHTML pairs, stripped)": RunShape("ZHU", "JING", one_switch=True),
}
SEED_RUN_SHAPE = RunShape(first="JING")


def fold_punctuator(chapters: Sequence[str], shipped_terms: bool = False):
    """The 斷句 model with the shipped model's settings, trained on ``chapters`` only (the seam of
    a run with a known shape is held to its breaks; a model that saw the test chapters would
    flatter it). ``shipped_terms``: with the lexicon terms the shipped model was trained with, not
    the lexicon as it is now — the model a user runs, less the chapters; an edit of the lexicon then
    changes what the reader does, not where the folds cut."""
    from pipeline.text.punctuate import Punctuator, training_units

    try:
        shipped = Punctuator.load()
        params = {k: v for k, v in shipped.get_params().items() if k not in ("lexicon_dir", "lstm_weight", "lexicon_terms")}
        if shipped_terms:
            params["lexicon_terms"] = shipped.lexicon_terms_
    except Exception:  # noqa: BLE001 - no shipped model: the defaults
        params = {}
    units = training_units(chapters)
    return Punctuator(**params).fit([u[2] for u in units], [u[1] for u in units])


def score_splitter(splitter: RunTogetherSplitter, sequences: Sequence[Sequence[tuple[str, str]]], tolerance: int = 2,
                   classifier: Optional[LayerClassifier] = None, shape: Optional[RunShape] = None) -> dict[str, Any]:
    """Character accuracy (Han characters) and seam recall within ``tolerance`` characters."""
    right = total = seams = found = 0
    for seq in sequences:
        text = "".join(t for _l, t in seq)
        gold = [l for l, t in seq for _ in t]
        pred = splitter.predict_labels(text, classifier, shape)
        idx = [i for i, ch in enumerate(text) if is_han(ch)]
        total += len(idx)
        right += sum(1 for i in idx if gold[i] == pred[i])
        gold_seams = {i for i in range(1, len(gold)) if gold[i] != gold[i - 1]}
        pred_seams = [s for s, _e, _l in splitter.predict(text, classifier, shape)[1:]]
        seams += len(gold_seams)
        found += sum(1 for g in gold_seams if any(abs(g - p) <= tolerance for p in pred_seams))
    return {
        "strings": len(sequences),
        "chars": total,
        "char_accuracy": round(right / total, 4) if total else None,
        f"seam_recall_within_{tolerance}": round(found / seams, 4) if seams else None,
    }


def _seed_runs(records: Sequence[tuple[str, dict]]) -> dict[str, list[list[tuple[str, str]]]]:
    """Gold run-together lines of the seeds (records with meta.run_together), per chapter."""
    lines: dict[tuple[str, int], list] = defaultdict(list)
    chapter_of: dict[tuple[str, int], str] = {}
    for _stem, r in records:
        meta = r.get("meta") or {}
        if meta.get("run_together"):
            key = (str(meta.get("doc")), int(meta.get("line", 0)))
            lines[key].append((int(meta["start"]), r["label"], r["text"]))
            chapter_of[key] = str(meta.get("chapter"))
    out: dict[str, list] = defaultdict(list)
    for key, pieces in sorted(lines.items()):
        out[chapter_of[key]].append([(label, text) for _s, label, text in sorted(pieces)])
    return out


def evaluate_layers(
    out_file: Optional[Path] = None,
    folds: int = 4,
    with_splitter: bool = True,
    with_gold: bool = True,
    log: Log = _quiet,
    refused: Optional[list[str]] = None,
) -> dict[str, Any]:
    """``yili evaluate layers``: chapter-fold evaluation of the layer model, the baseline and the splitter.

    Writes JSON to ``out_file`` (default bench/results/layers.json) and a Markdown summary beside
    it (same name, ``.md``); returns the figures. Gold lines that are no valid record are named in
    ``refused`` and left out (None: the first raises).
    """
    out_file = Path(out_file) if out_file is not None else RESULTS / "layers.json"
    started = time.perf_counter()
    all_units = load_units()
    records = gold_records(refused=refused) if with_gold or with_splitter else []
    gold_all = gold_examples(records=records) if with_gold else []
    seed_runs = _seed_runs(records) if with_splitter else {}
    chapters = sorted({u.chapter for u in all_units})
    plan = chapter_folds(chapters, folds)
    log(f"{len(all_units)} units, chapters {' '.join(chapters)}, folds {plan}")

    collected: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    split_seqs: dict[str, list] = defaultdict(list)
    timings: list[dict[str, float]] = []
    for fold, test_chapters in enumerate(plan):
        t0 = time.perf_counter()
        test = set(test_chapters)
        train_units = [u for u in all_units if u.chapter not in test]
        test_units = [u for u in all_units if u.chapter in test]
        train_gold = [e for e in gold_all if e.chapter not in test]
        test_gold = [e for e in gold_all if e.chapter in test]
        examples = examples_from_units(train_units) + train_gold
        model = fit_classifier(examples)
        t1 = time.perf_counter()
        base = baseline_model().fit([e.text for e in examples if e.kind != "sentence"], [e.label for e in examples if e.kind != "sentence"])
        t2 = time.perf_counter()
        for s in _test_sets(test_units, test_gold):
            bucket = collected[s.name]
            text_proba = model.predict_proba(s.texts)
            ctx_proba = model.predict_proba(s.texts, s.contexts)
            bucket["gold"] += s.labels
            bucket["model"] += [LAYERS[i] for i in text_proba.argmax(axis=1)]
            bucket["model+context"] += [LAYERS[i] for i in ctx_proba.argmax(axis=1)]
            bucket["baseline"] += list(base.predict(s.texts))
            bucket["proba"].append(text_proba)
        t3 = time.perf_counter()
        timing = {"classifier_fit": round(t1 - t0, 1), "baseline_fit": round(t2 - t1, 1), "scoring": round(t3 - t2, 1)}
        if with_splitter:
            splitter = fit_splitter(train_units)
            t4 = time.perf_counter()
            breaks = fold_punctuator(sorted({u.chapter for u in train_units}))
            for name, seqs in _splitter_sets(test_units).items():
                split_seqs[name].append(score_splitter(splitter, seqs, classifier=model))
                split_seqs[name + " — CRF alone"].append(score_splitter(splitter, seqs))
                if name in SHAPED_SETS:
                    split_seqs[name + " — shape known, seam anywhere"].append(
                        score_splitter(splitter, seqs, classifier=model, shape=SHAPED_SETS[name]))
                    splitter.break_model_ = breaks  # as `yili process` does ([layers] seam_breaks)
                    split_seqs[name + " — shape known"].append(score_splitter(splitter, seqs, classifier=model, shape=SHAPED_SETS[name]))
                    splitter.break_model_ = None
            for chapter in test_chapters:
                if seed_runs.get(chapter):
                    split_seqs["seed 004 run-together lines (gold, simplified)"].append(score_splitter(splitter, seed_runs[chapter], classifier=model))
                    split_seqs["seed 004 run-together lines (gold, simplified) — opening 經 known"].append(
                        score_splitter(splitter, seed_runs[chapter], classifier=model, shape=SEED_RUN_SHAPE))
                    split_seqs["seed 004 run-together lines (gold, simplified) — CRF alone"].append(score_splitter(splitter, seed_runs[chapter]))
            timing.update({"splitter_fit": round(t4 - t3, 1), "splitter_scoring": round(time.perf_counter() - t4, 1)})
        timings.append(timing)
        log(f"fold {fold + 1}/{len(plan)} (held out {' '.join(test_chapters)}): {timing}")

    figures: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "command": "yili evaluate layers" + (f" --folds {folds}" if folds != 4 else ""),
        "folds": plan,
        "note": "every figure is on chapters held out from training; 'model' reads each unit alone, "
                "'model+context' also uses the order of the units in their document; the baseline is TF-IDF "
                "character 1–3-grams + LinearSVC on the same training data",
        "sets": {},
        "splitter": {},
        "timings": timings,
    }
    for name, bucket in sorted(collected.items()):
        proba = np.vstack(bucket["proba"])
        figures["sets"][name] = {
            "model": layer_metrics(bucket["gold"], bucket["model"]),
            "model+context": layer_metrics(bucket["gold"], bucket["model+context"]),
            "baseline": layer_metrics(bucket["gold"], bucket["baseline"]),
            "ece": expected_calibration_error(proba, bucket["gold"]),
        }
    for name, parts in sorted(split_seqs.items()):
        chars = sum(p["chars"] for p in parts)
        acc = sum((p["char_accuracy"] or 0) * p["chars"] for p in parts) / chars if chars else None
        key = next(k for k in parts[0] if k.startswith("seam_recall"))
        weights = [p["strings"] for p in parts if p[key] is not None]
        recall = sum(p[key] * p["strings"] for p in parts if p[key] is not None) / sum(weights) if weights else None
        figures["splitter"][name] = {"strings": sum(p["strings"] for p in parts), "chars": chars,
                                     "char_accuracy": round(acc, 4) if acc is not None else None,
                                     key: round(recall, 4) if recall is not None else None}
    figures["seconds"] = round(time.perf_counter() - started, 1)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps(figures, ensure_ascii=False, indent=2), encoding="utf-8")
    out_file.with_suffix(".md").write_text("\n".join(summary_table(figures)) + "\n", encoding="utf-8")
    log(f"wrote {out_file} and {out_file.with_suffix('.md')} in {figures['seconds']}s")
    return figures


def summary_table(figures: dict[str, Any]) -> list[str]:
    """Markdown tables of an evaluation's headline figures (for the README and the model card)."""
    lines = [
        "| test set (held-out chapters) | units | model macro-F1 | model+context macro-F1 | baseline macro-F1 | 經 F1 (model / +context) | 注 F1 (model / +context) | 疏 F1 | ECE |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, s in figures.get("sets", {}).items():
        m, c, b = s["model"], s["model+context"], s["baseline"]

        def f1(x: dict, layer: str) -> str:
            return f"{x['per_layer'][layer]['f1']:.3f}" if layer in x["per_layer"] else "–"

        lines.append(
            f"| {name} | {m['n']} | {m['macro_f1']:.3f} | {c['macro_f1']:.3f} | {b['macro_f1']:.3f} | "
            f"{f1(m, 'JING')} / {f1(c, 'JING')} | {f1(m, 'ZHU')} / {f1(c, 'ZHU')} | {f1(m, 'SHU')} | {s['ece']:.3f} |"
        )
    if figures.get("splitter"):
        lines += ["", "| run-together text (held-out chapters) | strings | Han chars | char accuracy | seams found (±2 chars) |",
                  "| --- | --- | --- | --- | --- |"]
        for name, s in figures["splitter"].items():
            recall = next((v for k, v in s.items() if k.startswith("seam_recall")), None)
            lines.append(f"| {name} | {s['strings']} | {s['chars']} | {s['char_accuracy']} | {recall} |")
    return lines
