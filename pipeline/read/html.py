"""Any HTML page that is not the 注疏 e-book: a ctext or Wikisource chapter saved from a browser,
a blog post, an e-book of another make (layout ``html/<layout of its text>``).

Such a page is text inside markup and site furniture. The page's visible text is read as a view
(:func:`page_view`): block elements (``<p>``, ``<div>``, ``<br>``, ``<li>``, ``<td>`` …) end lines,
inline ones (``<a>``, ``<span>``, ``<b>``) vanish, character references (``&#x9109;``, ``&amp;``)
are the characters they name, runs of source whitespace are one space (but a line break is a line
inside ``<pre>`` or an element a page styles so: ``white-space: pre-wrap``, inline or from its
stylesheet); ``<head>``, scripts, styles, forms and the elements a site builds its frame from
(``<nav>``, ``<header>``, ``<footer>``, an id or class naming a menu, sidebar, breadcrumb …) are
left out — but not an element named so that holds most of the page's Han text (``<div
class="article-header-body">``): a site's words for its containers are its own, and a frame is
small beside the text. A line whose Han text is all or mostly links (a menu, a breadcrumb, "< 儀禮
| 燕禮 >") or that holds no Han character (a paragraph number; not in a Kanripo text, whose reader
reads its ``#+`` header lines) is furniture, and a heading
(``<h1>`` … ``<h6>``) is OTHER. The rest is read by the reader its text calls for
(:func:`pipeline.read.layout.text_layout`: markers, 【疏】 lines, plain paragraphs …), and every
piece and removal goes back to the raw page through the view: a tag inside a piece is a removal,
as in the e-book.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field
from typing import Callable, Optional

from pipeline.layers.features import han_count, is_han
from pipeline.read.furniture import lines
from pipeline.read.reading import Piece, Reading
from pipeline.records import Removal
from pipeline.text.references import REFERENCE, reference_text
from pipeline.text.view import TextView

#: a comment, a declaration or processing instruction, or a tag (group 1: "/" of an end tag; 2: name)
TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<![^>]*>|<\?[^>]*>|<(/?)([A-Za-z][A-Za-z0-9:-]*)\b[^>]*>", re.S)
#: elements whose content is never page text
SKIP = frozenset("head script style noscript template svg math nav header footer form select button "
                 "textarea iframe object canvas audio video title rt rp "
                 "w:deltext w:instrtext".split())  # a Word body's deleted text and field codes
#: elements that are a site's frame (reason "nav"; the rest of SKIP is "markup")
FRAME_TAGS = frozenset("nav header footer".split())
#: elements whose raw content is not HTML (their end tag is found directly)
RAW_TEXT = frozenset("script style textarea title".split())
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
BLOCK = frozenset("address article aside blockquote body br caption center dd div dl dt fieldset figcaption "
                  "figure h1 h2 h3 h4 h5 h6 hr li main ol p pre section table tbody td tfoot th thead tr ul "
                  "w:p w:br w:cr w:tc".split())  # a Word body's paragraphs, line breaks, table cells
HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
#: an id, class or role that names the frame of a site, not its text
FRAME = re.compile(
    r"""\b(?:id|class|role)\s*=\s*["'][^"']*?(?<![A-Za-z])(?:nav|navbar|navigation|menu|sidebar|breadcrumbs?|footer|"""
    r"""header|banner|toolbar|search|catlinks|printfooter|mw-head|mw-panel|toc|advert|ads)(?![A-Za-z])""",
    re.I,
)
#: source whitespace, which a browser shows as one space (a no-break space it shows as written:
#: pages indent a 疏 with &nbsp;, as a text copy does with spaces)
_SPACE = frozenset(" \t\r\n\f")
_NBSP = "\xa0"
#: a line of links holding more Han characters than this is text someone linked, not a menu
MENU_HAN = 30


@dataclass
class PageView:
    """The visible text of a page, line by line, with what the reader needs to know of each line."""

    view: TextView
    markup: list[tuple[int, int, str]]  # raw ranges that are markup ("markup") or a site's frame ("nav")
    linked: list[int]  # per view char: the number of the <a> element it is in (from 1), 0 outside any
    headings: list[tuple[int, int]] = field(default_factory=list)  # view ranges of <h1>…<h6> text


class _Builder:
    def __init__(self, raw: str):
        self.raw = raw
        self.chars: list[str] = []
        self.starts = array("q")
        self.ends = array("q")
        self.linked: list[int] = []
        self.markup: list[tuple[int, int, str]] = []

    def emit(self, ch: str, start: int, end: int, link: int) -> None:
        self.chars.append(ch)
        self.starts.append(start)
        self.ends.append(end)
        self.linked.append(link)

    def line_break(self, start: int, end: int) -> None:
        while self.chars and self.chars[-1] == " ":  # no space at a line's end
            self.chars.pop(), self.starts.pop(), self.ends.pop(), self.linked.pop()
        if self.chars and self.chars[-1] != "\n":
            self.emit("\n", start, end, 0)

    def text(self, start: int, end: int, link: int, pre: bool) -> None:
        raw = self.raw
        pos = start
        for m in REFERENCE.finditer(raw, start, end):
            self._plain(pos, m.start(), link, pre)
            decoded = reference_text(m.group())
            if decoded is None:
                self._plain(m.start(), m.end(), link, pre)
            else:
                for ch in decoded:
                    if ch in _SPACE and not pre:
                        self._space(m.start(), m.end(), link)
                    else:
                        self.emit(" " if ch == _NBSP else ch, m.start(), m.end(), link)
            pos = m.end()
        self._plain(pos, end, link, pre)

    def _plain(self, start: int, end: int, link: int, pre: bool) -> None:
        raw = self.raw
        for i in range(start, end):
            ch = raw[i]
            if ch in _SPACE and not pre:
                self._space(i, i + 1, link)
            elif pre and ch == "\n":
                self.line_break(i, i + 1)
            else:
                self.emit(" " if ch == _NBSP else ch, i, i + 1, link)

    def _space(self, start: int, end: int, link: int) -> None:
        if not self.chars or self.chars[-1] == "\n":
            return
        if self.chars[-1] == " ":  # one space for a run: it covers the run
            self.ends[-1] = end
            return
        self.emit(" ", start, end, link)


def _skip_end(raw: str, name: str, after: int) -> int:
    """Where the element ``name`` opened just before ``after`` ends (after its end tag): nested
    elements of the same name counted; an element never closed ends at its start tag."""
    if name in RAW_TEXT:
        m = re.compile(rf"</{name}\s*>", re.I).search(raw, after)
        return m.end() if m else after
    depth = 1
    for m in TOKEN.finditer(raw, after):
        if m.group(2) is None or m.group(2).lower() != name:
            continue
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.end()
        elif not m.group().endswith("/>"):
            depth += 1
    return after


def page_view(raw: str) -> PageView:
    """The visible text of the page ``raw`` (see the module's docstring), mapped to ``raw``."""
    b = _Builder(raw)
    headings: list[tuple[int, int]] = []
    heading_start: Optional[int] = None
    link = 0  # the <a> element open, by number (0: none)
    links = 0
    pre_depth = 0
    pre_until = 0  # the end of an element whose style keeps its line breaks (white-space: pre-wrap)
    pre_classes = _pre_classes(raw)
    pos = 0
    n = len(raw)
    page_han = han_count(raw)
    while pos < n:
        m = TOKEN.search(raw, pos)
        stop = m.start() if m else n
        if stop > pos:
            b.text(pos, stop, link, pre_depth > 0 or pos < pre_until)
        if m is None:
            break
        end = m.end()
        name = (m.group(2) or "").lower()
        closing = bool(m.group(1))
        why = "markup"
        if name and not closing and name not in VOID and name not in ("body", "html") and not m.group().endswith("/>"):
            if name in SKIP:
                end = _skip_end(raw, name, end)
                why = "nav" if name in FRAME_TAGS else "markup"
            elif FRAME.search(m.group()):
                frame_end = _skip_end(raw, name, end)  # a frame element never closed: only its tag goes
                if 2 * han_count(raw[m.start():frame_end]) <= page_han:  # not the text itself, whatever its name
                    end, why = frame_end, "nav"
        b.markup.append((m.start(), end, why))
        if name in BLOCK or end > m.end():  # a left-out element ends a line too
            b.line_break(m.start(), m.end())
        if end > m.end():
            pos = end
            continue
        if name == "a":
            if closing:
                link = 0
            else:
                links += 1
                link = links
        elif name == "pre":
            pre_depth = max(0, pre_depth + (-1 if closing else 1))
        elif not closing and name and pre_until <= m.start() and _keeps_breaks(m.group(), pre_classes):
            pre_until = _skip_end(raw, name, m.end())
        if name in HEADINGS:
            if not closing:
                heading_start = len(b.chars)
            elif heading_start is not None:
                headings.append((heading_start, len(b.chars)))
                heading_start = None
        pos = end
    b.line_break(n, n)
    view = TextView(raw, "".join(b.chars), b.starts, b.ends, 0)
    return PageView(view, b.markup, b.linked, headings)


#: a style that keeps a text's line breaks, as <pre> does: a site that prints a text as it was typed,
#: a line a paragraph, in a <div> styled so (white-space: pre-wrap), from its stylesheet or inline
_KEEPS_BREAKS = re.compile(r"white-space\s*:\s*(?:pre|pre-wrap|pre-line|break-spaces)\b", re.I)
_STYLE_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_CLASS_SELECTOR = re.compile(r"\.([A-Za-z_][\w-]*)\s*$")
_CLASS_ATTR = re.compile(r"""\bclass\s*=\s*["']([^"']*)["']""", re.I)
_STYLE_ATTR = re.compile(r"""\bstyle\s*=\s*["']([^"']*)["']""", re.I)


def _pre_classes(raw: str) -> frozenset[str]:
    """The classes a page's stylesheets set to keep line breaks (``.content { white-space: pre-wrap }``)."""
    found: set[str] = set()
    for sheet in re.finditer(r"<style\b[^>]*>(.*?)</style\s*>", raw, re.S | re.I):
        for rule in _STYLE_RULE.finditer(sheet.group(1)):
            if not _KEEPS_BREAKS.search(rule.group(2)):
                continue
            for selector in rule.group(1).split(","):
                m = _CLASS_SELECTOR.search(selector.strip())
                if m:
                    found.add(m.group(1))
    return frozenset(found)


def _keeps_breaks(tag: str, pre_classes: frozenset[str]) -> bool:
    style = _STYLE_ATTR.search(tag)
    if style and _KEEPS_BREAKS.search(style.group(1)):
        return True
    cls = _CLASS_ATTR.search(tag)
    return bool(cls and pre_classes and pre_classes.intersection(cls.group(1).split()))


def _menu(han: list[int], linked: list[int]) -> bool:
    """A line of links: its Han text all linked (首頁 隨機頁面), or mostly, in two links or more
    (a breadcrumb: 先秦兩漢 -> 經典文獻 -> 儀禮 -> 鄉射禮); not a text whose characters each link to
    a dictionary (主人戒賓, a link a character)."""
    inside = [i for i in han if linked[i]]
    links = len({linked[i] for i in inside})
    if not inside or len(inside) < 1.5 * links:
        return False
    return len(inside) == len(han) or (links >= 2 and 2 * len(inside) >= len(han))


def read_html(raw: str, layout_of: Callable[[str], str], read_text: Callable[[str], Reading],
              kind: str = "html") -> Reading:
    """The reading of the page ``raw``: its visible text read by ``read_text`` (the reader of that
    text's layout, ``layout_of``), furniture lines and headings decided here, every offset back in ``raw``."""
    page = page_view(raw)
    view = page.view
    layout = layout_of(view.text)
    bare_lines_are_text = layout.startswith("kanripo")  # its header lines (#+PROPERTY …) are the reader's
    text = list(view.text)
    removed: list[Removal] = [Removal(s, e, why) for s, e, why in page.markup if e > s]
    pieces: list[Piece] = []
    heading_lines = {view.text.rfind("\n", 0, start) + 1 for start, _end in page.headings}
    for start, end in lines(view.text):
        han = [i for i in range(start, end) if is_han(view.text[i])]
        if not han and (start == end or bare_lines_are_text):
            continue
        raw_start, raw_end = view.to_raw(start, end)
        if not han:
            removed.append(Removal(raw_start, raw_end, "site"))
        elif len(han) <= MENU_HAN and _menu(han, page.linked):
            removed.append(Removal(raw_start, raw_end, "nav"))
        elif start in heading_lines:
            pieces.append(Piece("OTHER", raw_start, raw_end, "layout", 0.9, "heading"))
        else:
            continue
        text[start:end] = " " * (end - start)  # the inner reader does not see it (same length: same offsets)
    inner = read_text("".join(text))
    for p in inner.pieces:
        if p.start >= p.end:
            continue
        s, e = view.to_raw(p.start, p.end)
        pieces.append(Piece(p.layer, s, e, p.evidence, p.score, p.note, p.shape))
    for r in inner.removed:
        if r.start < r.end:
            s, e = view.to_raw(r.start, r.end)
            removed.append(Removal(s, e, r.reason))
    apart = [(*view.to_raw(s, e), why) for s, e, why in inner.apart if s < e]
    return Reading(f"{kind}/{inner.layout}", pieces, removed, apart).sort()
