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


@pytest.mark.parametrize("text, sentence, actor", [
    # 鄉射禮 p229 unpunctuated: …北面東上。工坐，相者坐授瑟 — jieba reads 東上|工 as 東|上工
    ("工四人二瑟瑟先相者皆左何瑟面鼓執越內弦右手相入升自西階北面東上工坐相者坐授瑟乃降", "工坐相者坐授瑟乃降", "工"),
    # 大射 p52: 小卿賓西，東上。大夫繼而東上 — jieba's 上大夫 (a term of the lexicon) across the break
    ("卿席賓東東上小卿賓西東上大夫繼而東上若有東面者則北上", "大夫繼而東上", "大夫"),
])
def test_a_break_inside_a_word_cuts_the_word(nlp, text, sentence, actor):
    """The 斷句 model breaks where jieba joined two characters into a word: the word is cut, so
    the spaCy sentence is the model's (it used to end one character late, 東上工 | 坐…), and the
    participant that opens it is a span of its own (上工 and 上大夫 crossed the break)."""
    doc = nlp.make_doc(text)
    doc.user_data["layer"] = "JING"
    for _, pipe in nlp.pipeline:
        doc = pipe(doc)
    sents = [s.text for s in doc.sents]
    assert sents == [text[s:e] for s, e in doc.user_data["sentence_chars"]]
    assert sentence in sents
    start = text.index(sentence)
    opening = [s for s in doc.spans["sc"] if s.start_char == start]
    assert [(s.text, s.label_) for s in opening] == [(actor, "ACTOR")]
    assert all(not (s.start_char < start < s.end_char) for s in doc.spans["sc"])


def test_a_cut_keeps_the_tokenizers_lexicon_cover_in_step():
    """The span ruler reads the tokenizer's lexicon cover by token index: after a cut outside every
    term the cover points at the same terms on the new tokens; a cut inside a term drops the cover
    (its best cover is another text's) and the ruler matches the lexicon itself."""
    from pipeline.nlp import build_nlp
    from pipeline.nlp.base import COVER_KEY
    from pipeline.nlp.retokenize import split_at

    # jieba's own dictionary, which joins 某子|尚 into 子尚 (特牲 p18): a word outside every term
    tokenizer = build_nlp({"nlp": {"tokenizer": "jieba", "jieba_dictionary": None}}).tokenizer
    text = "宰自主人之左贊命命曰孝孫某筮來日某諏此某事適其皇祖某子尚饗"
    doc = tokenizer(text)
    _fp, n, rows = doc.user_data[COVER_KEY]
    terms = {(s, e) for s, e, _i, _label in rows}
    inside = [t for t in doc if len(t) > 1 and (t.idx, t.idx + len(t)) not in terms]
    assert inside, [t.text for t in doc]
    assert split_at(doc, [inside[0].idx + 1])
    _fp, n2, rows2 = doc.user_data[COVER_KEY]
    assert n2 == len(doc) == n + 1 and len(rows2) == len(rows)
    assert all(doc[i].text == text[s:e] for s, e, i, _label in rows2)
    term = next(t for t in doc if len(t) > 1 and (t.idx, t.idx + len(t)) in terms)
    assert term.text == "主人"
    assert split_at(doc, [term.idx + 1]) and COVER_KEY not in doc.user_data


def test_the_config_names_the_layer_a_doc_is_read_as_when_the_doc_names_none():
    """`[nlp] sentences_layer`: a spaCy user reading 經 sets the layer once, not on every Doc. Read
    as of no known layer, 主人揖先入賓厭介入門左 (seed 003's 經, its marks gone) stays one sentence;
    as 經 the 斷句 model ends one before 賓. A layer on the Doc itself still wins."""
    from pipeline.config import load_config

    text = "主人揖先入賓厭介入門左"

    def sentences(layer, doc_layer=None):
        cfg = load_config()
        cfg["nlp"] = dict(cfg["nlp"], sentences="crf", sentences_layer=layer)
        nlp = build_nlp(cfg)
        doc = nlp.make_doc(text)
        if doc_layer:
            doc.user_data["layer"] = doc_layer
        return [s.text for s in nlp(doc).sents]

    assert sentences(None) == [text]
    assert sentences("JING") == ["主人揖先入", "賓厭介入門左"]
    assert sentences(None, doc_layer="JING") == ["主人揖先入", "賓厭介入門左"]
    with pytest.raises(ValueError, match="unknown layer 'jing'"):
        sentences("jing")
