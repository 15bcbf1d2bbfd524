"""``yili export``: processed records → datasets (JSONL, CSV, Parquet, DuckDB, CoNLL-U, DocBin) and views.

:func:`run_export` is the API; :func:`export_command` is its Typer front, to be registered with
``app.command("export")(export_command)``. Everything lands in one folder::

    OUT/actions.jsonl …          one file per table and format (documents segments sentences spans actions)
    OUT/yili.duckdb              the same tables in DuckDB (or --db PATH)
    OUT/sentences.conllu         CoNLL-U, one block per sentence
    OUT/segments.spacy           spaCy DocBin, one Doc per layer segment
    OUT/passages.html            tagged passages (displaCy), layers shaded
    OUT/report.html              plots: acts per actor, verbs by chapter, bows, offerings, places, facings
    OUT/flow.html                ritual flow of a passage (--find TEXT), or of each document's first acts

Exporting into a folder that already holds a dataset updates it: the documents exported replace
their old rows (by stable id, see :mod:`pipeline.export.ids`), other documents stay. The HTML views
show the documents of this run only.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, List, Optional, Sequence

import typer

from pipeline.export.files import FILE_FORMATS, write_files
from pipeline.export.source import load_documents
from pipeline.export.tables import Tables

FORMATS: tuple[str, ...] = FILE_FORMATS + ("duckdb", "conllu", "docbin", "html")
DEFAULT_LAYERS: tuple[str, ...] = ("JING", "ZHU", "SHU")

CONLLU_NAME = "sentences.conllu"
DOCBIN_NAME = "segments.spacy"
DUCKDB_NAME = "yili.duckdb"
VIEW_NAMES = {"passages": "passages.html", "report": "report.html", "flow": "flow.html"}
#: the modules of the ``export`` extra (pip install 'yili[export]') each format needs
NEEDS: dict[str, tuple[str, ...]] = {"parquet": ("pyarrow",), "duckdb": ("duckdb", "pyarrow"), "html": ("matplotlib",)}
EXTRA = "pip install 'yili[export]'"


def missing_modules(formats: Iterable[str]) -> dict[str, list[str]]:
    """format → the modules it needs that this installation lacks (the ``export`` extra)."""
    out: dict[str, list[str]] = {}
    for fmt in formats:
        for name in NEEDS.get(fmt, ()):
            try:
                importlib.import_module(name)
            except ImportError:
                out.setdefault(fmt, []).append(name)
    return out


@dataclass
class ExportReport:
    documents: int = 0
    #: (origin, message) of error lines and records that could not be exported
    errors: list[tuple[str, str]] = field(default_factory=list)
    duplicates: int = 0
    #: of the errors, lines that could not be read as processed records (the rest are the error
    #: records `yili process` wrote, passed over)
    unreadable: int = 0
    #: documents holding the --find text (in either script, any edition's spelling); None when there
    #: is no --find or no view is written (the only pages it shapes)
    found: Optional[int] = None
    #: formats of 'all' left out because the ``export`` extra is not installed: format → modules
    skipped: dict[str, list[str]] = field(default_factory=dict)
    #: rows of each table exported in this run
    rows: dict[str, int] = field(default_factory=dict)
    #: rows of each table in the database after the run
    db_rows: dict[str, int] = field(default_factory=dict)
    conllu_sentences: int = 0
    docbin_docs: int = 0
    written: list[Path] = field(default_factory=list)


def _items(value: str | Sequence[str]) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    return [i.strip().lower() for i in items if i.strip()]


def _all(items: list[str]) -> bool:
    """Whether the formats asked for are all of them (nothing named, or 'all')."""
    return not items or items == ["all"]


def parse_formats(value: str | Sequence[str]) -> list[str]:
    items = _items(value)
    if _all(items):
        return list(FORMATS)
    unknown = [i for i in items if i not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {', '.join(unknown)}; choose from {', '.join(FORMATS)} or 'all'")
    return items


def run_export(
    inputs: Iterable[str | Path | dict[str, Any]],
    output: str | Path,
    formats: str | Sequence[str] = "all",
    db: Optional[str | Path] = None,
    layers: Sequence[str] = DEFAULT_LAYERS,
    tokenizer: str = "char",
    config: Optional[dict[str, Any]] = None,
    find: Optional[str] = None,
    max_passages: Optional[int] = 50,
    max_acts: Optional[int] = 40,
    merge: bool = True,
) -> ExportReport:
    """Export processed records (JSONL paths or records) into the folder ``output``. Of ``"all"``
    the formats whose modules are not installed (Parquet, DuckDB, the HTML views: the ``export`` extra)
    are left out and named in ``report.skipped``; such a format asked for by name is a ValueError
    before anything is written (it had been a traceback, some files written already)."""
    chosen = parse_formats(formats)
    lacking = missing_modules(chosen)
    if lacking and not _all(_items(formats)):  # named, not 'all'
        raise ValueError("; ".join(f"{fmt} needs {', '.join(mods)}" for fmt, mods in lacking.items()) + f": {EXTRA}")
    chosen = [f for f in chosen if f not in lacking]
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    loaded = load_documents(inputs)
    docs = loaded.documents
    report = ExportReport(documents=len(docs), errors=loaded.errors, duplicates=loaded.duplicates,
                          unreadable=loaded.unreadable, skipped=lacking)
    if find and "html" in chosen:
        report.found = sum(1 for d in docs if d.find(find) >= 0)
    tables = Tables.build(docs)
    report.rows = tables.counts()

    file_formats = [f for f in chosen if f in FILE_FORMATS]
    if file_formats:
        report.written += write_files(out, tables, file_formats, merge=merge)
    if "duckdb" in chosen:
        from pipeline.export.duck import write_duckdb

        db_path = Path(db) if db else out / DUCKDB_NAME
        if not merge and db_path.exists():
            db_path.unlink()
        report.db_rows = write_duckdb(db_path, tables)
        report.written.append(db_path)
    tok = None
    if "conllu" in chosen or "docbin" in chosen:
        from pipeline.export.tokens import build_tokenizer

        tok = build_tokenizer(tokenizer, config)
    if "conllu" in chosen:
        from pipeline.export.conllu import write_conllu

        report.conllu_sentences = write_conllu(out / CONLLU_NAME, docs, tok, layers, merge=merge)
        report.written.append(out / CONLLU_NAME)
    if "docbin" in chosen:
        from pipeline.export.docbin import write_docbin

        report.docbin_docs = write_docbin(out / DOCBIN_NAME, docs, tok, layers, merge=merge)
        report.written.append(out / DOCBIN_NAME)
    if "html" in chosen:
        from pipeline.export.views import flow_html, passages_html, report_html

        pages = {
            "passages": passages_html(docs, layers=layers, find=find, limit=max_passages),
            "report": report_html(docs, errors=len(loaded.errors)),
            "flow": flow_html(docs, find=find, max_acts=max_acts),
        }
        for name, html in pages.items():
            path = out / VIEW_NAMES[name]
            path.write_text(html, encoding="utf-8")
            report.written.append(path)
    return report


def export_command(
    inputs: List[Path] = typer.Argument(..., help="Processed JSONL written by `yili process` (error lines are skipped and counted)."),
    output: Path = typer.Option(Path("out/export"), "-o", "--output", help="Folder for every dataset and view."),
    formats: str = typer.Option("all", "-f", "--formats", help=f"Comma-separated: {','.join(FORMATS)}, or 'all'."),
    db: Optional[Path] = typer.Option(None, "--db", help=f"DuckDB database to update (default OUTPUT/{DUCKDB_NAME})."),
    layers: str = typer.Option(",".join(DEFAULT_LAYERS), "--layers", help="Layers for CoNLL-U, DocBin and the passages view (tables hold all)."),
    tokenizer: str = typer.Option("char", "--tokenizer", help="Tokens for CoNLL-U/DocBin: 'char', 'nlp' (the config's backend) or a backend name (jieba, udkanbun)."),
    config: Optional[Path] = typer.Option(None, "-c", "--config", help="A .cfg for the tokenizer backend (with --tokenizer nlp)."),
    find: Optional[str] = typer.Option(None, "--find", help="Text that starts the ritual-flow passage and filters the tagged passages."),
    max_passages: int = typer.Option(50, "--max-passages", help="Tagged passages shown per document."),
    max_acts: int = typer.Option(40, "--max-acts", help="Acts shown in each ritual flow."),
    replace: bool = typer.Option(False, "--replace", help="Overwrite the datasets in OUTPUT instead of updating them."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No summary."),
) -> None:
    """Turn processed records into datasets (JSONL, CSV, Parquet, DuckDB, CoNLL-U, DocBin) and HTML views."""
    from rich.console import Console
    from rich.markup import escape

    err = Console(stderr=True, soft_wrap=True)  # never break a path in a message
    missing = [str(p) for p in inputs if not Path(p).is_file()]
    if missing:
        err.print(f"[red]no such file:[/red] {', '.join(missing)}")
        raise typer.Exit(code=2)
    try:
        cfg = None
        if config is not None or tokenizer != "char":
            from pipeline.config import load_config

            cfg = load_config(config)
        report = run_export(
            inputs, output, formats=formats, db=db, layers=[x.strip() for x in layers.split(",") if x.strip()],
            tokenizer=tokenizer, config=cfg, find=find, max_passages=max_passages, max_acts=max_acts, merge=not replace,
        )
    except (ValueError, OSError) as exc:
        err.print(f"[red]cannot export:[/red] {escape(str(exc))}")
        raise typer.Exit(code=2)
    if report.skipped:
        err.print(f"[yellow]not written:[/yellow] {', '.join(report.skipped)} (they need "
                  f"{', '.join(sorted({m for mods in report.skipped.values() for m in mods}))}: {escape(EXTRA)})")
    if report.found == 0:
        err.print(f"[yellow]'{escape(find)}' occurs in none of the {report.documents} document(s)[/yellow]: "
                  "the flow and passages pages show no passage")
    for origin, message in report.errors[:20]:
        where = "" if message.startswith(origin) else f"{origin}: "  # most messages name their line
        # a long path leaves the reason its 160 characters all the same
        err.print(f"[yellow]skipped[/yellow] {escape(where + message[:160 + len(origin)])}")
    if not quiet:
        out = Console(soft_wrap=True)
        rows = " ".join(f"{k} {v}" for k, v in report.rows.items())
        passed = len(report.errors) - report.unreadable
        out.print(f"{report.documents} document(s) exported, {passed} error record(s) skipped"
                  + (f", {report.unreadable} line(s) unreadable" if report.unreadable else "")
                  + (f", {report.duplicates} duplicate(s) replaced" if report.duplicates else ""))
        out.print(f"rows: {rows}")
        if report.db_rows:
            out.print("database now: " + " ".join(f"{k} {v}" for k, v in report.db_rows.items()))
        if report.conllu_sentences or report.docbin_docs:
            out.print(f"CoNLL-U sentences {report.conllu_sentences}, DocBin docs {report.docbin_docs}")
        out.print(f"→ {Path(output)}/ ({len(report.written)} files)")
    if report.unreadable:  # the exit status counts the lines lost, as `yili process` counts its failures
        raise typer.Exit(code=min(report.unreadable, 255))
    if report.documents == 0:
        raise typer.Exit(code=1)
