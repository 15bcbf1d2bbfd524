"""``yili train`` from the store: accepted answers → training data for the layer classifier and
the span model, and a spaCy DocBin for ``spacy train``.

Which answers count: for every question (kind + input), the latest answer in the dataset —
corrections are added after the answers they correct, so the latest is the corrected one — and
only if it is ``accept``. A rejected or ignored latest answer removes the question from training.

- layers: the accepted layer tasks give (text, layer) pairs, grouped by ``meta.doc`` so that the
  classifier's calibration holds out whole documents;
- spans: the accepted span and relation tasks give (text, spans); :func:`write_docbin` writes
  them as spaCy Docs (one token per character, as in the tasks) with the spans in
  ``doc.spans["sc"]`` (for ``spancat``) and as ``doc.ents`` (for ``ner``: our spans never overlap).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from pipeline.annotate.store import AnswerStore
from pipeline.annotate.tokens import char_tokens
from pipeline.labels import LAYERS

SPANS_KEY = "sc"


@dataclass
class LayerData:
    texts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)


@dataclass
class SpanExample:
    text: str
    spans: list[tuple[int, int, str]]
    meta: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    tokens: Optional[list[dict[str, Any]]] = None


def layer_data(store: AnswerStore, dataset: str) -> LayerData:
    data = LayerData()
    for row in store.latest(dataset, "layers"):
        if row.answer != "accept":
            continue
        record = row.record
        if record.get("label") not in LAYERS:
            continue
        data.texts.append(record["text"])
        data.labels.append(record["label"])
        data.groups.append(str((record.get("meta") or {}).get("doc", "")))
    return data


def span_examples(store: AnswerStore, dataset: str) -> list[SpanExample]:
    out = []
    latest = store.latest(dataset, "spans") + store.latest(dataset, "relations")
    for row in sorted(latest, key=lambda r: r.id):
        if row.answer != "accept":
            continue
        record = row.record
        out.append(SpanExample(record["text"], [(s["start"], s["end"], s["label"]) for s in record.get("spans") or []],
                               record.get("meta") or {}, record.get("actions") or [], record.get("tokens")))
    return out


def write_docbin(examples: list[SpanExample], path: str | Path) -> int:
    """The examples as a spaCy DocBin at ``path`` (``spacy train … --paths.train path``)."""
    import spacy
    from spacy.tokens import Doc, DocBin

    vocab = spacy.blank("zh").vocab
    docbin = DocBin(store_user_data=True)
    for ex in examples:
        tokens = ex.tokens or char_tokens(ex.text)
        doc = Doc(vocab, words=[t["text"] for t in tokens], spaces=[False] * len(tokens))
        spans = []
        for s, e, label in ex.spans:
            span = doc.char_span(s, e, label=label)
            if span is None:
                raise ValueError(f"{ex.meta.get('doc')}: span {label} {s}-{e} does not align with the tokens")
            spans.append(span)
        doc.spans[SPANS_KEY] = spans
        doc.ents = spans
        doc.user_data["meta"] = ex.meta
        doc.user_data["actions"] = ex.actions
        docbin.add(doc)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    docbin.to_disk(path)
    return len(examples)


def fit_layer_classifier(data: LayerData, base: Optional[LayerData] = None, **settings: Any):
    """A LayerClassifier fitted on ``base`` (e.g. the corpus-derived data) with the answers on top.

    An answer replaces a base example with the same text (the scholar's correction wins).
    """
    from pipeline.layers.classifier import LayerClassifier

    texts, labels, groups = [], [], []
    answered = set(data.texts)
    if base is not None:
        for t, y, g in zip(base.texts, base.labels, base.groups or [""] * len(base.texts)):
            if t not in answered:
                texts.append(t), labels.append(y), groups.append(g)
    texts += data.texts
    labels += data.labels
    groups += data.groups
    if len(set(labels)) < 2:
        raise ValueError(f"need accepted answers of at least two layers to train; have {sorted(set(labels))}")
    return LayerClassifier(**settings).fit(texts, labels, contexts=None, groups=groups)


@dataclass
class TrainReport:
    layer_examples: int
    span_examples: int
    docbin: Optional[Path]
    layer_model: Optional[Path]


def train_from_store(dataset: str = "yili", db: Optional[str] = None, out_dir: str | Path = "out/train",
                     layer_model_dir: Optional[str | Path] = None, min_layer_examples: int = 20) -> TrainReport:
    """``yili train from-store [--dataset NAME] [--db URL] [-o OUT_DIR] [--layer-model DIR]``.

    Writes ``OUT_DIR/spans.spacy`` (DocBin) and ``OUT_DIR/layers.jsonl`` (text, label, doc); fits
    and saves the layer classifier to ``layer_model_dir`` when given and there are enough answers.
    """
    from pipeline.annotate.jsonl import write_jsonl

    out = Path(out_dir)
    with AnswerStore(db, create=False) as store:
        store.require(dataset)
        layers = layer_data(store, dataset)
        spans = span_examples(store, dataset)
    docbin = None
    if spans:
        docbin = out / "spans.spacy"
        write_docbin(spans, docbin)
    write_jsonl(out / "layers.jsonl", ({"text": t, "label": y, "meta": {"doc": g}} for t, y, g in zip(layers.texts, layers.labels, layers.groups)))
    saved = None
    if layer_model_dir is not None and len(layers.texts) >= min_layer_examples:
        model = fit_layer_classifier(layers)
        model.save(Path(layer_model_dir))
        saved = Path(layer_model_dir)
    return TrainReport(len(layers.texts), len(spans), docbin, saved)
