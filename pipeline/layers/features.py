"""What a reader of the 儀禮 looks at to tell 經 from 注 from 疏, as features for the layer model.

Two kinds of input are made comparable first: traditional and simplified script (one
length-preserving folded copy, keeping 於 apart from 于 because the 經 writes 于 where 鄭玄 writes
於), and punctuated and unpunctuated text (character n-grams are taken from the text with every
non-Han character removed; what punctuation adds is read by the hand-made features).

The hand-made features are the cues a scholar uses: glosses 「X，Y也」, 謂 / 猶 / 之言 / 者,
讀為 / 當為 / 古文 / 今文 notes, the 疏 heads 「X」至「Y」 and 釋曰, 云…者 quotations, book titles
《…》, length and punctuation density, and signs of text that is none of the three layers
(反切 of the 音義, titles, modern Chinese, Latin letters and digits).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache


# --- characters ------------------------------------------------------------------------------

#: Han ideographs: CJK Unified (and Extension A, B-F), Compatibility, and 〇.
_HAN_RANGES = (
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x20000, 0x2FA1F),
)
_HAN_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in _HAN_RANGES) + "〇"
NON_HAN_RE = re.compile(f"[^{_HAN_CLASS}]+")
HAN_RE = re.compile(f"[{_HAN_CLASS}]")

#: Variant forms the corpus editions use for one word, folded after traditional→simplified.
#: (於 is deliberately absent: its contrast with 于 is a layer cue.)
VARIANTS: dict[str, str] = {
    "荅": "答", "庿": "庙", "廟": "庙", "𤣥": "玄", "賔": "宾", "綂": "统", "乗": "乘", "靣": "面",
    "巳": "已", "舎": "舍", "徳": "德", "逺": "远", "灋": "法", "䟽": "疏", "槃": "盘",
    "衆": "众", "眾": "众", "爲": "为", "為": "为", "㝠": "冥", "夀": "寿", "凢": "凡", "斍": "觉",
    "卽": "即", "旣": "既", "旡": "无", "絶": "绝", "脩": "修", "竝": "并", "並": "并", "閒": "间",
    "︰": "：", "：": "：",
}

#: Characters whose traditional form must survive the script folding.
_KEEP = frozenset("於")


def is_han(ch: str) -> bool:
    return bool(HAN_RE.fullmatch(ch))


def strip_non_han(text: str) -> str:
    """Only the Han characters: how an unpunctuated edition would write the same passage."""
    return NON_HAN_RE.sub("", text)


def han_count(text: str) -> int:
    return len(HAN_RE.findall(text))


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


def fold_script(text: str) -> str:
    """A simplified, variant-folded copy of ``text`` with the same length (character for character).

    opencc's t2s keeps the length of the text; the variants table and the kept characters are
    applied per position, so index i of the copy is index i of the input.
    """
    if not text:
        return text
    converted = _t2s().convert(text)
    if len(converted) != len(text):  # never expected; fall back to per-character conversion
        converted = "".join(_t2s().convert(ch) if len(_t2s().convert(ch)) == 1 else ch for ch in text)
    out = []
    for original, simple in zip(text, converted):
        if original in _KEEP:
            out.append(original)
        else:
            out.append(VARIANTS.get(simple, VARIANTS.get(original, simple)))
    return "".join(out)


def ngram_text(text: str) -> str:
    """The string character n-grams are read from: folded script, Han characters only."""
    return strip_non_han(fold_script(text))


# --- the scholar's cues ----------------------------------------------------------------------

_STOP = "，。；：、？！,.;:?!"
_P = f"[{_STOP}]"
_NP = f"[^{_STOP}「」“”《》]"

#: name → (pattern on the folded text with its punctuation, whether it needs punctuation to fire)
_PATTERNS: dict[str, tuple[re.Pattern[str], bool]] = {
    # 注 glosses: 「X，Y也」, 「X謂Y」, 「X猶Y也」, 「X之言Y」, 「X者，Y」
    "gloss_x_y_ye": (re.compile(f"(?:^|{_P}){_NP}{{1,4}}，{_NP}{{1,12}}也(?:{_P}|$)"), True),
    "gloss_wei": (re.compile("谓"), False),
    "gloss_you": (re.compile(f"{_NP}{{1,3}}犹{_NP}{{1,6}}"), False),
    "gloss_zhiyan": (re.compile("之言"), False),
    "gloss_zhe_comma": (re.compile(f"(?:^|{_P}){_NP}{{1,6}}者，"), True),
    "reading_note": (re.compile("读为|读如|读曰|当为|当作|声之误|字之误"), False),
    "text_note": (re.compile("古文|今文"), False),
    # 疏 heads and openings
    "shu_head": (re.compile("[「“][^」”]{1,12}[」”]至[「“][^」”]{1,12}[」”]"), True),
    "shu_head_bare": (re.compile(f"^(?:疏)?{_NP}{{1,8}}至{_NP}{{1,8}}(?:注|释曰|○|　| )"), False),
    "shi_yue": (re.compile("释曰|疏曰"), False),
    "yun_zhe": (re.compile("云[「“][^」”]{1,60}[」”]者"), True),
    "yun_zhe_bare": (re.compile(f"云{_NP}{{2,40}}者"), False),
    "zhu_ref": (re.compile("注云|郑云|郑注|郑意|郑君|郑知|注意|经云|经言|经直|知.{1,12}者"), False),
    "an_case": (re.compile("案|按"), False),
    "circle": (re.compile("○"), False),
    # citations and speech
    "book_title": (re.compile("《[^》]{1,20}》"), True),
    "book_cite": (re.compile("(?:礼|诗|书|易|传|记|职)(?:曰|云)"), False),
    "quote": (re.compile("[「“][^」”]{1,200}[」”]"), True),
    "yue": (re.compile("曰"), False),
    "yun": (re.compile("云"), False),
    # what the 經 says and how it says it
    "ritual_bow": (re.compile("再拜|稽首|答拜|拜受|拜送"), False),
    "facing": (re.compile("[东西南北]面"), False),
    "stair": (re.compile("阼阶|西阶|东阶"), False),
    "yu_classic": (re.compile("于"), False),
    "yu_commentary": (re.compile("於"), False),
    # none of the three layers
    "fanqie": (re.compile(f"{_NP}{{1,2}}反"), False),
    # a 反切 closes its note: 「鄉，許亮反。」; 反位 / 反命 / 反注 of the 經 and 注 do not
    "fanqie_end": (re.compile(f"{_NP}{{2}}反(?:{_P}|[)）]|$)"), False),
    "chapter_title": (re.compile("第[一二三四五六七八九十]+|卷[一二三四五六七八九十]+|卷第"), False),
    "modern": (re.compile("[的了们这吗呢啊么]|什么|就是|没有|他们|我们"), False),
    "later_scholar": (re.compile("[张杨朱程吕陈李王][子氏]曰|愚按|愚谓|今按|臣.{1,4}按"), False),
}

_ENDS_YE = re.compile(f"也[{_STOP}」”]*$")
_LATIN_DIGIT = re.compile(r"[A-Za-z0-9０-９Ａ-Ｚａ-ｚ]")


def _length_buckets(n: int) -> list[float]:
    edges = (4, 8, 16, 32, 64, 128)
    return [1.0 if n <= e else 0.0 for e in edges]


def feature_names() -> list[str]:
    names = ["log_len", "punct_density", "punctuated", "han_ratio", "latin_digit", "ends_ye", "ye_rate", "zhe_rate"]
    names += [f"len_le_{e}" for e in (4, 8, 16, 32, 64, 128)]
    for key in _PATTERNS:
        names += [f"{key}_any", f"{key}_rate"]
    return names


def scholar_features(text: str) -> list[float]:
    """The hand-made cues of one unit (see the module docstring), as numbers on comparable scales."""
    folded = fold_script(text)
    han = strip_non_han(folded)
    n_han = len(han)
    n_all = len(folded.strip()) or 1
    punct = sum(1 for ch in folded if ch in _STOP or ch in "「」“”《》○")
    per = 1.0 / max(n_han, 1)
    scale = 10.0  # rates per ten characters: close to 0..1 for most units
    row = [
        math.log1p(n_han),
        punct / n_all,
        1.0 if punct else 0.0,
        n_han / n_all,
        min(len(_LATIN_DIGIT.findall(folded)) / n_all * 4, 1.0),
        1.0 if _ENDS_YE.search(folded) else 0.0,
        han.count("也") * per * scale,
        han.count("者") * per * scale,
    ]
    row += _length_buckets(n_han)
    for pattern, _needs_punct in _PATTERNS.values():
        hits = len(pattern.findall(folded))
        row += [1.0 if hits else 0.0, min(hits * per * scale, 3.0)]
    return row


def __getattr__(name: str):
    """The sklearn transformers (:mod:`pipeline.layers.transformers`) on first use: saved models
    name them here, and the runtime form of the model reads these cues without scikit-learn."""
    if name in ("ScholarFeatures", "NgramText"):
        from pipeline.layers import transformers

        return getattr(transformers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
