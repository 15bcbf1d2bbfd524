"""Tokenizer backends and lexicon spans on real 經 sentences of the seeds (traditional and simplified)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline.nlp import BackendUnavailable, build_nlp, tag_spans
from pipeline.nlp.lexicon import Lexicon
from pipeline.text.normalise import normalise_str, segment_view

SEEDS = Path(__file__).resolve().parents[1] / "pipeline" / "samples"


def seed(prefix: str) -> str:
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def nlp():
    return build_nlp()


@pytest.fixture(scope="module")
def lexicon_nlp():
    """The default pipeline without its span CRF: the lexicon ruler alone."""
    from pipeline.config import load_config
    from pipeline.nlp.build import lexicon_only

    return build_nlp(lexicon_only(load_config()))


@pytest.fixture(scope="module")
def char_nlp():
    return build_nlp({"nlp": {"tokenizer": "char"}})


def spans_of(nlp, raw: str, passage: str) -> list[tuple[str, str]]:
    """(raw text, label) of the spans tagged in ``passage`` (found in the seed ``raw``)."""
    start = raw.index(passage)
    view = segment_view(raw, start, start + len(passage))
    return [(raw[slice(*view.to_raw(s, e))], label) for s, e, label in tag_spans(nlp, view.text)]


# (seed, passage, the spans a reader marks): 經 sentences of 鄉飲酒 003, 鄉射 001 and 000,
# 特牲 002 and 覲禮 004
CASES = [
    ("003", "主人阼階上當楣北面再拜。",
     [("主人", "ACTOR"), ("阼階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB")]),
    ("003", "賓西階上當楣北面答拜。",  # 答 is no part of the VERB span
     [("賓", "ACTOR"), ("西階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB")]),
    ("003", "水在洗東,篚在洗西,南肆。",
     [("水", "OBJECT"), ("洗東", "LOCATION"), ("篚", "OBJECT"), ("洗西", "LOCATION")]),
    ("003", "賓厭介,入門左。介厭眾賓,入,眾賓皆入門左,北上。",  # 北上 is an ordering, no FACING
     [("賓", "ACTOR"), ("介", "ACTOR"), ("入", "VERB"), ("門左", "LOCATION"), ("介", "ACTOR"),
      ("眾賓", "ACTOR"), ("入", "VERB"), ("眾賓", "ACTOR"), ("入", "VERB"), ("門左", "LOCATION")]),
    ("001", "主人坐取爵興適洗南面坐奠爵于篚下盥洗",  # 洗 is the place gone to, then the act
     [("主人", "ACTOR"), ("坐", "VERB"), ("取", "VERB"), ("爵", "OBJECT"), ("興", "VERB"), ("適", "VERB"),
      ("洗", "LOCATION"), ("南面", "FACING"), ("坐", "VERB"), ("奠", "VERB"), ("爵", "OBJECT"),
      ("篚下", "LOCATION"), ("盥", "VERB"), ("洗", "VERB")]),
    ("001", "舉觶者進坐奠觶于薦西",  # 舉觶者 is one participant
     [("舉觶者", "ACTOR"), ("進", "VERB"), ("坐", "VERB"), ("奠", "VERB"), ("觶", "OBJECT"), ("薦西", "LOCATION")]),
    ("001", "司射適堂西袒決遂取弓于階西兼挾乘矢升自西階",  # 射 of 司射 is no act; 于/自 stay out
     [("司射", "ACTOR"), ("適", "VERB"), ("堂西", "LOCATION"), ("袒", "VERB"), ("決", "OBJECT"), ("取", "VERB"),
      ("弓", "OBJECT"), ("階西", "LOCATION"), ("挾", "VERB"), ("乘矢", "OBJECT"), ("升", "VERB"), ("西階", "LOCATION")]),
    ("001", "乃席賓南面東上",  # 席賓 lays the mat: no place; 東上 no facing
     [("賓", "ACTOR"), ("南面", "FACING")]),
    ("002", "祝迎尸于門外",
     [("祝", "ACTOR"), ("迎", "VERB"), ("尸", "ACTOR"), ("門外", "LOCATION")]),
    ("002", "主人降立于阼階東",
     [("主人", "ACTOR"), ("降", "VERB"), ("立", "VERB"), ("阼階東", "LOCATION")]),
    ("004", "侯氏降自西阶,东面授宰币,西阶前再拜稽首,以马出,授人,九马随之。",
     [("侯氏", "ACTOR"), ("降", "VERB"), ("西阶", "LOCATION"), ("东面", "FACING"), ("授", "VERB"), ("宰", "ACTOR"),
      ("币", "OBJECT"), ("西阶前", "LOCATION"), ("拜", "VERB"), ("稽首", "VERB"), ("马", "OBJECT"), ("出", "VERB"),
      ("授", "VERB"), ("人", "ACTOR"), ("马", "OBJECT")]),  # 授人: the one handed to (the span CRF; the dev gold has it)
    ("000", "释获者坐取中之八筭,改实八筭,",  # 释获者 (and 获, 释) inside a name; 中 is the tally holder
     [("释获者", "ACTOR"), ("坐", "VERB"), ("取", "VERB"), ("中", "OBJECT"), ("筭", "OBJECT"), ("实", "VERB"),
      ("筭", "OBJECT")]),
    ("000", "执幂者举幂,",  # 执 of 执幂者 is no act
     [("执幂者", "ACTOR"), ("幂", "OBJECT")]),
    ("000", "主人答再拜,乃请。宾礼辞,许。",
     [("主人", "ACTOR"), ("拜", "VERB"), ("请", "VERB"), ("宾", "ACTOR"), ("辞", "VERB"), ("许", "VERB")]),
]


@pytest.mark.parametrize("prefix,passage,expected", CASES, ids=[f"{c[0]}:{c[1][:8]}" for c in CASES])
def test_spans_of_jing_sentences(nlp, prefix, passage, expected):
    assert spans_of(nlp, seed(prefix), passage) == expected


@pytest.mark.parametrize("prefix,passage,expected", CASES[:6], ids=[f"{c[0]}:{c[1][:8]}" for c in CASES[:6]])
def test_char_backend_gives_the_same_spans(char_nlp, prefix, passage, expected):
    assert spans_of(char_nlp, seed(prefix), passage) == expected


def test_simplified_and_traditional_give_the_same_spans(nlp):
    simplified = "主人答再拜,乃请。宾礼辞,许。主人再拜,宾答再拜。"
    traditional = "主人荅再拜乃請賓禮辭許主人再拜賓荅再拜"
    labels = lambda text: [(normalise_str(text[s:e]), l) for s, e, l in tag_spans(nlp, normalise_str(text))]  # noqa: E731
    assert labels(simplified) == labels(traditional)


@pytest.mark.parametrize("which", ["nlp", "lexicon_nlp", "char_nlp"])
def test_text_as_the_edition_writes_it_is_read_as_its_normalised_view(which, request):
    """A spaCy user hands the pipeline the 經 as seed 003 writes it, not yili's normalised view (賓 →
    宾, 門 → 门): the Doc keeps that text and its tokens, cut where the view's are, and the spans are
    the view's. The lexicon is in the normalised form, and 賓 and 門左 had been found by no backend
    (with the span CRF, by the CRF alone, and not 門左)."""
    nlp = request.getfixturevalue(which)
    prefix, passage, expected = CASES[3]
    raw = seed(prefix)
    doc = nlp(passage)
    assert doc.text == passage and "賓" in passage and "宾" not in passage
    assert [(passage[s.start_char:s.end_char], s.label_) for s in doc.spans["sc"]] == expected
    assert spans_of(nlp, raw, passage) == expected
    view = nlp(normalise_str(passage))
    assert [(t.idx, len(t)) for t in doc] == [(t.idx, len(t)) for t in view]
    # a Doc the user made with spaCy's own words (no yili tokenizer) is read the same way
    from spacy.tokens import Doc

    own = nlp(Doc(nlp.vocab, words=[t.text for t in doc], spaces=[False] * len(doc)))
    assert [(s.text, s.label_) for s in own.spans["sc"]] == expected


def test_spans_never_overlap_on_a_whole_seed_passage(nlp):
    raw = seed("003")
    start = raw.index("主人坐取爵于篚,降洗。")
    view = segment_view(raw, start, start + 3000)
    spans = tag_spans(nlp, view.text)
    assert len(spans) > 300
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def test_jieba_never_splits_a_lexicon_term(nlp):
    lexicon = Lexicon.load()
    for label, terms in lexicon.normalised(normalise_str).items():
        for term in terms:
            assert [t.text for t in nlp.tokenizer(term)] == [term], (label, term)


def test_jieba_tokens_line_up_with_spans_and_function_words_are_single(nlp, lexicon_nlp):
    raw = seed("003")
    start = raw.index("主人坐取爵于篚,降洗。")
    view = segment_view(raw, start, start + 1500)
    lexicon_doc = lexicon_nlp(view.text)
    for span in lexicon_doc.spans["sc"]:
        assert len(span) == 1, span.text  # one token per lexicon term
    doc = nlp(view.text)
    starts = {t.idx for t in doc}
    ends = {t.idx + len(t) for t in doc}
    # the span CRF's spans too sit on token boundaries (an unlisted name, 重者, may be two tokens)
    assert all(s in starts and e in ends for s, e, _ in tag_spans(nlp, view.text))
    for token in doc:
        if any(ch in token.text for ch in "于以之而其者"):
            assert len(token.text) == 1 or token.text in nlp.tokenizer.matcher.terms, token.text
    # jieba's own cuts are kept where the lexicon is silent (not one token per char): seen with
    # jieba's own dictionary, whose words of two characters or more are many (the classical word
    # list of the default config has few, and they are rare in the 儀禮)
    modern = build_nlp({"nlp": {"tokenizer": "jieba", "jieba_dictionary": None}})
    assert any(len(t.text) > 1 and t.text not in modern.tokenizer.matcher.terms for t in modern(view.text))


def test_jieba_cuts_are_remembered_per_stretch_and_read_as_fresh(nlp, monkeypatch):
    """The stretch cache must give exactly what jieba gives, and stay bounded."""
    import pipeline.nlp.jieba_tokenizer as jt

    raw = seed("004")
    view = segment_view(raw, 0, 6000)
    tokenizer = nlp.tokenizer
    tokenizer._cuts.clear()
    first = tokenizer.ranges(view.text)
    remembered = len(tokenizer._cuts)
    assert remembered > 50
    assert tokenizer.ranges(view.text) == first  # now from the cache
    fresh = jt.JiebaRitualTokenizer(nlp.vocab)
    fresh._jieba = tokenizer.jieba
    monkeypatch.setattr(jt, "CACHE_SIZE", 10)
    assert fresh.ranges(view.text) == first  # cleared every 10 stretches, same cuts
    assert len(fresh._cuts) <= 10


def test_processor_preload_loads_the_jieba_dictionary_before_any_fork():
    """Forked workers share the dictionary the parent loaded; left lazy, each worker loads its own."""
    from pipeline.process import DocumentProcessor

    proc = DocumentProcessor()
    assert proc.nlp.tokenizer._jieba is None
    proc.preload()
    assert proc.nlp.tokenizer._jieba is not None


def test_char_backend_is_one_token_per_char(char_nlp):
    text = normalise_str("主人阼階上當楣北面再拜")
    assert [t.text for t in char_nlp(text)] == list(text)


def test_pipeline_is_assembled_from_the_config(nlp, tmp_path):
    import spacy

    assert nlp.pipe_names == ["lexicon_ruler", "span_model"]
    assert nlp.config["nlp"]["tokenizer"]["@tokenizers"] == "yili.jieba_tokenizer.v1"
    assert nlp.config["nlp"]["tokenizer"]["hmm"] is False
    nlp.to_disk(tmp_path / "model")
    again = spacy.load(tmp_path / "model")
    text = normalise_str("主人阼階上當楣北面再拜")
    assert tag_spans(again, text) == tag_spans(nlp, text)


def test_stanza_with_a_wrong_model_dir_says_how_to_provide_one(tmp_path):
    # (stanza_model_dir = null loads the shipped models/stanza-lzh: tests/test_stanza.py)
    missing = tmp_path / "no-such-model"
    with pytest.raises(BackendUnavailable, match="no-such-model"):
        build_nlp({"nlp": {"tokenizer": "stanza", "stanza_model_dir": str(missing)}})
    missing.mkdir()
    with pytest.raises(BackendUnavailable, match=r"\*\.pt"):
        build_nlp({"nlp": {"tokenizer": "stanza", "stanza_model_dir": str(missing)}})


def test_unknown_tokenizer_is_refused():
    with pytest.raises(ValueError, match="jieba"):
        build_nlp({"nlp": {"tokenizer": "whitespace"}})


def test_udkanbun_missing_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "udkanbun", None)  # import udkanbun → ImportError
    with pytest.raises(BackendUnavailable, match=r"pip install yili\[udkanbun\]"):
        build_nlp({"nlp": {"tokenizer": "udkanbun"}})


def test_udkanbun_backend_when_installed():
    pytest.importorskip("udkanbun")
    nlp = build_nlp({"nlp": {"tokenizer": "udkanbun"}})
    raw = seed("003")
    assert spans_of(nlp, raw, "主人阼階上當楣北面再拜。") == CASES[0][2]
    doc = nlp(normalise_str("主人坐取爵于篚,降洗。"))
    assert [t.text for t in doc][:2] == ["主人", "坐"]
    assert any(t.pos_ for t in doc)  # UD-Kanbun's UPOS where its cut was kept


_START_UP = """
import sys
from pipeline.process import DocumentProcessor
proc = DocumentProcessor()
proc.preload()
out = proc.process({"text": "主人升，賓升，主人阼階上當楣北面再拜。"})
loaded_by_yili = "torch" in sys.modules
import thinc.compat, torch  # torch itself stays importable (the stanza backend needs it)
print(loaded_by_yili, thinc.compat.has_torch, float(torch.ones(2).sum()), len(out["actions"]))
"""


@pytest.mark.parametrize("opt_out, expected", [("", "False False 2.0 3"), ("1", "True True 2.0 3")])
def test_start_up_leaves_torch_out_of_thinc_unless_asked(opt_out, expected):
    """A run loads no torch (about a second of start-up); YILI_THINC_TORCH=1 gives thinc its torch back."""
    import os
    import subprocess

    env = dict(os.environ, YILI_THINC_TORCH=opt_out)
    done = subprocess.run([sys.executable, "-c", _START_UP], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == expected
