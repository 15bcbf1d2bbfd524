"""Where a passage speaks (pipeline.actions.speech), on passages of 士相見禮 (XHTML edition)."""

from __future__ import annotations

import pytest

from pipeline.actions.speech import (
    NARRATIVE_OPENERS, NARRATIVE_WORDS, SPEECH_WORDS, quote_follows, speech_mask, speech_runs_on, unmasked,
)
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


@pytest.fixture(scope="module")
def jing() -> dict[str, dict[int, str]]:
    return {ch: {u.index: u.text for u in iter_units("zhushu-xhtml", [ch]) if u.layer == "JING"} for ch in ("05", "10", "15")}


def _by_marks(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` without its marks, cut into clauses where it had them (as a good 斷句 would)."""
    cut = "".join("|" if not is_text_char(ch) else ch for ch in text)
    cut = "|".join(piece for piece in cut.split("|") if piece)
    return cut.replace("|", ""), _clauses(cut.replace("|", ""), cut)


def test_unquoted_speech_runs_on_over_clauses_no_narrative_opens(jing):
    """曰：「伯父，女順命于王所，賜伯父舍。」 (覲禮) read unpunctuated: no clause of the king's
    message speaks in the first person, and none opens as narrative does, so all of it is said."""
    bare, clauses = _by_marks(jing["10"][23])
    opens = _opens_unnamed(bare, ("王", "侯氏"))
    end = speech_runs_on(bare, clauses, clauses[1][1], opens, SPEECH_WORDS, NARRATIVE_OPENERS, NARRATIVE_WORDS)
    assert end == len(bare)
    # 特牲: 祝受尸角，曰：「送爵，皇尸卒爵。」主人拜，尸答拜 — the speech ends where the host bows
    bare, clauses = _by_marks(jing["15"][252])
    say = next(k for k, (s, e) in enumerate(clauses) if bare[e - 1] == "曰")
    opens = _opens_unnamed(bare, ("主人", "尸", "祝"))
    end = speech_runs_on(bare, clauses, clauses[say + 1][1], opens, SPEECH_WORDS, NARRATIVE_OPENERS, NARRATIVE_WORDS)
    assert bare[clauses[say][1]:end] == "送爵皇尸卒爵"


def test_unquoted_speech_stops_at_narrative_written_anywhere_in_a_clause(jing):
    """鄉射禮: 賓對曰：「某不能，為二三子。」許諾。 — where the 斷句 joins 許諾 to the answer
    (為二三子許諾), the consent is still narrative, and so is a clause opening on 許."""
    bare, _ = _by_marks(jing["05"][303])
    opens = _opens_unnamed(bare, ("賓",))
    for cut in ("賓對曰|某不能|為二三子許諾", "賓對曰|某不能|為二三子|許諾"):
        clauses = _clauses(bare, cut)
        end = speech_runs_on(bare, clauses, clauses[1][1], opens, SPEECH_WORDS, NARRATIVE_OPENERS, NARRATIVE_WORDS)
        assert end <= bare.index("許諾")
