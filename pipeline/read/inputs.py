"""Turn command-line inputs (files, folders, globs, JSONL, EPUB, Word) into input items, one per document.

A bad file or a bad JSONL line becomes an item with an ``error`` that names the file and line;
it never stops the other documents.
"""

from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

TEXT_SUFFIXES = {".txt", ".xhtml", ".html", ".htm", ".org", ".md", ""}
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
EPUB_SUFFIXES = {".epub"}  # an e-book: one document per chapter (pipeline/read/epub.py)
DOCX_SUFFIXES = {".docx"}  # a Word document: its body (pipeline/read/docx.py)


@dataclass
class InputItem:
    """One document to process: a record ``{"text", "meta"}`` or an error saying where and why."""

    origin: str  # "path" or "path:line"
    record: dict[str, Any] = field(default_factory=dict)
    error: Optional[str] = None
    from_file: bool = False  # the record was built from a whole file (not given as JSONL)
    #: the JSONL file the record is a line of (None for a document read from a whole file)
    jsonl: Optional[str] = None
    #: the document the record is read as a passage of, with its other passages in the file, and the
    #: participants that document names (pipeline/batch/passages.py)
    document: Optional[str] = None
    names: tuple[str, ...] = ()


def expand_paths(inputs: Iterable[str], exclude: Optional[Path] = None) -> Iterator[Path]:
    """Files named, files under folders named (sorted, recursive), and glob matches, in order;
    ``exclude`` (the run's output file) is left out of folders and globs, so that a run whose output
    lies in the folder it reads does not read its last output back as input."""
    skip = _resolved(exclude) if exclude is not None else None

    def wanted(p: Path) -> bool:
        return skip is None or _resolved(p) != skip

    for item in inputs:
        path = Path(item)
        if any(ch in item for ch in "*?[") and not path.exists():
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                yield path  # reported as missing
            yield from (Path(m) for m in matches if Path(m).is_file() and wanted(Path(m)))
        elif path.is_dir():
            # listed once, when the folder is reached: a file that disappears later is reported
            # as unreadable in its place, never silently skipped; so is a link that leads nowhere
            yield from [sub for sub in sorted(path.rglob("*")) if _read_in_folder(sub) and wanted(sub)]
        else:
            yield path


def _resolved(path: Path) -> Path:
    """``path`` made absolute with its links followed, so that one file named two ways is one."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a loop of links
        return Path(path).absolute()


def broken_link(path: Path) -> Optional[str]:
    """What a link that leads to no file (its file gone, or a loop of links) is; None for any other path."""
    if path.is_symlink() and not path.exists():
        return f"a link to {os.readlink(path)}, which leads to no file"
    return None


def output_clash(inputs: Iterable[str], output: Path) -> Optional[str]:
    """What to say if an input named on the command line is the run's output file itself (the output
    replaces its file when the run ends: a scholar's source would be lost); None if none is."""
    target = _resolved(Path(output))
    for item in inputs:
        path = Path(item)
        if path.is_file() and _resolved(path) == target:
            return f"the output {output} is also an input ({item}): writing it would overwrite the input; name another -o"
    return None


READ_SUFFIXES = TEXT_SUFFIXES | JSONL_SUFFIXES | EPUB_SUFFIXES | DOCX_SUFFIXES


def _read_in_folder(sub: Path) -> bool:
    """Whether a path found under a named folder is one of its documents: a file (or a link that
    leads nowhere, to be reported) of a kind yili reads, not hidden."""
    if sub.name.startswith(".") or sub.suffix.lower() not in READ_SUFFIXES:
        return False
    return sub.is_file() or broken_link(sub) is not None


def left_out(inputs: Iterable[str]) -> list[Path]:
    """The files under the folders named that are not read, by their kind (a scan, a .csv, a TEI .xml):
    a scholar who named the folder should hear of them, and can name one to read it as text."""
    out: list[Path] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            out += [sub for sub in sorted(path.rglob("*"))
                    if sub.is_file() and not sub.name.startswith(".") and sub.suffix.lower() not in READ_SUFFIXES]
    return out


def _jsonl_lines(path: Path) -> Iterator[tuple[int, Optional[str], Optional[str]]]:
    """``(line number, line, None)`` or ``(line number, None, why it cannot be read)`` for each line.

    JSONL is UTF-8: a line that is not spoils only itself, not the file (a stray byte used to make
    the whole file undecodable, or worse, decodable as GB18030 nonsense). A file none of whose
    lines is UTF-8 is read whole in the encoding :func:`decode_bytes` finds (GB18030, Big5).
    Lines end at ``\n`` only: ``str.splitlines`` would also cut at U+2028, U+0085 and other
    characters that JSON strings may hold unescaped.
    """
    import codecs

    from pipeline.read.decode import decode_bytes, utf8_line

    data = path.read_bytes()
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        text: Optional[str] = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    raw_lines = data.split(b"\n")
    if text is None and not any(not line.isascii() and _is_utf8(line) for line in raw_lines):
        text, _encoding = decode_bytes(data, str(path))  # a legacy encoding (or a DecodeError)
    if text is not None:
        for lineno, line in enumerate(text.split("\n"), 1):
            yield lineno, line.rstrip("\r"), None
        return
    for lineno, raw in enumerate(raw_lines, 1):
        line, why = utf8_line(raw)
        yield lineno, None if line is None else line.rstrip("\r"), why


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _lone_surrogate(value: Any) -> Optional[str]:
    """A string in ``value`` that holds a lone surrogate (JSON's ``"\\ud800"``): no UTF-8 text can hold it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"U+{ord(value[exc.start]):04X} at index {exc.start}"
        return None
    if isinstance(value, dict):
        items: Iterable[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        items = value
    else:
        return None
    for item in items:
        found = _lone_surrogate(item)
        if found:
            return found
    return None


def iter_jsonl(path: Path) -> Iterator[InputItem]:
    """Records of a JSONL file; a line that is not a JSON object with a string ``text`` is an error item."""
    from pipeline.read.decode import json_fault

    def item(*args: Any) -> InputItem:  # every item of the file says which file it is a line of
        return InputItem(*args, jsonl=str(path))

    for lineno, line, problem in _jsonl_lines(path):
        origin = f"{path}:{lineno}"
        where = {"meta": {"source": str(path), "line": lineno}}
        if problem is not None:
            yield item(origin, where, f"{origin}: {problem}")
            continue
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            yield item(origin, where, f"{origin}: invalid JSON ({json_fault(exc)})")
            continue
        surrogate = _lone_surrogate(record)
        if surrogate:  # the record cannot even be written back: keep only where it was
            yield item(origin, where, f"{origin}: a string holds a lone surrogate ({surrogate}), not valid Unicode")
        elif (fault := record_fault(record)) is not None:
            yield item(origin, record if isinstance(record, dict) else where, f"{origin}: {fault}")
        else:
            yield item(origin, record)


def record_fault(record: Any) -> Optional[str]:
    """Why ``record`` is no record the pipeline reads (SCHEMA section 6: an object with a string
    ``text``, and ``meta`` an object where it is given); None when it is one."""
    if not isinstance(record, dict):
        return f"a record must be a JSON object, got {type(record).__name__}"
    if not isinstance(record.get("text"), str):
        return "record has no string 'text' field"
    if record.get("meta") is not None and not isinstance(record["meta"], dict):
        return "'meta' must be an object"
    return None


def read_file(path: Path) -> InputItem:
    """A whole text file as one record, decoded; the encoding used goes into ``meta``."""
    from pipeline.read.decode import DecodeError, decode_bytes

    origin = str(path)
    meta: dict[str, Any] = {"source": origin}
    try:
        data = path.read_bytes()
    except OSError as exc:
        return InputItem(origin, {"meta": meta}, f"{origin}: cannot read ({exc.strerror or exc})")
    try:
        text, encoding = decode_bytes(data, origin)
    except DecodeError as exc:
        return InputItem(origin, {"meta": meta}, str(exc))
    meta["encoding"] = encoding
    return InputItem(origin, {"text": text, "meta": meta}, from_file=True)


def iter_inputs(inputs: Iterable[str], exclude: Optional[Path] = None) -> Iterator[InputItem]:
    from pipeline.read.decode import DecodeError

    for path in expand_paths(inputs, exclude):
        if not path.exists():
            why = broken_link(path) or "no such file"
            yield InputItem(str(path), {"meta": {"source": str(path)}}, f"{path}: {why}")
        elif path.suffix.lower() in JSONL_SUFFIXES:
            try:
                yield from iter_jsonl(path)
            except DecodeError as exc:  # its message names the file already
                yield InputItem(str(path), {"meta": {"source": str(path)}}, str(exc))
            except OSError as exc:
                yield InputItem(str(path), {"meta": {"source": str(path)}}, f"{path}: cannot read ({exc.strerror or exc})")
            except Exception as exc:  # unreadable file: one error for the file
                yield InputItem(str(path), {"meta": {"source": str(path)}}, f"{path}: {exc}")
        elif path.suffix.lower() in EPUB_SUFFIXES:
            from pipeline.read.epub import iter_epub

            yield from iter_epub(path)
        elif path.suffix.lower() in DOCX_SUFFIXES:
            from pipeline.read.docx import read_docx

            yield read_docx(path)
        else:
            yield read_file(path)


def documents_in(path: Path) -> int:
    """How many documents the file at ``path`` gives, for a progress bar: an EPUB's chapters, else one
    (a JSONL file counts as one: its records are not counted ahead)."""
    if path.suffix.lower() not in EPUB_SUFFIXES:
        return 1
    import zipfile

    from pipeline.read.epub import chapters

    try:
        with zipfile.ZipFile(path) as book:
            return max(1, len(chapters(book)))
    except (zipfile.BadZipFile, OSError):
        return 1


def sample_paths() -> list[Path]:
    """The bundled sample corpus: the five seed documents the project was created from."""
    folder = Path(__file__).resolve().parents[1] / "samples"
    return sorted(folder.glob("*.txt"))
