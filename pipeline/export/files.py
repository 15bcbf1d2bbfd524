"""Tables as files: JSONL, CSV and Parquet, one file per table in an output folder.

Writing into a folder that already holds a table *updates* it: rows of the documents being
exported replace that document's old rows (matched by ``doc_id``, so rows a re-run no longer
produces go too), rows of other documents stay as they were, in their order. ``actions.jsonl`` is
the dataset of action tuples, one a line.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from pipeline.atomic import atomic_path
from pipeline.export.tables import SCHEMA, TABLES, Tables, coerce

FILE_FORMATS: tuple[str, ...] = ("jsonl", "csv", "parquet")


def table_path(folder: Path, table: str, fmt: str) -> Path:
    return Path(folder) / f"{table}.{fmt}"


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` to a temporary file renamed onto ``path``: a crash never leaves half a table."""
    with atomic_path(path) as tmp:
        write(tmp)


# -- reading (also used by merging) -------------------------------------------------------------
def read_jsonl_table(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_csv_table(path: Path, table: str) -> list[dict[str, Any]]:
    kinds = dict(SCHEMA[table])
    csv.field_size_limit(sys.maxsize)
    with open(path, encoding="utf-8", newline="") as handle:
        return [{k: coerce(v, kinds.get(k, "str")) for k, v in row.items()} for row in csv.DictReader(handle)]


def read_parquet_table(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


def read_table(folder: Path, table: str, fmt: str) -> list[dict[str, Any]]:
    path = table_path(folder, table, fmt)
    if fmt == "jsonl":
        return read_jsonl_table(path)
    if fmt == "csv":
        return read_csv_table(path, table)
    if fmt == "parquet":
        return read_parquet_table(path)
    raise ValueError(f"unknown file format {fmt!r}; expected one of {', '.join(FILE_FORMATS)}")


# -- writing --------------------------------------------------------------------------------------
def arrow_schema(table: str):
    import pyarrow as pa

    types = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(), "json": pa.string()}
    return pa.schema([(name, types[kind]) for name, kind in SCHEMA[table]])


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def _write_csv(path: Path, rows: list[dict[str, Any]], table: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[name for name, _ in SCHEMA[table]])
        writer.writeheader()
        writer.writerows(rows)


def _write_parquet(path: Path, rows: list[dict[str, Any]], table: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows, schema=arrow_schema(table)), path, compression="zstd")


def merged_rows(old: Iterable[dict[str, Any]], new: list[dict[str, Any]], doc_ids: Iterable[str], table: str) -> list[dict[str, Any]]:
    """Old rows of documents not being exported, then the new rows; every row in schema column order."""
    replace = set(doc_ids)
    columns = [name for name, _ in SCHEMA[table]]
    kept = [row for row in old if row.get("doc_id") not in replace]
    return [{c: row.get(c) for c in columns} for row in kept + new]


def write_table(folder: Path, table: str, fmt: str, tables: Tables, merge: bool = True) -> Path:
    """Write (or update) one table in one format; returns the file written."""
    path = table_path(folder, table, fmt)
    old = read_table(folder, table, fmt) if merge and path.exists() else []
    rows = merged_rows(old, tables[table], tables.doc_ids, table)
    if fmt == "jsonl":
        _atomic_write(path, lambda p: _write_jsonl(p, rows))
    elif fmt == "csv":
        _atomic_write(path, lambda p: _write_csv(p, rows, table))
    elif fmt == "parquet":
        _atomic_write(path, lambda p: _write_parquet(p, rows, table))
    else:
        raise ValueError(f"unknown file format {fmt!r}; expected one of {', '.join(FILE_FORMATS)}")
    return path


def write_files(folder: Path, tables: Tables, formats: Iterable[str], merge: bool = True,
                table_names: Optional[Iterable[str]] = None) -> list[Path]:
    """Every table in every format asked for: ``folder/{table}.{fmt}``."""
    written = []
    for fmt in formats:
        for table in table_names or TABLES:
            written.append(write_table(Path(folder), table, fmt, tables, merge=merge))
    return written
