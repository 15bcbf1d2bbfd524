"""``yili tasks``: the pipeline's proposals as Prodigy-compatible tasks (SCHEMA section 5).

Input: the JSONL of ``yili process`` (SCHEMA section 6) — or any record with ``text`` and, where
it has them, ``segments``, ``sentences``, ``spans`` and ``actions`` (gold passages included).

The unit of a task:

- ``sentence`` (default for span and relation tasks): one sentence of a wanted layer (the
  ``sentences`` of kind "sentence"; a record without sentences gives its segments instead);
- ``segment`` (default for layer tasks): one layer segment (a record without segments is one
  segment of ``meta.layer``, or of JING).

Each task's ``text`` is the raw slice of the record's text, exactly, and every offset is shifted
into it; ``meta`` keeps the record's meta plus ``doc``, ``layer``, ``unit`` and ``start`` / ``end``
(the slice in the document), so an answer can always be put back where it came from.

Kinds (one per file, like Prodigy's views):

- ``spans``: ``tokens`` (one per character, ``ws: false``) and ``spans`` with token indices —
  for ``spans.manual``;
- ``relations`` (default): ``spans`` plus ``relations`` (VERB → role) and the ``actions`` —
  for ``rel.manual`` and the review page;
- ``layers``: ``text`` and ``label`` (the proposed layer) — for ``textcat.manual`` / ``mark``.

Every task carries ``_input_hash`` / ``_task_hash`` (:mod:`pipeline.annotate.hashing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.annotate.hashing import set_hashes
from pipeline.annotate.jsonl import read_lines, write_jsonl
from pipeline.annotate.relations import relations_from_actions
from pipeline.annotate.tokens import TokenIndex, char_tokens
from pipeline.labels import LAYERS, SPAN_LABELS

KINDS: tuple[str, ...] = ("relations", "spans", "layers")
UNITS: tuple[str, ...] = ("sentence", "segment")


@dataclass
class TasksReport:
    records: int = 0
    tasks: int = 0
    skipped_records: list[str] = field(default_factory=list)
    #: "file:line: why" of each line that could not be read (not JSON, not UTF-8) or file that is not there
    bad_lines: list[str] = field(default_factory=list)
    #: where the record being read came from ("file:line"), for the message if it cannot be made tasks of
    where: str = ""
    #: spans left out because they cut a character (e.g. half of an &KR…; entity)
    misaligned_spans: int = 0
    #: actions left out because their clause is not inside the unit
    outside_actions: int = 0


def doc_id(record: dict[str, Any]) -> str:
    meta = record.get("meta") or {}
    if meta.get("doc"):
        return str(meta["doc"])
    if meta.get("source"):
        return Path(str(meta["source"])).name
    return ""


def units(record: dict[str, Any], unit: str, layers: Optional[Iterable[str]]) -> list[tuple[int, int, str, dict[str, Any]]]:
    """(start, end, layer, extra meta) of the record's units of ``unit`` in ``layers``."""
    wanted = set(layers) if layers else None
    text = record["text"]
    meta_layer = (record.get("meta") or {}).get("layer")
    segments = record.get("segments") or [
        {"layer": meta_layer or "JING", "start": 0, "end": len(text), "evidence": "default", "score": 1.0}
    ]
    out = []
    if unit == "sentence" and record.get("sentences"):
        for sent in record["sentences"]:
            if sent.get("kind", "sentence") != "sentence":
                continue
            out.append((sent["start"], sent["end"], sent.get("layer") or meta_layer or "JING", {}))
    else:
        for seg in segments:
            extra = {k: seg[k] for k in ("evidence", "score") if k in seg}
            out.append((seg["start"], seg["end"], seg.get("layer", "JING"), extra))
    return [u for u in out if u[1] > u[0] and (wanted is None or u[2] in wanted) and text[u[0]:u[1]].strip()]


def _unit_meta(record: dict[str, Any], start: int, end: int, layer: str, unit: str, extra: dict[str, Any]) -> dict[str, Any]:
    meta = dict(record.get("meta") or {})
    base = meta.get("start") if isinstance(meta.get("start"), int) else 0
    meta.update({"doc": doc_id(record), "layer": layer, "unit": unit, "start": base + start, "end": base + end})
    meta.update(extra)
    return meta


def _inside(item: dict[str, Any], start: int, end: int) -> bool:
    return start <= item["start"] and item["end"] <= end


def span_task(record: dict[str, Any], start: int, end: int, report: TasksReport) -> dict[str, Any]:
    """text, tokens and spans (with token indices) of the slice ``[start, end)``."""
    text = record["text"][start:end]
    tokens = char_tokens(text)
    index = TokenIndex(tokens)
    spans = []
    for sp in sorted(record.get("spans") or [], key=lambda s: (s["start"], s["end"])):
        if not _inside(sp, start, end) or sp.get("label") not in SPAN_LABELS:
            continue
        s, e = sp["start"] - start, sp["end"] - start
        tok = index.span(s, e)
        if tok is None:
            report.misaligned_spans += 1
            continue
        spans.append({"text": text[s:e], "start": s, "end": e, "token_start": tok[0], "token_end": tok[1], "label": sp["label"]})
    return {"text": text, "tokens": tokens, "spans": spans}


def unit_actions(record: dict[str, Any], start: int, end: int, report: TasksReport) -> list[dict[str, Any]]:
    out = []
    for action in record.get("actions") or []:
        if _inside(action, start, end):
            shifted = dict(action)
            shifted["start"], shifted["end"] = action["start"] - start, action["end"] - start
            out.append(shifted)
        elif action["start"] < end and action["end"] > start:
            report.outside_actions += 1
    return out


def record_tasks(record: dict[str, Any], kind: str = "relations", unit: Optional[str] = None,
                 layers: Optional[Iterable[str]] = None, report: Optional[TasksReport] = None) -> Iterator[dict[str, Any]]:
    """The tasks of one processed record."""
    if kind not in KINDS:
        raise ValueError(f"unknown task kind {kind!r}: one of {', '.join(KINDS)}")
    report = report if report is not None else TasksReport()
    unit = unit or ("segment" if kind == "layers" else "sentence")
    if layers is None:
        layers = LAYERS if kind == "layers" else ("JING",)
    for start, end, layer, extra in units(record, unit, layers):
        meta = _unit_meta(record, start, end, layer, unit, extra)
        if kind == "layers":
            task = {"text": record["text"][start:end], "label": layer, "meta": meta}
        else:
            task = span_task(record, start, end, report)
            task["meta"] = meta
            if kind == "relations":
                actions = unit_actions(record, start, end, report)
                task["relations"] = relations_from_actions(task["text"], task["spans"], actions)
                task["actions"] = actions
            task = {"text": task["text"], "meta": task.pop("meta"), **{k: v for k, v in task.items() if k != "text"}}
        yield set_hashes(task)


def make_tasks(records: Iterable[dict[str, Any]], kind: str = "relations", unit: Optional[str] = None,
               layers: Optional[Iterable[str]] = None, report: Optional[TasksReport] = None) -> Iterator[dict[str, Any]]:
    report = report if report is not None else TasksReport()
    for record in records:
        report.records += 1
        if not isinstance(record, dict) or not isinstance(record.get("text"), str) or record.get("error"):
            report.skipped_records.append(doc_id(record) if isinstance(record, dict) else "?")
            continue
        try:  # a record whose spans or actions are malformed is that record's error, not the run's
            made = list(record_tasks(record, kind, unit, layers, report))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            where = report.where or f"record {report.records}"
            report.bad_lines.append(f"{where}: cannot be made tasks of ({type(exc).__name__}: {exc})")
            continue
        for task in made:
            report.tasks += 1
            yield task


def read_records(paths: Iterable[str | Path], report: Optional[TasksReport] = None) -> Iterator[dict[str, Any]]:
    """The records of the JSONL files named; a line that cannot be read, or a file that is not there,
    goes into ``report.bad_lines`` and the rest are read (one hand-edited line had stopped the run)."""
    report = report if report is not None else TasksReport()
    for path in paths:
        if str(path) != "-" and not Path(path).is_file():
            report.bad_lines.append(f"{path}: no such file")
            continue
        for line in read_lines(path):
            if line.error:
                report.bad_lines.append(f"{line.source}:{line.number}: {line.error}")
                continue
            report.where = f"{line.source}:{line.number}"
            yield line.record


class TaskOptionError(ValueError):
    """An option of ``yili tasks`` that cannot work, said before any input is read (an unknown
    ``--select`` and a span model that would not load had ended in a traceback after reading every
    input; an unknown ``--unit`` or ``--layer`` had given the default unit's tasks, or none, in silence;
    an unknown ``--kind`` had been every record's error)."""


SELECTIONS: tuple[str, ...] = ("uncertain",)


def check_options(kind: str, unit: Optional[str], layers: Optional[Iterable[str]], select: Optional[str],
                  span_model: Optional[str | Path]) -> None:
    """Raise :class:`TaskOptionError` for an option of ``yili tasks`` that cannot work."""
    if kind not in KINDS:
        raise TaskOptionError(f"unknown --kind {kind!r}: one of {', '.join(KINDS)}")
    if unit is not None and unit not in UNITS:
        raise TaskOptionError(f"unknown --unit {unit!r}: one of {', '.join(UNITS)}")
    unknown = [layer for layer in layers or () if layer not in LAYERS]
    if unknown:
        raise TaskOptionError(f"unknown --layer {', '.join(map(repr, unknown))}: one of {', '.join(LAYERS)}")
    if select is not None and select not in SELECTIONS:
        raise TaskOptionError(f"unknown --select {select!r}: one of {', '.join(SELECTIONS)}")
    if span_model is not None and select is None:
        raise TaskOptionError("--span-model orders the tasks of --select uncertain: give --select uncertain as well")


def _span_model(path: str | Path) -> Any:
    """The spaCy span model of ``--span-model``, or :class:`TaskOptionError` saying why it does not load."""
    from pipeline.annotate.select import SpacySpanModel

    try:
        return SpacySpanModel(str(path))
    except Exception as exc:
        raise TaskOptionError(f"cannot load the span model {path}: {exc} (a spaCy pipeline folder, as `spacy train` "
                              "writes from the DocBin of `yili train from-store`)") from exc


def tasks_command(
    inputs: list[str | Path],
    output: str | Path,
    kind: str = "relations",
    unit: Optional[str] = None,
    layers: Optional[list[str]] = None,
    select: Optional[str] = None,
    limit: Optional[int] = None,
    span_model: Optional[str | Path] = None,
) -> TasksReport:
    """``yili tasks INPUT... -o OUT.jsonl [--kind relations|spans|layers] [--unit sentence|segment]
    [--layer JING ...] [--select uncertain [--span-model DIR]] [--limit N]``: write tasks, return the report.

    ``span_model``: a spaCy pipeline folder trained on the store's DocBin; with ``--select uncertain``
    the tasks where it disagrees with the rules' spans come first. Options that cannot work (an
    unknown kind, unit, layer or selection; a span model that does not load) raise
    :class:`TaskOptionError` before any input is read."""
    check_options(kind, unit, layers, select, span_model)
    model = _span_model(span_model) if span_model else None
    report = TasksReport()
    tasks: Iterable[dict[str, Any]] = make_tasks(read_records(inputs, report), kind, unit, layers, report)
    if select:
        from pipeline.annotate.select import order_tasks

        tasks = order_tasks(list(tasks), select, span_model=model)
    if limit is not None:
        tasks = (t for i, t in enumerate(tasks) if i < limit)
    write_jsonl(output, tasks)
    return report
