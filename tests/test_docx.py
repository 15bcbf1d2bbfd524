"""A Word document reads as its text (pipeline/read/docx.py): a scholar's own transcription.

The document is made as Word writes one: each paragraph a ``<w:p>``, its text cut into runs at
arbitrary places, a revision's deleted text (``<w:delText>``) and a field code (``<w:instrText>``)
inside, from the 經 of a corpus chapter.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.read.reading import clean_text

from conftest import CORPUS

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _jing(chapter: str) -> list[str]:
    xhtml = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*.xhtml")).read_text(encoding="utf-8")
    paragraphs = re.findall(r'<p class="strong"[^>]*>(.*?)</p>', xhtml, re.S)
    return [p for p in (html.unescape(re.sub(r"<[^>]+>", "", p)).strip() for p in paragraphs) if p]


def _paragraph(text: str, n: int) -> str:
    cut = 3 + n % 5  # Word cuts a paragraph into runs wherever the formatting or the editing history did
    runs = "".join(f'<w:r><w:rPr><w:rFonts w:eastAsia="宋體"/></w:rPr><w:t xml:space="preserve">{html.escape(text[k:k + cut])}</w:t></w:r>'
                   for k in range(0, len(text), cut))
    if n % 7 == 0:  # a revision: deleted words stay in the file
        runs += '<w:del w:id="1" w:author="me"><w:r><w:delText>主人拜</w:delText></w:r></w:del>'
    if n % 11 == 0:  # a field: its code is no text
        runs = '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE 主人 </w:instrText></w:r>' + runs
    return f"<w:p><w:pPr><w:pStyle w:val=\"Normal\"/></w:pPr>{runs}</w:p>"


def _document(folder: Path, paragraphs: list[str]) -> Path:
    body = "".join(_paragraph(p, n) for n, p in enumerate(paragraphs))
    xml = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document {NS}><w:body>{body}<w:sectPr/></w:body></w:document>'
    path = folder / "鄉射禮.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as document:
        document.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        document.writestr("word/document.xml", xml)
    return path


def test_a_word_document_reads_as_its_text(tmp_path):
    paragraphs = _jing("05")[:60]
    document = _document(tmp_path, paragraphs)
    plain = tmp_path / "鄉射禮.txt"
    plain.write_text("\n".join(paragraphs), encoding="utf-8")
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["process", str(document), str(plain), str(broken), "-o", str(out), "-q",
                                      "--no-resume", "--layer", "JING"])
    assert result.exit_code == 1  # the broken document
    read, text, failed = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert read["meta"]["layout"] == "docx/plain"
    key = [(a["actor"], a["verb"], a["negated"], a["object"], a["location"]) for a in read["actions"]]
    assert key == [(a["actor"], a["verb"], a["negated"], a["object"], a["location"]) for a in text["actions"]]
    # a paragraph a segment, holding the paragraph's text and nothing else: not the deleted words,
    # not the field code
    drops = [(r["start"], r["end"]) for r in read["removed"]]
    assert [html.unescape(clean_text(read["text"], s["start"], s["end"], drops)) for s in read["segments"]] == \
        ["".join(p.split()) for p in paragraphs]
    assert failed["error"] == f"{broken}: not a Word document (no zip archive)"
