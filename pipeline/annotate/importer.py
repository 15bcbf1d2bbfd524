"""``yili import``: answers into the store, every record checked, every refusal explained.

Reads Prodigy JSONL (``db-out``, the review page's output, ``yili tasks`` files answered
elsewhere), Label Studio JSON, Doccano JSONL or brat folders (:mod:`.labelstudio`,
:mod:`.doccano`, :mod:`.brat`). Each record is validated (:mod:`.validate`); the valid ones are
stored together in one transaction, with their annotator (``_annotator_id``, else the option),
session (``_session_id``, else one named for this import) and time (``_timestamp``, else now);
the others are reported with where they were and why. Nothing valid is dropped.

A JSONL record is stored as the exact text of its line, so exporting it again
(:func:`export_answers`, like Prodigy's ``db-out``) gives the same bytes.
"""

from __future__ import annotations

import getpass
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.annotate.jsonl import dumps, read_lines, write_lines
from pipeline.annotate.store import AnswerStore, NewAnswer, iso_from_timestamp
from pipeline.annotate.validate import validate_record

FORMATS: tuple[str, ...] = ("auto", "prodigy", "labelstudio", "doccano", "brat")


@dataclass
class Rejected:
    where: str
    reasons: list[str]


@dataclass
class ImportReport:
    dataset: str
    session: str
    stored: int = 0
    ids: list[int] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected


def detect_format(path: str | Path) -> str:
    path = Path(path)
    if path.is_dir() or path.suffix == ".ann":
        return "brat"
    if path.suffix == ".json":
        return "labelstudio"
    if str(path) != "-" and path.is_file():
        with open(path, encoding="utf-8") as handle:
            first = next((line for line in handle if line.strip()), "")
        if first.lstrip().startswith("["):  # one JSON document: a list of Label Studio tasks
            return "labelstudio"
        if '"entities"' in first or '"start_offset"' in first or '"yili"' in first:
            return "doccano"
    return "prodigy"


def _candidates(path: str | Path, fmt: str, utf16: bool) -> Iterator[tuple[str, Optional[str], Optional[dict[str, Any]], Optional[str]]]:
    """(where, exact JSON text or None, record, error) for each record of ``path``."""
    if fmt == "prodigy":
        for line in read_lines(path):
            yield f"{line.source}:{line.number}", line.raw, line.record, line.error
        return
    if fmt == "labelstudio":
        from pipeline.annotate.labelstudio import from_labelstudio, read_labelstudio

        try:
            items = from_labelstudio(read_labelstudio(path))
        except (OSError, ValueError) as exc:
            yield str(path), None, None, f"cannot read Label Studio JSON: {exc}"
            return
        for where, record, error in items:
            yield f"{path} {where}", None, record, error
        return
    if fmt == "doccano":
        from pipeline.annotate.doccano import read_doccano

        for where, record, error in read_doccano(path, utf16=utf16):
            yield where, None, record, error
        return
    if fmt == "brat":
        from pipeline.annotate.brat import read_brat

        for where, record, error in read_brat(path):
            yield where, None, record, error
        return
    raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")


def default_annotator() -> str:
    try:
        return getpass.getuser()
    except Exception:  # pragma: no cover - no user database
        return "anonymous"


def import_answers(
    paths: Iterable[str | Path],
    store: AnswerStore,
    dataset: str,
    fmt: str = "auto",
    annotator: Optional[str] = None,
    session: Optional[str] = None,
    default_answer: Optional[str] = "accept",
    utf16: bool = False,
) -> ImportReport:
    """Validate and store every record of ``paths``; the report lists what was refused and why."""
    session = session or f"import-{uuid.uuid4().hex[:12]}"
    annotator = annotator or default_annotator()
    report = ImportReport(dataset=dataset, session=session)
    batch: list[NewAnswer] = []
    for path in paths:
        kind = detect_format(path) if fmt == "auto" else fmt
        for where, raw, record, error in _candidates(path, kind, utf16):
            if error:
                report.rejected.append(Rejected(where, [error]))
                continue
            problems = validate_record(record, default_answer)
            if problems:
                report.rejected.append(Rejected(where, problems))
                continue
            batch.append(NewAnswer(
                raw=raw if raw is not None else dumps(record),
                record=record,
                annotator=str(record.get("_annotator_id") or annotator),
                session=str(record.get("_session_id") or session),
                created=iso_from_timestamp(record.get("_timestamp")),
                answer=record.get("answer", default_answer),
            ))
    if batch:
        report.ids = store.add(dataset, batch)
        report.stored = len(report.ids)
    return report


def import_command(
    inputs: list[str | Path],
    dataset: str = "yili",
    db: Optional[str] = None,
    fmt: str = "auto",
    annotator: Optional[str] = None,
    session: Optional[str] = None,
    answer: str = "accept",
    utf16: bool = False,
) -> ImportReport:
    """``yili import INPUT... [--dataset NAME] [--db URL] [--format auto|prodigy|labelstudio|doccano|brat]
    [--annotator NAME] [--session ID] [--answer accept] [--utf16]``."""
    with AnswerStore(db) as store:
        return import_answers(inputs, store, dataset, fmt, annotator, session, answer, utf16)


def export_answers(
    store: AnswerStore,
    dataset: str,
    output: str | Path,
    fmt: str = "prodigy",
    latest: bool = False,
    kind: Optional[str] = None,
    answers: Optional[Iterable[str]] = None,
) -> int:
    """Write the dataset's answers (oldest first; ``latest``: only the current answer to each question).

    ``prodigy`` writes each record's stored JSON text exactly (Prodigy's ``db-out``);
    ``labelstudio`` / ``doccano`` / ``brat`` convert.
    """
    rows = store.latest(dataset, kind) if latest else list(store.answers(dataset, kind))
    wanted = set(answers) if answers else None
    rows = [r for r in rows if wanted is None or r.answer in wanted]
    if fmt == "prodigy":
        return write_lines(output, (r.raw for r in rows))
    records = [r.record for r in rows]
    if fmt == "labelstudio":
        from pipeline.annotate.labelstudio import write_labelstudio

        return write_labelstudio(output, records)
    if fmt == "doccano":
        from pipeline.annotate.doccano import write_doccano

        return write_doccano(output, records)
    if fmt == "brat":
        from pipeline.annotate.brat import write_brat

        return write_brat(output, records)
    raise ValueError(f"unknown format {fmt!r}")


def convert_command(inputs: list[str | Path], output: str | Path, to: str, fmt: str = "auto", utf16: bool = False) -> ImportReport:
    """``yili convert INPUT... -o OUT --to labelstudio|doccano|brat|prodigy``: file to file, no store.

    Records are validated on the way, like an import; refused ones are reported, not written.
    """
    report = ImportReport(dataset="", session="")
    records: list[dict[str, Any]] = []
    raws: list[str] = []
    for path in inputs:
        kind = detect_format(path) if fmt == "auto" else fmt
        for where, raw, record, error in _candidates(path, kind, utf16):
            problems = [error] if error else validate_record(record, "accept")
            if problems:
                report.rejected.append(Rejected(where, problems))
                continue
            records.append(record)
            raws.append(raw if raw is not None else dumps(record))
    if to == "prodigy":
        report.stored = write_lines(output, raws)
    elif to == "labelstudio":
        from pipeline.annotate.labelstudio import write_labelstudio

        report.stored = write_labelstudio(output, records)
    elif to == "doccano":
        from pipeline.annotate.doccano import write_doccano

        report.stored = write_doccano(output, records)
    elif to == "brat":
        from pipeline.annotate.brat import write_brat

        report.stored = write_brat(output, records)
    else:
        raise ValueError(f"unknown format {to!r}")
    return report


def export_command(output: str | Path, dataset: str = "yili", db: Optional[str] = None, fmt: str = "prodigy",
                   latest: bool = False, kind: Optional[str] = None, answers: Optional[list[str]] = None) -> int:
    """``yili export-answers DATASET -o OUT [--db URL] [--format prodigy|labelstudio|doccano|brat] [--latest]``."""
    with AnswerStore(db, create=False) as store:
        store.require(dataset)
        return export_answers(store, dataset, output, fmt, latest, kind, answers)
