"""JSON lines in and out, byte-stable: a record written here and read back is written back the same.

Records are serialised with ``srsly.json_dumps`` (what Prodigy and spaCy use): keys in the
record's own order, non-ASCII escaped (astral characters as surrogate pairs, ``\\ud85c\\udcca``),
which every JSON reader decodes to the same code points. Reading keeps each line's exact text so
that an unchanged record can be stored and exported without being re-serialised.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator, Optional

import srsly

from pipeline.read.decode import json_fault, utf8_line


def dumps(record: dict[str, Any]) -> str:
    """One record as one line of JSON (no newline)."""
    return srsly.json_dumps(record)


@dataclass
class Line:
    """One line of a JSONL file: where it was, its exact text, and the record or why there is none."""

    source: str
    number: int
    raw: str
    record: Optional[Any] = None
    error: Optional[str] = None


def read_lines(path: str | Path) -> Iterator[Line]:
    """Every non-blank line of ``path`` ("-" for stdin) with its parsed record or its parse error.
    Lines end at ``\n`` and are decoded one by one: a line that is not UTF-8 (a copy cut inside a
    character, a line pasted in another encoding) is that line's error, and the others are read."""
    name = str(path)
    stdin = name == "-"
    handle: BinaryIO = sys.stdin.buffer if stdin else open(path, "rb")
    try:
        for number, data in enumerate(handle, 1):
            data = data[:-1] if data.endswith(b"\n") else data
            raw, why = utf8_line(data, first=number == 1)
            if raw is None:
                yield Line(name, number, data.decode("utf-8", "replace"), error=why)
                continue
            if not raw.strip():
                continue
            try:
                yield Line(name, number, raw, json.loads(raw))
            except json.JSONDecodeError as exc:
                yield Line(name, number, raw, error=f"not JSON: {json_fault(exc)}")
    finally:
        if not stdin:
            handle.close()


def write_lines(path: str | Path, lines: Iterable[str]) -> int:
    """Write ``lines`` (JSON texts without newline) to ``path`` ("-" for stdout); return how many."""
    name = str(path)
    count = 0
    if name == "-":
        for line in lines:
            sys.stdout.write(line + "\n")
            count += 1
        return count
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(f"{path}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as out:
        for line in lines:
            out.write(line + "\n")
            count += 1
    tmp.replace(path)
    return count


def write_jsonl(path: str | Path, records: Iterable[dict[str, Any]]) -> int:
    return write_lines(path, (dumps(r) for r in records))
