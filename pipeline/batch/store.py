"""Per-document results on disk, keyed by content, so that runs resume and unchanged inputs are skipped.

A run writes each finished document to ``<out>.d/<key>.json`` (written to a temporary name and
renamed, so a ``kill -9`` never leaves half a file). The key hashes the input record, the
pipeline's config and its version: an interrupted run restarted with the same inputs finds the
documents it had finished, and a later run over a grown collection only processes what changed.
The output JSONL itself is assembled in input order at the end and renamed into place.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Optional

from pipeline import __version__
from pipeline.atomic import atomic_file


def config_fingerprint(config: dict[str, Any]) -> str:
    return hashlib.sha1(json.dumps(config, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:12]


def record_key(record: dict[str, Any], fingerprint: str) -> str:
    payload = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(f"{__version__}\0{fingerprint}\0{payload}".encode("utf-8", "surrogatepass")).hexdigest()


def dumps(record: dict[str, Any]) -> str:
    """One JSON line, characters as they are; a string no UTF-8 file can hold (a lone surrogate)
    is written escaped rather than failing the whole output."""
    line = json.dumps(record, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record, ensure_ascii=True)
    return line


def atomic_write_text(path: Path, text: str, durable: bool = True) -> None:
    """Write ``text`` atomically (:mod:`pipeline.atomic`). The per-document results skip ``durable`` (an fsync per document
    costs more than small documents do, and a result file damaged by a crash reads as missing, so
    that document is recomputed)."""
    with atomic_file(path, durable) as fh:
        fh.write(text)


class ResultStore:
    """A folder of finished documents, one JSON file each, named by :func:`record_key`."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Optional[dict[str, Any]]:
        path = self.path(key)
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        return found if isinstance(found, dict) else None

    def line(self, key: str) -> Optional[str]:
        """The stored result as its one JSON line (no newline), unparsed; None if it is gone."""
        try:
            return self.path(key).read_text(encoding="utf-8").strip()
        except (FileNotFoundError, UnicodeDecodeError):
            return None

    def put(self, key: str, result: dict[str, Any]) -> None:
        atomic_write_text(self.path(key), dumps(result), durable=False)


def write_jsonl_atomic(path: Path, lines: Iterable[str]) -> int:
    """Write ``lines`` (JSON strings) to ``path`` through a temporary file renamed into place."""
    n = 0
    with atomic_file(Path(path)) as fh:
        for line in lines:
            fh.write(line)
            fh.write("\n")
            n += 1
    return n
