"""Page furniture of web copies: spam, navigation, source lines, footnote reference marks.

Web scrapes of the 儀禮 come wrapped in whatever the site puts around its texts: a gambling
site's name glued to the title and to random paragraphs (澳门威斯尼斯人网址…), "来源:" and "本文由…
转载请注明出处" lines, keyword lists, a forum's "您在這裡 / Jack 在 … 發表 / 閱讀古書, 2, 3, …"
header. None of it is text; each is reported as a removal with its reason.
"""

from __future__ import annotations

import re
from typing import Iterator

from pipeline.records import Removal

#: words only spam uses; a line holding one is spam, or starts with a spam prefix
SPAM_WORDS = re.compile(r"古典文学|澳门|威尼斯|威斯尼斯|娱乐官网|娱乐城|网址|官网|彩票|博彩|赌场|葡京|棋牌")
#: a spam prefix glued before real text: up to the site's title tag line, or a comma, then spaces
SPAM_PREFIX = re.compile(
    r"^[^\n]*?(?:澳门|威尼斯|威斯尼斯)[^\n]*?(?:网址|官网)(?:[^\n]*?古典文学之仪礼?。|[,，、]?)[ \u3000]*"
)
#: lines that are the site talking about the page, not the text
SITE_LINE = re.compile(
    r"^[ \u3000]*(?:来源[:：]|來源[:：]|作者[:：]|本文由|关键词[:：]?|關鍵詞[:：]?|最火资讯|热门|相关阅读|上一篇|下一篇|"
    r"摘要[:：]|古典文学原文赏析|转载请注明|您在這裡|您在这里|版本狀態|版本状态|內容未經校對|内容未经校对|書籍首頁|书籍首页|"
    r"閱讀古書|阅读古书|[^\n]{0,40}在 *週[一二三四五六日], *\d\d/\d\d/\d{4}[^\n]*發表|"
    # a reading site's breadcrumb, account links and chapter navigation (当前位置:X > 仪礼章句, 上一章 回目录 下一章)
    r"当前位置[:：]|當前位置[:：]|会员中心|會員中心|[^\n]{0,30}(?:上一章|下一章|上一頁|下一頁|回目录|回目錄)|"
    # the 四庫's catalogue tag a site prints before a juan (<經部,禮類,儀禮之屬,欽定儀禮義疏,卷七>)
    r"<?(?:經|经)部[,，](?:禮|礼)(?:類|类)|"
    # Wikisource's transcription of a scanned page: its title (Page:Sibu Congkan0015-鄭玄-儀禮-5-1.djvu/142)
    # and its proofreading status (此页尚未校对)
    r"Page:[^\n]*\.(?:djvu|pdf)/\d+[ \t]*$|此[页頁](?:尚未|已)校[对對]|此[页頁]已[验驗][证證]|"
    # a 四庫全書 reading site's page (转换到繁體中文, 您的位置 : 首页 > …, 下载:…txt, 本书全文检索:, the paywall)
    r"转换到|轉換到|您的位置|下载[:：]|下載[:：]|本书全文检索|本書全文檢索|非注册付费用户|非註冊付費用戶|"
    # Wikisource's page around a text: the skip link, the site's motto, the page's title (儀禮集釋 (四庫全書本)/卷27)
    # and its line of neighbouring juan (卷二十六 儀禮集釋 卷二十七 卷二十八)
    r"跳至內容|跳至内容|跳到內容|跳转到内容|[^\n]{0,4}(?:維基文庫|维基文库)[,，]|[^\n]{1,30}[(（][^)）\n]{1,10}本[)）]/卷|"
    r"卷[一二三四五六七八九十百]+[ \u3000]+[^ \u3000\n]{1,12}[ \u3000]+卷[一二三四五六七八九十百]+[ \u3000]+卷[一二三四五六七八九十百]+[ \u3000]*$)"
)
#: a viewer's page label between the printed pages of a scanned edition, with its image's name:
#: 卷一 第 1a 页 WYG0102-0013c.png (where Kanripo writes <pb:KR1d0028_WYG_001-1a>)
PAGE_LINE = re.compile(r"^[ \t\u3000]*(?:卷[一二三四五六七八九十百〇]+[ \t]*第[ \t]*\d+[ab][ \t]*[页頁][^\n]*"
                       r"|\[\d{3}-\d+[ab]\][ \t\u3000]*)$", re.M)
#: a footnote reference inside running text: (12), （12）, [12]
FOOTNOTE_REF = re.compile(r"[(（]\d{1,3}[)）]|\[\d{1,3}\]")
#: a note paragraph: starts with its number
NOTE_LINE = re.compile(r"^[ \u3000]*[(（]\d{1,3}[)）]")


def lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every line, without its line break."""
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        e = end - 1 if end > pos and text[end - 1] == "\r" else end
        yield pos, e
        if nl < 0:
            break
        pos = nl + 1


def is_spam_line(line: str) -> bool:
    return bool(SPAM_WORDS.search(line)) and not _content_after_prefix(line)


def _content_after_prefix(line: str) -> str:
    m = SPAM_PREFIX.match(line)
    if not m:
        return ""
    rest = line[m.end():].strip()
    return rest if len(rest) >= 2 and not SPAM_WORDS.search(rest) else ""


def spam_prefix(line: str) -> int:
    """Length of a spam prefix glued before real text (0 when there is none)."""
    if not SPAM_WORDS.search(line):
        return 0
    m = SPAM_PREFIX.match(line)
    if m and _content_after_prefix(line):
        return m.end()
    return 0


def is_site_line(line: str) -> bool:
    return bool(SITE_LINE.match(line))


#: a site's menu (明清实录 | 二十四史 | 四库全书 | …) or breadcrumb (首页 > 四库全书 >): short items between bars
#: or arrows, which no text writes
MENU_ITEM = re.compile(r"[^|｜>»\n]{1,10}")
_BARS = re.compile(r"[|｜]")
_ARROWS = re.compile(r"[>»]")


def is_nav_line(line: str) -> bool:
    """A line of page numbers or links: mostly digits, commas and Latin; or a menu of short items
    between bars (four or more), or a breadcrumb between arrows."""
    s = line.strip()
    if not s:
        return False
    if re.fullmatch(r"[\d\s,，、|/>»«<·.-]+", s):
        return True
    for sep, least in ((_BARS, 4), (_ARROWS, 2)):
        items = [item.strip() for item in sep.split(s)]
        if len(items) >= least and all(item == "" or MENU_ITEM.fullmatch(item) for item in items) \
                and sum(1 for item in items if item) >= least - 1:
            return True
    return False


def footnote_refs(text: str, start: int, end: int) -> list[Removal]:
    return [Removal(m.start(), m.end(), "footnote") for m in FOOTNOTE_REF.finditer(text, start, end)]


def line_furniture(text: str, start: int, end: int) -> tuple[Removal | None, int]:
    """For one line: a removal of the whole line (spam, site, nav) or of a spam prefix, and where content starts."""
    line = text[start:end]
    if not line.strip():
        return None, start
    if PAGE_LINE.match(line):
        return Removal(start, end, "page"), end
    if is_site_line(line):
        return Removal(start, end, "site"), end
    if is_nav_line(line):
        return Removal(start, end, "nav"), end
    cut = spam_prefix(line)
    if cut:
        return Removal(start, start + cut, "spam"), start + cut
    if SPAM_WORDS.search(line):
        return Removal(start, end, "spam"), end
    return None, start
