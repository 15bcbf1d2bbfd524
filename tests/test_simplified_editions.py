"""An edition converted to simplified characters is read as the edition itself (pipeline/read/script.py).

The Kanripo and XHTML readers find layers by the words the editions write (音義, 釋曰, 鄭目錄 …) in
traditional characters; a scholar's copy may have been converted to simplified ones. Each test
converts a real corpus file with opencc (t2s keeps the length) and reads both.
"""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest

from pipeline.layers import segment_layers
from pipeline.read.script import traditional_probe

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def _file(edition: str, pattern: str) -> tuple[str, str]:
    path = next((CORPUS / edition).glob(pattern))
    text = path.read_text(encoding="utf-8")
    simplified = opencc.OpenCC("t2s").convert(text)
    assert len(simplified) == len(text)
    return text, simplified


def _cuts(text: str) -> list[tuple[str, int, int]]:
    return [(s.layer, s.start, s.end) for s in segment_layers(text).segments]


@pytest.mark.parametrize("edition, pattern", [
    ("zhushu-siku", "05_*.txt"),      # 注 opened by 注, 音義( … ) and 疏( … ) in parentheses
    ("zhengzhu-sbck", "10_*.txt"),    # the edition's title lines (儀禮卷第十 …鄭氏注) are not 經
    ("danshu-sbck", "*07.txt"),       # entries that open on 釋曰; the chapter title before 鄭目錄
    ("zhushu-xhtml", "10_*.xhtml"),   # a 注 printed as a 經 paragraph, known by the 疏 that follows (○釋曰)
])
def test_a_simplified_copy_reads_as_its_edition(edition, pattern):
    text, simplified = _file(edition, pattern)
    assert _cuts(simplified) == _cuts(text)
    # and the segments hold the raw (simplified) text, at the same offsets
    first = segment_layers(simplified).segments[0]
    assert first.text == simplified[first.start:first.end]


def test_the_traditional_reading_is_only_a_probe():
    text, simplified = _file("zhushu-siku", "05_*.txt")
    assert traditional_probe(text) is None  # a traditional edition is read exactly as written
    probe = traditional_probe(simplified)
    assert probe is not None and len(probe) == len(simplified)
    assert "音義(" in probe and "音义(" in simplified  # the marker as the reader knows it
