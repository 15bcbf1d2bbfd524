"""bench/received_rites.py: the rites the corpus lacks, read with and without marks (no gold)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("received_rites", REPO / "bench" / "received_rites.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_passage_names_one_of_the_six_rites_or_a_chapter_of_the_liji():
    rr = _module()
    read = rr.passages()
    assert {rite for rite, _text in read} == set(rr.RITES) | set(rr.LIJI)
    assert len(read) >= 40 and all("。" in text for _rite, text in read)
    # the 禮記's rows add to their own total, so that the six rites' figure stays comparable
    assert {rr.group_of(rite) for rite in rr.RITES} == {"all"}
    assert {rr.group_of(rite) for rite in rr.LIJI} == {"禮記 all"}


def test_a_malformed_line_is_an_error_naming_file_and_line(tmp_path):
    rr = _module()
    path = tmp_path / "rites.txt"
    path.write_text("# header\n士冠\t賓揖將冠者，將冠者即筵坐。\n鄉射\t主人戒賓。\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"rites\.txt:3: expected a rite"):
        rr.passages(path)


def test_agreement_counts_tuples_as_multisets():
    rr = _module()
    a = Counter({("主人", "揖", False): 3, ("賓", "拜", False): 1})
    b = Counter({("主人", "揖", False): 1, ("賓", "揖", False): 2, ("賓", "拜", False): 1})
    assert rr.agreement(a, b) == (2, 4, 4)
    assert rr.f1(*rr.agreement(a, b)) == 0.5 and rr.f1(0, 0, 0) == 1.0


def test_a_passage_reads_the_same_in_both_scripts():
    """A real passage (士冠禮, received text) through the shipped pipeline: the simplified copy gives the
    same (actor, verb, negated) keys, as the bench reports for all of them."""
    rr = _module()
    from pipeline.actions.report import _simplify
    from pipeline.process import DocumentProcessor

    processor = DocumentProcessor()
    text = "主人戒賓，賓禮辭，許。主人再拜，賓答拜。主人退，賓拜送。"
    marked = rr.keys(processor, text)
    assert marked[("主人", "拜", False)] == 1 and marked[("宾", "拜", False)] == 2
    assert rr.keys(processor, _simplify(text)) == marked
