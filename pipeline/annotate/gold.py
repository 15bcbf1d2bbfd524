"""The hand-made gold under ``annotations/`` as training and evaluation read it: line by line, each
record checked as ``yili import`` checks an answer (:func:`~pipeline.annotate.validate.validate_record`).

A scholar adds gold by hand as well as through the annotation loop, and one line cut short, or a
span whose offsets run past its text, used to stop ``yili train layers`` / ``train spans`` /
``evaluate actions`` with srsly's "Invalid JSON on line 2" (no file named) or an IndexError deep in
the training code. Such a line is now named (``file:line: why``) and, where the caller collects
them, left out while the other records go through; a caller that collects nothing gets a
:class:`GoldError` naming the first one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from pipeline.annotate.jsonl import read_lines
from pipeline.annotate.validate import validate_record


class GoldError(ValueError):
    """A gold file holds a line that is not a valid record (the message names the file and line)."""


def read_gold(path: Path, refused: Optional[list[str]] = None) -> list[dict]:
    """The records of the gold JSONL file ``path`` (a record without ``answer`` is an accepted one).
    A line that is not UTF-8 JSON or not a valid record is appended to ``refused`` as
    ``"file:line: why"`` and left out; with ``refused`` None the first such line raises :class:`GoldError`."""
    records: list[dict] = []
    for line in read_lines(path):
        problems = [line.error] if line.error else validate_record(line.record, default_answer="accept")
        if problems:
            why = f"{path}:{line.number}: " + "; ".join(problems)
            if refused is None:
                raise GoldError(why)
            refused.append(why)
            continue
        records.append(line.record)
    return records


def read_gold_folder(folder: Path, refused: Optional[list[str]] = None,
                     chapters: Optional[Iterable[str]] = None) -> list[dict]:
    """The records of every ``*.jsonl`` of ``folder`` (a split of the action gold: one file a
    chapter, only those of ``chapters`` when given), each with its chapter (the file's name) in
    ``meta`` unless it says one; bad lines as :func:`read_gold` treats them."""
    wanted = set(chapters) if chapters is not None else None
    records: list[dict] = []
    for path in sorted(Path(folder).glob("*.jsonl")):
        if wanted is not None and path.stem not in wanted:
            continue
        for record in read_gold(path, refused):
            record.setdefault("meta", {}).setdefault("chapter", path.stem)
            records.append(record)
    return records
