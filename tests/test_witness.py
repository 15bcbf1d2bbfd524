"""Collation with a witness (`yili process --witness`, pipeline/text/collate.py).

A scholar reading the unpunctuated 四庫 or 四部叢刊 text keeps a punctuated edition beside it: where
the two write the same words, the editor's 斷句 and his split of 經 from 注 hold for both. Real
editions from ../shared: the 四部叢刊 鄭注 and 四庫 注疏 chapters, the XHTML e-book of the same
chapters, and seed 000 (a modern editor's punctuation of 鄉射禮's 經, another hand than the
e-book's).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CORPUS, SHARED
from pipeline.cli import _witness_setting, app
from pipeline.layers.features import strip_non_han
from pipeline.read.inputs import read_file
from pipeline.text.collate import align
from pipeline.text.normalise import normalise_str

runner = CliRunner()


def _file(edition: str, chapter: str) -> Path:
    return next((CORPUS / edition).glob(f"{chapter}_*"))


def _han(text: str) -> str:
    return normalise_str(strip_non_han(text))


@pytest.fixture
def collating(processor):
    """The session's processor, its witness set by the test and taken away after it."""
    yield processor
    processor.use_witness(None)


def _find(text: str, words: str) -> tuple[int, int]:
    """Where ``words`` stand in ``text`` with the line ends, page marks and ¶ of an edition between
    them: (start of the first, end of the last)."""
    from pipeline.layers.features import is_han

    where = [i for i, ch in enumerate(text) if is_han(ch)]
    at = "".join(text[i] for i in where).index(words)
    return where[at], where[at + len(words) - 1] + 1


def _clauses(record: dict, layer: str = "JING") -> list[str]:
    text = record["text"]
    return [_han(text[c["start"]:c["end"]]) for c in record["clauses"] if c["layer"] == layer]


def test_align_pairs_two_editions_of_a_chapter():
    """覲禮's 經 and 注 in the 四部叢刊 and in the e-book: different prints (荅/答, 廟/庿 …), the same
    words almost everywhere; each character paired with at most one, in order."""
    from pipeline.corpus import iter_units

    sbck = "".join(_han(u.text) for u in iter_units("zhengzhu-sbck", chapters=["10"]) if u.layer in ("JING", "ZHU"))
    xhtml = "".join(_han(u.text) for u in iter_units("zhushu-xhtml", chapters=["10"]) if u.layer in ("JING", "ZHU"))
    mapped = align(sbck, xhtml)
    pairs = [(i, j) for i, j in enumerate(mapped) if j >= 0]
    assert len(pairs) >= 0.95 * len(sbck)
    assert all(b[1] > a[1] for a, b in zip(pairs, pairs[1:]))  # strictly in order
    assert sum(sbck[i] == xhtml[j] for i, j in pairs) == len(pairs)  # a pair is the same character
    assert all(j == -1 for j in align(sbck[:2000], "".join(reversed(xhtml))))  # nothing lines up backwards


def test_a_punctuated_witness_gives_its_breaks(collating):
    """The 四部叢刊 鄉射禮, unpunctuated, with seed 000 (another editor's punctuation of its 經) as
    witness: the 經's clauses become that editor's wherever the texts line up (without a witness
    0.90 of them are clauses of his, by the model's 斷句)."""
    seed = SHARED / "seeds"
    witness = next(seed.glob("000_*"))
    theirs = set(_clauses(collating.process(read_file(witness).record)))
    collating.use_witness([str(witness)])
    out = collating.process(read_file(_file("zhengzhu-sbck", "05")).record)
    ours = _clauses(out)
    assert out["meta"]["witness"]["sources"] == [str(witness)]
    assert 0.4 < out["meta"]["witness"]["share"] < 0.6  # the seed holds the 經 of the chapter, not its 注
    assert len(ours) > 1500
    assert sum(c in theirs for c in ours) / len(ours) >= 0.95


def test_a_witness_splits_a_run_the_model_left_whole(collating):
    """士相見禮 in the 四庫: the 注 奠贄尊卑異不親授也古文壹為一 runs into the next 經 (賓出使擯者還其贄
    于門外) with no mark; the layer model read the whole run as 注. With the e-book as witness the
    run is cut where the e-book's 經 begins, by anchor."""
    record = read_file(_file("zhushu-siku", "03")).record
    text = record["text"]
    jing_at = text.index("賓出使擯者還其贄于門外")
    alone = collating.process(record)
    assert [s["layer"] for s in alone["segments"] if s["start"] <= jing_at < s["end"]] == ["ZHU"]
    collating.use_witness([str(_file("zhushu-xhtml", "03"))])
    out = collating.process(record)
    here = [s for s in out["segments"] if s["start"] <= jing_at < s["end"]]
    assert [(s["layer"], s["evidence"], s["start"]) for s in here] == [("JING", "anchor", jing_at)]
    before = [s for s in out["segments"] if s["end"] == jing_at]
    assert [(s["layer"], s["evidence"]) for s in before] == [("ZHU", "anchor")]
    assert _han(text[before[0]["start"]:jing_at]) == _han("奠贄尊卑異不親授也古文壹為一")
    # decided segments are the edition's own: the markers of the 四庫 are never overruled
    assert [s for s in out["segments"] if s["evidence"] == "marker"] == [s for s in alone["segments"] if s["evidence"] == "marker"]


def test_a_witness_of_another_text_changes_nothing(collating):
    """喪服's e-book is no witness of 覲禮: nothing lines up, and the output is as without it."""
    record = read_file(_file("zhengzhu-sbck", "10")).record
    alone = collating.process(record)
    collating.use_witness([str(_file("zhushu-xhtml", "11"))])
    out = collating.process(record)
    assert "witness" not in out["meta"]
    assert out == alone


def test_process_collates_with_witnesses_named_on_the_command_line(tmp_path):
    """`yili process --witness FOLDER`: the e-book's every chapter is read once; each document is
    lined up with the chapter that holds its text. A witness that is not there stops the run."""
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", str(_file("zhengzhu-sbck", "10")), str(_file("zhengzhu-sbck", "03")),
                                 "-o", str(out), "-q", "--witness", str(CORPUS / "zhushu-xhtml")])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["meta"]["witness"]["sources"] for r in records] == [[str(_file("zhushu-xhtml", "10").resolve())],
                                                                   [str(_file("zhushu-xhtml", "03").resolve())]]
    assert all(r["meta"]["witness"]["share"] > 0.9 for r in records)
    one = runner.invoke(app, ["process", str(_file("zhengzhu-sbck", "10")), str(_file("zhengzhu-sbck", "03")),
                              "-o", str(out), "--witness", str(_file("zhushu-xhtml", "10"))])
    assert one.exit_code == 0, one.output
    summary = " ".join(one.output.split())  # the console wraps long lines
    assert "1 of 2 document(s) collated with the witness" in summary
    assert "nothing lined up with 03_shixiangjianli.txt" in summary
    missing = runner.invoke(app, ["process", str(_file("zhengzhu-sbck", "10")), "-o", str(out), "-q",
                                  "--witness", str(tmp_path / "nowhere.xhtml")])
    assert missing.exit_code == 2 and "nowhere.xhtml" in missing.output


def test_the_run_s_own_output_in_a_collated_folder_is_no_witness(tmp_path):
    """`yili process eds/ --collate -o eds/out.jsonl`, run a second time: the first run's output lies
    in the folder and had become a witness of every edition (its JSON read as a text)."""
    folder = tmp_path / "eds"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "out.jsonl"):
        (folder / name).write_text("至于郊，王使人皮弁用璧勞。\n", encoding="utf-8")
    out = folder / "out.jsonl"
    assert _witness_setting([], [str(folder)], out)["paths"] == [str((folder / n).resolve()) for n in ("a.txt", "b.txt")]
    assert str(out.resolve()) in _witness_setting([], [str(folder)])["paths"]  # another run's output is a file like any


def test_a_changed_witness_is_a_new_setting(tmp_path):
    """Finished documents are kept under the config's key: a witness edited since must not be
    taken for the one the kept results were collated with."""
    page = tmp_path / "w.txt"
    page.write_text("至于郊，王使人皮弁用璧勞。\n", encoding="utf-8")
    first = _witness_setting([str(page)])
    page.write_text("至于郊。王使人皮弁用璧勞。\n", encoding="utf-8")
    assert _witness_setting([str(page)])["digest"] != first["digest"]
    assert first["paths"] == [str(page.resolve())]


def test_speech_the_witness_quotes_yields_no_tuple(collating):
    """士相見禮 in the 四庫: 主人對曰某也固辭不得命將走見聞吾子稱贄敢辭贄, unpunctuated, has 主人 say 敢辭贄
    ("I dare decline the gift"), which the clause walk read as an act of his. The e-book quotes the
    speech (主人對曰：「…敢辭贄。」): with it as witness the speech is bounded as 「…」 is, and only 對 is
    an act."""
    record = read_file(_file("zhushu-siku", "03")).record
    text = record["text"]
    start = text.index("主人對曰某也固辭")
    end = text.index("敢辭贄", start) + 3
    collating.use_witness([str(_file("zhushu-xhtml", "03"))])
    out = collating.process(record)
    acts = [(a["actor"], a["verb"]) for a in out["actions"] if start <= a["start"] < end]
    assert acts == [("主人", "對")]
    assert not [s for s in out["spans"] if s["label"] == "VERB" and start + 4 <= s["start"] < end]


def test_words_the_commentary_quotes_are_no_speech(collating):
    """The e-book's 疏 quotes its 經 two words at a time (「主人」至「拜辱」): the 四部叢刊 鄉飲酒禮, which
    has no 疏, must not pair its 經 with those quotations and lose its actors to them."""
    record = read_file(_file("zhengzhu-sbck", "04")).record
    text = record["text"]
    start, end = _find(text, "主人坐取爵于篚降洗")
    collating.use_witness([str(_file("zhushu-xhtml", "04"))])
    out = collating.process(record)
    acts = [(a["actor"], a["verb"]) for a in out["actions"] if start <= a["start"] < end]
    assert acts == [("主人", "坐"), ("主人", "取"), ("主人", "降"), ("主人", "洗")]


def test_a_list_the_witness_writes_with_dun_stays_one_clause(collating):
    """大射 in the 四庫: 射人戒諸公卿大夫射, which the e-book writes 射人戒諸公、卿、大夫射。 — 、 joins the
    names of a list, no clause ends there (as in the punctuated reading, pipeline/text/sentences.py)."""
    record = read_file(_file("zhushu-siku", "07")).record
    text = record["text"]
    start, end = _find(text, "射人戒諸公卿大夫射")
    collating.use_witness([str(_file("zhushu-xhtml", "07"))])
    out = collating.process(record)
    assert [_han(text[c["start"]:c["end"]]) for c in out["clauses"] if start <= c["start"] < end] == [_han("射人戒諸公卿大夫射")]


def test_pieces_the_witness_recuts_are_joined(collating):
    """覲禮 in the 四庫: 受篋服 (注) runs into 使者出矦氏送 (經); the layer model cut the run after 使者.
    The e-book puts the seam before 使者: 使者 and 出矦氏送… are one 經 segment, with no sentence end
    between them (two segments would part them: 使者‖出)."""
    record = read_file(_file("zhushu-siku", "10")).record
    text = record["text"]
    start, end = _find(text, "使者出矦氏送")
    collating.use_witness([str(_file("zhushu-xhtml", "10"))])
    out = collating.process(record)
    here = [(s["layer"], s["evidence"]) for s in out["segments"] if s["end"] > start and s["start"] < end]
    assert here == [("JING", "anchor")]
    went, _ = _find(text, "出矦氏送")
    assert not [s for s in out["sentences"] if start < s["start"] <= went]  # the e-book: 使者出。矦氏送
    acts = [(a["actor"], a["verb"]) for a in out["actions"] if start <= a["start"] < end]
    assert ("使者", "出") in acts


def test_a_folder_of_editions_as_witness(collating):
    """All four editions of the corpus named as witness of the 四部叢刊 覲禮, its own file among them:
    it is no witness of itself, and the chapter's punctuated e-book gives the breaks, as it does
    named alone (the 四庫's and the 四部叢刊's own copies line up as well, without punctuation)."""
    record = read_file(_file("zhengzhu-sbck", "10")).record
    collating.use_witness([str(_file("zhushu-xhtml", "10"))])
    alone = collating.process(record)
    collating.use_witness([str(CORPUS)])
    out = collating.process(record)
    sources = out["meta"]["witness"]["sources"]
    assert str(_file("zhengzhu-sbck", "10")) not in sources
    assert str(_file("zhushu-xhtml", "10")) in sources and str(_file("zhushu-siku", "10")) in sources
    assert out["clauses"] == alone["clauses"] and out["actions"] == alone["actions"]


def test_a_witness_lends_only_what_its_edition_decided(collating, tmp_path):
    """A copy of the 四庫 士相見禮 as witness of itself: its unmarked 注 ends were split by its layer
    model, which knows no more than ours; those layers are not taken as the witness's word (they
    would come back as evidence `anchor`), and an unpunctuated witness gives no breaks. The output
    is the document's own."""
    import shutil

    record = read_file(_file("zhushu-siku", "03")).record
    alone = collating.process(record)
    copy = tmp_path / "copy.txt"
    shutil.copy(_file("zhushu-siku", "03"), copy)
    collating.use_witness([str(copy)])
    out = collating.process(record)
    assert out["meta"]["witness"]["sources"] == [str(copy)]
    assert out["segments"] == alone["segments"] and out["clauses"] == alone["clauses"]
    assert any(s["evidence"] == "model" for s in out["segments"])


def test_collate_makes_each_input_a_witness_of_the_others(tmp_path):
    """`yili process --collate` with three editions of 覲禮 and a file that is not there: each
    edition is collated with the other two (never with itself), the 四部叢刊's breaks are the
    e-book's as with `--witness` naming it, and the missing file is that input's error alone. Each
    says what the witnesses decided in it, and the run which took nothing."""
    editions = [_file("zhushu-siku", "10"), _file("zhushu-xhtml", "10"), _file("zhengzhu-sbck", "10")]
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", *map(str, editions), str(tmp_path / "gone.txt"), "-o", str(out), "-q",
                                 "--collate", "--no-resume"])
    assert result.exit_code == 1, result.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "error" in records[3] and "gone.txt" in records[3]["error"]
    for path, record in zip(editions, records):
        sources = record["meta"]["witness"]["sources"]
        assert str(path.resolve()) not in sources and len(sources) == 2
    # what each took: the 四庫 breaks and layers (its unmarked 注 ends), the 四部叢刊 breaks only (its
    # parentheses decide its layers), the e-book nothing (its marks and tags decide everything)
    took = [(r["meta"]["witness"]["boundaries"], r["meta"]["witness"]["layer_chars"]) for r in records[:3]]
    assert took[0][0] > 10_000 and took[0][1] > 0 and took[1] == (0, 0) and took[2][0] > 1_000 and took[2][1] == 0
    said = runner.invoke(app, ["process", *map(str, editions), "-o", str(tmp_path / "said.jsonl"), "--collate"])
    assert "1 of them took nothing from it" in " ".join(said.output.split())
    named = tmp_path / "named.jsonl"
    result = runner.invoke(app, ["process", str(editions[2]), "-o", str(named), "-q", "--no-resume",
                                 "--witness", str(editions[1])])
    assert result.exit_code == 0, result.output
    assert json.loads(named.read_text(encoding="utf-8"))["clauses"] == records[2]["clauses"]


def test_a_passage_alone_is_collated_too(collating):
    """One 經 passage of 士相見禮 as a record (meta.layer JING), its marks stripped, as a gold passage
    is read unpunctuated: 21 characters line up with the e-book, which gives it its clauses and
    bounds 主人's speech (敢辭贄 no act of his)."""
    from pipeline.corpus import iter_units
    from pipeline.text.marks import strip_marks

    unit = next(u.text for u in iter_units("zhushu-xhtml", chapters=["03"]) if "聞吾子稱贄" in u.text and u.layer == "JING")
    passage = strip_marks(unit).chars
    collating.use_witness([str(_file("zhushu-xhtml", "03"))])
    out = collating.process({"text": passage, "meta": {"layer": "JING"}})
    assert out["meta"]["witness"]["share"] == 1.0
    assert [(a["actor"], a["verb"]) for a in out["actions"]] == [("主人", "對")]


def test_a_witness_named_in_a_config_file(tmp_path):
    """`[witness] paths` in a -c config works as --witness does, and the summary says so; the witness
    files' digest is part of the setting, so a resumed run does not reuse documents collated with
    the witness as it was before it changed."""
    import shutil

    witness = tmp_path / "witness.xhtml"
    shutil.copy(_file("zhushu-xhtml", "10"), witness)
    cfg = tmp_path / "witness.cfg"
    cfg.write_text(f'[witness]\npaths = ["{witness}"]\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", str(_file("zhengzhu-sbck", "10")), "-o", str(out), "-c", str(cfg)])
    assert result.exit_code == 0, result.output
    assert "1 of 1 document(s) collated with the witness" in " ".join(result.output.split())
    assert json.loads(out.read_text(encoding="utf-8"))["meta"]["witness"]["sources"] == [str(witness)]
    shutil.copy(_file("zhushu-xhtml", "03"), witness)  # the same file now holds another chapter
    again = runner.invoke(app, ["process", str(_file("zhengzhu-sbck", "10")), "-o", str(out), "-q", "-c", str(cfg)])
    assert again.exit_code == 0, again.output
    assert "witness" not in json.loads(out.read_text(encoding="utf-8"))["meta"]  # recomputed, not reused


def test_the_index_finds_the_chapter_a_document_lines_up_with():
    """The witnesses a document is weighed against come from an index of every fourth 8-character
    string of each: the 四部叢刊 覲禮 hits the e-book's 覲禮 hundreds of times, its 士相見禮 and 喪服
    (other chapters, the same formulae here and there) a handful."""
    from pipeline.layers import segment_layers
    from pipeline.text.collate import ANCHOR, Witness, WitnessIndex, _unique_grams

    witnesses = []
    for chapter in ("03", "10", "11"):
        text = _file("zhushu-xhtml", chapter).read_text(encoding="utf-8")
        result = segment_layers(text, str(_file("zhushu-xhtml", chapter)))
        witnesses.append(Witness.from_segments(chapter, text, result.segments, result.removed))
    index = WitnessIndex(witnesses)
    sbck = _file("zhengzhu-sbck", "10").read_text(encoding="utf-8")
    hits = index.hits(_unique_grams(_han(sbck), ANCHOR))
    assert hits[1] > 500 and hits[0] < 30 and hits[2] < 30
