"""The tables in a DuckDB database, updated in place.

Each table has its key (``doc_id`` for documents, ``id`` otherwise) as PRIMARY KEY. An export
deletes, in one transaction, every row of the documents it carries (so rows a re-run no longer
produces disappear) and inserts the new ones with ``INSERT OR REPLACE``: running the same export
twice leaves the database as it was after the first run. ``start`` and ``end`` keep their names
from the records; ``end`` is an SQL keyword, so write it ``"end"`` in queries.

Example queries (also in ``pipeline/export/README.md``)::

    -- acts per actor
    SELECT actor, count(*) AS acts FROM actions WHERE actor IS NOT NULL GROUP BY actor ORDER BY acts DESC;
    -- who bows to whom
    SELECT actor, target, count(*) AS n FROM actions WHERE verb IN ('拜', '稽首') AND target IS NOT NULL
    GROUP BY actor, target ORDER BY n DESC;
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

from pipeline.export.tables import KEYS, SCHEMA, TABLES, Tables

SQL_TYPES = {"str": "VARCHAR", "int": "BIGINT", "float": "DOUBLE", "bool": "BOOLEAN", "json": "VARCHAR"}


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def create_sql(table: str) -> str:
    cols = ", ".join(f"{_quote(n)} {SQL_TYPES[k]}" for n, k in SCHEMA[table])
    return f"CREATE TABLE IF NOT EXISTS {table} ({cols}, PRIMARY KEY ({_quote(KEYS[table])}))"


def connect(path: Union[str, Path], read_only: bool = False):
    import duckdb

    if not read_only:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    return duckdb.connect(str(path), read_only=read_only)


def write_duckdb(path: Union[str, Path], tables: Tables) -> dict[str, int]:
    """Update the database at ``path`` with ``tables``; returns the row count of each table after."""
    import pyarrow as pa

    from pipeline.export.files import arrow_schema

    con = connect(path)
    try:
        for table in TABLES:
            con.execute(create_sql(table))
        con.execute("BEGIN TRANSACTION")
        try:
            con.register("export_doc_ids", pa.table({"doc_id": pa.array(tables.doc_ids, pa.string())}))
            for table in TABLES:
                con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT doc_id FROM export_doc_ids)")
                rows = pa.Table.from_pylist(tables[table], schema=arrow_schema(table))
                con.register("export_rows", rows)
                cols = ", ".join(_quote(n) for n, _ in SCHEMA[table])
                con.execute(f"INSERT OR REPLACE INTO {table} ({cols}) SELECT {cols} FROM export_rows")
                con.unregister("export_rows")
            con.unregister("export_doc_ids")
            con.execute("COMMIT")
        except Exception:
            con.execute("ROLLBACK")
            raise
        return {table: con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
    finally:
        con.close()


EXAMPLE_QUERIES: dict[str, str] = {
    "acts per actor": (
        "SELECT actor, count(*) AS acts FROM actions WHERE actor IS NOT NULL "
        "GROUP BY actor ORDER BY acts DESC, actor"
    ),
    "who bows to whom": (
        "SELECT actor, target, count(*) AS bows FROM actions "
        "WHERE verb IN ('拜', '稽首') AND actor IS NOT NULL AND target IS NOT NULL "
        "GROUP BY actor, target ORDER BY bows DESC, actor, target"
    ),
}


def query(path: Union[str, Path], sql: str, params: Optional[list[Any]] = None) -> list[tuple]:
    con = connect(path, read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()
