"""Where a passage speaks (pipeline.actions.speech), on passages of 士相見禮 (XHTML edition)."""

from __future__ import annotations

import pytest

from pipeline.actions.speech import quote_follows, speech_mask, speech_runs_on, unmasked
from pipeline.corpus import iter_units
from pipeline.text.marks import is_text_char


@pytest.fixture(scope="module")
def jing03() -> dict[int, str]:
    return {u.index: u.text for u in iter_units("zhushu-xhtml", ["03"]) if u.layer == "JING"}


def test_the_mask_covers_the_quotation_and_nothing_after_it(jing03):
    text = jing03[26]  # 主人對曰︰「某也固辭，不得命，敢不敬從﹗」出迎於門外，再拜。…
    mask = speech_mask(text)
    said = "".join(ch for ch, m in zip(text, mask) if m)
    assert said == "「某也固辭，不得命，敢不敬從﹗」"
    assert quote_follows(text, text.index("曰") + 1)
    # what is left to read: the narrative before and after the quotation
    pieces = [text[s:e] for s, e in unmasked(mask, 0, len(text), -1)]
    assert pieces[0] == "主人對曰︰" and pieces[1].startswith("出迎於門外")


def _clauses(bare: str, cut: str) -> list[tuple[int, int]]:
    assert cut.replace("|", "") == bare
    out, pos, start = [], 0, 0
    for ch in cut:
        if ch == "|":
            out.append((start, pos))
            start = pos
        else:
            pos += 1
    return out + [(start, pos)]


def _opens_unnamed(bare: str, names: tuple[str, ...]):
    return lambda s, e: not any(bare.startswith(n, s) for n in names)


def test_unquoted_speech_runs_on_while_it_speaks_in_the_first_person(jing03):
    # 03 p20 without its marks: 主人對曰|某不足以習禮|敢固辭 — the whole answer is said
    bare = "".join(ch for ch in jing03[20] if is_text_char(ch))
    clauses = _clauses(bare, "主人對曰|某不足以習禮|敢固辭")
    first = clauses[1][1]  # the clause right after 曰 is speech whatever it says
    end = speech_runs_on(bare, clauses, first, _opens_unnamed(bare, ("主人", "賓")), "某敢")
    assert end == len(bare)


def test_unquoted_speech_stops_at_a_clause_that_opens_with_a_participant(jing03):
    # 03 p26 without its marks: after the answer the host goes out to meet the guest, and the
    # guest's answering bow is narrative again
    bare = "".join(ch for ch in jing03[26] if is_text_char(ch))
    cut = "主人對曰|某也固辭|不得命|敢不敬從|出迎於門外|再拜|賓答再拜|主人揖|入門右|賓奉贄|入門左|主人再拜受|賓再拜送贄|出"
    clauses = _clauses(bare, cut)
    end = speech_runs_on(bare, clauses, clauses[1][1], _opens_unnamed(bare, ("主人", "賓")), "某也敢")
    # 不得命 has no word of speech but the clause after it has (敢): both are said; 出迎於門外 and
    # 再拜 have none, so the speech ends before them
    assert bare[clauses[1][0]:end] == "某也固辭不得命敢不敬從"
