"""Label Studio JSON, both ways.

Export: a JSON list of Label Studio tasks. ``data.text`` is the text; ``data.meta`` the meta;
``data.yili`` our whole record but its text (meta included: ``data.meta`` is for display) (tuples, hashes …), which Label Studio keeps untouched and
gives back. Spans are ``labels`` results (``from_name`` "label"), relations ``relation`` results,
the layer a ``choices`` result (``from_name`` "layer"). A record with an ``answer`` becomes an
annotation; a task without one, a prediction (pre-annotation). :func:`labeling_config` is the
matching labeling interface.

Offsets: Label Studio counts text offsets in the browser, in UTF-16 code units, so an astral
character (𧃊) counts 2 there and 1 in our code points. Export writes UTF-16 offsets; import
converts them back, checking each result's ``value.text``: where the text matches the code-point
reading instead (a file written by a script), the code points are used as they are.

Import: every annotation (or, when a task has none, its newest prediction) becomes one record;
``completed_by`` becomes ``_annotator_id``; a cancelled (skipped) annotation becomes ``ignore``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.annotate.rebuild import ConvertError, cp_to_utf16, rebuild, utf16_to_cp
from pipeline.labels import LAYERS, RELATION_LABELS, SPAN_LABELS

SPAN_FROM = "label"
LAYER_FROM = "layer"
TEXT_TO = "text"
OWN_KEYS = ("text", "meta", "tokens", "spans", "relations", "label", "answer")


def labeling_config() -> str:
    """The Label Studio labeling interface for our spans, relations and layers."""
    labels = "\n".join(f'    <Label value="{label}"/>' for label in SPAN_LABELS)
    relations = "\n".join(f'    <Relation value="{label}"/>' for label in RELATION_LABELS)
    layers = "\n".join(f'    <Choice value="{label}"/>' for label in LAYERS)
    return (f'<View>\n  <Relations>\n{relations}\n  </Relations>\n'
            f'  <Labels name="{SPAN_FROM}" toName="{TEXT_TO}">\n{labels}\n  </Labels>\n'
            f'  <Text name="{TEXT_TO}" value="$text" granularity="symbol"/>\n'
            f'  <Choices name="{LAYER_FROM}" toName="{TEXT_TO}" choice="single">\n{layers}\n  </Choices>\n</View>\n')


def _results(record: dict[str, Any]) -> list[dict[str, Any]]:
    text = record["text"]
    results: list[dict[str, Any]] = []
    ids: dict[tuple[int, int], str] = {}
    for i, sp in enumerate(record.get("spans") or []):
        rid = f"s{i}"
        ids[(sp["start"], sp["end"])] = rid
        results.append({"id": rid, "from_name": SPAN_FROM, "to_name": TEXT_TO, "type": "labels",
                        "value": {"start": cp_to_utf16(text, sp["start"]), "end": cp_to_utf16(text, sp["end"]),
                                  "text": text[sp["start"]:sp["end"]], "labels": [sp["label"]]}})
    for rel in record.get("relations") or []:
        head = ids.get((rel["head_span"]["start"], rel["head_span"]["end"]))
        child = ids.get((rel["child_span"]["start"], rel["child_span"]["end"]))
        if head and child:
            results.append({"from_id": head, "to_id": child, "type": "relation", "direction": "right",
                            "labels": [rel["label"]]})
    if record.get("label") in LAYERS:
        results.append({"id": "layer", "from_name": LAYER_FROM, "to_name": TEXT_TO, "type": "choices",
                        "value": {"choices": [record["label"]]}})
    return results


def to_labelstudio(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    tasks = []
    for n, record in enumerate(records, 1):
        data = {"text": record["text"], "meta": record.get("meta") or {},
                "yili": {k: v for k, v in record.items() if k != "text"}}
        task: dict[str, Any] = {"id": n, "data": data}
        if "answer" in record:
            task["annotations"] = [{"result": _results(record), "was_cancelled": record["answer"] == "ignore",
                                    "completed_by": record.get("_annotator_id")}]
        else:
            task["predictions"] = [{"model_version": "yili", "result": _results(record)}]
        tasks.append(task)
    return tasks


def _offsets(text: str, value: dict[str, Any], table: Optional[list[int]]) -> tuple[int, int]:
    s, e = value["start"], value["end"]
    written = value.get("text")
    if table is not None and e < len(table):
        cs, ce = table[s], table[e]
        if written is None or text[cs:ce] == written:
            return cs, ce
    if written is None or text[s:e] == written:
        return s, e
    raise ConvertError(f"span {s}-{e} {written!r}: its text is not at these offsets (UTF-16 or code points)")


def _record(task: dict[str, Any], result: list[dict[str, Any]], answer: Optional[str], annotator: Any) -> dict[str, Any]:
    data = task.get("data") or {}
    text = data.get("text")
    if not isinstance(text, str) or not text:
        raise ConvertError("no data.text")
    base = {"text": text, **(data.get("yili") or ({"meta": data["meta"]} if "meta" in data else {}))}
    table = utf16_to_cp(text) if any(ord(ch) > 0xFFFF for ch in text) else None
    spans: dict[str, tuple[int, int, str]] = {}
    span_list: list[tuple[int, int, str]] = []
    rels = []
    label = None
    for item in result:
        kind = item.get("type")
        value = item.get("value") or {}
        if kind in ("labels", "hypertextlabels"):
            names = value.get("labels") or []
            if len(names) != 1:
                raise ConvertError(f"result {item.get('id')}: {len(names)} labels on one span")
            s, e = _offsets(text, value, table)
            spans[str(item.get("id"))] = (s, e, names[0])
            span_list.append((s, e, names[0]))
        elif kind == "relation":
            for name in item.get("labels") or []:
                rels.append((str(item.get("from_id")), str(item.get("to_id")), name))
        elif kind == "choices":
            choices = value.get("choices") or []
            if len(choices) != 1:
                raise ConvertError(f"result {item.get('id')}: {len(choices)} layer choices")
            label = choices[0]
    pairs = []
    for head, child, name in rels:
        if head not in spans or child not in spans:
            raise ConvertError(f"relation {name} joins a result that is not a span")
        pairs.append((spans[head], spans[child], name))
    had_spans = "spans" in base or bool(span_list)
    extra = {"_annotator_id": str(annotator)} if annotator not in (None, "") and "_annotator_id" not in base else None
    record = rebuild(text, base, span_list if had_spans else None, pairs if (pairs or "relations" in base) else None,
                     label, answer, extra)
    return record


def from_labelstudio(tasks: list[dict[str, Any]]) -> Iterator[tuple[str, Optional[dict[str, Any]], Optional[str]]]:
    """(where, record, None) or (where, None, reason) for each annotation of each task."""
    for n, task in enumerate(tasks, 1):
        where = f"task {task.get('id', n)}"
        annotations = task.get("annotations") or []
        if not annotations and task.get("predictions"):
            annotations = [dict(task["predictions"][-1], was_cancelled=False, _prediction=True)]
        if not annotations:
            yield where, None, "no annotation and no prediction"
            continue
        for k, ann in enumerate(annotations):
            ident = f"{where} annotation {ann.get('id', k + 1)}"
            try:
                base_answer = (task.get("data") or {}).get("yili", {}).get("answer")
                if ann.get("was_cancelled"):
                    answer = "ignore"
                elif ann.get("_prediction"):
                    answer = base_answer
                else:
                    answer = base_answer if base_answer in ("accept", "reject") else "accept"
                yield ident, _record(task, ann.get("result") or [], answer, ann.get("completed_by")), None
            except (ConvertError, KeyError, TypeError) as exc:
                yield ident, None, str(exc)


def read_labelstudio(path: str | Path) -> list[dict[str, Any]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return data if isinstance(data, list) else [data]


def write_labelstudio(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    tasks = to_labelstudio(records)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return len(tasks)
