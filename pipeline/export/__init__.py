"""Export processed records: tables (JSONL, CSV, Parquet, DuckDB), CoNLL-U, spaCy DocBin, HTML views.

Start at :func:`run_export` (or ``yili export``); see ``pipeline/export/README.md`` for the files
written, the id and chapter rules and example SQL.
"""

from pipeline.read.chapters import chapter_of
from pipeline.export.command import FORMATS, ExportReport, export_command, run_export
from pipeline.export.ids import document_id, record_id
from pipeline.export.source import ExportDocument, LoadResult, load_documents
from pipeline.export.tables import KEYS, SCHEMA, TABLES, Tables

__all__ = [
    "FORMATS", "KEYS", "SCHEMA", "TABLES", "ExportDocument", "ExportReport", "LoadResult", "Tables",
    "chapter_of", "document_id", "export_command", "load_documents", "record_id", "run_export",
]
