"""An EPUB e-book (the 注疏 e-book is published as one: Ancient-China-Books/yilizhushu builds
``yilizhushu.epub`` from the XHTML chapters the corpus holds): one document per chapter, in the
book's reading order.

The chapters are the XHTML items of the package's spine (``META-INF/container.xml`` names the
package file, whose ``<spine>`` orders the ``<manifest>`` items); a book without a readable package
gives its XHTML and HTML members in name order. Each chapter is decoded as a text file is and
becomes a record with ``meta.source`` = ``book.epub!OEBPS/Text/3900.html``: its offsets index that
chapter's text. A file that is no EPUB, or a chapter that cannot be read, is an error naming the
book and the chapter; the other chapters still go through.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from pathlib import Path
from typing import Iterator, Optional
from urllib.parse import unquote

from pipeline.read.inputs import InputItem

_ROOTFILE = re.compile(r"<rootfile\b[^>]*\bfull-path\s*=\s*[\"']([^\"']+)[\"']")
_ITEM = re.compile(r"<item\b[^>]*>", re.S)
_ITEMREF = re.compile(r"<itemref\b[^>]*\bidref\s*=\s*[\"']([^\"']+)[\"']")
_ATTRIBUTE = re.compile(r"\b(id|href|media-type)\s*=\s*[\"']([^\"']*)[\"']")
_CHAPTER_TYPES = ("application/xhtml+xml", "text/html")
_CHAPTER_SUFFIXES = (".xhtml", ".html", ".htm")


def chapters(book: zipfile.ZipFile) -> list[str]:
    """The members that are the book's chapters, in its reading order."""
    names = set(book.namelist())
    spine = _spine(book, names)
    if spine:
        return spine
    return sorted(n for n in names if n.lower().endswith(_CHAPTER_SUFFIXES))


def _spine(book: zipfile.ZipFile, names: set[str]) -> Optional[list[str]]:
    if "META-INF/container.xml" not in names:
        return None
    found = _ROOTFILE.search(book.read("META-INF/container.xml").decode("utf-8", "replace"))
    if not found or found.group(1) not in names:
        return None
    package_path = found.group(1)
    package = book.read(package_path).decode("utf-8", "replace")
    folder = posixpath.dirname(package_path)
    manifest: dict[str, str] = {}
    for tag in _ITEM.findall(package):
        attributes = dict(_ATTRIBUTE.findall(tag))
        if attributes.get("media-type") in _CHAPTER_TYPES and "id" in attributes and "href" in attributes:
            href = unquote(attributes["href"].split("#", 1)[0])
            manifest[attributes["id"]] = posixpath.normpath(posixpath.join(folder, href))
    order = [manifest[ref] for ref in _ITEMREF.findall(package) if ref in manifest]
    return [member for member in dict.fromkeys(order) if member in names] or None


def iter_epub(path: Path) -> Iterator[InputItem]:
    """One input item per chapter of the EPUB at ``path`` (an error item where one cannot be read)."""
    from pipeline.read.decode import DecodeError, decode_bytes

    origin = str(path)
    try:
        book = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        why = "not an EPUB (no zip archive)" if isinstance(exc, zipfile.BadZipFile) else f"cannot read ({exc})"
        yield InputItem(origin, {"meta": {"source": origin}}, f"{origin}: {why}")
        return
    with book:
        members = chapters(book)
        if not members:
            yield InputItem(origin, {"meta": {"source": origin}}, f"{origin}: an EPUB with no XHTML chapter")
            return
        for member in members:
            source = f"{origin}!{member}"
            meta = {"source": source}
            try:
                text, encoding = decode_bytes(book.read(member), source)
            except DecodeError as exc:
                yield InputItem(source, {"meta": meta}, str(exc))
                continue
            except (zipfile.BadZipFile, OSError, KeyError, EOFError, zlib.error) as exc:  # a damaged member (bad CRC …)
                yield InputItem(source, {"meta": meta}, f"{source}: cannot read ({exc})")
                continue
            meta["encoding"] = encoding
            yield InputItem(source, {"text": text, "meta": meta}, from_file=True)
