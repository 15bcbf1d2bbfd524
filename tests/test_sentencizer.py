"""``yili_sentences`` puts the pipeline's sentences on the spaCy Doc (``doc.sents``).

Passages: 鄉飲酒禮 經 as punctuated in seed 003, and the same words unpunctuated as seed 001/002
print their 經; the unpunctuated form must be cut by the 斷句 model, offsets mapping to the raw text.
"""

from __future__ import annotations

import pytest

from pipeline.nlp import build_nlp
from pipeline.text.normalise import segment_view

PUNCTUATED = "主人坐取爵于篚，降洗。賓降。主人坐奠爵于階前，辭。賓對。"
UNPUNCTUATED = "主人坐取爵于篚降洗賓降主人坐奠爵于階前辭賓對"


@pytest.fixture(scope="module")
def nlp():
    from pipeline.config import load_config

    cfg = load_config()
    cfg["nlp"] = dict(cfg["nlp"], sentences="crf")
    return build_nlp(cfg)


def test_the_component_is_in_the_configured_pipeline(nlp):
    assert "yili_sentences" in nlp.pipe_names
    assert nlp.config["components"]["yili_sentences"]["splitter"] == "crf"


def test_punctuated_sentences_follow_the_marks(nlp):
    doc = nlp(PUNCTUATED)
    assert [s.text for s in doc.sents] == ["主人坐取爵于篚，降洗。", "賓降。", "主人坐奠爵于階前，辭。", "賓對。"]


def test_unpunctuated_text_is_cut_by_the_model_with_raw_offsets(nlp):
    raw = "卷一\n" + UNPUNCTUATED[:10] + "\n" + UNPUNCTUATED[10:]  # hard-wrapped, as in seed 001
    start = raw.index("主")
    view = segment_view(raw, start, len(raw), [])
    doc = nlp.make_doc(view.text)
    doc.user_data["layer"] = "JING"
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    sents = list(doc.sents)
    assert len(sents) >= 3  # at least 賓降 stands apart from 主人's acts before and after
    assert "".join(s.text for s in sents) == view.text
    from pipeline.nlp.sentencizer import raw_sentences

    pieces = raw_sentences(doc, view)
    assert pieces[0][0] == start and pieces[-1][1] == len(raw)
    assert "".join(raw[s:e] for s, e in pieces).replace("\n", "") == UNPUNCTUATED
    assert any(raw[s:e].replace("\n", "") == "賓降" for s, e in pieces)


def test_unknown_splitter_is_refused():
    from pipeline.nlp.sentencizer import SentenceSetter

    with pytest.raises(ValueError, match="unknown splitter"):
        SentenceSetter("whitespace")
