"""Turn command-line inputs (files, folders, globs, JSONL) into input items, one per document.

A bad file or a bad JSONL line becomes an item with an ``error`` that names the file and line;
it never stops the other documents.
"""

from __future__ import annotations

import glob
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

TEXT_SUFFIXES = {".txt", ".xhtml", ".html", ".htm", ".org", ".md", ""}
JSONL_SUFFIXES = {".jsonl", ".ndjson"}


@dataclass
class InputItem:
    """One document to process: a record ``{"text", "meta"}`` or an error saying where and why."""

    origin: str  # "path" or "path:line"
    record: dict[str, Any] = field(default_factory=dict)
    error: Optional[str] = None
    from_file: bool = False  # the record was built from a whole file (not given as JSONL)


def expand_paths(inputs: Iterable[str]) -> Iterator[Path]:
    """Files named, files under folders named (sorted, recursive), and glob matches, in order."""
    for item in inputs:
        path = Path(item)
        if any(ch in item for ch in "*?[") and not path.exists():
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                yield path  # reported as missing
            yield from (Path(m) for m in matches if Path(m).is_file())
        elif path.is_dir():
            # listed once, when the folder is reached: a file that disappears later is reported
            # as unreadable in its place, never silently skipped
            yield from [
                sub for sub in sorted(path.rglob("*"))
                if sub.is_file() and not sub.name.startswith(".") and sub.suffix.lower() in TEXT_SUFFIXES | JSONL_SUFFIXES
            ]
        else:
            yield path


def iter_jsonl(path: Path) -> Iterator[InputItem]:
    """Records of a JSONL file; a line that is not a JSON object with a string ``text`` is an error item."""
    from pipeline.read.decode import decode_bytes

    text, _encoding = decode_bytes(path.read_bytes(), str(path))
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        origin = f"{path}:{lineno}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield InputItem(origin, {"meta": {"source": str(path), "line": lineno}},
                            f"{origin}: invalid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(record, dict):
            yield InputItem(origin, {"meta": {"source": str(path), "line": lineno}},
                            f"{origin}: a record must be a JSON object, got {type(record).__name__}")
        elif not isinstance(record.get("text"), str):
            yield InputItem(origin, record, f"{origin}: record has no string 'text' field")
        elif record.get("meta") is not None and not isinstance(record["meta"], dict):
            yield InputItem(origin, record, f"{origin}: 'meta' must be an object")
        else:
            yield InputItem(origin, record)


def read_file(path: Path) -> InputItem:
    """A whole text file as one record, decoded; the encoding used goes into ``meta``."""
    from pipeline.read.decode import DecodeError, decode_bytes

    origin = str(path)
    meta: dict[str, Any] = {"source": origin}
    try:
        data = path.read_bytes()
    except OSError as exc:
        return InputItem(origin, {"meta": meta}, f"{origin}: cannot read ({exc.strerror or exc})")
    try:
        text, encoding = decode_bytes(data, origin)
    except DecodeError as exc:
        return InputItem(origin, {"meta": meta}, str(exc))
    meta["encoding"] = encoding
    return InputItem(origin, {"text": text, "meta": meta}, from_file=True)


def iter_inputs(inputs: Iterable[str]) -> Iterator[InputItem]:
    for path in expand_paths(inputs):
        if not path.exists():
            yield InputItem(str(path), {"meta": {"source": str(path)}}, f"{path}: no such file")
        elif path.suffix.lower() in JSONL_SUFFIXES:
            try:
                yield from iter_jsonl(path)
            except Exception as exc:  # unreadable file: one error for the file
                yield InputItem(str(path), {"meta": {"source": str(path)}}, f"{path}: {exc}")
        else:
            yield read_file(path)


def sample_paths() -> list[Path]:
    """The bundled sample corpus: the five seed documents the project was created from."""
    folder = Path(__file__).resolve().parents[1] / "samples"
    return sorted(folder.glob("*.txt"))
