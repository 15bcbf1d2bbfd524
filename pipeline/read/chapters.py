"""Which chapter (篇) of the 儀禮 a document belongs to, and where in it each chapter begins.

The reading needs it (the 尸 of 士喪禮 and 既夕禮 is the corpse: :mod:`pipeline.actions.rites`) and
so does every export (a document's ``chapter``).

The rule, first that answers wins:

1. ``meta.chapter`` when the record carries one (an int or a string; kept as a two-digit string);
2. the source file name when it starts with a two-digit number, an underscore and a letter, as the
   corpus names its files (``04_xiangyinjiuli.txt`` → ``"04"``); the bundled seeds
   (``003_c8719e2da7acda31.txt``, three digits) and 卷 files (``juan08.txt``) do not match;
3. the first chapter title written with its number in the first 5,000 characters of the text
   (``鄉飲酒禮第四`` → ``"04"``; simplified titles and the variants 鄕/郷 and 旣 count too). Only a title
   whose number agrees with its place in the classic counts, so a 卷 number (卷四) or the 大戴
   order a 目錄 quotes (此乃第十) never does;
4. otherwise ``None``.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any, Optional

#: The seventeen chapters in the received (鄭玄) order, with the other ways editions title them.
CHAPTER_TITLES: tuple[tuple[str, ...], ...] = (
    ("士冠禮",),
    ("士昏禮",),
    ("士相見禮",),
    ("鄉飲酒禮",),
    ("鄉射禮",),
    ("燕禮",),
    ("大射儀", "大射"),
    ("聘禮",),
    ("公食大夫禮",),
    ("覲禮",),
    ("喪服",),
    ("士喪禮",),
    ("既夕禮", "既夕"),
    ("士虞禮",),
    ("特牲饋食禮",),
    ("少牢饋食禮",),
    ("有司徹", "有司"),
)

NUMERALS = ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
            "十一", "十二", "十三", "十四", "十五", "十六", "十七")

#: Character variants folded before matching titles (editions write 鄕/郷 for 鄉; 禮 may be simplified).
_FOLD = str.maketrans({"鄕": "鄉", "郷": "鄉", "乡": "鄉", "礼": "禮", "饮": "飲", "见": "見",
                       "丧": "喪", "觐": "覲", "馈": "饋", "彻": "徹", "仪": "儀", "旣": "既"})

HEAD_CHARS = 5000

_FILE_NAME = re.compile(r"^(\d{2})_[A-Za-z]")


def _title_pattern() -> re.Pattern[str]:
    alternatives = []
    for number, titles in enumerate(CHAPTER_TITLES, 1):
        for title in titles:
            alternatives.append(f"(?P<c{number:02d}_{len(alternatives)}>{title}第{NUMERALS[number - 1]}(?![一二三四五六七八九十]))")
    return re.compile("|".join(alternatives))


_TITLE = _title_pattern()
_LONGEST_TITLE = max(len(title) for titles in CHAPTER_TITLES for title in titles)


def chapter_from_meta(meta: dict[str, Any]) -> Optional[str]:
    value = meta.get("chapter")
    if value is None or value == "":
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return f"{int(value):02d}"
    return str(value)


def chapter_from_source(source: Optional[str]) -> Optional[str]:
    if not source:
        return None
    match = _FILE_NAME.match(PurePath(str(source)).name)
    return match.group(1) if match else None


def chapter_from_title(text: str) -> Optional[str]:
    match = _TITLE.search(text[:HEAD_CHARS].translate(_FOLD))
    if not match:
        return None
    return match.lastgroup.split("_")[0][1:]  # "c04_12" → "04"


def chapter_titles(text: str) -> list[tuple[int, str]]:
    """Every chapter title written with its number anywhere in ``text``: (offset, chapter), in order
    (a file holding several chapters titles each where it begins). ``_FOLD`` maps one character to
    one, so the offsets are ``text``'s."""
    out: list[tuple[int, str]] = []
    at = text.find("第")
    while at >= 0:  # a title holds 第: only the few characters around each are folded and matched
        lo = max(0, at - _LONGEST_TITLE)
        window = text[lo:at + 4].translate(_FOLD)  # 第, a numeral of two characters, one after it
        for m in _TITLE.finditer(window):
            if lo + m.start() + m.group().index("第") == at:
                out.append((lo + m.start(), m.lastgroup.split("_")[0][1:]))
        at = text.find("第", at + 1)
    return out


def chapter_marks(meta: dict[str, Any], text: str) -> list[tuple[int, Optional[str]]]:
    """Where each chapter of ``text`` begins, (offset, chapter) in order: from 0 the chapter the
    record names (``meta.chapter``, else its file's name), else its first title's; then each title
    written after the start (a file holding several chapters changes chapter where one stands)."""
    titles = chapter_titles(text)
    first = chapter_from_meta(meta) or chapter_from_source(meta.get("source")) or (titles[0][1] if titles else None)
    return [(0, first), *((at, chapter) for at, chapter in titles if at > 0)]


def chapter_of(meta: dict[str, Any], text: str) -> Optional[str]:
    """The chapter as a two-digit string ("04"), by the rule in this module's docstring, or None."""
    return chapter_from_meta(meta) or chapter_from_source(meta.get("source")) or chapter_from_title(text)
