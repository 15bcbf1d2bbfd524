"""Stable record ids: the same document and offsets give the same id on every run.

A re-run of ``yili export`` therefore replaces a document's rows instead of adding a second copy.

- document: ``sha1`` (first 16 hex digits) of ``meta.doc`` when the record names itself; else,
  for a whole file that ``yili process`` read (its meta has ``encoding``), of its source reduced
  to the last two path parts (``zhushu-siku/04_xiangyinjiuli.txt``: stable across checkouts and
  working directories, yet two editions of one chapter stay apart); else (a record given as JSONL,
  many of which may share one source) of that source key and the text together.
- segment, sentence, clause, span, action: ``{doc_id}:{start}-{end}:{kind}`` where kind is
  ``segment`` / ``sentence`` / ``clause``, the span label, or the action's verb. Two records of one
  document that would get the same id (two 坐 in one clause) are told apart by ``#2``, ``#3`` … in
  textual order.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import PurePath
from typing import Any, Optional


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def source_key(source: Optional[str]) -> Optional[str]:
    """The source as an id key: its last two path parts, separators normalised."""
    if not source:
        return None
    parts = PurePath(str(source).replace("\\", "/")).parts
    return "/".join(parts[-2:])


def document_id(meta: dict[str, Any], text: str) -> str:
    if meta.get("doc"):
        return _sha1(f"doc:{meta['doc']}")
    key = source_key(meta.get("source"))
    if key and meta.get("encoding"):
        return _sha1(f"source:{key}")
    return _sha1(f"record:{key or ''}\n{text}")


def record_id(doc_id: str, start: int, end: int, kind: str) -> str:
    return f"{doc_id}:{start}-{end}:{kind}"


class IdAllocator:
    """Gives ``record_id``s, numbering repeats within one document (``…:坐#2``)."""

    def __init__(self, doc_id: str):
        self.doc_id = doc_id
        self._seen: Counter = Counter()

    def __call__(self, start: int, end: int, kind: str) -> str:
        base = record_id(self.doc_id, start, end, kind)
        self._seen[base] += 1
        n = self._seen[base]
        return base if n == 1 else f"{base}#{n}"
