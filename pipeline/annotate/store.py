"""The answer store: every answer ever given, append-only, in SQLite or PostgreSQL.

Like Prodigy's database: SQLite by default (one file, no server), PostgreSQL through a URL for
teams. One table, ``answers``; each row is one answer as it was received — the record's JSON
text exactly (so an unchanged record is exported byte for byte) — with its dataset, input and
task hashes, answer, kind, annotator, session and time. Nothing is ever updated or deleted:
triggers in the database refuse UPDATE and DELETE, and a correction is a new row. "The current
answer" to a question is the latest row for its input (by insertion order).

URLs: ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, a plain file path, or
``postgresql://user:password@host:port/dbname``. The default is ``$YILI_DB``, else the
``[annotate] db`` setting of the config, else ``~/.yili/yili.db`` (Prodigy keeps its database in
``~/.prodigy`` the same way).
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.labels import LAYERS

COLUMNS = ("id", "dataset", "input_hash", "task_hash", "answer", "kind", "annotator", "session", "created", "record")

SQLITE_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS answers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        dataset TEXT NOT NULL,
        input_hash INTEGER NOT NULL,
        task_hash INTEGER NOT NULL,
        answer TEXT NOT NULL,
        kind TEXT NOT NULL,
        annotator TEXT NOT NULL,
        session TEXT NOT NULL,
        created TEXT NOT NULL,
        record TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS answers_input ON answers (dataset, input_hash)",
    """CREATE TRIGGER IF NOT EXISTS answers_no_update BEFORE UPDATE ON answers
        BEGIN SELECT RAISE(ABORT, 'answers are append-only: add a new answer instead'); END""",
    """CREATE TRIGGER IF NOT EXISTS answers_no_delete BEFORE DELETE ON answers
        BEGIN SELECT RAISE(ABORT, 'answers are append-only: nothing is deleted'); END""",
]

POSTGRES_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS answers (
        id BIGSERIAL PRIMARY KEY,
        dataset TEXT NOT NULL,
        input_hash BIGINT NOT NULL,
        task_hash BIGINT NOT NULL,
        answer TEXT NOT NULL,
        kind TEXT NOT NULL,
        annotator TEXT NOT NULL,
        session TEXT NOT NULL,
        created TEXT NOT NULL,
        record TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS answers_input ON answers (dataset, input_hash)",
    """CREATE OR REPLACE FUNCTION answers_append_only() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION 'answers are append-only: add a new answer instead'; END
        $$ LANGUAGE plpgsql""",
    "DROP TRIGGER IF EXISTS answers_no_change ON answers",
    """CREATE TRIGGER answers_no_change BEFORE UPDATE OR DELETE ON answers
        FOR EACH ROW EXECUTE FUNCTION answers_append_only()""",
]


class StoreError(RuntimeError):
    """The store cannot be opened or written: the message says which URL and why."""


def default_url(config: Optional[dict[str, Any]] = None) -> str:
    if os.environ.get("YILI_DB"):
        return os.environ["YILI_DB"]
    section = (config or {}).get("annotate") or {}
    if section.get("db"):
        return str(section["db"])
    return str(Path.home() / ".yili" / "yili.db")


def record_kind(record: dict[str, Any]) -> str:
    """``relations`` / ``spans`` / ``layers`` / ``other``: which question the record answers."""
    if "relations" in record or "actions" in record:
        return "relations"
    if "spans" in record or "tokens" in record:
        return "spans"
    if record.get("label") in LAYERS:
        return "layers"
    return "other"


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def iso_from_timestamp(value: Any) -> Optional[str]:
    """Prodigy's ``_timestamp`` (seconds since the epoch) as ISO 8601 UTC."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return None


@dataclass
class Answer:
    """One stored answer."""

    id: int
    dataset: str
    input_hash: int
    task_hash: int
    answer: str
    kind: str
    annotator: str
    session: str
    created: str
    raw: str

    @property
    def record(self) -> dict[str, Any]:
        return json.loads(self.raw)


@dataclass
class NewAnswer:
    """An answer to add: the exact JSON text, its parsed record, and who gave it when."""

    raw: str
    record: dict[str, Any]
    annotator: str
    session: str
    created: Optional[str] = None
    answer: Optional[str] = None


def _sqlite_path(url: str) -> str:
    """The file of a SQLite store URL (``sqlite:///path`` or the path itself)."""
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else url


class AnswerStore:
    """Append-only answers in SQLite (a file) or PostgreSQL (a URL)."""

    def __init__(self, url: Optional[str] = None, create: bool = True):
        """Open (and with ``create``, make if need be) the store at ``url``. The commands that only
        read answers open with ``create=False``: a SQLite file that is not there is an error, not a
        new empty store (a mistyped ``--db`` had given "0 answers" and left an empty file behind)."""
        self.url = url or default_url()
        self.dialect = "postgresql" if self.url.startswith(("postgresql://", "postgres://")) else "sqlite"
        if not create and self.dialect == "sqlite":
            path = _sqlite_path(self.url)
            if path != ":memory:" and not Path(path).expanduser().is_file():
                raise StoreError(f"no answer store at {path}: `yili import` or `yili review` makes one "
                                 "(the store is --db, else $YILI_DB, the config's [annotate] db, ~/.yili/yili.db)")
        try:
            if self.dialect == "postgresql":
                try:
                    import psycopg
                except ImportError as exc:  # pragma: no cover - depends on the install
                    raise StoreError("PostgreSQL needs psycopg: pip install 'yili[postgres]'") from exc
                self.conn = psycopg.connect(self.url, connect_timeout=10, autocommit=True)
                self.mark = "%s"
                schema = POSTGRES_SCHEMA
            else:
                path = _sqlite_path(self.url)
                if path != ":memory:":
                    Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
                    path = str(Path(path).expanduser())
                self.conn = sqlite3.connect(path, check_same_thread=False)  # the review server answers from threads
                self.mark = "?"
                schema = SQLITE_SCHEMA
            with self._transaction():
                cur = self.conn.cursor()
                if self.dialect == "postgresql":  # one schema set-up at a time
                    cur.execute("SELECT pg_advisory_xact_lock(724561)")
                for statement in schema:
                    cur.execute(statement)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"cannot open the answer store {self._safe_url()}: {exc}") from exc

    def _safe_url(self) -> str:
        if "@" in self.url and "://" in self.url:
            scheme, rest = self.url.split("://", 1)
            return f"{scheme}://***@{rest.split('@', 1)[1]}"
        return self.url

    def _transaction(self):
        """All or nothing: a context in which every statement is committed together or not at all."""
        return self.conn.transaction() if self.dialect == "postgresql" else self.conn

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "AnswerStore":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- writing --------------------------------------------------------------------------------
    def add(self, dataset: str, answers: Iterable[NewAnswer]) -> list[int]:
        """Add ``answers`` to ``dataset`` in one transaction; return their ids (in order)."""
        from pipeline.annotate.hashing import set_hashes

        marks = ", ".join([self.mark] * 9)
        sql = (f"INSERT INTO answers (dataset, input_hash, task_hash, answer, kind, annotator, session, created, record) "
               f"VALUES ({marks})")
        ids: list[int] = []
        with self._transaction():
            cur = self.conn.cursor()
            for new in answers:
                hashes = set_hashes(dict(new.record))  # hashes the record carries are kept
                created = new.created or iso_from_timestamp(new.record.get("_timestamp")) or now_iso()
                answer = new.answer or new.record.get("answer") or "accept"
                params = (dataset, hashes["_input_hash"], hashes["_task_hash"], answer, record_kind(new.record),
                          new.annotator, new.session, created, new.raw)
                if self.dialect == "postgresql":
                    cur.execute(sql + " RETURNING id", params)
                    ids.append(cur.fetchone()[0])
                else:
                    cur.execute(sql, params)
                    ids.append(cur.lastrowid)
        return ids

    # -- reading --------------------------------------------------------------------------------
    def answers(self, dataset: Optional[str] = None, kind: Optional[str] = None, annotator: Optional[str] = None,
                session: Optional[str] = None) -> Iterator[Answer]:
        """Every answer (optionally of one dataset / kind / annotator / session), oldest first."""
        where, params = [], []
        for column, value in (("dataset", dataset), ("kind", kind), ("annotator", annotator), ("session", session)):
            if value is not None:
                where.append(f"{column} = {self.mark}")
                params.append(value)
        sql = f"SELECT {', '.join(COLUMNS)} FROM answers"
        if where:
            sql += " WHERE " + " AND ".join(where)
        cur = self.conn.cursor()
        cur.execute(sql + " ORDER BY id", params)
        for row in cur.fetchall():
            yield Answer(*row)

    def latest(self, dataset: Optional[str] = None, kind: Optional[str] = None, per_annotator: bool = False) -> list[Answer]:
        """The current answer to each question: the last one per (kind, input hash[, annotator])."""
        last: dict[tuple, Answer] = {}
        for row in self.answers(dataset, kind):
            key = (row.kind, row.input_hash) + ((row.annotator,) if per_annotator else ())
            last.pop(key, None)
            last[key] = row
        return sorted(last.values(), key=lambda r: r.id)

    def datasets(self) -> dict[str, int]:
        cur = self.conn.cursor()
        cur.execute("SELECT dataset, COUNT(*) FROM answers GROUP BY dataset ORDER BY dataset")
        return {name: count for name, count in cur.fetchall()}

    def require(self, dataset: str) -> None:
        """Raise :class:`StoreError` if ``dataset`` holds no answer, naming the datasets there are
        (as Prodigy's db-out does): a mistyped name had read as an empty dataset."""
        held = self.datasets()
        if dataset not in held:
            there = ", ".join(f"{name} ({n})" for name, n in held.items()) or "none"
            raise StoreError(f"no dataset {dataset!r} in the answer store {self._safe_url()}; it holds: {there}")

    def task_hashes(self, dataset: str, annotator: Optional[str] = None) -> set[int]:
        return {row.task_hash for row in self.answers(dataset, annotator=annotator)}
