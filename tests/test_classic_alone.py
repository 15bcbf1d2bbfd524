"""A copy of the classic alone (a ctext or Wikisource chapter) is read as 經 without being told.

The layer model, whose neighbours come from 注疏 editions, took many of such a copy's paragraphs for
注 (鄉射禮's 經 a paragraph a line, by a model that never saw the chapter: two fifths of its characters); a copy that keeps its 注, even with no
marker, must still be read by the model.
"""

from __future__ import annotations

import html
from collections import Counter

import opencc
import pytest

from pipeline.config import load_config
from pipeline.corpus import iter_units
from pipeline.layers.classic import is_classic_alone
from pipeline.process import DocumentProcessor


def _units(edition: str, chapter: str, layers: tuple[str, ...]) -> list[str]:
    return [u.text.replace("\n", "") for u in iter_units(edition, chapters=[chapter]) if u.layer in layers]


def _layers(record: dict) -> Counter:
    """Characters per (layer, evidence)."""
    out: Counter = Counter()
    for s in record["segments"]:
        out[(s["layer"], s["evidence"])] += s["end"] - s["start"]
    return out


@pytest.fixture(scope="module")
def reader():
    return DocumentProcessor()


@pytest.mark.parametrize("edition", ["zhushu-xhtml", "zhushu-siku", "zhengzhu-sbck"])
def test_the_jing_of_a_chapter_alone_is_read_as_jing(reader, edition):
    """鄉射禮's 經, a paragraph a line, punctuated (XHTML) or not (四庫, SBCK): every line 經 by layout."""
    paragraphs = _units(edition, "05", ("JING",))
    record = reader.process({"text": "\n".join(paragraphs) + "\n", "meta": {"source": "05.txt"}})
    assert set(_layers(record)) == {("JING", "layout")}
    assert [s["text"] for s in record["segments"]] == paragraphs
    assert len(record["actions"]) > 500


def test_the_jing_and_its_zhu_without_markers_are_still_told_apart(reader):
    """The same chapter with each 注 on its own line after its 經: the model reads them, as before."""
    units = [u for u in iter_units("zhushu-xhtml", chapters=["05"]) if u.layer in ("JING", "ZHU")]
    record = reader.process({"text": "\n".join(u.text.replace("\n", "") for u in units) + "\n", "meta": {"source": "05.txt"}})
    read = _layers(record)
    assert {evidence for _layer, evidence in read} == {"model"}
    zhu = sum(len(u.text) for u in units if u.layer == "ZHU")
    assert read[("ZHU", "model")] > 0.9 * zhu


def test_a_simplified_copy_is_read_by_the_same_rule(reader):
    """Converted with opencc: the 經 alone is still the classic; with its 注 (谓, 今文) it is not."""
    t2s = opencc.OpenCC("t2s")
    jing = t2s.convert("\n".join(_units("zhushu-xhtml", "07", ("JING",))))
    record = reader.process({"text": jing + "\n", "meta": {"source": "07.txt"}})
    assert set(_layers(record)) == {("JING", "layout")}
    mixed = t2s.convert("\n".join(_units("zhushu-xhtml", "07", ("JING", "ZHU"))))
    assert not is_classic_alone([mixed])
    assert is_classic_alone([jing])


def test_a_web_page_of_the_jing_is_the_classic_too(reader):
    """A Wikisource-like page of 鄉射禮's 經: the page's text reads as the classic alone."""
    paragraphs = _units("zhushu-xhtml", "05", ("JING",))
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    page = f"<html><head><title>鄉射禮</title></head><body><h1>儀禮/鄉射禮</h1>\n{body}\n</body></html>"
    record = reader.process({"text": page, "meta": {"source": "05.html"}})
    assert reader.layers({"text": page, "meta": {"source": "05.html"}})[0] == "html/classic"
    assert _layers(record)[("JING", "layout")] >= sum(map(len, paragraphs))
    assert {s["layer"] for s in record["segments"]} == {"JING", "OTHER"}  # the <h1>


def test_a_short_chapter_without_gloss_or_speech_is_the_classic(reader):
    """覲禮's 經 (846 Han characters in the XHTML): no cue and hardly a 也; 士相見禮's in the 四庫
    (858), whose speeches end in 也 (其 … 也), is left to the model."""
    jinli = _units("zhushu-xhtml", "10", ("JING",))
    record = reader.process({"text": "\n".join(jinli) + "\n", "meta": {"source": "10.txt"}})
    assert set(_layers(record)) == {("JING", "layout")}
    assert not is_classic_alone(_units("zhushu-siku", "03", ("JING",)))


def test_short_texts_and_a_few_notes_are_left_to_the_model(reader):
    """Under 200 Han characters the absence of glosses says too little; a 經 with 注 lines among
    its paragraphs (one in four: 今文, 古文, 謂 in them) is no copy of the classic alone."""
    jing = _units("zhushu-xhtml", "05", ("JING",))
    short = "\n".join(jing[:12]) + "\n"  # 150 Han characters
    assert not is_classic_alone([short])
    record = reader.process({"text": short, "meta": {"source": "05.txt"}})
    assert {evidence for _layer, evidence in _layers(record)} == {"model"}
    zhu = [t for t in _units("zhushu-xhtml", "05", ("ZHU",)) if "今文" in t or "古文" in t]
    annotated = [line for k, p in enumerate(jing) for line in ([p, zhu[k // 4]] if k % 4 == 0 and k // 4 < len(zhu) else [p])]
    assert not is_classic_alone(annotated)


def test_an_excerpt_of_a_few_passages_is_the_classic_too(reader):
    """鄉射禮's first thirty paragraphs of 經 (389 Han characters), pasted alone: the classic, every
    line 經 by layout and its acts read (until 2026-11-29 nothing under 600 characters was, and the
    model read 0.55–0.67 of such excerpts' characters right: bench/results/classic-alone.md). The
    same paragraphs with their 注 after them are not."""
    jing = _units("zhushu-xhtml", "05", ("JING",))[:30]
    record = reader.process({"text": "\n".join(jing) + "\n", "meta": {"source": "05.txt"}})
    assert set(_layers(record)) == {("JING", "layout")}
    assert len(record["actions"]) > 20
    units = [u for u in iter_units("zhushu-xhtml", chapters=["05"]) if u.layer in ("JING", "ZHU")]
    upto = [u.text for u in units].index(next(u.text for u in units if u.layer == "JING" and u.text.replace("\n", "") == jing[-1]))
    with_zhu = [u.text.replace("\n", "") for u in units[:upto + 2]]
    assert not is_classic_alone(with_zhu)
    read = _layers(reader.process({"text": "\n".join(with_zhu) + "\n", "meta": {"source": "05.txt"}}))
    assert {evidence for _layer, evidence in read} == {"model"}


def test_the_run_says_which_documents_it_read_as_the_classic(tmp_path):
    """`yili process` names the documents it read as the classic alone, and how to read them otherwise."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    (tmp_path / "05-jing.txt").write_text("\n".join(_units("zhushu-xhtml", "05", ("JING",))) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["process", str(tmp_path / "05-jing.txt"), "-o", str(out), "--no-resume"])
    assert result.exit_code == 0, result.output
    assert "1 document(s) read as the classic alone" in result.output and "[layers] classic_alone = false" in result.output


def test_the_reading_can_be_turned_off_and_the_users_layer_wins():
    """``[layers] classic_alone = false``: the model decides, as before; ``--layer`` names the layer
    whatever the text (the user's word is a marker)."""
    text = "\n".join(_units("zhushu-xhtml", "05", ("JING",))) + "\n"
    off = DocumentProcessor(load_config(overrides={"layers": {"classic_alone": False}}))
    layout, segments, _ = off.layers({"text": text, "meta": {"source": "05.txt"}})
    # its lines read whole (a unit a line: pipeline/layers/plain_lines.py), each by the model
    assert layout == "unit-lines" and {s.evidence for s in segments} == {"model"}
    assert sum(s.end - s.start for s in segments if s.layer == "ZHU") > 0.1 * len(text)  # what it was
    named = DocumentProcessor(load_config(overrides={"layers": {"undecided_layer": "JING"}}))
    layout, segments, _ = named.layers({"text": text, "meta": {"source": "05.txt"}})
    assert layout == "plain" and {(s.layer, s.evidence) for s in segments} == {("JING", "marker")}
