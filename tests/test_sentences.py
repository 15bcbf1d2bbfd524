"""Sentences and clauses: punctuated seed 003 paragraphs, quotes, rule 斷句 of unpunctuated seed 001."""

from __future__ import annotations

from pathlib import Path

from pipeline.text.normalise import segment_view
from pipeline.text.sentences import Break, RuleSplitter, is_punctuated, split_units

SEEDS = Path(__file__).resolve().parents[1] / "pipeline" / "samples"
SEED_001 = (SEEDS / "001_e265843fcb22f799.txt").read_text(encoding="utf-8")
SEED_003 = (SEEDS / "003_c8719e2da7acda31.txt").read_text(encoding="utf-8")


def units(raw: str, passage: str, splitter=None) -> tuple[list[str], list[str]]:
    """Sentences and clauses of ``passage`` (found in ``raw``), as the raw text they cover."""
    start = raw.index(passage)
    view = segment_view(raw, start, start + len(passage))
    sentences, clauses = split_units(view.text, splitter)
    as_raw = lambda rng: [raw[slice(*view.to_raw(s, e))] for s, e in rng]  # noqa: E731
    return as_raw(sentences), as_raw(clauses)


def test_punctuated_jing_paragraphs_of_003():
    passage = "主人與賓三揖,至於階,三讓。主人升,賓升。主人阼階上當楣北面再拜。賓西階上當楣北面答拜。"
    sentences, clauses = units(SEED_003, passage)
    assert sentences == ["主人與賓三揖,至於階,三讓。", "主人升,賓升。", "主人阼階上當楣北面再拜。", "賓西階上當楣北面答拜。"]
    assert clauses == ["主人與賓三揖", "至於階", "三讓", "主人升", "賓升", "主人阼階上當楣北面再拜", "賓西階上當楣北面答拜"]

    sentences, clauses = units(SEED_003, "主人坐取爵,興,適洗,南面坐,奠爵于篚下,盥洗。")
    assert sentences == ["主人坐取爵,興,適洗,南面坐,奠爵于篚下,盥洗。"]
    assert clauses == ["主人坐取爵", "興", "適洗", "南面坐", "奠爵于篚下", "盥洗"]

    # 、 lists (賓、介) stay inside one clause
    sentences, clauses = units(SEED_003, "鄉飲酒之禮。主人就先生而謀賓、介。")
    assert sentences == ["鄉飲酒之禮。", "主人就先生而謀賓、介。"]
    assert clauses == ["鄉飲酒之禮", "主人就先生而謀賓、介"]


def test_quotes_end_the_sentence_only_when_closed_after_a_full_stop():
    sentences, clauses = units(SEED_003, "司正升相旅,曰︰「某子受酬。」受酬者降席。")
    assert sentences == ["司正升相旅,曰︰「某子受酬。」", "受酬者降席。"]
    assert clauses == ["司正升相旅", "曰", "某子受酬", "受酬者降席"]

    # three full stops inside one quote: one sentence
    passage = "及三年大比,「而興賢者、能者。鄉老及鄉大夫帥其吏與其眾寡,以禮禮賓之。厥明,獻賢能之書於王。」是禮乃三年正月而一行也。"
    sentences, _ = units(SEED_003, passage)
    assert sentences == [
        "及三年大比,「而興賢者、能者。鄉老及鄉大夫帥其吏與其眾寡,以禮禮賓之。厥明,獻賢能之書於王。」",
        "是禮乃三年正月而一行也。",
    ]

    # a quote that does not end with 。 leaves the sentence open
    passage = "案《鄉飲酒義》云「主人拜迎賓于庠門之外」,明主人自迎。"
    sentences, clauses = units(SEED_003, passage)
    assert sentences == [passage]
    assert clauses == ["案《鄉飲酒義》云", "主人拜迎賓于庠門之外", "明主人自迎"]


def test_shu_heads_and_circles():
    passage = "「主人」至「答拜」。○注「相主」至「命者」。○釋曰︰自此至「答再拜」,論主人迎賓入,升堂並拜至之事。"
    sentences, _ = units(SEED_003, passage)
    assert sentences == ["「主人」至「答拜」。", "注「相主」至「命者」。", "釋曰︰自此至「答再拜」,論主人迎賓入,升堂並拜至之事。"]


def test_is_punctuated():
    assert is_punctuated("主人坐取爵,興,適洗,南面坐,奠爵于篚下,盥洗。")
    assert not is_punctuated("主人坐取爵興適洗南面坐奠爵于篚下盥洗")
    page = SEED_001[SEED_001.index("鄕射之禮主人戒賓"):][:400]
    assert not is_punctuated(page.replace("\n", ""))


def test_rules_split_unpunctuated_001():
    sentences, clauses = units(SEED_001, "賓禮辭許主人再拜賓荅再拜主人退賓送再拜")
    assert sentences == ["賓禮辭許", "主人再拜", "賓荅再拜", "主人退", "賓送再拜"]

    # the hard-wrapped passage with the entity: a new participant after 再拜, across the line break
    sentences, _ = units(SEED_001, "主人阼階上當&KR0925;北面再拜賓西階上當&KR0925;北面荅再\n拜")
    assert sentences == ["主人阼階上當&KR0925;北面再拜", "賓西階上當&KR0925;北面荅再\n拜"]

    # 速賓賓朝服: the same participant twice starts a sentence; 再拜|主人荅, 退|賓送
    sentences, _ = units(SEED_001, "主人朝服乃速賓賓朝服出迎再拜主人荅再拜退賓\n送再拜")
    assert sentences == ["主人朝服乃速賓", "賓朝服出迎再拜", "主人荅再拜退", "賓\n送再拜"]

    # clauses: after 興, and after a place introduced by 于 before the next verb
    sentences, clauses = units(SEED_001, "主人坐取爵興適洗南面坐奠爵于篚下盥洗")
    assert sentences == ["主人坐取爵興適洗南面坐奠爵于篚下盥洗"]
    assert clauses[0] == "主人坐取爵興"
    assert clauses[-1] == "盥洗"
    # a participant after a verb that takes a person is its object, not a new subject
    sentences, _ = units(SEED_001, "主人以賓三揖皆行及階三讓主人升一等賓升")
    assert sentences[0] == "主人以賓三揖皆行及階三讓"


class FixedSplitter:
    """A stand-in for the learned 斷句 model: breaks at the given view positions."""

    def __init__(self, breaks):
        self.calls = 0
        self._breaks = breaks

    def breaks(self, text: str) -> list[Break]:
        self.calls += 1
        return self._breaks


def test_given_splitter_replaces_the_rules_on_unpunctuated_text_only():
    splitter = FixedSplitter([Break(4, "sentence"), Break(8, "clause")])
    sentences, clauses = split_units("賓禮辭許主人再拜賓荅再拜", splitter)
    assert splitter.calls == 1
    assert sentences == [(0, 4), (4, 12)]
    assert clauses == [(0, 4), (4, 8), (8, 12)]
    punctuated = "賓禮辭,許。主人再拜,賓荅再拜。"
    assert split_units(punctuated, splitter)[0] == [(0, 6), (6, 16)]
    assert splitter.calls == 1


def test_rule_splitter_is_a_splitter():
    found = RuleSplitter().breaks("賓禮辭許主人再拜")
    assert found == [Break(4, "sentence")]
