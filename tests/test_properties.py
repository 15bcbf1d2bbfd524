"""Property-based tests (hypothesis) for what tests/test_invariants.py leaves open.

- every edition reader, called directly on text shaped like its own layout (the layout detector
  rarely picks the Kanripo, run-on or wrapped readers for random text);
- arbitrary bytes written to a file and read back through the real reading path
  (:func:`pipeline.read.inputs.read_file` → :meth:`DocumentProcessor.process_item`);
- JSONL files of arbitrary lines: one record or one error per line, never a lost line;
- the normaliser's offset map round trip: a view range mapped to raw and viewed again is the same
  view text;
- the tuple extractor on real 經 clauses (taken from a seed at run time) mixed with random CJK
  characters and punctuation.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from offsets import check_offsets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.labels import LAYERS
from tests.conftest import SEEDS

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- material --------------------------------------------------------------------------------------


def _real_jing_clauses() -> list[str]:
    """The 經 clauses of seed 003 (鄉飲酒禮), cut at its punctuation: real text, read at run time."""
    from pipeline.layers import segment_layers

    path = next(p for p in SEEDS if p.name.startswith("003"))
    text = path.read_text(encoding="utf-8")
    clauses: list[str] = []
    for seg in segment_layers(text, str(path)).segments:
        if seg.layer == "JING":
            clauses += [c for c in re.split(r"[，。；：、「」？！\s]+", seg.text) if 2 <= len(c) <= 20]
    assert len(clauses) > 100, "seed 003 should hold plenty of 經 clauses"
    return sorted(set(clauses))


JING_CLAUSES = _real_jing_clauses()
PUNCT = ["，", "。", "；", "：", "、", "「", "」", "？", "○", "\n", " ", ""]
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
ASTRAL = st.characters(min_codepoint=0x20000, max_codepoint=0x2A6DF)
ANY_TEXT = st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FFFF, blacklist_categories=("Cs",)), max_size=6)
# pieces of every layout's furniture and markers
MARKERS = [
    "<pb:KR1d0026_SBCK_003-1a>", "¶", "¶\n", "(", ")", "/", "#+TITLE: 儀禮\n", "#+PROPERTY: ID KR1d0026\n",
    "# -*- mode: mandoku-view; -*-\n", "&KR0925;", "疏(", "　釋曰", "[疏]", "【疏】", "“", "”", "至", "鄭注", "註曰",
    "　　", "\n\n", "<p class=\"strong\">", "<p class=\"zhushi\">", "<p class=\"jianshu\">", "</p>", "<br/>",
    "【译文】", "（1）", "上一頁", "www.example.com", "○注「", "」至「", "」。", "釋曰：",
    "（", "）", "<nav>", "</nav>", "<a href='/'>", "</a>", "<h1>", "</h1>", "<div class=\"menu\">", "</div>",
    "<script>", "</script>", "<!--", "-->", "&#x8CD3;", "&#37129;", "&amp;", "&nbsp;", "&lt;", "<pre>", "</pre>",
    "疏【", "】", "音義〔", "〕", "  [疏]", "'疏'", "\n 註曰", "[010-1a]\n", "○釋曰:", " 釋曰", "儀禮注疏卷五考證\n",
    "儀禮注疏卷五挍勘記\n", "\n　疏曰", "欽定四庫全書\n",
    "\n　　正义郑氏康成曰", "正義賈氏公彦曰", "　敖氏继公曰", "存疑", "【贾疏", "【注今文", "注今", "還音旋", "\n 案", "\n右三射\n", "〈注〉", "〈疏:〉", "今按:", "Page:Sibu Congkan0015-鄭玄-儀禮-5-1.djvu/142\n", "\n此页尚未校对\n", "疏【釋曰", "音義【", "1311儀禮注疏十七卷\n", "\n首页 > 四库全书 >\n", " | ", "\n钦定仪礼义疏\n", "\n世佐案", "\n清 · 盛世佐\n", "\n阮元撰盧宣旬摘錄\n",
]
piece = st.one_of(st.sampled_from(JING_CLAUSES), st.sampled_from(PUNCT), st.sampled_from(MARKERS), CJK, ASTRAL, ANY_TEXT)
documents = st.lists(piece, max_size=80).map("".join)

# what each layout's files start with, so that the reader meets its own structure
HEADS = {
    "xhtml": ["<?xml version=\"1.0\"?><html><body>\n", ""],
    "kanripo-siku": ["# -*- mode: mandoku-view; -*-\n#+TITLE: 儀禮注疏\n#+PROPERTY: ID KR1d0027\n<pb:KR1d0027_001-1a>¶\n", "",
                     "       儀禮注疏卷五\n       鄉射禮第五\n       "],
    "kanripo-zhengzhu": ["# -*- mode: mandoku-view; -*-\n#+PROPERTY: ID KR1d0026\n<pb:KR1d0026_SBCK_003-1a>¶\n", ""],
    "kanripo-danshu": ["#+PROPERTY: ID KR1d0025\n<pb:KR1d0025_SBCK_001-1a>¶\n　釋曰", "", "鄉飲至賔介 釋曰"],
    "web-runon": ["[疏]“主人”至“拜辱”\n", "【疏】", "  [疏]“主人”至“拜辱”。\n  ○釋曰:", "'疏'"],
    "web-zhushu": ["　　「主人」至「拜辱」\n", "疏　○注「"],
    "siku-wrapped": ["鄭注", "註曰", " 註曰", "[010-1a]\n 註曰"],
    "kanripo-wrapped": ["# -*- mode: mandoku-view; -*-\n#+PROPERTY: ID KR1d0049\n<pb:KR1d0049_WYG_010-1a>¶\n　註曰", ""],
    "web-translation": ["【译文】\n", "（1）"],
    "paren-commentary": ["儀禮卷第十\n", "（郊謂近郊）（諸侯入王）（皮弁者）（天子之玉）（郊舎狹寡）"],
    "yishu": ["\n　　正义郑氏康成曰耦兼取乘矢\n　　正义敖氏继公曰此\n", "KR1d0037 欽定儀禮義疏\n 正義鄭氏康成曰欲令\n 正義賈氏公彦曰俟\n"],
    "html": ["<!DOCTYPE html><html><head><title>儀禮</title></head><body>", "<html><body><nav>首頁</nav>"],
    "plain": ["", "\n"],
}


def _check_reading(text: str, reading) -> None:
    for p in reading.pieces:
        assert 0 <= p.start <= p.end <= len(text), p
        assert p.layer in LAYERS, p
    for r in reading.removed:
        assert 0 <= r.start <= r.end <= len(text), r
    for s, e, _reason in reading.apart:
        assert 0 <= s <= e <= len(text)


# -- the readers -----------------------------------------------------------------------------------


@SETTINGS
@given(st.sampled_from(sorted(HEADS)), st.data(), documents)
def test_every_reader_on_text_of_its_own_layout_gives_valid_offsets(layout, data, body):
    from pipeline.layers import to_result
    from pipeline.read.layout import LAYOUTS, read_document

    text = data.draw(st.sampled_from(HEADS[layout])) + body
    # no exception may escape a reader (a web page's is read through read_document, which reads its text)
    reading = LAYOUTS[layout](text) if layout in LAYOUTS else read_document(text, "page.html")
    _check_reading(text, reading)
    result = to_result(text, reading)
    last = 0
    for seg in result.segments:
        assert last <= seg.start < seg.end <= len(text)
        assert text[seg.start:seg.end] == seg.text
        assert not seg.text[0].isspace() and not seg.text[-1].isspace()
        last = seg.end
    for r in result.removed:  # removals come out sorted and disjoint
        assert 0 <= r.start < r.end <= len(text)
    ends = [(r.start, r.end) for r in result.removed]
    assert all(a[1] <= b[0] for a, b in zip(ends, ends[1:]))


ENCODINGS = ["utf-8", "utf-8-sig", "gb18030", "big5"]


@SETTINGS
@given(documents, st.sampled_from(ENCODINGS), st.binary(max_size=8), st.integers(0, 2))
def test_any_bytes_through_the_file_reader_give_a_valid_record_or_an_error_naming_the_file(processor, text, encoding, noise, where):
    """Real text in one of the accepted encodings, sometimes spoilt by random bytes, read as a file."""
    from pipeline.read.inputs import read_file

    data = text.encode(encoding, errors="ignore")
    data = [data, noise + data, data[: len(data) // 2] + noise + data[len(data) // 2:]][where]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc.txt"
        path.write_bytes(data)
        item = read_file(path)
        if item.error is not None:
            assert str(path) in item.error
            return
        decoded = item.record["text"]
        used = item.record["meta"]["encoding"]
        assert used in ("utf-8", "utf-8-sig", "gb18030", "big5", "utf-16")
        # the text is the file's bytes decoded: nothing invented, nothing dropped
        if used == "utf-16":  # a byte-order mark in the noise: either order
            assert decoded == data.decode("utf-16")
        else:
            body = data[3:] if used == "utf-8-sig" else data
            assert decoded.encode("utf-8" if used == "utf-8-sig" else used) == body
        out = processor.process_item(item)
    assert "error" not in out, out.get("error")
    check_offsets(out)


def _utf8(line: bytes):
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return None


jsonl_line = st.one_of(
    st.builds(lambda t: json.dumps({"text": t}, ensure_ascii=False).encode("utf-8"), documents),
    st.builds(lambda t: json.dumps({"text": t, "meta": {"id": 1}}).encode("utf-8"), documents),  # \\u-escaped
    st.binary(max_size=30).filter(lambda b: b"\n" not in b and b"\r" not in b),  # anything, as a line
    st.sampled_from([b"{", b"[]", b'{"meta": {}}', b'{"text": 5}', b"", b" ", "\u2028".encode(), b'"text"',
                     b'{"text": "\\ud800"}', "{\"text\": \"賓\u2028降\u0085。\"}".encode()]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(jsonl_line, max_size=12), st.booleans())
def test_a_jsonl_file_gives_one_record_or_one_error_per_line(lines, crlf):
    """Whatever its lines hold, a UTF-8 JSONL file gives one item per non-blank line, in order:
    the record as written, or an error naming the file and that line."""
    from pipeline.read.inputs import iter_inputs

    lines = ['{"text": "主人升。"}'.encode("utf-8"), *lines]  # a UTF-8 file: one line says so
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.jsonl"
        path.write_bytes((b"\r\n" if crlf else b"\n").join(lines))
        items = list(iter_inputs([str(path)]))
    expected = [n for n, line in enumerate(lines, 1) if _utf8(line) is None or _utf8(line).strip()]
    assert [item.origin for item in items] == [f"{path}:{n}" for n in expected]
    for item, n in zip(items, expected):
        text = _utf8(lines[n - 1])
        if item.error is not None:
            assert item.error.startswith(f"{path}:{n}: ")
            assert json.dumps(item.record, ensure_ascii=False).encode("utf-8")  # the error line can be written
        else:
            record = json.loads(text)
            assert item.record == record and isinstance(record["text"], str)


# -- the normaliser --------------------------------------------------------------------------------


@SETTINGS
@given(documents, st.data())
def test_a_view_range_mapped_to_raw_and_viewed_again_is_the_same_text(text, data):
    from pipeline.text.normalise import segment_view

    drops = [m.span() for m in re.finditer(r"<pb:[^>]*>|¶", text)]
    view = segment_view(text, 0, len(text), drops)
    i = data.draw(st.integers(0, len(view.text)))
    j = data.draw(st.integers(i, len(view.text)))
    s, e = view.to_raw(i, j)
    assert 0 <= s <= e <= len(text)
    again = segment_view(text, s, e, [(a, b) for a, b in drops if a < e and b > s])
    assert again.text == view.text[i:j]
    # and the raw range holds no more than those view characters: its ends are view characters
    if i < j:
        assert (s, e) == (view.starts[i], view.ends[j - 1])


# -- the tuple extractor ---------------------------------------------------------------------------

mixed = st.lists(st.one_of(st.sampled_from(JING_CLAUSES), st.sampled_from(JING_CLAUSES), st.sampled_from(PUNCT),
                           CJK, ASTRAL, st.sampled_from(["&KR0925;", "¶", "<pb:X_1a>"])), max_size=40).map("".join)


@SETTINGS
@given(mixed, st.sampled_from(["JING", None]))
def test_extractor_on_real_clauses_mixed_with_random_cjk_gives_valid_tuples(processor, text, layer):
    record = {"text": text, "meta": {"layer": layer} if layer else {}}
    out = processor.process(record)
    check_offsets(out)
    jing = [(s["start"], s["end"]) for s in out["sentences"] if s["layer"] == "JING"]
    for act in out["actions"]:
        # a tuple comes from a 經 sentence and lies inside it; its verb is written there
        assert any(s <= act["start"] and act["end"] <= e for s, e in jing), (act, jing)
        assert act["verb"] and act["surface"]
    if layer == "JING" and not text.strip():
        assert out["actions"] == []
