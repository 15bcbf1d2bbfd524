"""JSONL records that are passages of one document are read with the names the whole document gives.

A chapter often arrives cut into passages, one JSONL record each (as the gold records are made,
``meta.doc`` ``"03_shixiangjianli.xhtml#p25"``). Read one by one, a participant the lexicon lacks is
found only in the passages whose own clauses show it; read as the chapter's file is read, a name
any passage gives holds in every passage (:meth:`DocumentProcessor.process_document`). This module
gives each such record the names of all the records of its document in the same JSONL file, so
that ``yili process`` on a chapter's passages writes what it writes for the chapter's file, record
by record, whatever their order in the file (a sample drawn from several chapters, shuffled).

Records are passages of one document when they are lines of the same JSONL file, each a passage of
a layer the tuples come from (``meta.layer`` one of ``[actions] layers``: 經), and name the same
document: ``meta.doc`` up to its ``#``, or else the same ``meta.source`` and ``meta.chapter``. Every
other record is read alone, as before: a unit whose layer the model is to decide would be read
twice (its names first), for names that only its 經 could give.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Collection, Iterable, Iterator, Optional

from pipeline.read.inputs import InputItem

#: a JSONL file is read in pieces of at most this many records or characters: a file of millions of
#: passages would otherwise wait in memory until its last line was read (the passages of a
#: document cut by a piece's end get the names of their own piece)
MAX_RECORDS = 20_000
MAX_CHARS = 20_000_000


def document_of(item: InputItem, layers: Collection[str] = ("JING",)) -> Optional[str]:
    """The document a JSONL record of one of ``layers`` says it is a passage of; None for any other
    item (a record of another layer, or of none: the layer model decides it). Narrower than
    ``yili classify``'s key (:func:`pipeline.layers.predict.document_key`, ``meta.source`` first):
    a source that names a whole edition (``zhushu-xhtml``) holds many chapters, each calling its
    participants in its own way, so it counts only with ``meta.chapter``."""
    if item.error is not None or item.jsonl is None:
        return None
    meta = item.record.get("meta")
    if not isinstance(meta, dict) or meta.get("layer") not in layers:
        return None
    doc = meta.get("doc")
    if isinstance(doc, str) and "#" in doc:
        return doc.split("#", 1)[0]
    chapter = meta.get("chapter")
    if isinstance(chapter, (str, int)) and not isinstance(chapter, bool):
        return f"{meta.get('source')}\0{chapter}"
    return None


def with_document_names(items: Iterable[InputItem], names_of: Callable[[list[dict]], frozenset[str]],
                        layers: Iterable[str] = ("JING",), max_records: int = MAX_RECORDS,
                        max_chars: int = MAX_CHARS) -> Iterator[InputItem]:
    """``items`` in their order, each passage (of ``layers``) of a document that has two or more in
    its JSONL file given ``names``: what ``names_of`` (the records of one document, in file order →
    the names they give) finds."""
    layers = tuple(layers)
    buffer: list[InputItem] = []
    chars = 0
    file: Optional[str] = None

    def flush() -> Iterator[InputItem]:
        nonlocal chars
        documents: dict[str, list[InputItem]] = defaultdict(list)
        for item in buffer:
            key = document_of(item, layers)
            if key is not None:
                documents[key].append(item)
        for key, members in documents.items():
            if len(members) > 1:
                names = tuple(sorted(names_of([item.record for item in members])))
                for item in members:
                    item.document, item.names = key, names
        yield from buffer
        buffer.clear()
        chars = 0

    for item in items:
        if buffer and (item.jsonl != file or len(buffer) >= max_records or chars >= max_chars):
            yield from flush()
        if item.jsonl is None:
            yield item
            continue
        file = item.jsonl
        buffer.append(item)
        text = item.record.get("text")
        chars += len(text) if isinstance(text, str) else 0
    yield from flush()
