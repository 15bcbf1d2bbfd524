"""Processed records (the JSONL of ``yili process``) as documents ready to export.

An :class:`ExportDocument` is one output line of ``yili process`` with its stable ids computed
once (:mod:`pipeline.export.ids`), its chapter (:mod:`pipeline.read.chapters`) and lookups that
place a span or an act in its layer segment, sentence and clause. Every exporter and view reads
these, never the JSON directly, so they all agree on ids and containment.
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from pipeline.read.chapters import chapter_of
from pipeline.export.ids import IdAllocator, document_id
from pipeline.read.decode import json_fault, utf8_line

LIST_FIELDS = ("segments", "sentences", "clauses", "spans", "actions", "removed")


class RecordError(ValueError):
    """A processed record that cannot be exported (missing text, offsets outside it)."""


@dataclass
class Locator:
    """Finds which of a sorted set of ranges holds a position (bisect, not a scan)."""

    starts: list[int]
    ends: list[int]
    ids: list[str]

    @classmethod
    def of(cls, items: Sequence[dict[str, Any]], ids: Sequence[str]) -> "Locator":
        order = sorted(range(len(items)), key=lambda i: (items[i]["start"], items[i]["end"]))
        return cls([items[i]["start"] for i in order], [items[i]["end"] for i in order], [ids[i] for i in order])

    def find(self, start: int, end: Optional[int] = None) -> Optional[str]:
        """The id of the range holding ``start``; else of the first range overlapping ``[start, end)``."""
        end = start + 1 if end is None or end <= start else end
        i = bisect.bisect_right(self.starts, start) - 1
        if i >= 0 and self.ends[i] > start:
            return self.ids[i]
        j = i + 1
        if j < len(self.starts) and self.starts[j] < end:
            return self.ids[j]
        return None


@dataclass
class ExportDocument:
    """One processed document with ids, chapter and containment lookups."""

    doc_id: str
    text: str
    meta: dict[str, Any]
    chapter: Optional[str]
    segments: list[dict[str, Any]] = field(default_factory=list)
    sentences: list[dict[str, Any]] = field(default_factory=list)
    clauses: list[dict[str, Any]] = field(default_factory=list)
    spans: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    #: ids aligned with the lists above
    segment_ids: list[str] = field(default_factory=list)
    sentence_ids: list[str] = field(default_factory=list)
    clause_ids: list[str] = field(default_factory=list)
    span_ids: list[str] = field(default_factory=list)
    action_ids: list[str] = field(default_factory=list)
    origin: str = ""

    @property
    def source(self) -> Optional[str]:
        value = self.meta.get("source")
        return str(value) if value is not None else None

    @property
    def name(self) -> str:
        """A short human name: the source file name, else the document id."""
        return Path(self.source).name if self.source else self.doc_id

    @classmethod
    def from_record(cls, record: dict[str, Any], origin: str = "") -> "ExportDocument":
        text = record.get("text")
        if not isinstance(text, str):
            raise RecordError(f"{origin}: record has no string 'text'")
        meta = record.get("meta") if isinstance(record.get("meta"), dict) else {}
        lists: dict[str, list[dict[str, Any]]] = {}
        for name in LIST_FIELDS:
            items = record.get(name) or []
            if not isinstance(items, list):
                raise RecordError(f"{origin}: '{name}' must be a list")
            for k, item in enumerate(items):
                s, e = item.get("start"), item.get("end")
                if not (isinstance(s, int) and isinstance(e, int) and 0 <= s <= e <= len(text)):
                    raise RecordError(f"{origin}: {name}[{k}] has offsets {s}:{e} outside the text (0:{len(text)})")
            lists[name] = items
        doc_id = document_id(meta, text)
        ids = IdAllocator(doc_id)
        return cls(
            doc_id=doc_id,
            text=text,
            meta=meta,
            chapter=chapter_of(meta, text),
            origin=origin,
            **lists,
            segment_ids=[ids(s["start"], s["end"], "segment") for s in lists["segments"]],
            sentence_ids=[ids(s["start"], s["end"], "sentence") for s in lists["sentences"]],
            clause_ids=[ids(s["start"], s["end"], "clause") for s in lists["clauses"]],
            span_ids=[ids(s["start"], s["end"], str(s.get("label"))) for s in lists["spans"]],
            action_ids=[ids(a["start"], a["end"], str(a.get("verb"))) for a in lists["actions"]],
        )

    # -- containment ------------------------------------------------------------------------------
    def _locator(self, name: str) -> Locator:
        cache = self.__dict__.setdefault("_locators", {})
        if name not in cache:
            items = getattr(self, name)
            cache[name] = Locator.of(items, getattr(self, name[:-1] + "_ids"))
        return cache[name]

    def segment_of(self, start: int, end: Optional[int] = None) -> Optional[str]:
        return self._locator("segments").find(start, end)

    def sentence_of(self, start: int, end: Optional[int] = None) -> Optional[str]:
        return self._locator("sentences").find(start, end)

    def clause_of(self, start: int, end: Optional[int] = None) -> Optional[str]:
        return self._locator("clauses").find(start, end)

    def layer_of(self, start: int, end: Optional[int] = None) -> Optional[str]:
        seg_id = self.segment_of(start, end)
        return None if seg_id is None else self.segment_by_id[seg_id]["layer"]

    @cached_property
    def segment_by_id(self) -> dict[str, dict[str, Any]]:
        return dict(zip(self.segment_ids, self.segments))

    @cached_property
    def sentence_by_id(self) -> dict[str, dict[str, Any]]:
        return dict(zip(self.sentence_ids, self.sentences))

    @cached_property
    def matching_text(self) -> str:
        """The text in the pipeline's matching form (traditional and simplified, 賓/賔, 荅/答 … one
        form; as long as the text, so an index into it is one into the text)."""
        from pipeline.text.normalise import normalise_str

        return normalise_str(self.text)

    def find(self, needle: str, start: int = 0, end: Optional[int] = None) -> int:
        """Where ``needle`` first occurs in the text, as a scholar means it: in either script and any
        edition's spelling (主人与宾三揖 finds 主人與賓三揖); -1 if nowhere."""
        from pipeline.text.normalise import normalise_str

        return self.matching_text.find(normalise_str(needle), start, len(self.text) if end is None else end)


@dataclass
class LoadResult:
    documents: list[ExportDocument] = field(default_factory=list)
    #: (origin, message) of every error line and every record that could not be exported
    errors: list[tuple[str, str]] = field(default_factory=list)
    #: documents given more than once (same id): the last one is kept
    duplicates: int = 0
    #: of the errors, the lines that could not be read as a processed record (not JSON, not UTF-8,
    #: offsets outside the text), as against the error records `yili process` wrote
    unreadable: int = 0

    @property
    def doc_ids(self) -> list[str]:
        return [d.doc_id for d in self.documents]


def iter_records(path: Union[str, Path]) -> Iterator[tuple[str, Any]]:
    """``(origin, record)`` of each non-blank line; a line that is not JSON gives its error text instead.
    Lines are decoded one by one: a line cut inside a character (a copy that stopped short) or in
    another encoding spoils itself only, not the whole export."""
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, 1):
            origin = f"{path}:{lineno}"
            line, why = utf8_line(raw.removesuffix(b"\n"), first=lineno == 1)
            if line is None:
                yield origin, RecordError(f"{origin}: {why}")
                continue
            if not line.strip():
                continue
            try:
                yield origin, json.loads(line)
            except json.JSONDecodeError as exc:
                yield origin, RecordError(f"{origin}: invalid JSON ({json_fault(exc)})")


def load_documents(
    inputs: Union[str, Path, Iterable[Union[str, Path, dict[str, Any]]]],
) -> LoadResult:
    """Read processed JSONL files (or records given directly): skip and count ``error`` lines."""
    if isinstance(inputs, (str, Path)):
        inputs = [inputs]
    result = LoadResult()
    by_id: dict[str, int] = {}

    def add(origin: str, record: Any) -> None:
        if isinstance(record, Exception):
            result.errors.append((origin, str(record)))
            result.unreadable += 1
            return
        if not isinstance(record, dict):
            result.errors.append((origin, f"{origin}: not a JSON object"))
            result.unreadable += 1
            return
        if record.get("error"):
            result.errors.append((origin, str(record["error"])))
            return
        try:
            doc = ExportDocument.from_record(record, origin)
        except RecordError as exc:
            result.errors.append((origin, str(exc)))
            result.unreadable += 1
            return
        if doc.doc_id in by_id:
            result.duplicates += 1
            result.documents[by_id[doc.doc_id]] = doc
        else:
            by_id[doc.doc_id] = len(result.documents)
            result.documents.append(doc)

    for k, item in enumerate(inputs):
        if isinstance(item, dict):
            add(f"record {k + 1}", item)
        else:
            for origin, record in iter_records(item):
                add(origin, record)
    return result
