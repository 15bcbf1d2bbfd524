"""A page saved from a browser (ctext, Wikisource, a site's copy of the 注疏) reads as its text does
(pipeline/read/html.py): the visible text is read by the reader it calls for, the site's frame is
furniture, character references are the characters they name, and offsets stay in the raw page.

Each page here is built from real text: a bundled seed, or the 經 of a corpus chapter, inside the
markup sites put around it.
"""

from __future__ import annotations

import html
import re
import pytest

from pipeline.config import load_config
from pipeline.layers import segment_layers
from pipeline.process import DocumentProcessor
from pipeline.read.reading import clean_text
from pipeline.text.normalise import segment_view

from conftest import CORPUS, SEEDS

MENU = '<nav><a href="/">首頁</a> <a href="/books">古籍</a></nav>'
CRUMBS = '<div class="breadcrumb"><a href="/">首頁</a> &gt; <a href="/jing">經部</a> &gt; 儀禮</div>'
FOOTER = "<footer>© 2024 古籍網 版權所有</footer>"


def _page(body: str, title: str = "儀禮") -> str:
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
            f'<script>var page = "<p>主人</p>";</script></head>\n<body>{MENU}\n{CRUMBS}\n'
            f'<h1>{title}</h1>\n<div id="content">\n{body}\n</div>\n{FOOTER}</body></html>\n')


def _paragraphs(text: str) -> str:
    """A line a paragraph, its leading spaces as &nbsp; (how a site indents a 疏)."""
    def one(line: str) -> str:
        lead = len(line) - len(line.lstrip(" "))
        return f"<p>{'&nbsp;' * lead}{html.escape(line[lead:])}</p>" if line.strip() else ""
    return "\n".join(one(line) for line in text.splitlines())


def _seed(prefix: str) -> str:
    return next(p for p in SEEDS if p.name.startswith(prefix)).read_text(encoding="utf-8")


def _key(action: dict) -> tuple:
    return (action["actor"], action["verb"], action["negated"], action["object"], action["target"], action["location"])


def _visible(page_text: str) -> str:
    """A page's text as the browser shows it (whitespace left out)."""
    return "".join(ch for ch in html.unescape(re.sub(r"<[^>]*>", "", page_text)) if not ch.isspace())


@pytest.mark.parametrize("prefix, layout", [
    ("003", "web-zhushu"),    # 疏 paragraphs known by their indented heads 「X」至「Y」
    ("004", "web-runon"),     # 經 with its 注 run on, then a [疏] line
    ("001", "siku-wrapped"),  # hard-wrapped lines, commentary opened by 鄭注
])
def test_a_seed_saved_as_a_web_page_reads_as_the_seed(processor, prefix, layout):
    text = _seed(prefix)
    page = _page(_paragraphs(text))
    plain = processor.process({"text": text, "meta": {"source": f"{prefix}.txt"}})
    read = processor.process({"text": page, "meta": {"source": f"{prefix}.html"}})
    assert segment_layers(page, f"{prefix}.html").layout == f"html/{layout}"
    heading, *segments = read["segments"]
    assert (heading["layer"], heading["text"]) == ("OTHER", "儀禮")  # the page's <h1>
    assert [(s["layer"], _visible(s["text"])) for s in segments] == \
        [(s["layer"], "".join(s["text"].split())) for s in plain["segments"]]
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    # the frame is furniture, the script no text, and no sentence holds markup
    assert not any("首頁" in s["text"] or "版權" in s["text"] or "var page" in s["text"] for s in read["segments"])
    assert not any("<" in _strip_removed(page, read, s) for s in read["sentences"])
    assert {"nav", "markup"} <= {r["reason"] for r in read["removed"]}


def _strip_removed(raw: str, record: dict, unit: dict) -> str:
    keep = [True] * len(raw)
    for r in record["removed"]:
        keep[r["start"]:r["end"]] = [False] * (r["end"] - r["start"])
    return "".join(ch for i, ch in enumerate(raw[unit["start"]:unit["end"]], unit["start"]) if keep[i])


def _jing(chapter: str) -> list[str]:
    """The 經 paragraphs of a corpus chapter, as the XHTML e-book prints them."""
    xhtml = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*.xhtml")).read_text(encoding="utf-8")
    paragraphs = re.findall(r'<p class="strong"[^>]*>(.*?)</p>', xhtml, re.S)
    return [p for p in (html.unescape(re.sub(r"<[^>]+>", "", p)).strip() for p in paragraphs) if p]


@pytest.fixture(scope="module")
def jing_reader():
    """The 經 alone, as a scholar reads a ctext or Wikisource chapter: ``--layer JING``."""
    return DocumentProcessor(load_config(overrides={"layers": {"undecided_layer": "JING"}}))


def test_a_wikisource_chapter_reads_as_its_text(jing_reader):
    paragraphs = _jing("05")  # 鄉射禮
    page = _page("\n".join(f"<p>{html.escape(p)}\n</p>" for p in paragraphs), "儀禮/鄉射禮")
    plain = jing_reader.process({"text": "\n".join(paragraphs), "meta": {"source": "05.txt"}})
    read = jing_reader.process({"text": page, "meta": {"source": "05.html"}})
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    heading, first = read["segments"][:2]
    assert (heading["layer"], heading["text"]) == ("OTHER", "儀禮/鄉射禮")  # the <h1>
    assert first["layer"] == "JING" and first["text"].startswith("鄉射之禮。主人戒賓。")


def test_a_ctext_table_reads_as_its_text(jing_reader):
    """ctext sets each paragraph in a table row beside its number, under a breadcrumb of links."""
    paragraphs = _jing("10")  # 覲禮
    rows = "\n".join(f'<tr id="n{k}"><td class="ctext"><a href="#n{k}">{k + 1}</a></td>'
                     f'<td class="ctext"><div id="comm{k}"></div>{html.escape(p)}</td></tr>' for k, p in enumerate(paragraphs))
    page = ('<html><head><title>儀禮 : 覲禮 - 中國哲學書電子化計劃</title></head><body>\n'
            '<div id="menubar"><a href="/zh">中國哲學書電子化計劃</a> <a href="/tools/zh">工具</a></div>\n'
            '<div><a href="/pre-qin-and-han/zh">先秦兩漢</a> -&gt; <a href="/ancient-classics/zh">經典文獻</a> -&gt; '
            f'<a href="/yili/zh">儀禮</a> -&gt; <span>覲禮</span></div>\n<h2>覲禮</h2>\n<table border="0">\n{rows}\n</table>\n'
            '<div id="footer">版權所有 &copy; 2006-2024 中國哲學書電子化計劃</div></body></html>')
    plain = jing_reader.process({"text": "\n".join(paragraphs), "meta": {"source": "10.txt"}})
    read = jing_reader.process({"text": page, "meta": {"source": "10.html"}})
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    assert [s["layer"] for s in read["segments"]].count("JING") == len(paragraphs)
    removed = {page[r["start"]:r["end"]]: r["reason"] for r in read["removed"]}
    assert removed["1"] == "site"  # a paragraph number is no text
    assert any(reason == "nav" and "經典文獻" in text for text, reason in removed.items())  # the breadcrumb


def test_a_text_whose_characters_link_to_a_dictionary_is_no_menu(jing_reader):
    """Some sites link every character to its dictionary entry: short paragraphs (無介。) stay text."""
    paragraphs = _jing("05")[:40]
    linked = "\n".join("<p>" + "".join(f'<a href="/dict/{ord(ch):x}">{ch}</a>' if "\u4e00" <= ch <= "\u9fff" else ch
                                       for ch in p) + "</p>" for p in paragraphs)
    plain = jing_reader.process({"text": "\n".join(paragraphs), "meta": {"source": "05.txt"}})
    read = jing_reader.process({"text": _page(linked), "meta": {"source": "05.html"}})
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    assert any(_visible(s["text"]) == "無介。" for s in read["segments"])


def test_character_references_are_the_characters_they_name(jing_reader):
    """A page that writes 鄉 and 賓 as references, indents with &nbsp; and wraps its source lines."""
    paragraphs = _jing("05")[:40]

    def written(p: str) -> str:
        units = re.findall(r"&[^;]+;|.", html.escape(p).replace("鄉", "&#37129;").replace("賓", "&#x8CD3;"))
        return "\n    ".join("".join(units[i:i + 30]) for i in range(0, len(units), 30))

    page = "<html><body>\n" + "\n".join(f'<div class="para">&nbsp;&nbsp;{written(p)}</div>' for p in paragraphs) + "\n</body></html>"
    plain = jing_reader.process({"text": "\n".join(paragraphs), "meta": {"source": "05.txt"}})
    read = jing_reader.process({"text": page, "meta": {"source": "05.html"}})
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    assert read["actions"][0]["actor"] == "賓"  # quoted as the character, not as &#x8CD3;
    actor_span = next(s for s in read["spans"] if s["label"] == "ACTOR" and "&" in s["text"])
    assert actor_span["text"] == "&#x8CD3;" == page[actor_span["start"]:actor_span["end"]]  # offsets cover the reference


def test_the_normalised_view_folds_references_and_maps_them_back():
    raw = "賓當&#x8CD3;&nbsp;北&amp;KR0925;面"
    view = segment_view(raw, 0, len(raw))
    assert view.text == "宾当宾北\U000f039d面"  # &nbsp; is whitespace; a page's escaped Kanripo entity is the entity
    assert view.to_raw(2, 3) == (2, 10)
    assert view.written(0, len(view)) == "賓當賓北&KR0925;面"


def test_the_e_book_is_still_read_by_its_own_reader():
    path = next((CORPUS / "zhushu-xhtml").glob("10_*.xhtml"))
    assert segment_layers(path.read_text(encoding="utf-8"), path.name).layout == "xhtml"



def test_a_simplified_edition_on_a_web_page_reads_as_the_edition():
    """A site's copy of the 四庫 text in simplified characters: read in its traditional form, as the
    same copy in a text file is (pipeline/read/script.py)."""
    import opencc

    path = next((CORPUS / "zhushu-siku").glob("10_*.txt"))
    text = path.read_text(encoding="utf-8")
    page = _page(_paragraphs(opencc.OpenCC("t2s").convert(text)))
    read, original = segment_layers(page, "10.html"), segment_layers(text, path.name)
    assert read.layout == "html/kanripo-siku"
    drops = [(r.start, r.end) for r in read.removed]
    got = [(s.layer, len(clean_text(page, s.start, s.end, drops))) for s in read.segments]
    want = [(s.layer, len(clean_text(text, s.start, s.end, [(r.start, r.end) for r in original.removed])))
            for s in original.segments]
    assert got[1:] == want  # after the page's <h1>


def test_a_left_out_element_ends_a_line(jing_reader):
    """Text on both sides of a site's frame element (an ad, a footer set inside the text's own
    block) is two paragraphs, not one run together."""
    first, second = _jing("05")[5:7]
    page = _page(f"<div>{first}<footer>© 古籍網</footer>{second}</div><div>{first}<nav><a href='/'>首頁</a></nav>{second}</div>")
    read = jing_reader.process({"text": page, "meta": {"source": "05.html"}})
    assert [_visible(s["text"]) for s in read["segments"][1:]] == [first, second, first, second]


def test_an_element_a_site_names_like_its_frame_keeps_the_text_it_holds(jing_reader):
    """A site whose text container's class has a frame word in it (article-header-body): the element
    holds most of the page's text, so it is text; the sidebar beside it (a menu) is still left out."""
    paragraphs = _jing("05")[:40]
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    page = _page(f'<div class="sidebar"><ul><li><a href="/1">士冠禮</a></li><li><a href="/2">士昏禮</a></li>'
                 f'<li>相關閱讀：儀禮注疏十七卷</li></ul></div>\n<div class="article-header-body">\n{body}\n</div>')
    plain = jing_reader.process({"text": "\n".join(paragraphs), "meta": {"source": "05.txt"}})
    read = jing_reader.process({"text": page, "meta": {"source": "05.html"}})
    assert [_key(a) for a in read["actions"]] == [_key(a) for a in plain["actions"]]
    assert not any("相關閱讀" in s["text"] or "士昏禮" in s["text"] for s in read["segments"])
