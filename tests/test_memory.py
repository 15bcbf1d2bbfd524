"""The rest of the document as memory when a run of known shape is split (pipeline/layers/memory.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pipeline.layers.features import ngram_text
from pipeline.layers.memory import DocumentMemory

REPO = Path(__file__).resolve().parents[1]
SIKU = REPO.parent / "shared" / "corpus" / "zhushu-siku"


def test_votes_follow_where_the_document_writes_each_string():
    # 士虞禮: the 經 「主人出即位于門東少南」 and the 注 「將入臨之位」 written elsewhere in the document
    memory = DocumentMemory.of([("JING", "主人出，即位于門東，少南。"), ("ZHU", "將入臨之位。"),
                                ("SHU", "釋曰：云「將入臨之位」者"), ("JING", "門東北面")])
    run = "將入臨之位也主人出即位"
    votes = memory.votes(ngram_text(run))  # the splitter reads folded Han characters
    assert list(votes[:5]) == [-1.0] * 5  # 將入臨之位: only in the 注 (the 疏 that quotes it is not read)
    assert list(votes[-5:]) == [1.0] * 5  # 主人出即位: only in the 經
    assert votes[5] == 0.0  # 也: no string of four around it is written elsewhere
    # a string written in both layers says nothing; a document with nothing decided is no memory
    both = DocumentMemory.of([("JING", "主人出即位"), ("ZHU", "主人出即位")])
    assert not both.votes(ngram_text("主人出即位")).any()
    assert not DocumentMemory.of([("SHU", "釋曰")])
    assert DocumentMemory.of([]).votes("主人出即位").shape == (5,)


@pytest.fixture(scope="module")
def shiyu():
    path = SIKU / "14_shiyuli.txt"
    return path, path.read_text(encoding="utf-8")


def _run_split(processor, path: Path, text: str, zhu_opens: str):
    """The 注 that opens with ``zhu_opens`` and the segment after it, as the pipeline reads the file."""
    _layout, segments, _removed = processor.layers({"text": text, "meta": {"source": str(path)}})

    def clean(s) -> str:
        return re.sub(r"<pb:[^>]*>|¶|\s", "", s.text)

    zhu = next(s for s in segments if clean(s).startswith(zhu_opens))
    nxt = segments[segments.index(zhu) + 1]
    return zhu, clean(zhu), nxt, clean(nxt)


def test_the_documents_own_jing_puts_the_seam_of_an_unmarked_siku_zhu(shiyu):
    # 士虞禮, 四庫: the 注 「將入臨之位士喪禮賓繼兄弟北上…西方東面北上」 runs into the 經 「主人出即位于門東
    # 少南…」 with no mark. Read alone, the run is cut after 將入臨之位 (the 注's quotation of 士喪禮
    # reads like 經); 主人出即位 and 門東少南 are written elsewhere in this document's 經, and the seam
    # falls where the 經 resumes.
    from pipeline.process import DocumentProcessor

    path, text = shiyu
    zhu, zhu_text, jing, jing_text = _run_split(DocumentProcessor(), path, text, "將入臨之位")
    assert (zhu.layer, jing.layer) == ("ZHU", "JING")
    assert zhu_text.endswith("西方東面北上") and jing_text.startswith("主人出即位于門東少南")

    off = DocumentProcessor({"layers": {"document_memory": False}})
    assert off.layer_model.use_memory is False
    _zhu, zhu_text, _jing, _jing_text = _run_split(off, path, text, "將入臨之位")
    assert not zhu_text.endswith("西方東面北上")


def test_memory_pieces_lean_by_their_mean_vote(shiyu):
    from pipeline.layers.runtime import load_model

    splitter = load_model().splitter_
    memory = DocumentMemory.of([("JING", "主人出即位"), ("ZHU", "將入臨之位")])
    text = "將入臨之位，主人出即位"
    out = splitter._memory_emissions(text, [(0, 6), (6, len(text))], memory)
    J, Z = splitter.layers.index("JING"), splitter.layers.index("ZHU")
    w = splitter.memory_piece_weight
    assert np.allclose(out[:, J], [-w, w]) and np.allclose(out[:, Z], [w, -w])
