"""The five tables every tabular export writes: documents, segments, sentences, spans, actions.

One schema (:data:`SCHEMA`) serves JSONL, CSV, Parquet and DuckDB, so a column means the same in
each. Rows are plain dicts in column order. Offsets (``start``, ``end``) are code-point indices,
end-exclusive, into the document's raw text (the ``text`` column of ``documents``), exactly as in
the processed records. The ``sentences`` table holds sentences and clauses (column ``kind``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from pipeline.export.source import ExportDocument

#: column name -> type: "str", "int", "float", "bool" or "json" (a JSON text)
Columns = tuple[tuple[str, str], ...]

SCHEMA: dict[str, Columns] = {
    "documents": (
        ("doc_id", "str"), ("source", "str"), ("chapter", "str"), ("encoding", "str"), ("layout", "str"),
        ("chars", "int"), ("n_segments", "int"), ("n_sentences", "int"), ("n_clauses", "int"),
        ("n_spans", "int"), ("n_actions", "int"), ("n_removed", "int"), ("meta", "json"), ("text", "str"),
    ),
    "segments": (
        ("id", "str"), ("doc_id", "str"), ("chapter", "str"), ("seq", "int"), ("layer", "str"),
        ("start", "int"), ("end", "int"), ("evidence", "str"), ("score", "float"), ("text", "str"),
    ),
    "sentences": (
        ("id", "str"), ("doc_id", "str"), ("chapter", "str"), ("kind", "str"), ("seq", "int"),
        ("layer", "str"), ("segment_id", "str"), ("sentence_id", "str"),
        ("start", "int"), ("end", "int"), ("text", "str"),
    ),
    "spans": (
        ("id", "str"), ("doc_id", "str"), ("chapter", "str"), ("seq", "int"), ("layer", "str"),
        ("segment_id", "str"), ("sentence_id", "str"), ("start", "int"), ("end", "int"),
        ("label", "str"), ("text", "str"),
    ),
    "actions": (
        ("id", "str"), ("doc_id", "str"), ("chapter", "str"), ("seq", "int"), ("layer", "str"),
        ("segment_id", "str"), ("sentence_id", "str"), ("clause_id", "str"),
        ("start", "int"), ("end", "int"), ("clause", "str"),
        ("actor", "str"), ("actor_inferred", "bool"), ("verb", "str"), ("surface", "str"),
        ("count", "int"), ("response", "bool"), ("negated", "bool"), ("purpose", "str"),
        ("object", "str"), ("target", "str"), ("location", "str"), ("facing", "str"), ("extra", "json"),
    ),
}

#: the key that identifies a row of each table
KEYS: dict[str, str] = {"documents": "doc_id", "segments": "id", "sentences": "id", "spans": "id", "actions": "id"}

TABLES: tuple[str, ...] = tuple(SCHEMA)

ACTION_FIELDS = ("actor", "actor_inferred", "verb", "surface", "count", "response", "negated",
                 "purpose", "object", "target", "location", "facing")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def document_row(doc: ExportDocument) -> dict[str, Any]:
    return {
        "doc_id": doc.doc_id,
        "source": doc.source,
        "chapter": doc.chapter,
        "encoding": doc.meta.get("encoding"),
        "layout": doc.meta.get("layout"),
        "chars": len(doc.text),
        "n_segments": len(doc.segments),
        "n_sentences": len(doc.sentences),
        "n_clauses": len(doc.clauses),
        "n_spans": len(doc.spans),
        "n_actions": len(doc.actions),
        "n_removed": len(doc.removed),
        "meta": _json(doc.meta),
        "text": doc.text,
    }


def segment_rows(doc: ExportDocument) -> Iterator[dict[str, Any]]:
    for seq, (seg_id, seg) in enumerate(zip(doc.segment_ids, doc.segments)):
        yield {
            "id": seg_id, "doc_id": doc.doc_id, "chapter": doc.chapter, "seq": seq, "layer": seg.get("layer"),
            "start": seg["start"], "end": seg["end"], "evidence": seg.get("evidence"),
            "score": None if seg.get("score") is None else float(seg["score"]),
            "text": doc.text[seg["start"]:seg["end"]],
        }


def sentence_rows(doc: ExportDocument) -> Iterator[dict[str, Any]]:
    for kind, items, ids in (("sentence", doc.sentences, doc.sentence_ids), ("clause", doc.clauses, doc.clause_ids)):
        for seq, (sid, sent) in enumerate(zip(ids, items)):
            s, e = sent["start"], sent["end"]
            yield {
                "id": sid, "doc_id": doc.doc_id, "chapter": doc.chapter, "kind": kind, "seq": seq,
                "layer": sent.get("layer") or doc.layer_of(s, e), "segment_id": doc.segment_of(s, e),
                "sentence_id": sid if kind == "sentence" else doc.sentence_of(s, e),
                "start": s, "end": e, "text": doc.text[s:e],
            }


def span_rows(doc: ExportDocument) -> Iterator[dict[str, Any]]:
    for seq, (span_id, span) in enumerate(zip(doc.span_ids, doc.spans)):
        s, e = span["start"], span["end"]
        yield {
            "id": span_id, "doc_id": doc.doc_id, "chapter": doc.chapter, "seq": seq,
            "layer": doc.layer_of(s, e), "segment_id": doc.segment_of(s, e), "sentence_id": doc.sentence_of(s, e),
            "start": s, "end": e, "label": span.get("label"), "text": doc.text[s:e],
        }


def action_rows(doc: ExportDocument) -> Iterator[dict[str, Any]]:
    for seq, (action_id, act) in enumerate(zip(doc.action_ids, doc.actions)):
        s, e = act["start"], act["end"]
        row = {
            "id": action_id, "doc_id": doc.doc_id, "chapter": doc.chapter, "seq": seq,
            "layer": doc.layer_of(s, e), "segment_id": doc.segment_of(s, e),
            "sentence_id": doc.sentence_of(s, e), "clause_id": doc.clause_of(s, e),
            "start": s, "end": e, "clause": doc.text[s:e],
        }
        for name in ACTION_FIELDS:
            row[name] = act.get(name)
        for name in ("actor_inferred", "response", "negated"):
            row[name] = bool(row[name])
        extra = {k: v for k, v in act.items() if k not in ACTION_FIELDS and k not in ("start", "end")}
        row["extra"] = _json(extra)
        yield row


ROW_BUILDERS = {
    "documents": lambda doc: iter([document_row(doc)]),
    "segments": segment_rows,
    "sentences": sentence_rows,
    "spans": span_rows,
    "actions": action_rows,
}


@dataclass
class Tables:
    """Rows of every table for a set of documents, and the ids of those documents."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {t: [] for t in TABLES})
    doc_ids: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, documents: Iterable[ExportDocument]) -> "Tables":
        tables = cls()
        for doc in documents:
            tables.doc_ids.append(doc.doc_id)
            for name, builder in ROW_BUILDERS.items():
                tables.rows[name].extend(builder(doc))
        return tables

    def __getitem__(self, name: str) -> list[dict[str, Any]]:
        return self.rows[name]

    def counts(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.rows.items()}


def coerce(value: Any, kind: str) -> Any:
    """A value read back as text (CSV) in its column's type; ``""`` is null."""
    if value is None or value == "":
        return None
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "bool":
        return value if isinstance(value, bool) else str(value).lower() in ("true", "1")
    return value
