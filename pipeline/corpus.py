"""Training and evaluation units from the shared corpus (../shared/corpus), one per layer run.

The units come from the same edition readers the pipeline uses on a document
(:mod:`pipeline.read.xhtml`, :mod:`pipeline.read.kanripo`), so what the layer model learns from
is what the pipeline will see. Each unit is one paragraph (XHTML) or one run of one layer
(Kanripo), with its clean text: tags, ``¶``, ``<pb:…>``, ``/``, markers and line breaks removed
(the XHTML keeps its punctuation; the Kanripo editions have none).

Where the edition's tagging is known to be wrong and the reader corrected it, ``corrected`` is
True and ``note`` says how (see :mod:`pipeline.read.xhtml`); ``note`` also flags doubtful units
that were left as they come: ``unmarked-end`` (a 四庫 注 run that may end in the next 經),
``zixia-zhuan`` (喪服's 傳曰…, tagged 經), ``head-guessed`` (a 單疏 entry whose start was
guessed), ``kaozheng`` (the 考證, OTHER).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from pipeline.read.kanripo import read_danshu, read_siku, read_zhengzhu
from pipeline.read.reading import Reading, clean_text
from pipeline.read.xhtml import read_xhtml

EDITIONS: tuple[str, ...] = ("zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck", "danshu-sbck")

READERS: dict[str, Callable[[str], Reading]] = {
    "zhushu-xhtml": read_xhtml,
    "zhushu-siku": read_siku,
    "zhengzhu-sbck": read_zhengzhu,
    "danshu-sbck": read_danshu,
}

#: notes that say the reader changed the edition's own tagging
CORRECTIONS = frozenset({
    "zhushi-after-jianshu", "shu-in-zhushi", "strong-in-zhushi", "jing-in-zhushi", "page-header",
    "shu-untagged", "shu-marked-zhu", "zhu-by-anchor", "jing-by-anchor", "zhu-merged",
    "zhu-in-strong",
})


@dataclass
class Unit:
    chapter: str  # "04": two digits, the chapter (篇) number
    edition: str  # one of EDITIONS
    layer: str  # JING / ZHU / SHU / OTHER
    text: str  # clean text
    source: str  # file path
    index: int  # position of the unit in its file
    corrected: bool = False  # the reader changed the edition's tagging (see ``note``)
    note: str = ""
    start: int = 0  # raw offsets of the unit in its file
    end: int = 0


class CorpusMissing(FileNotFoundError):
    pass


def corpus_dir() -> Path:
    """``../shared/corpus`` beside the repository; ``YILI_CORPUS`` (or ``YILI_SHARED``/corpus) overrides."""
    if os.environ.get("YILI_CORPUS"):
        path = Path(os.environ["YILI_CORPUS"])
    elif os.environ.get("YILI_SHARED"):
        path = Path(os.environ["YILI_SHARED"]) / "corpus"
    else:
        path = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    if not path.is_dir():
        raise CorpusMissing(
            f"the corpus folder {path} does not exist: put the shared corpus at ../shared/corpus beside "
            f"the repository or set YILI_CORPUS to its folder"
        )
    return path


_NUMERALS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def chinese_number(s: str) -> int:
    """一 … 九十九 → int."""
    if "十" not in s:
        return _NUMERALS[s]
    tens, _, ones = s.partition("十")
    return (_NUMERALS[tens] if tens else 1) * 10 + (_NUMERALS[ones] if ones else 0)


def chapters() -> list[str]:
    """The chapters the corpus holds ("03", "04", …), from the file names of the chaptered editions."""
    root = corpus_dir()
    found = {p.name[:2] for ed in EDITIONS if ed != "danshu-sbck" for p in (root / ed).glob("[0-9][0-9]_*")}
    return sorted(found)


def edition_files(edition: str) -> list[Path]:
    folder = corpus_dir() / edition
    if not folder.is_dir():
        raise CorpusMissing(f"edition folder {folder} is missing")
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


_DANSHU_TITLE = re.compile(r"^[^　\s¶]{1,8}第([一二三四五六七八九十]{1,3})　案?鄭目録", re.M)


@lru_cache(maxsize=4)
def _danshu_chapters(root: str) -> dict[str, str]:
    """卷 file name → chapter, for the 單疏本 (which is cut by 卷, not by 篇).

    A 卷 that opens a chapter names it (``郷飲酒禮第四　鄭目録云…``); a 卷 that does not continues
    the chapter of the 卷 before it when their numbers follow, else (a gap in the corpus) it ends
    the chapter before the next named one.
    """
    files = sorted(Path(root, "danshu-sbck").glob("juan*.txt"))
    known = chapters()
    named: dict[str, Optional[str]] = {}
    for path in files:
        m = _DANSHU_TITLE.search(path.read_text(encoding="utf-8")[:3000])
        named[path.name] = f"{chinese_number(m.group(1)):02d}" if m else None
    out: dict[str, str] = {}
    previous: Optional[tuple[int, str]] = None
    for i, path in enumerate(files):
        juan = int(re.sub(r"\D", "", path.stem) or 0)
        chapter = named[path.name]
        if chapter is None and previous is not None and juan == previous[0] + 1:
            chapter = previous[1]
        if chapter is None:
            nxt = next((named[p.name] for p in files[i + 1:] if named[p.name]), None)
            before = [c for c in known if nxt is None or c < nxt]
            chapter = before[-1] if before else "00"
        out[path.name] = chapter
        previous = (juan, chapter)
    return out


def chapter_of(edition: str, path: Path) -> str:
    if edition == "danshu-sbck":
        return _danshu_chapters(str(path.parent.parent)).get(path.name, "00")
    return path.name[:2]


def units_of_file(edition: str, path: Path, chapter: Optional[str] = None) -> Iterator[Unit]:
    text = path.read_text(encoding="utf-8")
    reading = READERS[edition](text)
    drops = sorted((r.start, r.end) for r in reading.removed)
    starts = [s for s, _ in drops]
    longest = max((e - s for s, e in drops), default=0)
    chapter = chapter or chapter_of(edition, path)
    index = 0
    for piece in reading.pieces:
        # only the removals that can touch the piece (they are sorted by start)
        near = drops[bisect_left(starts, piece.start - longest):bisect_left(starts, piece.end)]
        clean = clean_text(text, piece.start, piece.end, near)
        if not clean:
            continue
        yield Unit(chapter, edition, piece.layer, clean, str(path), index, piece.note in CORRECTIONS,
                   piece.note, piece.start, piece.end)
        index += 1


def iter_units(edition: Optional[str] = None, chapters: Optional[Iterable[str]] = None) -> Iterator[Unit]:
    """Every unit of one edition (or all four), optionally only of some chapters, in file order."""
    editions = [edition] if edition else list(EDITIONS)
    wanted = {f"{int(c):02d}" for c in chapters} if chapters is not None else None
    for ed in editions:
        if ed not in READERS:
            raise ValueError(f"unknown edition {ed!r}: one of {', '.join(EDITIONS)}")
        for path in edition_files(ed):
            chapter = chapter_of(ed, path)
            if wanted is not None and chapter not in wanted:
                continue
            yield from units_of_file(ed, path, chapter)
