"""The matching form of the text: one normalised character per raw character.

Editions write the same word with different characters (賓/賔, 荅/答, 衆/眾/众, 於/于, 庿/廟/庙, …)
and in traditional or simplified script. Every later stage matches on one form: opencc ``t2s``
(length-preserving) plus :data:`VARIANTS`, the one table of edition variants. Because the
conversion keeps the length char for char, a :class:`~pipeline.text.view.TextView` keeps its
offset map and every span found on the normalised text maps back to the raw text.

Kanripo entities (``&KR0925;``, a glyph with no Unicode code point) are folded into ONE
private-use character each, always the same one for the same entity (:func:`entity_char`), so
an entity is one unit for sentences, tokens and spans, and maps back to the whole entity.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache
from typing import Iterable

from pipeline.text.references import reference_text
from pipeline.text.view import TextView

#: Edition variants → the normalised (simplified) form, applied before and after opencc t2s.
#: One character to one character only. Keys are forms opencc t2s leaves alone (or converts to
#: the wrong word for this corpus, e.g. 閒 → 闲 where the 儀禮 means 間 "between").
VARIANTS: dict[str, str] = {
    # forms the data contract names (SCHEMA section 4 and the brief)
    "荅": "答", "衆": "众", "眾": "众", "鄕": "乡", "鄉": "乡", "郷": "乡", "鄊": "乡",
    "於": "于", "扵": "于", "筭": "算", "醋": "酢", "庿": "庙", "𤣥": "玄", "賔": "宾",
    "徳": "德", "醻": "酬", "酧": "酬",
    # ritual vocabulary written with variant glyphs in the Siku / SBCK editions
    "矦": "侯", "靣": "面", "爼": "俎", "戸": "户", "閒": "间", "竝": "并", "噐": "器",
    "㫖": "旨", "飮": "饮", "賛": "赞", "冝": "宜", "宐": "宜", "㑹": "会", "逺": "远",
    "隂": "阴", "䘮": "丧", "髙": "高", "曽": "曾", "眀": "明", "歩": "步", "甞": "尝",
    "鼔": "鼓", "皷": "鼓", "丗": "世", "舎": "舍", "竒": "奇", "羮": "羹", "觧": "解",
    "畧": "略", "髪": "发", "庻": "庶", "歛": "敛", "壷": "壶", "黒": "黑", "吿": "告",
    "乆": "久", "扄": "扃", "歳": "岁", "毎": "每", "逹": "达", "廵": "巡", "朞": "期",
    "脇": "胁", "栁": "柳", "刋": "刊", "䇿": "策", "緫": "总", "揔": "总", "衞": "卫",
    "鴈": "雁", "䙝": "亵", "歴": "历", "愼": "慎", "徴": "征", "凢": "凡", "莭": "节",
    "寛": "宽", "隠": "隐", "葢": "盖", "汚": "污", "飬": "养", "聼": "听", "聴": "听",
    "昬": "昏", "邉": "边", "壻": "婿", "畱": "留", "疉": "叠", "㓜": "幼", "呉": "吴",
    "恠": "怪", "増": "增", "煑": "煮", "専": "专", "懐": "怀", "値": "值", "帯": "带",
    "闗": "关", "圎": "圆", "繋": "系", "冐": "冒", "頋": "顾", "宻": "密", "逰": "游",
    "纒": "缠", "糓": "谷", "仭": "仞", "曁": "暨", "鑚": "钻", "羙": "美", "綂": "统",
    "皐": "皋", "臯": "皋", "兎": "兔", "揺": "摇", "偹": "备", "婣": "姻", "胷": "胸",
    "襃": "褒", "刄": "刃", "餙": "饰", "挿": "插", "筓": "笄", "㸑": "爨", "亖": "四",
    "𨕖": "选", "𧰼": "象", "徧": "遍", "麁": "粗", "麤": "粗", "䟽": "疏", "踈": "疏",
    "乗": "乘", "𥘉": "初",
    # glyphs of the 四庫 and 四部叢刊 editions that the punctuated XHTML edition never writes, each
    # aligned with the XHTML's character in the same place twice or more (dev chapters and 喪服,
    # 2026-11-27): 㒒人師 is 僕人師, 𧃊 is 𦿉, 豊 the stand 豐, 㝛 宿, 玊 玉. The layer model folds its own
    # smaller table (pipeline/layers/features.py VARIANTS), which it was trained with.
    "㒒": "仆", "𧃊": "𦿉", "𦵏": "葬", "躳": "躬", "徃": "往", "湏": "须", "𫝊": "传", "㝛": "宿", "䏝": "膊",
    "禆": "裨", "冡": "冢", "㛮": "嫂", "㨎": "擩", "榖": "谷", "収": "收", "玊": "玉", "𨗳": "导", "豊": "丰",
    "㤀": "忘", "頟": "额", "墍": "塈", "亾": "亡", "㧖": "扼", "㨗": "捷", "冇": "有", "鼈": "鳖", "聨": "联",
    "聮": "联", "㡬": "几", "鍜": "锻", "疎": "疏", "讐": "雠", "禒": "褖", "薫": "薰", "竂": "寮", "夲": "本",
    "夀": "寿", "亷": "廉", "㸃": "点", "頖": "泮", "漑": "溉", "僃": "备", "㢲": "巽", "帀": "匝", "苄": "芐",
    "滛": "淫", "齓": "龀", "彂": "发", "㳺": "游", "亜": "亚", "縁": "缘", "㝷": "寻", "𥜗": "襦", "隷": "隶",
    "曵": "曳", "虵": "蛇", "䄂": "袖", "𬒮": "袂",
    # and ones written once (岀 for the act 出, 冼 洗, 袓 袒, 譲 讓): variant glyphs only, not the
    # misreadings of one edition (柬 for 東, 酉 for 配), which stay as written
    "岀": "出", "冼": "洗", "袓": "袒", "譲": "让", "掦": "扬", "継": "继", "眡": "眂", "㐮": "襄", "㗖": "啗",
    "㤗": "泰", "㤙": "息", "㨿": "据", "㩀": "据", "㫁": "断", "㫄": "旁", "㳟": "恭", "㹅": "总", "丄": "上",
    "伹": "但", "倣": "放", "僣": "僭", "儗": "拟", "冣": "最", "冦": "寇", "冸": "泮", "勅": "敕", "叚": "段",
    "壊": "坏", "妬": "妒", "寜": "宁", "屛": "屏", "廹": "迫", "彛": "彝", "彜": "彝", "恊": "协", "摰": "挚",
    "斾": "旆", "筩": "筒", "篴": "笛", "翺": "翱", "耊": "耋", "苖": "苗", "茍": "苟", "蔵": "藏", "蕰": "蕴",
    "袝": "祔", "諌": "谏", "賖": "赊", "軰": "辈", "釡": "釜", "闘": "鬪", "鬬": "鬪", "陜": "陕", "頥": "颐",
    "騐": "验", "鬛": "鬣", "鬰": "郁", "祍": "衽", "眤": "昵", "睂": "眉", "穏": "稳", "浄": "净", "渇": "渴",
    "濶": "阔", "𡵨": "岐", "𢎞": "弘", "𥙿": "裕", "𦙍": "胤",
}

#: every entity the views fold: a Kanripo-style one (``&KR0925;``, and any other ``&NAME;`` the
#: editions might use), an HTML character reference (``&#x9109;``, ``&amp;``), and a Kanripo entity
#: a web page escaped (``&amp;KR0925;``, which the page shows as &KR0925;)
_ANY_ENTITY = re.compile(r"&(?:amp;(?=KR\d+;))?(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9_-]*);")

_KR_BASE = 0xF0000  # Supplementary Private Use Area-A: &KRnnnn; → U+F0000 + nnnn
_OTHER_BASE = 0x100000  # Supplementary Private Use Area-B: any other entity, by a stable hash


def entity_char(name: str) -> str:
    """The one private-use character that stands for the entity ``&name;`` everywhere.

    A fixed rule rather than a table filled at run time, so that the same entity gives the same
    character in every process, run and worker: ``KRnnnn`` → U+F0000 + nnnn; other names →
    a CRC-32 bucket of plane 16.
    """
    m = re.fullmatch(r"KR(\d{1,5})", name)
    if m and int(m.group(1)) < 0xFFFE:
        return chr(_KR_BASE + int(m.group(1)))
    return chr(_OTHER_BASE + zlib.crc32(name.encode("utf-8")) % 0xFFFE)


def _entity_text(m: re.Match[str]) -> str:
    """An HTML reference's text (a space it names is dropped, as whitespace is), else one private-use char."""
    text = reference_text(m.group())
    if text is None:
        return entity_char(m.group().removeprefix("&amp;").strip("&;"))
    return "".join(ch for ch in text if not ch.isspace())


def entity_name(char: str) -> str | None:
    """The entity a private-use char came from (KR entities only; None for any other char)."""
    code = ord(char)
    if _KR_BASE <= code < _KR_BASE + 0xFFFE:
        return f"KR{code - _KR_BASE:04d}"
    return None


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    return {ord(k): v for k, v in VARIANTS.items()}


def normalise_str(s: str) -> str:
    """The matching form of ``s``: variants, opencc t2s, variants again; exactly one char per char."""
    if len(s) <= _SHORT:  # the rules ask again and again for the same words (揖, 不拜受)
        return _normalise_short(s)
    return _normalise(s)


#: strings this short are remembered once normalised
_SHORT = 4

#: an ASCII full stop after a Han character (or an entity, a closing quote, bracket or title mark) ends a
#: sentence as 。 does: copies whose marks were converted to half-width write 主人揖,先入. ; before a
#: digit or a Latin letter it is no sentence end (1.5, a.m.). ASCII , : ; ? ! are marks already.
ASCII_STOP = re.compile(r"(?<=[\u3400-\u9fff\ue000-\uf8ff\uf900-\ufaff\U00020000-\U0003134f」』”’）)\]》〉])\.(?![0-9A-Za-z])")


@lru_cache(maxsize=1 << 16)
def _normalise_short(s: str) -> str:
    return _normalise(s)


def _normalise(s: str) -> str:
    table = _table()
    pre = s.translate(table)
    out = _t2s().convert(pre)
    if len(out) != len(pre):  # opencc never should; keep offsets safe if a phrase rule ever does
        conv = _t2s().convert
        out = "".join(c if len(c := conv(ch)) == 1 else ch for ch in pre)
    out = out.translate(table)
    return ASCII_STOP.sub("。", out) if "." in out else out


def fold_entities(view: TextView) -> TextView:
    """Each ``&NAME;`` entity becomes one private-use character mapped to the whole entity; an HTML
    character reference (``&#x9109;``, ``&amp;``) the character it names."""
    if "&" not in view.text:
        return view
    return view.fold(_ANY_ENTITY, _entity_text)


def segment_view(
    text: str, start: int, end: int, removed: Iterable[tuple[int, int]] = ()
) -> TextView:
    """The normalised view of ``text[start:end]``: ``removed`` ranges and whitespace dropped,
    entities folded to one char each, script and variants normalised. Offsets map back to ``text``."""
    view = TextView.of(text, start, end, drop=removed, drop_chars=str.isspace)
    view = fold_entities(view)
    return view.map_chars(normalise_str)
