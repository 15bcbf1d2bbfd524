"""What every command does with an error it expects: say it, and stop with status 2.

``yili`` (``pipeline/cli.py``) and the annotation commands (``pipeline/annotate/commands.py``) each
print on their own stderr console; both stop the same way when a setting, a model, a store or an
``-o`` cannot work, so the two ways are written here once.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import typer
from rich.console import Console
from rich.markup import escape


@contextmanager
def said(console: Console, *kinds: type[BaseException]) -> Iterator[None]:
    """An error of ``kinds`` raised inside: its message on ``console`` (escaped: ``[actions]`` and
    ``'yili[dask]'`` are no markup) and status 2, instead of a traceback."""
    try:
        yield
    except kinds as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(code=2) from exc


def refuse_output_among_inputs(console: Console, inputs: Iterable[str | Path], output: Path) -> None:
    """Stop (status 2) before anything is read or written if ``-o`` names one of the inputs: the
    output replaces its file when the run ends, and the scholar's input would be lost."""
    from pipeline.read.inputs import output_clash

    clash = output_clash([str(p) for p in inputs], output)
    if clash is not None:
        console.print(f"[red]{escape(clash)}[/red]")
        raise typer.Exit(code=2)
