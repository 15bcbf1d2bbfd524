"""A Word document (.docx): a scholar's own transcription, read as its text.

A .docx is a zip whose ``word/document.xml`` holds the body as WordprocessingML: paragraphs
``<w:p>``, runs ``<w:r>``, text ``<w:t>``. The record's ``text`` is that XML as decoded, so every
offset indexes a real file's text as for an XHTML page; :mod:`pipeline.read.html` reads its
visible text (a paragraph a line, deleted text and field codes left out; layout ``docx/…``).
Headers, footers and footnotes, which live in other parts, are not read.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from pipeline.read.inputs import InputItem

BODY = "word/document.xml"


def is_wordml(text: str) -> bool:
    """Whether ``text`` is a Word body (``<w:document …>``)."""
    return "<w:document" in text[:3000]


def read_docx(path: Path) -> InputItem:
    """The body of the Word document at ``path`` as one record (an error item if it cannot be read)."""
    from pipeline.read.decode import DecodeError, decode_bytes

    origin = str(path)
    meta = {"source": origin}
    try:
        with zipfile.ZipFile(path) as document:
            data = document.read(BODY)
    except (zipfile.BadZipFile, OSError, KeyError, EOFError, zlib.error) as exc:
        why = {zipfile.BadZipFile: "not a Word document (no zip archive)",
               KeyError: f"not a Word document (no {BODY})"}.get(type(exc), f"cannot read ({exc})")
        return InputItem(origin, {"meta": meta}, f"{origin}: {why}")
    try:
        text, encoding = decode_bytes(data, f"{origin}!{BODY}")
    except DecodeError as exc:
        return InputItem(origin, {"meta": meta}, str(exc))
    meta["encoding"] = encoding
    return InputItem(origin, {"text": text, "meta": meta}, from_file=True)
