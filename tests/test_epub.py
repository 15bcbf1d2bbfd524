"""An EPUB of the 注疏 e-book reads as its chapters do (pipeline/read/epub.py).

The book here is made as Ancient-China-Books/yilizhushu makes ``yilizhushu.epub`` (a zip of
``mimetype``, ``META-INF/container.xml`` and ``OEBPS/``), from corpus chapters of the same e-book.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.read.epub import iter_epub
from pipeline.read.inputs import documents_in

from conftest import CORPUS

CONTAINER = ('<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             '</rootfiles></container>\n')


def _book(folder: Path, chapters: list[Path], spine: list[int]) -> Path:
    """An EPUB holding ``chapters`` as OEBPS/Text/<n>.html, read in the order ``spine`` gives."""
    manifest = "\n".join(f'<item id="id{n}" href="Text/{3896 + n}.html" media-type="application/xhtml+xml"/>'
                         for n in range(len(chapters)))
    refs = "\n".join(f'<itemref idref="id{n}"/>' for n in spine)
    package = (f'<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="2.0">'
               f'<metadata><dc:title>儀禮注疏</dc:title></metadata>\n<manifest>\n{manifest}\n'
               '<item id="css" href="Styles/stylesheet.css" media-type="text/css"/>\n</manifest>\n'
               f'<spine toc="ncx">\n{refs}\n</spine></package>\n')
    path = folder / "yilizhushu.epub"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER)
        book.writestr("OEBPS/content.opf", package)
        book.writestr("OEBPS/Styles/stylesheet.css", ".strong { font-weight: bold }")
        for n, chapter in enumerate(chapters):
            book.writestr(f"OEBPS/Text/{3896 + n}.html", chapter.read_bytes())
    return path


def _chapters() -> list[Path]:
    return [next((CORPUS / "zhushu-xhtml").glob(f"{n}_*.xhtml")) for n in ("03", "10")]


def test_an_epub_gives_its_chapters_in_the_spine_order(tmp_path):
    chapters = _chapters()
    book = _book(tmp_path, chapters, spine=[1, 0])  # 覲禮 first: the spine, not the names, orders
    items = list(iter_epub(book))
    assert [i.record["meta"]["source"] for i in items] == [f"{book}!OEBPS/Text/3897.html", f"{book}!OEBPS/Text/3896.html"]
    assert [i.record["text"] for i in items] == [chapters[1].read_text(encoding="utf-8"), chapters[0].read_text(encoding="utf-8")]
    assert documents_in(book) == 2  # what the progress bar counts


def test_yili_process_reads_an_epub_as_its_chapter_files(tmp_path):
    chapters = _chapters()
    book = _book(tmp_path, chapters, spine=[0, 1])
    broken = tmp_path / "broken.epub"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    runner = CliRunner()
    from_book = runner.invoke(app, ["process", str(book), str(broken), "-o", str(tmp_path / "book.jsonl"), "-q", "--no-resume"])
    from_files = runner.invoke(app, ["process", *map(str, chapters), "-o", str(tmp_path / "files.jsonl"), "-q", "--no-resume"])
    assert from_book.exit_code == 1  # one document failed: the broken book
    assert from_files.exit_code == 0
    book_out = [json.loads(line) for line in (tmp_path / "book.jsonl").read_text(encoding="utf-8").splitlines()]
    file_out = [json.loads(line) for line in (tmp_path / "files.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(book_out) == 3
    for got, want in zip(book_out, file_out):
        assert got["meta"]["layout"] == want["meta"]["layout"] == "xhtml"
        for field in ("segments", "sentences", "spans", "actions", "removed"):
            assert got[field] == want[field]
    assert book_out[2]["error"] == f"{broken}: not an EPUB (no zip archive)"


def test_a_folder_holding_an_epub_reads_it(tmp_path):
    book = _book(tmp_path, _chapters()[:1], spine=[0])
    from pipeline.read.inputs import expand_paths

    assert list(expand_paths([str(tmp_path)])) == [book]
