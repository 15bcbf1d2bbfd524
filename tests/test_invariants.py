"""Properties that hold for any input: readers, the normaliser's offset maps, the tuple extractor.

Inputs are built from the things real editions hold — 經 clauses from the seeds, commentary
markers (鄭注, 註曰, ○疏曰, [疏], 「X」至「Y」), Kanripo furniture and entities, astral
characters, HTML fragments, spam-like ASCII — shuffled and cut at random, plus arbitrary bytes.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from offsets import check_offsets

from pipeline.labels import LAYERS, SPAN_LABELS

CLAUSES = [
    "主人坐取爵于篚", "降洗", "賓降", "主人坐奠爵于階前", "辭", "賓對", "主人與賓三揖", "至于階",
    "三讓", "主人升", "賓升", "主人阼階上當楣北面再拜", "賓西階上答拜", "司射適堂西", "袒決遂",
    "取弓于階西", "兼挾乘矢", "升自西階", "階上北面告于賓曰", "弓矢既具", "有司請射", "賓對曰",
    "某不能", "為二三子許諾", "主人以介揖讓升", "拜如賓禮", "不告旨", "若有諸公則如賓禮",
]
MARKS = ["，", "。", "；", "、", "：", "「", "」", ""]
FURNITURE = [
    "鄭注", "註曰", "○疏曰", "[疏]", "○釋曰：", "「主人」至「拜辱」", "○注「戒警」至「門也」",
    "(案：舊本作某)", "楊氏曰：", "<pb:KR1d0014_001-1a>", "¶", "#+TITLE: 儀禮注疏", "&KR0925;",
    "𧰼", "𧃊", "\n", "\n\n", "\u3000\u3000", " ", "<p class=\"jing\">", "</p>", "(12)",
    "www.example.com 免費下載", "上一頁 下一頁", "戒，警也。", "謂賓拜也。",
]
PIECES = st.one_of(st.sampled_from(CLAUSES), st.sampled_from(MARKS), st.sampled_from(FURNITURE),
                   st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x2FFFF, blacklist_categories=("Cs",)), max_size=4))
documents = st.lists(PIECES, max_size=60).map("".join)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_valid(record: dict) -> None:
    check_offsets(record)
    for seg in record["segments"]:
        assert seg["layer"] in LAYERS
    for span in record["spans"]:
        assert span["label"] in SPAN_LABELS and span["end"] > span["start"]
    for act in record["actions"]:
        assert isinstance(act["verb"], str) and act["verb"]


@SETTINGS
@given(documents, st.sampled_from([None, "x.txt", "x.xhtml", "KR1d0014_001.txt", "juan08.txt"]))
def test_reader_segments_are_ordered_valid_slices(text, source):
    from pipeline.layers import segment_layers

    result = segment_layers(text, source)
    last = 0
    for seg in result.segments:
        assert last <= seg.start <= seg.end <= len(text)
        assert text[seg.start:seg.end] == seg.text
        last = seg.end
    for rem in result.removed:
        assert 0 <= rem.start <= rem.end <= len(text)


#: Big5 writes four characters at two code points each (十 at A451 and A2CC among the Hangzhou
#: numerals, 卅 at A4CA and A2CE, ／ and ＼ twice among the symbols); the character decoded is the
#: same either way and encodes back to the first
BIG5_SECOND_CODES = {b"\xa2\xcc": b"\xa4\x51", b"\xa2\xce": b"\xa4\xca", b"\xa1\xfe": b"\xa2\x41", b"\xa2\x40": b"\xa2\x42"}


def big5_first_codes(data: bytes) -> bytes:
    """The same Big5 bytes with each duplicate code point written as the one the codec encodes."""
    out, i = bytearray(), 0
    while i < len(data):
        width = 2 if 0x81 <= data[i] <= 0xFE and i + 1 < len(data) else 1
        code = bytes(data[i:i + width])
        out += BIG5_SECOND_CODES.get(code, code)
        i += width
    return bytes(out)


def test_big5_second_codes_decode_as_their_first():
    for second, first in BIG5_SECOND_CODES.items():
        assert second.decode("big5") == first.decode("big5")
        assert second.decode("big5").encode("big5") == first


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
@example(b"\xa1@\xa2\xcc")  # drawn once: Big5 for "\u3000十" with the 十 of the Hangzhou numerals
@example(b"\xfe\xff" + bytes(8))  # drawn once: a big-endian UTF-16 mark, then NULs (it had read as 4 NUL characters)
@example(b"\xfe\xff\x4e\x3b\x4e\xba")  # 主人 in big-endian UTF-16: Python writes its own byte order back
def test_decoding_any_bytes_gives_text_or_a_named_error(data):
    from pipeline.read.decode import DecodeError, decode_bytes

    try:
        text, encoding = decode_bytes(data, "some/file.txt")
    except DecodeError as exc:
        assert "some/file.txt" in str(exc)
    else:
        assert isinstance(text, str) and encoding
        # what was decoded encodes back to the same bytes (BOM aside): nothing invented or lost
        raw = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
        if encoding == "big5":
            raw = big5_first_codes(raw)
        if encoding == "utf-16":  # the mark says the byte order; utf-16 writes the machine's own back
            order = "utf-16-be" if data.startswith(b"\xfe\xff") else "utf-16-le"
            assert text.encode(order) == data[2:] and "\x00" not in text
        else:
            assert text.encode(encoding.replace("utf-8-sig", "utf-8")) == raw


@SETTINGS
@given(documents, st.data())
def test_normalised_view_round_trips_to_the_raw_text(text, data):
    from pipeline.text.normalise import normalise_str, segment_view

    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    drops = [m.span() for m in re.finditer(r"<pb:[^>]*>|¶", text) if start <= m.start() and m.end() <= end]
    view = segment_view(text, start, end, drops)
    assert len(view.starts) == len(view.ends) == len(view.text)
    for i, ch in enumerate(view.text):
        s, e = view.to_raw(i, i + 1)
        assert start <= s < e <= end
        written = text[s:e]
        assert not any(a <= s < b for a, b in drops)
        if e - s == 1:  # one raw char: the view holds its matching form
            assert ch == normalise_str(written)
        else:  # an entity folded to one private-use char
            assert re.fullmatch(r"&[A-Za-z][A-Za-z0-9_-]*;", written)


ranges = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)).map(lambda r: (r[0], r[0] + r[1])), max_size=12)


@SETTINGS
@given(ranges, st.integers(0, 60), st.integers(0, 60))
def test_kept_text_with_the_ranges_indexed_is_the_same_text(drops, start, length):
    """The layer predictor indexes a document's removed ranges once (a 四庫 file has thousands)
    and reads each run's text through the index: the same text as scanning them all, overlapping
    and empty ranges included."""
    from pipeline.layers.predict import _kept_text, _KeptText

    text = "".join(chr(0x4E00 + i) for i in range(70))
    drops = sorted(drops)
    end = min(start + length, len(text))
    assert _KeptText(text, drops)(start, end) == _kept_text(text, start, end, drops)


@SETTINGS
@given(documents)
def test_cuts_of_a_text_whose_quotes_never_close_are_those_of_the_character_walk(text):
    """Marks are found by the regex engine where no quote closes; the walk over every character
    that reads quotes gives the same sentence and clause starts there."""
    from pipeline.text.sentences import _quoted_cuts, mark_cuts, quote_pairs

    if not quote_pairs(text):
        assert mark_cuts(text) == _quoted_cuts(text, {})


@SETTINGS
@given(st.integers(0, 14), st.lists(st.tuples(st.integers(-1, 15), st.integers(1, 5)), max_size=9))
def test_best_cover_covers_most_with_fewest_pieces(length, spans):
    """The lexicon's cover, its dynamic programme visiting only the candidates' starts: pieces from
    the candidates that do not overlap, as many characters covered as any such choice, and the
    fewest pieces among those that cover as many (checked against every subset)."""
    from itertools import combinations

    from pipeline.nlp.matcher import best_cover

    candidates = sorted({(s, s + n) for s, n in spans if 0 <= s and s + n <= length})
    chosen = best_cover(length, [(s, s + n) for s, n in spans])
    assert all(c in candidates for c in chosen) and all(a[1] <= b[0] for a, b in zip(chosen, chosen[1:]))
    best = (0, 0)
    for k in range(len(candidates) + 1):
        for subset in combinations(candidates, k):
            if all(a[1] <= b[0] for a, b in zip(subset, subset[1:])):
                best = max(best, (sum(e - s for s, e in subset), -k))
    assert (sum(e - s for s, e in chosen), -len(chosen)) == best


@pytest.fixture(scope="module")
def vocabulary():
    from pipeline.actions.normal import default_normalise
    from pipeline.actions.vocabulary import Vocabulary
    from pipeline.nlp.lexicon import Lexicon

    return Vocabulary.build(Lexicon.load(), default_normalise())


@SETTINGS
@given(st.lists(st.sampled_from(CLAUSES + ["主人之贊者", "阼階上當楣", "西階西南", "執膳爵者"]), max_size=8), st.data())
def test_longest_match_reading_on_through_word_beginnings_finds_the_longest_word(vocabulary, parts, data):
    """The tokenizer's longest match stops where no word begins with what it has read: the same
    length as trying every length from the longest word down."""
    from pipeline.actions.tokens import longest_match

    text = vocabulary.normalise("".join(parts))
    end = data.draw(st.integers(0, len(text)))
    for i in range(end):
        plain = next((n for n in range(min(vocabulary.max_len, end - i), 0, -1) if text[i:i + n] in vocabulary.kinds), 0)
        assert longest_match(text, i, end, vocabulary) == plain


@SETTINGS
@given(st.lists(st.sampled_from(CLAUSES + ["主人之贊者", "執膳爵者", "眾皆繼射", "賓席末", "適洗南面"]), max_size=8), st.data())
def test_a_token_stream_read_part_way_gives_the_first_tokens_of_the_whole_range(vocabulary, parts, data):
    """Who opens a clause is read from its first tokens only (subjects._clause_openings): those
    must be the tokens the whole range has there, the last one read too (a name or word reaching
    the end of the range is read as far as the range goes, not as far as the reader asked)."""
    from pipeline.actions.tokens import TokenStream, tokenize

    text = vocabulary.normalise("".join(parts))
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    whole = tokenize(text, start, end, vocabulary)
    stream = TokenStream(text, start, end, vocabulary)
    depth = data.draw(st.integers(0, len(whole) + 1))
    got = [stream.get(n) for n in range(depth)]
    assert got == (whole + [None])[:depth]
    assert stream.read == whole[:depth]


@pytest.fixture(scope="module")
def processor():
    from pipeline.process import DocumentProcessor

    proc = DocumentProcessor()
    proc.preload()
    return proc


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(CLAUSES), st.sampled_from(MARKS)), max_size=25),
       st.sampled_from(["JING", None]))
def test_extractor_on_any_mix_of_clauses_never_fails(processor, parts, layer):
    text = "".join(c + m for c, m in parts)
    record = {"text": text, "meta": {"layer": layer} if layer else {}}
    out = processor.process(record)
    assert_valid(out)
    if layer == "JING":
        # each act's evidence lies in the text: its verb's lemma or a written form of it is there
        for act in out["actions"]:
            assert act["surface"] in text[act["start"]:act["end"]] or act["surface"] in text


@SETTINGS
@given(documents)
def test_process_item_never_raises(processor, text):
    from pipeline.read.inputs import InputItem

    out = processor.process_item(InputItem("mem", {"text": text}))
    assert "error" not in out, out["error"]  # any text is a document: nothing in it may break a stage
    assert_valid(out)
