"""The span ruler reads its spans from the tokenizer's lexicon cover: the same spans as matching;
and ``LexiconSpans`` (the lexicon alone, no tokens: what ``yili process`` gives the 注 and 疏) gives
the spans of the ruler-only pipeline.

Checked on whole corpus chapters (經, 注 and 疏 of the XHTML edition and an unpunctuated Siku
chapter), against the ruler's own spaCy path on the very same tokens (jieba) and against the
pipeline with either backend (jieba, char).
"""

from __future__ import annotations

import pytest
from conftest import CORPUS

from pipeline.nlp import build_nlp
from pipeline.nlp.base import COVER_KEY
from pipeline.nlp.build import RULER
from pipeline.read.inputs import read_file
from pipeline.text.normalise import segment_view


@pytest.fixture(scope="module")
def lexicon_nlp():
    from pipeline.config import load_config
    from pipeline.nlp.build import lexicon_only

    return build_nlp(lexicon_only(load_config()))


def chapter_texts(path) -> list[str]:
    """The normalised view of every 經/注/疏 segment of one corpus file, as the tagger gets them."""
    from pipeline.layers import segment_layers

    record = read_file(path).record
    result = segment_layers(record["text"], record.get("meta", {}).get("source"))
    drop = [(r.start, r.end) for r in result.removed]
    views = [segment_view(record["text"], s.start, s.end, drop) for s in result.segments if s.layer != "OTHER"]
    return [v.text for v in views if v.text]


def spans(doc) -> list[tuple[int, int, str]]:
    return [(s.start_char, s.end_char, s.label_) for s in doc.spans["sc"]]


@pytest.mark.parametrize("path", [CORPUS / "zhushu-xhtml" / "05_xiangsheli.xhtml",
                                  CORPUS / "zhushu-siku" / "07_dashe.txt"], ids=["xhtml-05", "siku-07"])
def test_spans_from_the_cover_are_the_spans_the_ruler_matches(lexicon_nlp, path):
    ruler = lexicon_nlp.get_pipe(RULER)
    texts = chapter_texts(path)
    assert sum(map(len, texts)) > 20_000
    differ = []
    total = 0
    for text in texts:
        doc = lexicon_nlp.tokenizer(text)
        assert doc.user_data[COVER_KEY][0] == ruler.fingerprint
        fast = spans(ruler(doc))
        slow = spans(super(type(ruler), ruler).__call__(lexicon_nlp.tokenizer(text)))
        total += len(slow)
        if fast != slow:
            differ.append(text[:30])
    assert total > 2_000
    assert differ == []


def test_the_cover_path_is_the_one_taken(lexicon_nlp, monkeypatch):
    from spacy.pipeline import SpanRuler

    def refuse(self, doc):
        raise AssertionError("spaCy's matching path was taken")

    monkeypatch.setattr(SpanRuler, "__call__", refuse)
    doc = lexicon_nlp("主人坐取爵于篚，降洗。")
    assert ("主人", "ACTOR") in [(s.text, s.label_) for s in doc.spans["sc"]]


def test_patterns_added_later_are_matched_not_read_from_the_cover():
    from pipeline.config import load_config
    from pipeline.nlp.build import lexicon_only

    nlp = build_nlp(lexicon_only(load_config()))
    doc = nlp("主人坐奠爵于碑南")
    before = [(s.text, s.label_) for s in doc.spans["sc"]]
    assert ("碑南", "LOCATION") not in before
    ruler = nlp.get_pipe(RULER)
    ruler.add_patterns([{"label": "LOCATION", "pattern": "碑南"}])  # patterns are the normalised form
    assert ruler.fingerprint is None
    doc = nlp("主人坐奠爵于碑南")
    after = [(s.text, s.label_) for s in doc.spans["sc"]]
    assert ("碑南", "LOCATION") in after


def test_the_char_backend_leaves_no_cover_and_still_gets_spans():
    nlp = build_nlp({"nlp": {"tokenizer": "char", "span_model": None}})
    doc = nlp("主人坐取爵于篚，降洗。")
    assert COVER_KEY not in doc.user_data
    assert ("主人", "ACTOR") in [(s.text, s.label_) for s in doc.spans["sc"]]


@pytest.mark.parametrize("tokenizer", ["jieba", "char"])
def test_lexicon_spans_without_tokens_are_the_pipelines(tokenizer):
    """What ``yili process`` gives the 注 and 疏 (``LexiconSpans``, no tokenizer run) is what the
    lexicon pipeline sets, with either backend, over a whole chapter."""
    from pipeline.config import load_config
    from pipeline.nlp.build import lexicon_only
    from pipeline.nlp.ruler import LexiconSpans, lexicon_spans_of

    config = lexicon_only(load_config())
    nlp = build_nlp({**config, "nlp": {**config["nlp"], "tokenizer": tokenizer}})
    direct = lexicon_spans_of(nlp)
    assert isinstance(direct, LexiconSpans)
    texts = chapter_texts(CORPUS / "zhushu-xhtml" / "04_xiangyinjiuli.xhtml")
    differ = [text[:30] for text, doc in zip(texts, nlp.pipe(texts)) if direct(text) != spans(doc)]
    assert differ == []


def test_lexicon_spans_only_for_the_ruler_alone():
    from pipeline.nlp.ruler import lexicon_spans_of

    nlp = build_nlp()  # the default: ruler and span model
    assert nlp.pipe_names == [RULER, "span_model"]
    assert lexicon_spans_of(nlp) is None
    assert lexicon_spans_of(nlp, ["span_model"]) is not None
    nlp.get_pipe(RULER).add_patterns([{"label": "LOCATION", "pattern": "碑南"}])
    assert lexicon_spans_of(nlp, ["span_model"]) is None


def test_process_tags_zhu_and_shu_without_the_tokenizer(processor, monkeypatch):
    """The default processor: the 經 through the pipeline (its span model needs the tokens), the
    注 and 疏 from the lexicon alone; their spans are still there."""
    from pipeline.nlp.ruler import LexiconSpans

    assert isinstance(processor.nlp_lexicon, LexiconSpans)
    calls = []
    cls = type(processor.nlp.tokenizer)
    original = cls.__call__

    def counting(self, text):
        calls.append(text)
        return original(self, text)

    monkeypatch.setattr(cls, "__call__", counting)
    record = {"text": "鄉飲酒之禮。主人就先生而謀賓、介。", "meta": {"layer": "ZHU"}}
    out = processor.process(record)
    assert calls == []
    assert ("主人", "ACTOR") in [(record["text"][s["start"]:s["end"]], s["label"]) for s in out["spans"]]
    out = processor.process({**record, "meta": {"layer": "JING"}})
    assert len(calls) == 1
    assert ("主人", "ACTOR") in [(record["text"][s["start"]:s["end"]], s["label"]) for s in out["spans"]]
