"""Read the 經 paragraphs (`<p class="strong">`) of the punctuated XHTML edition.

The gold passages are these paragraphs' text exactly: tags removed, punctuation and
whitespace kept, so that gold offsets point into the same string a reader sees.
"""

from __future__ import annotations

import os
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(os.environ.get("YILI_SHARED", Path(__file__).resolve().parents[3] / "shared"))
XHTML_DIR = SHARED / "corpus" / "zhushu-xhtml"
NS = "{http://www.w3.org/1999/xhtml}"


@dataclass(frozen=True)
class Passage:
    """One 經 paragraph: its chapter ('12'), file name, element index K (id pK) and text."""

    chapter: str
    file: str
    index: int
    text: str

    @property
    def doc(self) -> str:
        return f"{self.file}#p{self.index}"


def chapter_file(chapter: str, xhtml_dir: Path = XHTML_DIR) -> Path:
    """The XHTML file of a chapter number ('03'...'17')."""
    found = sorted(xhtml_dir.glob(f"{chapter}_*.xhtml"))
    if len(found) != 1:
        raise FileNotFoundError(f"no single XHTML file for chapter {chapter} in {xhtml_dir}")
    return found[0]


def read_passages(chapter: str, xhtml_dir: Path = XHTML_DIR) -> dict[int, Passage]:
    """All 經 paragraphs of a chapter, keyed by K of their id `pK`."""
    path = chapter_file(chapter, xhtml_dir)
    root = ET.parse(path).getroot()
    out: dict[int, Passage] = {}
    for el in root.iter(f"{NS}p"):
        if el.get("class") != "strong":
            continue
        ident = el.get("id") or ""
        if not ident.startswith("p"):
            raise ValueError(f"{path.name}: 經 paragraph without a pK id")
        k = int(ident[1:])
        out[k] = Passage(chapter, path.name, k, "".join(el.itertext()))
    return out


if __name__ == "__main__":
    for ch in sys.argv[1:]:
        for k, p in read_passages(ch).items():
            print(f"{p.chapter} p{k}\t{p.text}")
