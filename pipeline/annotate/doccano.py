"""Doccano JSONL, both ways.

Export: one line per record, Doccano's relation-extraction layout —
``{"text", "entities": [{"id", "label", "start_offset", "end_offset"}], "relations": [{"id",
"from_id", "to_id", "type"}]}`` — plus ``"label": ["JING"]`` for a layer task (Doccano's text
classification) and ``"yili"``: our whole record but its text, which Doccano keeps as metadata
and writes back on export.

Import: the same layout, or Doccano's older sequence-labelling one (``"label": [[start, end,
"ACTOR"], …]``). Doccano counts offsets in code points (its exports are written by Python), so
they are taken as they are; ``utf16=True`` reads files from a tool that counted UTF-16 units.
Every line is one accepted answer unless ``yili.answer`` says otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.annotate.jsonl import dumps, read_lines, write_lines
from pipeline.annotate.rebuild import ConvertError, rebuild, utf16_to_cp
from pipeline.labels import LAYERS


def to_doccano(record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"text": record["text"]}
    ids: dict[tuple[int, int], int] = {}
    entities = []
    for i, sp in enumerate(record.get("spans") or []):
        ids[(sp["start"], sp["end"])] = i
        entities.append({"id": i, "label": sp["label"], "start_offset": sp["start"], "end_offset": sp["end"]})
    if "spans" in record:
        out["entities"] = entities
        relations = []
        for rel in record.get("relations") or []:
            head = ids.get((rel["head_span"]["start"], rel["head_span"]["end"]))
            child = ids.get((rel["child_span"]["start"], rel["child_span"]["end"]))
            if head is not None and child is not None:
                relations.append({"id": len(relations), "from_id": head, "to_id": child, "type": rel["label"]})
        out["relations"] = relations
    if record.get("label") in LAYERS:
        out["label"] = [record["label"]]
    out["yili"] = {k: v for k, v in record.items() if k != "text"}
    return out


def from_doccano(line: dict[str, Any], utf16: bool = False) -> dict[str, Any]:
    text = line.get("text")
    if not isinstance(text, str) or not text:
        raise ConvertError("no text")
    base = {"text": text, **(line.get("yili") or {})}
    table = utf16_to_cp(text) if utf16 else None

    def offsets(s: int, e: int) -> tuple[int, int]:
        return (table[s], table[e]) if table is not None else (s, e)

    spans: dict[Any, tuple[int, int, str]] = {}
    span_list: list[tuple[int, int, str]] = []
    label = None
    labels = line.get("label")
    if labels is None:
        labels = line.get("cats")
    if isinstance(labels, list) and labels and isinstance(labels[0], list):  # old sequence labelling
        for s, e, name in labels:
            span_list.append((*offsets(s, e), name))
    elif isinstance(labels, list):
        if len(labels) > 1:
            raise ConvertError(f"{len(labels)} layer labels on one text")
        label = labels[0] if labels else None
    for ent in line.get("entities") or []:
        triple = (*offsets(ent["start_offset"], ent["end_offset"]), ent["label"])
        spans[ent.get("id")] = triple
        span_list.append(triple)
    pairs = []
    for rel in line.get("relations") or []:
        if rel.get("from_id") not in spans or rel.get("to_id") not in spans:
            raise ConvertError(f"relation {rel.get('id')} joins an entity that is not in the line")
        pairs.append((spans[rel["from_id"]], spans[rel["to_id"]], rel["type"]))
    has_spans = "entities" in line or "spans" in base or bool(span_list)
    answer = base.get("answer")
    return rebuild(text, base, span_list if has_spans else None,
                   pairs if ("relations" in line or "relations" in base) else None, label, answer)


def write_doccano(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    return write_lines(path, (dumps(to_doccano(r)) for r in records))


def read_doccano(path: str | Path, utf16: bool = False) -> Iterator[tuple[str, Optional[dict[str, Any]], Optional[str]]]:
    for line in read_lines(path):
        where = f"{line.source}:{line.number}"
        if line.error:
            yield where, None, line.error
            continue
        try:
            yield where, from_doccano(line.record, utf16), None
        except (ConvertError, KeyError, TypeError, ValueError, IndexError) as exc:
            yield where, None, str(exc)
