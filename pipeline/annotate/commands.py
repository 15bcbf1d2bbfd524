"""The annotation commands as Typer functions, for ``pipeline/cli.py`` to mount:

    from pipeline.annotate.commands import register
    register(app, train_app)

adds ``yili tasks``, ``yili import``, ``yili export-answers``, ``yili convert``, ``yili review``,
``yili agreement`` and ``yili train from-store``. Each one parses options and calls the workflow
function of its module; the exit status is 0, or 1 when records were refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape

from pipeline.command_errors import refuse_output_among_inputs, said

err = Console(stderr=True, soft_wrap=True)  # never break a path or a command in a message


def _db(db: Optional[str], config: Optional[Path]) -> Optional[str]:
    """``--db`` wins; else ``$YILI_DB`` / the config's ``[annotate] db`` / ~/.yili/yili.db. A ``-c``
    file that cannot be read stops the command (status 2): it had been passed over in silence, and
    the answers went to the default store instead of the one it names."""
    if db:
        return db
    from pipeline.annotate.store import default_url
    from pipeline.config import load_config

    with _said(OSError, ValueError):
        cfg = load_config(config)
    return default_url(cfg)


def _said(*kinds: type[BaseException]):
    """An error of ``kinds`` raised inside: its message, status 2 (it had been a traceback)."""
    return said(err, *kinds)


def _store_errors():
    """A store that cannot be opened, is not there, or lacks the dataset: its message, status 2
    (it had been a traceback, or for a store that was not there a new empty one and "0 answers")."""
    from pipeline.annotate.store import StoreError

    return _said(StoreError)


def _report_rejected(rejected) -> None:
    for item in rejected:
        err.print(f"[red]refused[/red] {item.where}: " + "; ".join(item.reasons))


def tasks(
    inputs: List[Path] = typer.Argument(..., help="JSONL of `yili process` (or any records with text, spans, actions)."),
    output: Path = typer.Option(..., "-o", "--output", help="Tasks JSONL (Prodigy-compatible)."),
    kind: str = typer.Option("relations", "--kind", help="relations (spans + relations + tuples), spans, or layers."),
    unit: Optional[str] = typer.Option(None, "--unit", help="sentence (default for spans/relations) or segment (default for layers)."),
    layer: Optional[List[str]] = typer.Option(None, "--layer", help="Layers to make tasks of (default: JING; all for --kind layers)."),
    select: Optional[str] = typer.Option(None, "--select", help="'uncertain': most uncertain first (layer model, rules vs span model)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="Write at most N tasks."),
    span_model: Optional[Path] = typer.Option(None, "--span-model", help="spaCy span model folder for --select uncertain."),
) -> None:
    """Export the pipeline's proposals as Prodigy-compatible tasks (for db-in, spans.manual, rel.manual, yili review)."""
    from pipeline.annotate.tasks import TaskOptionError, tasks_command

    refuse_output_among_inputs(err, inputs, output)
    with _said(TaskOptionError):
        report = tasks_command(inputs, output, kind, unit, layer or None, select, limit, span_model)
    for bad in report.bad_lines:
        err.print(f"[red]error[/red] {escape(bad)}")
    err.print(f"{report.tasks} task(s) from {report.records} record(s) → {output}"
              + (f"; {len(report.skipped_records)} record(s) without text or with an error skipped" if report.skipped_records else "")
              + (f"; {report.misaligned_spans} span(s) cutting a character left out" if report.misaligned_spans else ""))
    if report.bad_lines:  # the exit status counts the lines (and files) that could not be read
        err.print(f"[red]{len(report.bad_lines)} line(s) or file(s) could not be read[/red]")
        raise typer.Exit(code=min(len(report.bad_lines), 255))


def import_(
    inputs: List[Path] = typer.Argument(..., help="Prodigy JSONL (db-out, review output), Label Studio JSON, Doccano JSONL or brat folders."),
    dataset: str = typer.Option("yili", "--dataset", "-d", help="Dataset to add the answers to."),
    db: Optional[str] = typer.Option(None, "--db", help="Store URL: a SQLite file or postgresql://…"),
    fmt: str = typer.Option("auto", "--format", "-f", help="auto, prodigy, labelstudio, doccano, brat."),
    annotator: Optional[str] = typer.Option(None, "--annotator", help="Annotator of records without _annotator_id (default: the user)."),
    session: Optional[str] = typer.Option(None, "--session", help="Session of records without _session_id (default: one per import)."),
    answer: str = typer.Option("accept", "--answer", help="Answer of records that have none (as Prodigy's db-in)."),
    utf16: bool = typer.Option(False, "--utf16", help="Doccano offsets counted in UTF-16 units."),
    config: Optional[Path] = typer.Option(None, "-c", "--config"),
) -> None:
    """Validate answers and add the valid ones to the store; report every refused record with its reason."""
    from pipeline.annotate.importer import import_command

    with _store_errors():
        report = import_command(inputs, dataset, _db(db, config), fmt, annotator, session, answer, utf16)
    _report_rejected(report.rejected)
    err.print(f"{report.stored} answer(s) stored in {dataset!r} (session {report.session}); {len(report.rejected)} refused")
    raise typer.Exit(code=min(len(report.rejected), 255))  # the exit status counts the records refused


def export_answers(
    dataset: str = typer.Argument("yili", help="Dataset to export."),
    output: Path = typer.Option(..., "-o", "--output", help="JSONL (prodigy, doccano), JSON (labelstudio) or a folder (brat)."),
    db: Optional[str] = typer.Option(None, "--db"),
    fmt: str = typer.Option("prodigy", "--format", "-f", help="prodigy (exact stored records), labelstudio, doccano, brat."),
    latest: bool = typer.Option(False, "--latest", help="Only the current (latest) answer to each question."),
    config: Optional[Path] = typer.Option(None, "-c", "--config"),
) -> None:
    """Write a dataset's answers (like Prodigy's db-out)."""
    from pipeline.annotate.importer import export_command

    with _store_errors():
        n = export_command(output, dataset, _db(db, config), fmt, latest)
    err.print(f"{n} answer(s) → {output}")


def convert(
    inputs: List[Path] = typer.Argument(...),
    output: Path = typer.Option(..., "-o", "--output"),
    to: str = typer.Option(..., "--to", help="prodigy, labelstudio, doccano, brat."),
    fmt: str = typer.Option("auto", "--format", "-f", help="Input format: auto, prodigy, labelstudio, doccano, brat."),
    utf16: bool = typer.Option(False, "--utf16"),
) -> None:
    """Convert between Prodigy JSONL, Label Studio, Doccano and brat (offsets in code points), validating on the way."""
    from pipeline.annotate.importer import convert_command

    refuse_output_among_inputs(err, inputs, output)
    report = convert_command(inputs, output, to, fmt, utf16)
    _report_rejected(report.rejected)
    err.print(f"{report.stored} record(s) → {output}; {len(report.rejected)} refused")
    raise typer.Exit(code=min(len(report.rejected), 255))


def review(
    tasks_file: Path = typer.Argument(..., help="Tasks JSONL (from yili tasks)."),
    dataset: str = typer.Option("yili", "--dataset", "-d"),
    db: Optional[str] = typer.Option(None, "--db"),
    annotator: Optional[str] = typer.Option(None, "--annotator"),
    port: int = typer.Option(8080, "--port", help="Port on 127.0.0.1."),
    include_answered: bool = typer.Option(False, "--all", help="Also show tasks this annotator already answered."),
    config: Optional[Path] = typer.Option(None, "-c", "--config"),
) -> None:
    """Start the local review page: accept, reject or correct one task at a time; answers go to the store."""
    from pipeline.annotate.review import ReviewError, review_command

    refused: list[str] = []
    with _store_errors(), _said(ReviewError):
        review_command(tasks_file, dataset, _db(db, config), annotator, port, include_answered, refused)
    if refused:  # the exit status counts the task lines that were not served
        raise typer.Exit(code=min(len(refused), 255))


def agreement(
    dataset: str = typer.Option("yili", "--dataset", "-d"),
    db: Optional[str] = typer.Option(None, "--db"),
    annotator: Optional[List[str]] = typer.Option(None, "--annotator", help="Compare only these annotators (pairwise)."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the figures as JSON."),
    config: Optional[Path] = typer.Option(None, "-c", "--config"),
) -> None:
    """Span F1 per label and tuple F1 between annotators; Cohen's kappa for layers."""
    import json

    from pipeline.annotate.agreement import agreement_command, format_agreement

    with _store_errors():
        pairs = agreement_command(dataset, _db(db, config), annotator or None)
    if not pairs:
        err.print("fewer than two annotators in the dataset")
        raise typer.Exit(code=1)
    Console().print(format_agreement(pairs), markup=False, highlight=False)
    if json_out:
        json_out.write_text(json.dumps([p.as_dict() for p in pairs], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def train_from_store(
    dataset: str = typer.Option("yili", "--dataset", "-d"),
    db: Optional[str] = typer.Option(None, "--db"),
    output: Path = typer.Option(Path("out/train"), "-o", "--output", help="Folder for spans.spacy (DocBin) and layers.jsonl."),
    layer_model: Optional[Path] = typer.Option(None, "--layer-model", help="Fit the layer classifier on the answers and save it here."),
    config: Optional[Path] = typer.Option(None, "-c", "--config"),
) -> None:
    """Training data from the accepted answers: spaCy DocBin for `spacy train`, layer examples, optionally a layer model."""
    from pipeline.annotate.training import train_from_store as run

    with _store_errors():
        report = run(dataset, _db(db, config), output, layer_model)
    err.print(f"{report.span_examples} span example(s) → {report.docbin or '-'}; {report.layer_examples} layer example(s)"
              + (f"; layer model → {report.layer_model}" if report.layer_model else ""))


def register(app: typer.Typer, train_app: Optional[typer.Typer] = None) -> None:
    app.command("tasks")(tasks)
    app.command("import")(import_)
    app.command("export-answers")(export_answers)
    app.command("convert")(convert)
    app.command("review")(review)
    app.command("agreement")(agreement)
    if train_app is not None:
        train_app.command("from-store")(train_from_store)
