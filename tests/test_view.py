"""The offset map of TextView: every view character maps back to the raw characters it came from."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.text.view import TextView

ENTITY = re.compile(r"&KR\d{4};")
# text built of the things real editions hold: 經 chars, astral chars, entities, furniture, breaks
PIECES = st.sampled_from(["主", "人", "拜", "賓", "𧰼", "𧃊", "&KR0925;", "¶", "\n", " ", "<pb:X_1a>", "。", "，", "a"])
texts = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=200, deadline=None)
@given(texts, st.data())
def test_view_chars_map_back_to_their_raw_chars(raw, data):
    start = data.draw(st.integers(0, len(raw)))
    end = data.draw(st.integers(start, len(raw)))
    drops = [m.span() for m in re.finditer(r"<pb:[^>]*>|¶", raw)]
    view = TextView.of(raw, start, end, drop=drops, drop_chars=str.isspace)
    folded = view.fold(ENTITY, lambda m: "\ue000")
    for v in (view, folded):
        assert len(v.starts) == len(v.ends) == len(v.text)
        for i, ch in enumerate(v.text):
            s, e = v.to_raw(i, i + 1)
            assert start <= s < e <= end
            if ch == "\ue000":
                assert ENTITY.fullmatch(raw[s:e])
            else:
                assert raw[s:e] == ch
        # ranges map to ordered, in-bounds raw ranges; empty ranges too
        i = data.draw(st.integers(0, len(v.text)))
        j = data.draw(st.integers(i, len(v.text)))
        s, e = v.to_raw(i, j)
        assert 0 <= s <= e <= len(raw)


def test_written_keeps_entities_and_astral_chars_as_written():
    raw = "主人阼階上當&KR0925;北\n面再拜 侯𧰼人"
    view = TextView.of(raw, drop_chars=str.isspace).fold(ENTITY, lambda m: "\ue000")
    assert view.text == "主人阼階上當\ue000北面再拜侯𧰼人"
    assert view.written(0, 8) == "主人阼階上當&KR0925;北"
    assert view.written(11, 14) == "侯𧰼人"
    assert raw[slice(*view.to_raw(11, 14))] == "侯𧰼人"
    assert raw[slice(*view.to_raw(6, 10))] == "&KR0925;北\n面再"
