"""The layer classifier and the run-together splitter, on real passages of the seeds.

The expected layers were decided by reading the passages (鄉飲酒禮 in seed 003, 鄉射禮 in seed
001, 覲禮 in seed 004, a modern translation in seed 000), not from the program's output. The
shipped model (models/layers/) is used where a fitted model is needed; the round trip and the
error messages use a small model fitted here on one chapter.
"""

from __future__ import annotations

import math
import re
import random

import numpy as np
from pathlib import Path

import pytest

from pipeline.labels import LAYERS
from pipeline.layers.classifier import LayerClassifier, ModelError, classify_records, default_model_dir

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO / "pipeline" / "samples"


def seed_lines(prefix: str) -> list[str]:
    path = next(SEEDS.glob(f"{prefix}_*.txt"))
    return path.read_text(encoding="utf-8").split("\n")


def line_starting(prefix: str, start: str) -> str:
    return next(line.strip() for line in seed_lines(prefix) if line.strip().startswith(start))


@pytest.fixture(scope="module")
def shipped() -> LayerClassifier:
    return LayerClassifier.load()


@pytest.fixture(scope="module")
def small_model() -> LayerClassifier:
    """A model fitted on seed 003 alone (鄉飲酒禮 paragraphs, 經/注/疏 by their order): fast."""
    from pipeline.layers.training import gold_examples

    examples = [e for e in gold_examples() if e.doc == "seed003"]
    assert len(examples) > 300
    return LayerClassifier(calibrate=False).fit([e.text for e in examples], [e.label for e in examples])


# -- the shipped model on real passages ----------------------------------------------------------


def test_zhu_gloss_is_zhu(shipped):
    # 鄭注 on 主人戒賓: 「戒，警也，告也。拜辱，出拜其自屈辱至己門也。」 glosses, X，Y也
    text = line_starting("003", "戒,警也,告也。")
    assert shipped.predict([text])[0] == "ZHU"


def test_shu_with_shiyue_is_shu(shipped):
    # 賈疏: the head 「主人」至「答拜」, the 注 head, then ○釋曰︰
    text = line_starting("003", "「主人」至「答拜」。○注「戒警」")
    label = shipped.predict([text])[0]
    proba = shipped.predict_proba([text])[0]
    assert label == "SHU"
    assert proba[LAYERS.index("SHU")] > 0.9


def test_jing_sentence_is_jing(shipped):
    # the 經 of 鄉飲酒禮: 主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。
    text = line_starting("003", "主人戒賓,賓拜辱。")
    assert shipped.predict([text])[0] == "JING"


def test_unpunctuated_jing_and_zhu_of_seed_001(shipped):
    # 儀禮集釋 (hard-wrapped, unpunctuated): a 經 line and the 鄭注 on 主人朝服乃速賓 (marker removed)
    jing = line_starting("001", "賓禮辭許主人再拜")
    zhu = line_starting("001", "鄭注速召也射賓輕也")[2:] + line_starting("001", "禮皮弁服與禮為異")
    assert list(shipped.predict([jing, zhu])) == ["JING", "ZHU"]


def test_simplified_shu_line_of_seed_004(shipped):
    # seed 004 is simplified: a 疏 line with its [疏] marker cut off still reads as 疏
    text = line_starting("004", "[疏]“摈者”至“受之”")[3:]
    assert shipped.predict([text])[0] == "SHU"


def test_modern_translation_is_other(shipped):
    # seed 000: a modern vernacular note (【注释】 of a translation), neither 經 nor 注 nor 疏
    text = line_starting("000", "(39)视侯中,俯正足")
    assert shipped.predict([text])[0] == "OTHER"


@pytest.mark.parametrize("text", ["", "   ", "Hello, world 2024", "—— 12:30 ——"])
def test_unreadable_text_is_other_with_a_low_score(shipped, text):
    record = next(classify_records([{"text": text, "meta": {"id": 7}}], shipped))
    assert record["label"] == "OTHER"
    assert record["scores"]["OTHER"] <= 0.5
    assert record["meta"] == {"id": 7}


def test_classify_records_adds_label_and_scores_and_keeps_fields(shipped):
    records = [
        {"text": line_starting("003", "主人戒賓,賓拜辱。"), "extra": [1, 2]},
        {"text": line_starting("003", "戒,警也,告也。")},
        {"no_text": True},
    ]
    out = list(classify_records(records, shipped))
    assert [r.get("label") for r in out] == ["JING", "ZHU", "OTHER"]
    assert out[0]["extra"] == [1, 2]
    assert "error" in out[2]
    for r in out:
        assert set(r["scores"]) == set(LAYERS)
        assert math.isclose(sum(r["scores"].values()), 1.0, abs_tol=1e-3)


def test_context_decides_a_short_unit(shipped):
    # 士喪禮 (corpus XHTML, chapter 12): the 經 「帷堂。」 stands between a 疏 and its own 注 「事小訖也。」.
    # Alone, a three-character unit could be either; between a 疏 and the 注 explaining it, it is 經.
    shu = "注「鬼神」至「依之」。○釋曰︰案檀弓曾子云︰「始死之奠，其餘閣也與？」鄭注云「不容改新」也，則此奠是閣之餘食為之。"
    texts = [shu, "帷堂。", "事小訖也。"]
    with_context = shipped.predict(texts, contexts=["doc"] * 3)
    assert list(with_context) == ["SHU", "JING", "ZHU"]


def _units(edition: str, chapter: str) -> list:
    from pipeline.corpus import iter_units

    return sorted((u for u in iter_units(edition, [chapter]) if u.text.strip()), key=lambda u: u.index)


def test_classify_reads_the_records_of_one_document_in_its_order(shipped):
    # 覲禮 (XHTML, chapter 10): 「事畢。」 is 經, standing between a 疏 and its own 注 「三享訖。」; read
    # alone, two characters look like a 注 to the model
    units = _units("zhushu-xhtml", "10")
    k = next(i for i, u in enumerate(units) if u.text == "事畢。" and units[i + 1].text == "三享訖。")
    window = units[k - 2:k + 3]
    gold = [u.layer for u in window]
    assert gold == ["ZHU", "SHU", "JING", "ZHU", "JING"]
    as_documents = [{"text": u.text, "meta": {"source": u.source, "start": u.start}} for u in window]
    report: dict = {}
    assert [r["label"] for r in classify_records(as_documents, shipped, report)] == gold
    assert report == {"adjacent": 1}
    # each record its own document: the text alone decides, and 事畢 is taken for a 注
    alone = [{"text": u.text, "meta": {"source": f"{u.source}#{n}"}} for n, u in enumerate(window)]
    assert [r["label"] for r in classify_records(alone, shipped)][2] == "ZHU"
    # handed over in another order, the records are read in the order their offsets give, and
    # written back in the order they came
    shuffled = [as_documents[i] for i in (3, 0, 4, 2, 1)]
    out = list(classify_records(shuffled, shipped))
    assert [r["text"] for r in out] == [r["text"] for r in shuffled]
    assert [r["label"] for r in out] == [gold[i] for i in (3, 0, 4, 2, 1)]


def test_classify_weighs_the_order_before_using_it(shipped):
    # the whole 覲禮 of the SBCK 鄭注 edition: in order its units are read as neighbours; shuffled
    # (and without offsets to restore the order) they are not, and the labels are the text's
    units = _units("zhengzhu-sbck", "10")
    records = [{"text": u.text, "meta": {"source": u.source}} for u in units]
    report: dict = {}
    list(classify_records(records, shipped, report))
    assert report == {"adjacent": 1}
    shuffled = random.Random(0).sample(records, len(records))
    report = {}
    out = list(classify_records(shuffled, shipped, report))
    assert "adjacent" not in report
    alone = [LAYERS[i] for i in shipped.text_proba([r["text"] for r in shuffled]).argmax(axis=1)]
    agree = sum(a == r["label"] for a, r in zip(alone, out)) / len(out)
    assert agree > 0.97


# -- persistence and errors ------------------------------------------------------------------------


def test_save_load_round_trip(small_model, tmp_path):
    texts = [line_starting("003", "主人戒賓,賓拜辱。"), line_starting("003", "戒,警也,告也。"), "", "帷堂"]
    small_model.save(tmp_path / "m")
    loaded = LayerClassifier.load(tmp_path / "m")
    assert (loaded.predict_proba(texts) == small_model.predict_proba(texts)).all()
    assert list(loaded.classes_) == list(LAYERS)


def test_missing_model_names_path_and_command(tmp_path):
    with pytest.raises(ModelError) as info:
        LayerClassifier.load(tmp_path / "nowhere")
    message = str(info.value)
    assert str(tmp_path / "nowhere") in message
    assert "yili train layers" in message


def test_corrupt_model_names_path_and_command(small_model, tmp_path):
    folder = tmp_path / "broken"
    small_model.save(folder)
    model_file = folder / "classifier.joblib"
    model_file.write_bytes(model_file.read_bytes()[:200])  # a truncated download or copy
    with pytest.raises(ModelError) as info:
        LayerClassifier.load(folder)
    message = str(info.value)
    assert str(model_file) in message
    assert "yili train layers" in message


def test_save_writes_a_runtime_form_with_the_same_probabilities(small_model, tmp_path):
    from pipeline.layers.runtime import RuntimeLayerModel, load_model
    from tests.conftest import SEEDS

    small_model.save(tmp_path / "m")
    runtime = load_model(tmp_path / "m")
    assert isinstance(runtime, RuntimeLayerModel)
    raw = SEEDS[0].read_text(encoding="utf-8")
    texts = [raw[i : i + 1 + i % 120] for i in range(0, len(raw), 97)] + ["", "ABC"]
    assert np.allclose(runtime.text_proba(texts), small_model.text_proba(texts), rtol=0, atol=1e-9)


def test_shipped_model_is_small_and_has_a_card():
    folder = default_model_dir()
    assert sum(p.stat().st_size for p in folder.iterdir()) < 20_000_000  # joblib + runtime form + card
    card = (folder / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert "Trained" in card and "corpus" in card


# -- run-together text -----------------------------------------------------------------------------


def test_splitter_finds_the_jing_zhu_seam_of_a_seed_004_line(shipped):
    # 覲禮: 經 「奉束帛，匹馬卓上，九馬隨之，中庭西上，奠幣，再拜稽首。」 then 鄭注 「卓，讀如卓王孫之卓…」
    # with the classifier scoring the pieces, as `yili process` always calls it (the character CRF
    # alone, a fallback nothing in the pipeline uses, reads this line whole as 注 since the
    # retraining of 2026-11-27)
    line = line_starting("004", "奉束帛,匹马卓上")
    seam = line.index("卓,读如")
    runs = shipped.splitter_.predict(line, classifier=shipped)
    assert runs[0][2] == "JING"
    assert any(layer == "ZHU" and abs(start - seam) <= 3 for start, _end, layer in runs)


def test_resolve_segments_splits_an_undecided_line(shipped):
    from pipeline.records import Segment

    line = line_starting("004", "奉束帛,匹马卓上")
    text = "[疏]前一段。\n" + line
    start = text.index(line)
    segments = [
        Segment("SHU", 3, start - 1, text[3 : start - 1], "marker", 1.0),
        Segment("JING", start, len(text), line, "default", 0.5),
    ]
    out = shipped.resolve_segments(text, segments, [])
    assert out[0] is segments[0]
    model = [s for s in out if s.evidence == "model"]
    assert [s.layer for s in model][:2] == ["JING", "ZHU"]
    assert model[0].start == start and model[-1].end == len(text)
    assert all(0.0 < s.score <= 1.0 and s.text == text[s.start : s.end] for s in model)


# -- what the scholar reads: 反切, 疏 odds, a 注 repeating its 經 ---------------------------------


def test_fan_of_the_jing_is_not_a_fanqie():
    from pipeline.layers.features import feature_names, scholar_features

    names = feature_names()
    row = dict(zip(names, scholar_features("司馬降，釋弓反位。")))
    assert row["fanqie_end_any"] == 0.0
    row = dict(zip(names, scholar_features("鄉，許亮反。")))
    assert row["fanqie_end_any"] == 1.0


def test_shu_odds_come_from_their_own_sigmoid(shipped):
    # a 經 sentence of 鄉射禮 (seed 001's chapter): hardly 疏 at all, whichever of 經/注 it is
    text = "主人阼階上答拜。"
    p = shipped.text_proba([text])[0]
    assert abs(p.sum() - 1.0) < 1e-6
    assert p[LAYERS.index("SHU")] < 0.05
    plain = shipped.text_proba([text], separate=False)[0]
    assert plain.argmax() == p.argmax()


def test_a_piece_opening_on_the_words_before_it_reads_as_zhu(shipped):
    # 士相見禮: 經 「…固請吾子之就家也…」, then the 注 「固，如故也。」 glossing its 固
    splitter = shipped.splitter_
    text = "主人對曰︰「某不敢為儀，固請吾子之就家也，某將走見。」固，如故也。"
    spans = splitter._pieces(text)
    cats = splitter._quote_cats(text, spans)
    assert cats == ["0", "1P"]
    factors = splitter.quote_factors_["1P"]
    assert factors[splitter.layers.index("ZHU")] > factors[splitter.layers.index("JING")]


def test_unpunctuated_cue_cuts_propose_the_seam(shipped):
    # SBCK 士相見禮 with its parentheses dropped: 經 若有將食者… then 注 將食猶進食謂膳宰也
    splitter = shipped.splitter_
    jing = "若有將食者則俟君之食然後食"
    text = jing + "將食猶進食謂膳宰也"
    cuts = splitter._cue_cuts(text, "q")
    assert len(jing) in cuts


def test_a_shu_after_its_zhu_stays_shu_to_the_end(shipped):
    # 士相見禮 (XHTML): the 注 「有，又也。…今文無走。」, then its 疏 from the head 「主人」至「走見」;
    # the 疏's later sentences (「此上下皆言請，不言辭。」, 「云『走，猶往也』者…」) read like 注 one by
    # one but belong to the 疏 that began at its head
    zhu = "有，又也。某子命某往見，今吾子又自辱來，序其意也。走，猶往也。今文無走。"
    shu = ("「主人」至「走見」。○釋曰︰云「某子命某見」者，某子則是紹介姓名，以某子是中間之人，故賓主共稱之也。"
           "此上下皆言請，不言辭。辭而不受，須相見，故言請而已。○注「有又」至「無走」。○釋曰︰鄭轉有為又者，"
           "以言某子以命命某，往就彼見吾子，又自辱來，於義為便，故從又，不從有也。云「走，猶往也」者，以言走，"
           "直取急往相見之意，非走驟之義，故釋從往也。")
    runs = shipped.splitter_.predict(zhu + shu, classifier=shipped)
    assert runs[0][2] == "ZHU"
    shu_runs = [(start, end) for start, end, layer in runs if layer == "SHU"]
    assert shu_runs and abs(shu_runs[0][0] - len(zhu)) <= 3
    assert runs[-1][2] == "SHU" and all(layer != "ZHU" for start, _e, layer in runs if start >= shu_runs[0][0])


def test_a_shu_head_stays_shu_whatever_the_classifier_says(shipped, monkeypatch):
    # the same 注 + 疏 as above, with the classifier, the piece CRF and the character CRF all reading
    # every piece as 注 (a retrained model once read the head 「主人」至「走見」。 so): the heads and
    # the 釋曰 sentences are markers
    import numpy as np

    from pipeline.labels import LAYERS

    zhu = "有，又也。某子命某往見，今吾子又自辱來，序其意也。走，猶往也。今文無走。"
    shu = "「主人」至「走見」。○釋曰︰云「某子命某見」者，某子則是紹介姓名。○注「有又」至「無走」。○釋曰︰鄭轉有為又者，於義為便。"
    text = zhu + shu

    def all_zhu(texts):
        out = np.full((len(texts), len(LAYERS)), -3.0)
        out[:, LAYERS.index("ZHU")] = 3.0
        return out

    splitter = shipped.splitter_
    monkeypatch.setattr(shipped, "_logits", all_zhu)
    monkeypatch.setattr(splitter, "_piece_tags", lambda texts, logits: ["ZHU"] * len(texts))
    monkeypatch.setattr(splitter, "_crf_labels", lambda t: ["ZHU"] * len(t))
    labels = splitter.predict_labels(text, shipped)
    for opening in ("「主人」至「走見」", "釋曰︰云", "注「有又」至「無走」", "釋曰︰鄭轉"):
        at = text.index(opening)
        assert set(labels[at : at + len(opening)]) == {"SHU"}, opening
    assert labels[text.index("今吾子")] == "ZHU"  # the 注 itself is still read as the classifier says


def test_seed_004_line_splits_with_the_classifier(shipped):
    # 覲禮 (seed 004, simplified): 經 「摈者曰：“予一人将受之。”」 then 鄭注 「亦言王欲亲受之。」
    line = line_starting("004", "摈者曰")
    seam = line.index("亦言王欲")
    runs = shipped.splitter_.predict(line, classifier=shipped)
    assert runs[0][2] == "JING"
    assert any(layer == "ZHU" and abs(start - seam) <= 3 for start, _end, layer in runs)


def test_direct_scoring_equals_the_sklearn_pipeline(shipped):
    """_logits applies the fitted steps by hand (no per-call validation): the decision values of
    every piece of seed and corpus text must be those of Pipeline.decision_function."""
    import numpy as np

    from pipeline.layers.classifier import _align
    from tests.conftest import SEEDS

    texts = []
    for path in SEEDS:
        raw = path.read_text(encoding="utf-8")
        texts += [raw[i : i + 1 + i % 150] for i in range(0, len(raw), 211)]
    texts += ["", "。", "主人", "ABC"]
    fast = shipped._logits(texts)
    slow = _align(shipped.model_.named_steps["svm"], shipped.model_.decision_function(texts))
    assert len(texts) > 500 and np.allclose(fast, slow, rtol=1e-6, atol=1e-6)


# -- character language models (pipeline.layers.charlm: measured, not shipped) --------------------


@pytest.fixture(scope="module")
def held_out_lms():
    """經 and 注 character models fitted on every corpus chapter but 03 士相見禮."""
    from pipeline.layers.charlm import LMSegmenter
    from pipeline.layers.training import load_units

    units = load_units([c for c in ("04", "05", "07", "10", "11", "12", "13", "14", "15", "17")])
    return LMSegmenter(order=5, switch_penalty=4.0).fit((u.layer, u.text) for u in units)


def test_char_lms_read_held_out_zhu_as_zhu(held_out_lms):
    # 士相見禮 (never seen): 鄭注 glosses read as 注; its 經 sentences of ritual acts as 經
    from pipeline.layers.charlm import lm_text

    def llr(text: str) -> float:
        lp = held_out_lms.char_logprobs(lm_text(text)).sum(axis=0)
        return float(lp[0] - lp[1])  # 經 minus 注

    for zhu in ("固，如故也。", "走，猶往也。今文無走。", "復見之者，禮尚往來也。以其贄，謂曏時所執來者也。"):
        assert llr(zhu) < 0, zhu
    for jing in ("主人揖，入門右。賓奉贄，入門左。主人再拜受。", "主人送于門外，再拜。"):
        assert llr(jing) > 0, jing


def test_lm_segmenter_finds_the_seam_of_a_held_out_pair(held_out_lms):
    # 士相見禮 (XHTML): 經 「主人請見，賓反見，退。主人送于門外，再拜。」 then its 注 「請見者，…」
    jing = "主人請見，賓反見，退。主人送于門外，再拜。"
    text = jing + "請見者，為賓崇禮來，相接以矜莊，歡心未交也。賓反見，則燕矣。"
    labels = held_out_lms.predict_labels(text)
    assert labels[0] == "JING" and labels[-1] == "ZHU"
    seams = [i for i in range(1, len(text)) if labels[i] != labels[i - 1]]
    assert seams == [len(jing)]


def test_char_lm_is_normalised_and_its_arrays_read_back_the_same(held_out_lms):
    from pipeline.layers.charlm import EOS, CharLM

    lm = held_out_lms.lms_["ZHU"]
    chars = [key for key in lm.logp_ if len(key) == 1 and key != EOS] + [EOS]
    for ctx in ("", "^", "^固", "猶往", "謂曏時所"):
        total = sum(lm.prob(ctx, c) for c in chars) + (lm.vocab_size_ - len(chars)) * lm.prob(ctx, "\uf8ff")
        assert abs(total - 1.0) < 2e-3, ctx  # float16 storage leaves a little slack
    back = CharLM.from_arrays(lm.to_arrays("z_"), "z_")
    text = "^復見之者禮尚往來也以其贄謂曏時所執來者也$"
    assert [back.logprob(text[max(0, i - 4) : i], text[i]) for i in range(1, len(text))] == \
        [lm.logprob(text[max(0, i - 4) : i], text[i]) for i in range(1, len(text))]


def test_lm_emissions_are_off_unless_a_model_and_weight_are_given(shipped, held_out_lms):
    splitter = shipped.splitter_
    text = "若有將食者則俟君之食然後食將食猶進食謂膳宰也"
    spans = splitter._pieces(text)
    assert splitter._lm_emissions(text, spans) is None  # the shipped splitter has no LMs
    try:
        splitter.lm_, splitter.lm_weight = held_out_lms, 0.5
        emis = splitter._lm_emissions(text, spans)
        assert np.any(emis) and np.allclose(emis[:, splitter.layers.index("SHU")], 0)
        punctuated = "若有將食者，則俟君之食，然後食。將食，猶進食，謂膳宰也。"
        assert splitter._lm_emissions(punctuated, splitter._pieces(punctuated)) is None
    finally:
        del splitter.lm_, splitter.lm_weight


# -- runs whose shape the reader knows (RunShape) --------------------------------------------------

def test_viterbi_keeps_to_a_known_shape():
    from pipeline.layers.seams import _viterbi

    # three pieces that read 注, 經, 注 one by one
    emis = np.log(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]))  # columns: JING, ZHU
    trans = np.log(np.full((2, 2), 0.5))
    assert _viterbi(emis, trans) == [1, 0, 1]
    assert _viterbi(emis, trans, (0, None, False)) == [0, 0, 1]  # it opens with 經
    assert _viterbi(emis, trans, (1, 0, True)) == [1, 0, 0]  # 注, then 經 to the end, one seam
    assert _viterbi(emis, trans, (0, 1, True)) == [0, 0, 1]  # 經, then 注
    assert _viterbi(emis[:1], trans, (0, 1, True)) == [0]  # one piece: the layer it opens with


def test_viterbi_by_heads_keeps_the_order_of_a_zhushu():
    from pipeline.layers.seams import _viterbi_by_heads

    layers = ("JING", "ZHU", "SHU")
    trans = np.log(np.full((3, 3), 1 / 3))
    # 經, 注, a head, two 疏 sentences the classifier reads as 注 (they quote it), the next 經
    emis = np.log(np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8], [0.1, 0.5, 0.4],
                            [0.1, 0.5, 0.4], [0.7, 0.2, 0.1]]))
    assert _viterbi_by_heads(emis, trans, {2}, layers) == [0, 1, 2, 2, 2, 0]  # the 疏 never runs into a 注
    # without a head at piece 2 there is no way into the 疏: the pieces read as 疏 are read otherwise
    assert 2 not in _viterbi_by_heads(emis, trans, set(), layers)
    # a string opens in a 疏 only on a head, however 疏-like its first piece
    first = np.log(np.array([[0.3, 0.1, 0.6], [0.5, 0.4, 0.1]]))
    assert _viterbi_by_heads(first, trans, set(), layers)[0] != 2
    assert _viterbi_by_heads(first, trans, {0}, layers)[0] == 2


def test_a_splitter_reads_by_heads_only_a_punctuated_string_with_a_shu_head(shipped):
    splitter = shipped.splitter_
    jing_zhu = "主人坐取爵，實之賓之席前。實之，實酒於爵也。"
    head = "「主人」至「席前」。○注「實之」至「爵也」。○釋曰︰云「實之，實酒於爵也」者，經直云實之，故鄭明之。"
    assert splitter.reads_by_heads(jing_zhu + head)
    assert not splitter.reads_by_heads(jing_zhu)  # no head
    decoding, splitter.decoding = splitter.decoding, "crf"  # a splitter that decodes otherwise reads no heads
    try:
        assert not splitter.reads_by_heads(jing_zhu + head)
    finally:
        splitter.decoding = decoding
    assert not splitter.reads_by_heads(re.sub(r"[^\u4e00-\u9fff]", "", jing_zhu + head))  # unpunctuated
    # read so, the 疏 runs from its head to the end, the 經 and the 注 before it
    labels = splitter.predict_labels(jing_zhu + head, shipped)
    assert labels[0] == "JING" and labels[len(jing_zhu) - 2] == "ZHU"
    assert set(labels[len(jing_zhu):]) == {"SHU"}


def test_a_lone_citation_before_a_shu_head_opens_the_shu():
    # 鄉飲酒禮: 「賓降洗」。○注「將酢主人」。○釋曰︰… — the 疏 opens on a citation of its 經 with no 至, which
    # alone is no head (the 經 and 注 quote too); right before a head it is the head's first part
    from pipeline.layers.seams import _shu_heads, _with_lead_citations

    texts = ["賓降洗。", "將酢主人。", "「賓降洗」。", "○注「將酢主人」。", "○釋曰︰自此已下至「西階上答拜」，論賓酢主人之事。",
             "主人降。", "「主人降」。", "主人辭洗。"]
    heads = _shu_heads(texts)
    assert heads == {4}  # 釋曰; a citation with no 至 is no head
    assert _with_lead_citations(texts, heads) == {2, 3, 4}  # 「主人降」 is followed by no head


def test_a_shu_head_fixes_the_jing_and_zhu_right_before_it():
    from pipeline.corpus import iter_units
    from pipeline.layers.anchors import cited_before_heads
    from pipeline.layers.seams import _SENTENCE_RE, _shu_heads

    # 特牲's 經 宗人告事畢 has no 疏 of its own; the next 經, its 注 and their head: 「前期」至「尚饗」 is the
    # 經 the 注 follows, 注「三日」至「為尸」 the 注 that ends where the head opens
    texts = ["宗人告事畢。", "前期三日之朝，筮尸，如求日之儀。", "命筮曰︰「孝孫某，諏此某事，適其皇祖某子，筮某之某為尸。尚饗！」",
             "三日者，容宿賓視濯也。", "某之某者，字尸父而名尸，連言其親，庶幾其馮依之也。", "大夫士以孫之倫為尸。",
             "「前期」至「尚饗」。", "○注「三日」至「為尸」。", "○釋曰︰自此盡「主人退」，論祭前筮尸、宿尸之事。"]
    heads = _shu_heads(texts)
    assert heads == {6, 7, 8}
    assert cited_before_heads(texts, heads) == {1: "JING", 2: "JING", 3: "ZHU", 4: "ZHU", 5: "ZHU"}
    # the 注 not right before the head: nothing is said, of the 經 either
    assert cited_before_heads(texts[:5] + texts[6:], {5, 6, 7}) == {}
    # 鄉飲酒禮's 經, 注 and 疏 on one line: every piece a head fixes has that layer
    units = sorted((u for u in iter_units(chapters=["04"]) if u.edition == "zhushu-xhtml" and u.layer in ("JING", "ZHU", "SHU")),
                   key=lambda u: u.index)
    text, gold = "", []
    for u in units:
        text += u.text.replace("\n", "")
        gold += [u.layer] * len(u.text.replace("\n", ""))
    spans = [(m.start(), m.end()) for m in _SENTENCE_RE.finditer(text) if m.end() > m.start()]
    pieces = [text[a:b] for a, b in spans]
    cited = cited_before_heads(pieces, _shu_heads(pieces))
    assert len(cited) > 200 and all(gold[spans[r][0]] == layer for r, layer in cited.items())


def test_an_unmarked_siku_zhu_end_is_found_where_the_jing_resumes():
    # 士相見禮, 四庫: a 注 runs into the next 經 with no mark between (the next 注 has its marker);
    # the reader knows the shape (注, then 經) and the splitter finds the one seam
    import re

    from pipeline.process import DocumentProcessor

    path = REPO.parent / "shared" / "corpus" / "zhushu-siku" / "03_shixiangjianli.txt"
    text = path.read_text(encoding="utf-8")
    _layout, segments, _removed = DocumentProcessor().layers({"text": text, "meta": {"source": str(path)}})

    def clean(s) -> str:
        return re.sub(r"<pb:[^>]*>|¶|\s", "", s.text)

    for zhu_opens, jing_opens in (("禮辭一辭其贄", "賓入奠贄再拜"), ("辭君還其贄也", "擯者對曰某也命某")):
        zhu = next(s for s in segments if clean(s).startswith(zhu_opens))
        jing = segments[segments.index(zhu) + 1]
        assert (zhu.layer, zhu.evidence, jing.layer, jing.evidence) == ("ZHU", "model", "JING", "model")
        assert clean(jing).startswith(jing_opens)
        assert 0.0 < zhu.score <= 1.0 and 0.0 < jing.score <= 1.0


def test_a_seam_never_cuts_a_participant_name(shipped):
    # 特牲, 四庫: 注 「為主人鋪之西面席自房來」 then 經 「主婦洗爵，酌，致爵于主人…」; the character CRF
    # cuts 主|婦, the seam is moved to the name's start
    from pipeline.layers.seams import _snap_seams
    from pipeline.records import RunShape

    text = "為主人鋪之西面席自房來主婦洗爵酌致爵于主人主人拜受爵主婦拜送爵"
    labels = shipped.splitter_.predict_labels(text, shipped, RunShape("ZHU", "JING", one_switch=True))
    assert labels.index("JING") == text.index("主婦洗爵")
    z, j = "ZHU", "JING"
    assert _snap_seams("賓長升", [z, j, j]) == [j, j, j]  # 賓|長 → |賓長
    assert _snap_seams("之也賓升", [z, z, j, j]) == [z, z, j, j]  # no name across the seam: unchanged
    # 覲禮, 四庫: the edition writes 矦氏 for the lexicon's 侯氏, 賛者 for 贊者: names all the same
    text = "讀王命書也矦氏降兩階之閒"
    assert _snap_seams(text, [z] * 6 + [j] * (len(text) - 6)).index(j) == text.index("矦氏")
    assert _snap_seams("之也賛者錯", [z, z, z, j, j]) == [z, z, j, j, j]


def test_a_known_seam_falls_at_a_clause_end_of_the_duandju_model(shipped):
    # 鄉飲酒禮, 四部叢刊 鄭注 without its parentheses: 經 「介西階上立」 then 注 「不言疑者，省文」; 注
    # 「長其老者，言三人，則衆賔多矣」 then 經 「主人拜送」. Alone, the character CRF cuts 介西階|上立 and
    # 長其老者|言三人; held to the places the 斷句 model breaks, the seam falls where the 經 clause ends
    from pipeline.records import RunShape
    from pipeline.text.punctuate import Punctuator

    splitter = shipped.splitter_
    cases = (("介西階上立", "不言疑者省文", RunShape("JING", "ZHU", one_switch=True)),
             ("長其老者言三人則衆賔多矣", "主人拜送", RunShape("ZHU", "JING", one_switch=True)))
    wrong_alone = 0
    try:
        for first, second, shape in cases:
            text = first + second
            splitter.break_model_ = None
            free = splitter.predict_labels(text, shipped, shape)
            splitter.break_model_ = Punctuator.load()
            held = splitter.predict_labels(text, shipped, shape)
            wrong_alone += free.index(shape.last) != len(first)
            assert held == [shape.first] * len(first) + [shape.last] * len(second)
    finally:
        splitter.break_model_ = None
    # the 斷句 model is what puts them right (a retrained CRF may get one of them alone)
    assert wrong_alone >= 1


def test_a_note_on_the_readings_stays_in_its_zhu(shipped):
    # 四庫 注 runs of 鄉射禮, 大射 and 士相見禮 whose 注 ends on a note on the readings (今文X為Y,
    # 古文X作Y), then the 經 with no mark. The 斷句 model breaks inside the note (今文|揖為升), and
    # the seam followed it there; only a 注 writes such a note, so the seam now falls after it.
    from pipeline.records import RunShape
    from pipeline.text.punctuate import Punctuator

    splitter = shipped.splitter_
    shape = RunShape("ZHU", "JING", one_switch=True)
    try:
        splitter.break_model_ = Punctuator.load()
        for zhu, jing in (("為已安也今文揖為升", "司正實觶降自西階中庭北面坐奠觶興退少立"),
                          ("乃降將更盥也古文壹皆作一", "賓降主人辭降賓對主人卒盥壹揖壹讓升賓升西階上疑立"),
                          ("答對也此以下雜記也今文君射則為下", "君樂作而後就物君袒朱襦以射"),
                          ("擯者司正也今文席為筵", "若諸公卿大夫之耦不勝則亦執弛弓特升飲")):
            labels = splitter.predict_labels(zhu + jing, shipped, shape)
            assert labels == ["ZHU"] * len(zhu) + ["JING"] * len(jing), zhu
        # 士相見禮 (四庫): the notes close the 注, so the seam falls at most NOTE_TAIL characters past
        # them; the 經 after, speech and all (曰某也使某還贄), had been read 注 to its last four
        # (where in 賓出使 it falls is left to the model)
        zhu, jing = "奠贄尊卑異不親授也古文壹為一", "賓出使擯者還其贄于門外曰某也使某還贄"
        labels = splitter.predict_labels(zhu + jing, shipped, shape)
        assert labels[:len(zhu)] == ["ZHU"] * len(zhu) and labels[len(zhu) + 3:] == ["JING"] * (len(jing) - 3)
    finally:
        splitter.break_model_ = None
    # the bounds in Han characters before the seam: past one character after 為 / 作 / 無, four
    # after 今文 when none follows (and then no upper bound: where the note ends is not known); a
    # 經 that a 注 follows ends before the 注's first note
    from pipeline.layers.seams import seam_bounds

    assert seam_bounds("为已安也今文揖为升司正", "ZHU", "JING") == (9, 11)
    assert seam_bounds("今文某某某某某某某某某主人", "ZHU", "JING") == (4, 13)
    # the notes close the 注: at most NOTE_TAIL characters on past the least
    assert seam_bounds("奠贽尊卑异不亲授也古文壹为一宾出使摈者还其贽于门外曰某也使某还贽", "ZHU", "JING") == (14, 18)
    # ... unless it goes on about the reading: 鄉射禮's 今文坐取觶無進，又曰坐奠之 (another reading)
    run = "今文坐取觯无进又曰坐奠之拜兴少退北面立于觯南"
    assert seam_bounds(run, "ZHU", "JING") == (7, len(run))
    assert seam_bounds("主人升今文升为登", "JING", "ZHU") == (0, 3)
    assert seam_bounds("主人升宾升", "ZHU", "JING") == (0, 5)
    assert seam_bounds("今文升为登", "ZHU", "SHU") == (0, 5)



def test_a_zhu_runs_past_the_words_only_a_zhu_writes(shipped):
    """四庫 注 runs of 鄉射禮 and 大射 whose 注 says 嫌 ("lest one think") or 不言…可知 ("it does not say
    …, one can tell"), then the 經 with no mark: the fold models ended both 注 before those words
    (以賓|主人飲耦在上嫌其升; …不言君矢|小臣以授矢人于東堂下可知), the shipped one the 大射's; only a 注
    writes them, so it runs past."""
    from pipeline.layers.seams import seam_bounds
    from pipeline.records import RunShape
    from pipeline.text.punctuate import Punctuator

    assert seam_bounds("以宾主人饮耦在上嫌其升若大夫之耦", "ZHU", "JING") == (9, 16)
    assert seam_bounds("不言君矢小臣以授矢人于东堂下可知司马释弓", "ZHU", "JING")[0] == 16
    assert seam_bounds("君在堂升见无方阶不言其位", "JING", "ZHU") == (0, 12)  # a 經 → 注 run: no bound from them
    splitter = shipped.splitter_
    shape = RunShape("ZHU", "JING", one_switch=True)
    try:
        splitter.break_model_ = Punctuator.load()
        for zhu, jing in (("以賓主人飲耦在上嫌其升", "若大夫之耦不勝則亦執弛弓特升飲"),
                          ("是言矢人則納射器之有司各以其器名官職不言君矢小臣以授矢人于東堂下可知",
                           "司馬釋弓反位而后卿大夫升就席")):
            labels = splitter.predict_labels(zhu + jing, shipped, shape)
            assert labels == ["ZHU"] * len(zhu) + ["JING"] * len(jing), zhu
    finally:
        splitter.break_model_ = None


def test_a_citation_in_the_forms_of_an_edition_holds_the_seam_past_it():
    """四部叢刊 鄭注 of 鄉飲酒禮 (注 then 經, the 注 citing the 鄉射禮): the edition writes 鄕射禮曰 (and
    郷飮酒曰), forms fold_script keeps, and a cited text may be cited again (又曰): the 注 runs past
    the quotation's first characters after each, so no 經 starts inside what is cited."""
    from pipeline.layers.features import fold_script
    from pipeline.layers.seams import CITATION_QUOTE, seam_bounds

    run = fold_script("行無數醉而止也鄕射禮曰使二人舉觶于賔與大夫又曰執觶者洗升實觶反奠於賔與大夫皆是無筭樂")
    again = run.index(fold_script("又曰")) + 2
    assert seam_bounds(run, "ZHU", "JING") == (again + CITATION_QUOTE, len(run))
    run = fold_script("反從降之位也郷飮酒曰當西序東面主人卒洗")
    assert seam_bounds(run, "ZHU", "JING")[0] == run.index(fold_script("曰")) + 1 + CITATION_QUOTE
    # a 經 → 注 run: the 經 ends before the citation
    run = fold_script("主人卒洗鄕射禮曰當西序東面")
    assert seam_bounds(run, "JING", "ZHU") == (0, 4)


def test_the_first_ye_of_an_unpunctuated_jing_zhu_run_is_the_zhu_s_gloss(shipped):
    """A 經 says 也 in speech (曰某也) and seldom else; a 注 closes its glosses on it (差，益卑也). In
    an unpunctuated 經 → 注 run the 經 ends before the first 也 with no 曰 before it — not 可也 ("may"),
    也則 ("if it is … then") nor a 也 in the run's first three characters (士也，有執膳爵者)."""
    from pipeline.layers.seams import seam_bounds
    from pipeline.records import RunShape
    from pipeline.text.punctuate import Punctuator

    run = "揖众宾差益卑也拜介揖众宾皆西南面"  # 鄉飲酒禮: 經 揖眾賓, its 注
    assert seam_bounds(run, "JING", "ZHU", glosses=True) == (0, 6)
    assert seam_bounds(run, "JING", "ZHU") == (0, len(run))  # punctuated text: its marks say more
    assert seam_bounds("主人对曰某也固辞不得命敢不敬从", "JING", "ZHU", glosses=True) == (0, 15)
    sits = "凡侍坐於君子君子欠伸问日之早晏以食具告改居则请退可也君子谓卿大夫及国中贤者也"
    assert seam_bounds(sits, "JING", "ZHU", glosses=True) == (0, len(sits) - 1)
    for jing in ("士也有执膳爵者", "若膳觯也则降更觯洗升实散"):
        assert seam_bounds(jing, "JING", "ZHU", glosses=True) == (0, len(jing)), jing
    # 鄉射禮's 記 in the SBCK edition, read with the shipped models: the seam had fallen three
    # characters early (記大夫與則公|士爲賓)
    splitter = shipped.splitter_
    try:
        splitter.break_model_ = Punctuator.load()
        jing, zhu = "記大夫與則公士爲賔", "不敢使郷人加尊於大夫也公士在官之士郷賔主用處士"
        labels = splitter.predict_labels(jing + zhu, shipped, RunShape("JING", "ZHU", one_switch=True))
        assert labels == ["JING"] * len(jing) + ["ZHU"] * len(zhu)
    finally:
        splitter.break_model_ = None

def test_a_citation_of_another_text_is_the_zhu_s_own():
    # 士虞禮, 四庫: the 注 「將入臨之位。士喪禮：賓繼兄弟北上…」 ends in a quotation of 士喪禮 that reads
    # like 經; the seam falls past the title and two characters of what it quotes
    from pipeline.layers.seams import seam_bounds

    run = "将入临之位士丧礼宾继兄弟北上门东北面西上主人出即位"
    assert seam_bounds(run, "ZHU", "JING") == (run.index("士丧礼") + 5, len(run))
    # 周禮膳夫品嘗食 (士相見禮's 注), 曲禮曰, 鄉飲酒曰, 舊說云: a 經 that a 注 follows ends before them
    for zhu in ("周礼膳夫品尝食", "曲礼曰主人敬宾则先拜宾", "乡饮酒曰当西序东面", "旧说云宾入户"):
        assert seam_bounds("主人升" + zhu, "JING", "ZHU") == (0, 3), zhu
    # a 經 opening with its own chapter's title (覲禮。至于郊); 大射正, 特牲饋食之禮 and 有司徹 are no citations
    assert seam_bounds("觐礼至于郊", "JING", "ZHU") == (0, 5)
    for jing in ("大射正摈", "特牲馈食之礼", "有司彻埽堂"):
        assert seam_bounds(jing + "今文", "JING", "ZHU") == (0, len(jing)), jing


def test_the_pipeline_holds_known_seams_to_the_duandju_model_unless_told_not_to():
    from pipeline.process import DocumentProcessor
    from pipeline.text.punctuate import Punctuator

    assert isinstance(DocumentProcessor().layer_model.splitter_.break_model_, Punctuator)
    off = DocumentProcessor({"layers": {"seam_breaks": False}})
    assert getattr(off.layer_model.splitter_, "break_model_", None) is None


@pytest.fixture(scope="module")
def siku_dashe(processor):
    """The 四庫 大射 file as ``yili process`` gives it, with the offsets of its Han characters (across
    line breaks) and those characters, to find a seam by the words around it."""
    from conftest import CORPUS
    from pipeline.read.inputs import read_file

    out = processor.process(read_file(next((CORPUS / "zhushu-siku").glob("07_*.txt"))).record)
    t = out["text"]
    where = [i for i, ch in enumerate(t) if ch.isalpha() and not ch.isascii()]
    return out, where, "".join(t[i] for i in where)


def _seam_at(siku: tuple, before: str, after: str) -> int:
    """The raw offset between ``before`` and ``after`` in a processed file's Han characters."""
    _out, where, han = siku
    return where[han.index(before + after) + len(before)]


def _layer_change(out: dict, at: int) -> tuple[str, str]:
    """The layers of the segments that end and start at ``at``."""
    return ({s["end"]: s["layer"] for s in out["segments"]}.get(at), {s["start"]: s["layer"] for s in out["segments"]}.get(at))


def test_the_seam_of_a_siku_run_leans_to_the_zhu_s_end(siku_dashe):
    """四庫 edition, whole files: a 注 runs into the 經 with nothing marking its end, and the CRF
    ends 注 early — 大射's 注 「取脯，重得君之賜」 was cut after 取脯, 「兼取乘矢，不敢與大夫拾」 after 兼取乘矢,
    「某，大夫名」 after 某, and the rest of the gloss opened the 經. Each character kept in the 注 adds
    ``seam_lean``."""
    for zhu_end, jing in (("重得君之賜", "奏陔"), ("不敢與大夫拾", "大夫進坐"), ("為賓注某大夫名", "擯者命賓")):
        assert _layer_change(siku_dashe[0], _seam_at(siku_dashe, zhu_end, jing)) == ("ZHU", "JING"), jing


def test_a_zhu_that_opens_on_its_lemma_runs_past_it(siku_dashe):
    """四庫 edition, whole file (大射 line 332): 經 「主人辭降，賓對」, then the unmarked 注 「對，答」 runs
    into the 經 「主人北面盥」. The 注 opens by quoting the 經's last word; the seam was put right
    after the quotation (對|答主人北面盥…), and 答 made 賓 the one who washes. The 注 goes on past
    its lemma."""
    from pipeline.layers.seams import quoted_lemma

    assert quoted_lemma("對答主人北面盥", "賓降階西東面主人辭降賓對") == 1
    assert quoted_lemma("再拜稽首拜君命洗象觶", "長致者阼階下再拜稽首公答拜") == 4
    assert quoted_lemma("主人北面盥", "賓降階西東面") == 0

    out = siku_dashe[0]
    seam = _seam_at(siku_dashe, "賓對注對答", "主人北面盥")
    assert _layer_change(out, seam)[1] == "JING"
    washer = next(a for a in out["actions"] if a["verb"] == "盥" and a["start"] <= seam + 4 < a["end"] + 4)
    assert washer["actor"] == "主人"


def test_a_seam_inside_a_list_of_names_moves_to_the_list_s_start():
    """大射, 四庫 (line 1071): 「…今文席爲筵」 is 注, 「若諸公卿大夫之耦不勝…」 the 經, and the line breaks
    after 諸. A seam the models put at 諸公|卿 moves out of every name it falls in, across the line
    break: 諸|公卿 (公卿 is a name), then out of 諸公."""
    from pipeline.layers.seams import _snap_seams

    text = "今文席爲筵若諸¶\n公卿大夫之耦不勝"
    at = text.index("卿")
    labels = ["ZHU"] * at + ["JING"] * (len(text) - at)
    snapped = _snap_seams(text, labels)
    assert snapped.index("JING") == text.index("諸")


def test_a_seam_is_moved_off_words_no_jing_or_zhu_ends_on_or_opens_on():
    """四庫 大射 (lines 289, 998): the models put the seam after 以賓之辭告於 (注 「以賓之辭告於君，又命之」,
    then 經 「賓再拜稽首受命」) and between 其 and 餘 (注 「變於右也」, then 經 「其餘如右獲」). No 經 or 注
    of the 鄭注 edition that the other layer follows ends on 於 (or 以 其 而 則 …) but a note on the
    readings, and none opens on 也 者 之 則: the seam moves on past the word still wanted, or back to
    where the 注's sentence ended. Nor is a 注 one character long, and a 經 opens on a participant far
    more often than a 注 ends on one."""
    from pipeline.layers.features import fold_script
    from pipeline.layers.seams import _snap_seams, fits_seam

    def seam_after(text: str, zhu: str) -> int:
        labels = _snap_seams(text, ["ZHU"] * len(zhu) + ["JING"] * (len(text) - len(zhu)))
        return labels.index("JING")

    def fits(text: str, zhu: str) -> bool:
        return fits_seam(fold_script(text), len(zhu))

    assert seam_after("以賓之辭告於君又命之賓再拜稽首受命", "以賓之辭告於") == len("以賓之辭告於君")
    assert seam_after("變於右也其餘如右獲", "變於右也其") == len("變於右也")
    assert seam_after("為賓注某大夫名擯者命", "為賓注某大夫名") == len("為賓注某大夫名")  # it fits: unmoved
    # 經 then 注 (四部叢刊 鄉飲酒: 經 「…坐奠于篚」, 注 「辯，辯衆賓之在下者」): no 經 ends on 于 either
    labels = _snap_seams("坐奠于篚辯辯衆賓之在下", ["JING"] * 3 + ["ZHU"] * 8)
    assert labels.index("ZHU") == len("坐奠于篚")
    # no 注 of the 鄭注 is one character: a run that opens with its 注 keeps two (四庫 鄉射: 注 「酢，報」
    # then 經 「主人阼階上拜」; 注 「作，使」 then 經 「司射降」)
    assert seam_after("酢報主人阼階上拜賓少退", "酢") == len("酢報")
    assert seam_after("作使司射降搢扑", "作") == len("作使")
    labels = _snap_seams("降洗升實爵", ["JING"] + ["ZHU"] * 4)  # a 經 may be one character
    assert labels.index("ZHU") == 1
    # a seam right after a name goes before it where the 經 then opens on no name (四庫 大射: 注 「某，
    # 大夫名」, 經 「擯者命賓」), and stays where it opens on one (注 「將酬賓」, 經 「賓西階上…」)
    assert seam_after("某大夫名擯者命賓賓少進", "某大夫名擯者") == len("某大夫名")
    assert seam_after("將酬賓賓西階上北面", "將酬賓") == len("將酬賓")
    # the word wanted is a name that ends the run: the seam stays (it never moves to the run's end)
    assert seam_after("以賓之辭告於大夫", "以賓之辭告於") == len("以賓之辭告於")
    assert not fits("賓之辭告於君", "賓之辭告於")
    assert not fits("執之者齊", "執之")
    assert fits("士侍於大夫與爲耦也今文於爲于遂適西階前", "士侍於大夫與爲耦也今文於爲于")  # a note's last word
    assert fits("受罰爵者不宜自尊别卒觶", "受罰爵者不宜自尊别")


def test_a_siku_run_is_not_cut_after_a_word_that_wants_the_next(siku_dashe):
    """四庫 大射, whole file (line 1000): 注 「賢獲，勝黨之算也。執之者齊而取其餘」 runs into the 經
    「若右勝，則曰右賢於左」; the seam fell after 取其 and 餘 opened the 經."""
    assert _layer_change(siku_dashe[0], _seam_at(siku_dashe, "齊而取其餘", "若右勝")) == ("ZHU", "JING")
