"""JSONL records that are passages of one document are read with the names the whole document gives.

A chapter often arrives cut into passages, one JSONL record each (as the gold records are made,
``meta.doc`` ``"03_shixiangjianli.xhtml#p25"``). Read one by one, a participant the lexicon lacks is
found only in the passages whose own clauses show it; read as the chapter's file is read, a name
any passage gives holds in every passage (:meth:`DocumentProcessor.process_document`). This module
groups such records as they stream in and gives each the names of its group, so that ``yili
process`` on a chapter's passages writes what it writes for the chapter's file, record by record.

Records are one document's passages when they come one after another from the same file and name
the same document: ``meta.doc`` up to its ``#``, or else the same ``meta.source`` and
``meta.chapter``. Every other record is read alone, as before.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from pipeline.read.inputs import InputItem

#: a group is read in pieces of at most this many records (a file of one document's million
#: passages would otherwise wait in memory until its last line was read)
MAX_GROUP = 5000


def document_key(item: InputItem) -> Optional[tuple[str, str]]:
    """(file, document) of a JSONL record that says which document it is a passage of; else None."""
    if item.error is not None or item.from_file:
        return None
    meta = item.record.get("meta")
    if not isinstance(meta, dict):
        return None
    path = item.origin.rsplit(":", 1)[0]
    doc = meta.get("doc")
    if isinstance(doc, str) and "#" in doc:
        return path, doc.split("#", 1)[0]
    chapter = meta.get("chapter")
    if isinstance(chapter, (str, int)) and not isinstance(chapter, bool):
        return path, f"{meta.get('source')}\0{chapter}"
    return None


def with_document_names(items: Iterable[InputItem], names_of: Callable[[list[dict]], frozenset[str]],
                        limit: int = MAX_GROUP) -> Iterator[InputItem]:
    """``items`` in their order, each passage of a group of two or more given ``names``: what
    ``names_of`` (the records of the group → the names they give) finds. A bad line among a group's
    records waits with them and does not cut the group."""
    group: list[InputItem] = []
    key: Optional[tuple[str, str]] = None

    def flush() -> Iterator[InputItem]:
        good = [item for item in group if item.error is None]
        if len(good) > 1:
            names = tuple(sorted(names_of([item.record for item in good])))
            for item in good:
                item.names = names
        yield from group
        group.clear()

    for item in items:
        if item.error is not None and group:
            group.append(item)
            continue
        k = document_key(item)
        if group and (k != key or len(group) >= limit):
            yield from flush()
        if k is None:
            yield item
            continue
        key = k
        group.append(item)
    yield from flush()
