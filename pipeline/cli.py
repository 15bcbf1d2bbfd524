"""The ``yili`` command. Thin: parse options, call the stages, report.

``yili process`` and ``yili classify`` are the stable interfaces of SCHEMA section 6.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
train_app = typer.Typer(no_args_is_help=True, help="Train the shipped models from annotations/ and ../shared/corpus.")
evaluate_app = typer.Typer(no_args_is_help=True, help="Evaluate on held-out chapters; figures go to bench/results/.")
app.add_typer(train_app, name="train")
app.add_typer(evaluate_app, name="evaluate")

err = Console(stderr=True)


def _exit_for_failures(failed: int) -> None:
    """The exit status is the number of failed documents (capped at 255 by the operating system)."""
    if failed:
        err.print(f"[red]{failed} document(s) failed[/red] (see their 'error' fields)")
    raise typer.Exit(code=min(failed, 255))


def _summary_table(rows) -> Table:
    table = Table(title="yili process", show_lines=False)
    for col in ("document", "layout", "enc", "JING", "ZHU", "SHU", "OTHER", "evidence", "sent", "spans", "tuples", "error"):
        table.add_column(col, overflow="fold")
    for st in rows:
        evidence = " ".join(f"{k}:{v}" for k, v in sorted(st.evidence.items()))
        spans = " ".join(f"{k}:{v}" for k, v in sorted(st.spans.items()))
        table.add_row(
            Path(st.source).name if st.source else "-",
            st.layout,
            st.encoding,
            *(str(st.segments.get(layer, 0)) for layer in ("JING", "ZHU", "SHU", "OTHER")),
            evidence,
            str(st.sentences),
            spans,
            str(st.actions),
            (st.error or "")[:80],
        )
    return table


@app.command()
def process(
    inputs: List[str] = typer.Argument(None, help="Text files (.txt .xhtml .html Kanripo org), JSONL files of records, folders or globs."),
    output: Path = typer.Option(..., "-o", "--output", help="Output JSONL: one line per input document, in input order."),
    config: Optional[Path] = typer.Option(None, "-c", "--config", help="A .cfg whose sections override configs/default.cfg."),
    samples: bool = typer.Option(False, "--samples", help="Also process the bundled sample texts (the five seeds)."),
    jobs: int = typer.Option(1, "-j", "--jobs", help="Worker processes (or Dask workers of a local cluster)."),
    executor: str = typer.Option("local", "--executor", help="'local' (worker processes) or 'dask'."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (tcp://host:8786); default: a LocalCluster."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep finished documents in OUT.d/ and reuse them: resumes an interrupted run, skips unchanged inputs."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress bar and no summary table."),
) -> None:
    """Segment layers, split sentences, tag spans and extract action tuples (SCHEMA section 6)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pipeline.batch.runner import BatchRunner
    from pipeline.config import load_config
    from pipeline.read.inputs import expand_paths, sample_paths

    paths = list(inputs or [])
    if samples:
        paths += [str(p) for p in sample_paths()]
    if not paths:
        err.print("[red]no input[/red]: name files, folders or globs, or use --samples")
        raise typer.Exit(code=2)
    try:
        cfg = load_config(config)
        if executor == "local":  # fail once, clearly, if a model the config asks for is missing
            from pipeline.process import DocumentProcessor

            DocumentProcessor(cfg).preload()
    except Exception as exc:
        err.print(f"[red]cannot set up the pipeline:[/red] {exc}")
        raise typer.Exit(code=2)

    total_files = sum(1 for _ in expand_paths(paths))
    progress = Progress(
        TextColumn("[bold]yili process"), BarColumn(), TextColumn("{task.completed}/{task.total} docs"),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err, disable=quiet, transient=True,
    )
    chars = 0
    started = __import__("time").perf_counter()

    def on_result(stats) -> None:
        nonlocal chars
        chars += stats.chars
        if stats.error:
            err.print(f"[red]error[/red] {stats.error}")
        elapsed = max(__import__("time").perf_counter() - started, 1e-9)
        progress.update(task, advance=1, rate=f"{chars / elapsed:,.0f} chars/s")

    runner = BatchRunner(cfg, jobs=jobs, executor=executor, scheduler=scheduler, resume=resume, on_result=on_result)
    with progress:
        task = progress.add_task("process", total=total_files, rate="")
        try:
            report = runner.run(paths, output)
        except OSError as exc:
            err.print(f"[red]cannot write {output}:[/red] {exc.strerror or exc}")
            raise typer.Exit(code=2)
    if not quiet:
        Console().print(_summary_table(report.rows))
        Console().print(
            f"{len(report.rows)} document(s), {report.chars:,} chars in {report.seconds:.1f}s "
            f"({report.chars_per_second:,.0f} chars/s; {report.reused} reused from {output}.d/) → {output}"
        )
    _exit_for_failures(report.failed)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
