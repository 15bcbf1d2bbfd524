"""``yili tasks --select uncertain``: the tasks the models are least sure of, first.

Two signals, each in [0, 1], and a task's uncertainty is the larger of them:

- layer uncertainty: 1 − the layer model's top probability for the task's text
  (:class:`pipeline.layers.classifier.LayerClassifier`), or, without a model, 1 − the segment
  score the pipeline wrote (``meta.score``);
- rules vs span model: 1 − F1 between the spans the task carries (the rules' proposals) and the
  spans a span model predicts for the same text (exact start, end, label). A span model is any
  object with ``predict(texts) -> [[(start, end, label), …], …]`` or a callable of one text.

The order is by uncertainty, highest first; ties keep the input order. Each task gets
``meta.uncertainty`` (meta is not hashed, so the hashes do not change).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

SpanTriples = list[tuple[int, int, str]]


def span_disagreement(proposed: SpanTriples, predicted: SpanTriples) -> float:
    a, b = set(proposed), set(predicted)
    if not a and not b:
        return 0.0
    tp = len(a & b)
    return 1.0 - (2 * tp / (len(a) + len(b)))


def _predict_spans(span_model: Any, texts: Sequence[str]) -> list[SpanTriples]:
    if hasattr(span_model, "predict"):
        return [list(map(tuple, spans)) for spans in span_model.predict(list(texts))]
    return [list(map(tuple, span_model(text))) for text in texts]


def uncertainties(tasks: list[dict[str, Any]], layer_model: Any = None, span_model: Any = None) -> list[float]:
    texts = [t["text"] for t in tasks]
    layer_part = [0.0] * len(tasks)
    if layer_model is not None and tasks:
        proba = layer_model.predict_proba(texts)
        layer_part = [1.0 - float(max(row)) for row in proba]
    else:
        for i, task in enumerate(tasks):
            score = (task.get("meta") or {}).get("score")
            if isinstance(score, (int, float)):
                layer_part[i] = 1.0 - float(score)
    span_part = [0.0] * len(tasks)
    with_spans = [i for i, t in enumerate(tasks) if "spans" in t]
    if span_model is not None and with_spans:
        predicted = _predict_spans(span_model, [texts[i] for i in with_spans])
        for i, pred in zip(with_spans, predicted):
            proposed = [(s["start"], s["end"], s["label"]) for s in tasks[i]["spans"]]
            span_part[i] = span_disagreement(proposed, pred)
    return [max(a, b) for a, b in zip(layer_part, span_part)]


def load_layer_model() -> Optional[Any]:
    """The shipped layer model, or None when there is none yet (the segment scores are used then)."""
    try:
        from pipeline.layers.classifier import LayerClassifier, ModelError
    except ImportError:  # pragma: no cover - the module is part of the package
        return None
    try:
        return LayerClassifier.load()
    except ModelError:
        return None


class SpacySpanModel:
    """A spaCy pipeline trained on :func:`pipeline.annotate.training.write_docbin` data (``spancat`` or
    ``ner``), as a span model: its ``doc.spans["sc"]`` (else ``doc.ents``) as (start, end, label)."""

    def __init__(self, path: str):
        import spacy

        self.nlp = spacy.load(path)

    def predict(self, texts: Sequence[str]) -> list[SpanTriples]:
        out = []
        for doc in self.nlp.pipe(texts):
            spans = doc.spans.get("sc") if "sc" in doc.spans else None
            chosen = list(spans) if spans is not None else list(doc.ents)
            out.append([(s.start_char, s.end_char, s.label_) for s in chosen])
        return out


def order_tasks(tasks: list[dict[str, Any]], how: str = "uncertain", layer_model: Any = "auto",
                span_model: Optional[Callable[[str], SpanTriples]] = None) -> list[dict[str, Any]]:
    """``tasks`` by uncertainty, highest first. ``layer_model="auto"`` loads the shipped layer model
    (None: use the segment scores only)."""
    if how != "uncertain":
        raise ValueError(f"unknown selection {how!r}: 'uncertain'")
    if isinstance(layer_model, str) and layer_model == "auto":
        layer_model = load_layer_model()
    scores = uncertainties(tasks, layer_model, span_model)
    for task, score in zip(tasks, scores):
        task.setdefault("meta", {})["uncertainty"] = round(score, 4)
    order = sorted(range(len(tasks)), key=lambda i: (-scores[i], i))
    return [tasks[i] for i in order]
