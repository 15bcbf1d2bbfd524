"""The learned span model beside the lexicon (pipeline/nlp/span_model.py): training, the spaCy
component, the config switch and its load errors. Dev gold only (annotations/actions/dev)."""

from __future__ import annotations

import json

import pytest

from pipeline.labels import SPAN_LABELS
from pipeline.nlp import build_nlp, tag_spans
from pipeline.nlp import span_model as sm


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A model trained quickly on two small dev chapters (03 and 10), saved and loaded back."""
    folder = tmp_path_factory.mktemp("spans") / "model"
    info = sm.train_spans(folder, chapters=["03", "10"], settings={"epochs": 12, "unpunctuated": False})
    assert info["chapters"] == ["03", "10"] and info["passages"] == len(sm.load_gold(["03", "10"]))
    return folder, info


def test_training_writes_a_small_loadable_model(tiny_model):
    folder, info = tiny_model
    assert (folder / sm.INFO_FILE).is_file() and (folder / "ner").is_dir()
    assert info["size_bytes"] < 20e6
    saved = json.loads((folder / sm.INFO_FILE).read_text(encoding="utf-8"))
    assert saved["format"] == sm.FORMAT and saved["settings"]["epochs"] == 12
    model = sm.SpanModel.load(folder)
    assert set(model.nlp.get_pipe("ner").labels) == set(SPAN_LABELS)


def test_model_finds_labelled_spans_on_another_chapter(tiny_model):
    """On chapter 05 (not trained on) the model gives valid spans, and some of them are gold spans."""
    folder, _ = tiny_model
    model = sm.SpanModel.load(folder)
    lexicon_nlp = build_nlp({"nlp": {"tokenizer": "jieba"}})
    held_out = sm.passages(sm.load_gold(["05"]), lexicon_nlp)
    found_gold = 0
    total = 0
    for p in held_out:
        spans = model.predict(p.text, p.lexicon)
        for s, e, label in spans:
            assert 0 <= s < e <= len(p.text) and label in SPAN_LABELS
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # ner spans never overlap
        found_gold += len(set(spans) & set(p.gold))
        total += len(spans)
    assert total > 0
    assert found_gold / total > 0.5


def test_model_without_lexicon_features_still_finds_terms(tiny_model):
    """Lexicon tags hidden: the model alone, from the characters, still finds gold spans (what it
    can add where the lexicon has no entry)."""
    folder, _ = tiny_model
    model = sm.SpanModel.load(folder)
    lexicon_nlp = build_nlp({"nlp": {"tokenizer": "jieba"}})
    held_out = sm.passages(sm.load_gold(["05"]), lexicon_nlp)
    found = model.predict_many([(p.text, []) for p in held_out])
    assert sum(len(set(f) & set(p.gold)) for f, p in zip(found, held_out)) > 0


def test_combine_modes():
    lexicon = [(0, 2, "ACTOR"), (2, 3, "VERB"), (4, 6, "LOCATION")]
    model = [(0, 2, "ACTOR"), (3, 6, "LOCATION"), (7, 9, "OBJECT")]
    assert sm.combine(lexicon, model, "fill") == [(0, 2, "ACTOR"), (2, 3, "VERB"), (4, 6, "LOCATION"), (7, 9, "OBJECT")]
    assert sm.combine(lexicon, model, "override") == [(0, 2, "ACTOR"), (2, 3, "VERB"), (3, 6, "LOCATION"), (7, 9, "OBJECT")]
    assert sm.combine(lexicon, model, "override", ["LOCATION"]) == [(0, 2, "ACTOR"), (2, 3, "VERB"), (3, 6, "LOCATION")]
    assert sm.combine(lexicon, model, "model") == sorted(model)
    with pytest.raises(ValueError):
        sm.combine(lexicon, model, "both")


def _lexicon(text):
    """The lexicon's spans on ``text`` (no marks in it: view and text offsets are the same)."""
    from pipeline.text.normalise import normalise_str

    return tag_spans(build_nlp({"nlp": {"span_model": None}}), normalise_str(text))


def test_a_model_actor_that_joins_listed_participants_is_cut_back_to_them():
    """In text without marks a model read 介遵者 (鄉飲酒禮 記: 徹俎，賓、介、遵者之俎，受者以降) and 大夫士
    (鄉射 記) as one name, where the lexicon knows 介 and 遵者, 大夫 and 士: override keeps the
    lexicon's list; a model name that is one listed term, or holds a character no term covers
    (眾賓將與射者), or is itself listed (宰夫有司, one participant in 大射's gold) stays the model's."""
    text = "徹俎賓介遵者之俎受者以降遂出授從者"
    lexicon = _lexicon(text)
    assert (3, 4, "ACTOR") in lexicon and (4, 6, "ACTOR") in lexicon
    kept = sm.combine(lexicon, [(3, 6, "ACTOR")], "override", ["ACTOR", "LOCATION"])
    assert (3, 4, "ACTOR") in kept and (4, 6, "ACTOR") in kept and (3, 6, "ACTOR") not in kept
    assert (3, 6, "ACTOR") in sm.combine(lexicon, [(3, 6, "ACTOR")], "model")
    text = "大夫士皆與射"
    kept = sm.combine(_lexicon(text), [(0, 3, "ACTOR")], "override")
    assert [(s, e) for s, e, label in kept if label == "ACTOR"] == [(0, 2), (2, 3)]
    text = "眾賓將與射者皆降"
    assert (0, 6, "ACTOR") in sm.combine(_lexicon(text), [(0, 6, "ACTOR")], "override")
    text = "宰夫有司薦庶子設折俎"
    lexicon = _lexicon(text)
    assert (0, 4, "ACTOR") in lexicon
    assert (0, 4, "ACTOR") in sm.combine(lexicon, [(0, 4, "ACTOR")], "override")


def test_a_model_place_gives_back_or_takes_the_direction_of_the_facing_beside_it():
    """Without marks a model ended the place on the facing's direction (鄉射 阼階之東，南面 read
    阼階之 | 東南面; 大射 阼階上，西鄉 read 阼階上西) or took it (阼階之東南，南鄉 read 阼階之東南南): a place
    never ends on 之 nor on a direction written just before 面 / 鄉 (none does in the dev gold), so the
    character goes to the side it belongs to; a place and a facing that meet right stay as they are."""
    from pipeline.text.normalise import normalise_str

    def mend(text, spans):
        view = normalise_str(text)
        return [(text[s:e], label) for s, e, label in sm.facing_edges(spans, view)]

    text = "主人阼階之東南面辭洗"
    assert mend(text, [(0, 2, "ACTOR"), (2, 5, "LOCATION"), (5, 8, "FACING"), (8, 9, "VERB")]) == [
        ("主人", "ACTOR"), ("阼階之東", "LOCATION"), ("南面", "FACING"), ("辭", "VERB")]
    text = "小臣設公席于阼階上西鄉"
    assert mend(text, [(6, 10, "LOCATION")]) == [("阼階上", "LOCATION"), ("西鄉", "FACING")]
    text = "公降立于阼階之東南南鄉"
    assert mend(text, [(4, 10, "LOCATION")]) == [("阼階之東南", "LOCATION"), ("南鄉", "FACING")]
    text = "介西階上北面拜"
    assert mend(text, [(1, 4, "LOCATION"), (4, 6, "FACING")]) == [("西階上", "LOCATION"), ("北面", "FACING")]
    text = "賓立于西階西南面"  # a place on a direction, then a facing of its own
    assert mend(text, [(3, 6, "LOCATION"), (6, 8, "FACING")]) == [("西階西", "LOCATION"), ("南面", "FACING")]


def _pairwise_combine(first, second):
    """The rule combine() keeps, written as plainly as it reads: a span of ``second`` is kept if it
    overlaps none of the spans kept so far."""
    kept = list(first)
    for span in second:
        if not any(span[0] < k[1] and k[0] < span[1] for k in kept):
            kept.append(span)
    return sorted(kept)


def test_combine_keeps_what_the_pairwise_rule_keeps():
    """Random spans, empty ones and overlapping ones among them (a model span (3, 3) overlaps a kept
    (2, 5) but not a kept (3, 5)): combine() keeps exactly what testing every pair would keep."""
    import random

    rng = random.Random(7)
    for _ in range(3000):
        size = rng.randrange(1, 30)
        draw = lambda: [(s, s + rng.choice((0, 1, 1, 2, 3)), rng.choice(SPAN_LABELS))  # noqa: E731
                        for s in (rng.randrange(size) for _ in range(rng.randrange(10)))]
        lexicon, model = draw(), draw()
        assert sm.combine(lexicon, model, "fill") == _pairwise_combine(lexicon, model)
        chains = sm._listed_chains(model, lexicon)
        assert sm.combine(lexicon, model, "override") == _pairwise_combine([m for m in model if m not in chains], lexicon)


def test_combine_cost_does_not_grow_with_the_spans_kept(monkeypatch):
    """A paragraph with no line break is one Doc: the whole 經 of a chapter holds thousands of spans.
    Testing each model span against every kept one made combine() quadratic (a 220,000-character
    line took 9 minutes); now a non-empty span is tested against the characters it covers, and the
    pairwise test runs only for empty spans."""
    calls = []
    real = sm._overlaps
    monkeypatch.setattr(sm, "_overlaps", lambda a, b: calls.append(1) or real(a, b))
    lexicon = [(3 * i, 3 * i + 2, "ACTOR") for i in range(5000)]
    model = [(3 * i + 1, 3 * i + 3, "VERB") for i in range(5000)] + [(3 * i + 2, 3 * i + 3, "OBJECT") for i in range(5000)]
    chosen = sm.combine(lexicon, model, "fill")
    assert chosen == sorted(lexicon + model[5000:])
    assert calls == []


@pytest.mark.parametrize("mode", ["fill", "override", "model"])
def test_component_in_the_pipeline(tiny_model, mode):
    """[nlp] span_model switches the component on; the spans it gives are valid, never overlap,
    and sit on the host tokens; off, the pipeline is the lexicon alone."""
    folder, _ = tiny_model
    nlp = build_nlp({"nlp": {"tokenizer": "jieba", "span_model": str(folder), "span_model_mode": mode}})
    assert nlp.pipe_names == ["lexicon_ruler", "span_model"]
    text = "主人坐取爵于篚，降洗。賓降，主人辭降。賓對。主人坐奠爵于篚，興，對。"
    from pipeline.text.normalise import normalise_str

    view = normalise_str(text)
    spans = tag_spans(nlp, view)
    assert spans
    for (s, e, label), nxt in zip(spans, spans[1:] + [None]):
        assert 0 <= s < e <= len(view) and label in SPAN_LABELS
        assert nxt is None or e <= nxt[0]
    doc = nlp(view)
    bounds = {t.idx for t in doc} | {len(view)}
    assert all(s in bounds and e in bounds for s, e, _ in spans)
    assert build_nlp({"nlp": {"tokenizer": "jieba"}}).pipe_names == ["lexicon_ruler"]


def test_pipe_in_batches_gives_what_one_doc_at_a_time_gives(tiny_model):
    """nlp.pipe (what yili process calls) scores batches with the model; the spans are the same."""
    from pipeline.text.normalise import normalise_str
    from tests.conftest import SEEDS

    folder, _ = tiny_model
    nlp = build_nlp({"nlp": {"tokenizer": "jieba", "span_model": str(folder), "span_model_mode": "fill"}})
    seed = SEEDS[3].read_text(encoding="utf-8")
    lines = [normalise_str(line) for line in seed.splitlines()[:80]] + [""]
    def spans(doc):
        return [(s.start_char, s.end_char, s.label_) for s in doc.spans["sc"]]

    one = [spans(nlp(t)) for t in lines]
    many = [spans(d) for d in nlp.pipe(lines, batch_size=16)]
    assert many == one and sum(map(len, one)) > 100


def test_span_model_null_is_the_lexicon_alone():
    """The default config names the CRF (tests/test_span_crf.py); ``span_model = null`` switches
    every learned model off."""
    from pipeline.config import load_config

    cfg = load_config()
    cfg["nlp"]["span_model"] = None
    assert build_nlp(cfg).pipe_names == ["lexicon_ruler"]


def test_missing_model_names_path_and_command(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(sm.SpanModelError) as err:
        build_nlp({"nlp": {"tokenizer": "char", "span_model": str(missing)}})
    assert str(missing) in str(err.value) and "yili train spans" in str(err.value)


def test_corrupt_model_names_path_and_command(tiny_model, tmp_path):
    import shutil

    folder, _ = tiny_model
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    for f in (broken / "ner" / "ner").iterdir():
        if f.name == "model":
            f.write_bytes(b"not a model")
    with pytest.raises(sm.SpanModelError) as err:
        sm.SpanModel.load(broken)
    assert str(broken) in str(err.value) and "yili train spans" in str(err.value)
    (broken / sm.INFO_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(sm.SpanModelError) as err:
        sm.SpanModel.load(broken)
    assert str(broken) in str(err.value) and "yili train spans" in str(err.value)


def test_unknown_mode_or_label_is_refused(tiny_model):
    folder, _ = tiny_model
    with pytest.raises(Exception, match="span_model_mode"):
        build_nlp({"nlp": {"tokenizer": "char", "span_model": str(folder), "span_model_mode": "both"}})
    with pytest.raises(Exception, match="span_model_labels"):
        build_nlp({"nlp": {"tokenizer": "char", "span_model": str(folder), "span_model_labels": ["PLACE"]}})


def test_train_spans_command(tmp_path):
    from typer.testing import CliRunner

    from pipeline.cli import app

    result = CliRunner().invoke(app, ["train", "spans", "--help"])
    assert result.exit_code == 0 and "models/spans" in result.output
    out = tmp_path / "cli-model"
    result = CliRunner().invoke(app, ["train", "spans", "--out", str(out), "--chapter", "10", "--epochs", "2"])
    assert result.exit_code == 0, result.output
    assert sm.SpanModel.load(out).info["chapters"] == ["10"]
    result = CliRunner().invoke(app, ["train", "spans", "--out", str(out), "--chapter", "99"])
    assert result.exit_code == 2


def test_model_tags_only_the_layers_it_learned(tiny_model):
    """[nlp] span_model_layers: with the model on for 經 only, the 注 and 疏 of seed 003 (儀禮注疏)
    keep the lexicon's spans exactly; with every layer named, the model changes them too."""
    import copy

    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor
    from tests.conftest import SEEDS

    folder, _ = tiny_model
    record = {"text": SEEDS[3].read_text(encoding="utf-8")}

    def spans_by_layer(**nlp_settings):
        cfg = copy.deepcopy(load_config())
        cfg["nlp"].update(nlp_settings)
        out = DocumentProcessor(cfg).process(record)
        layer_at = [(s["start"], s["end"], s["layer"]) for s in out["segments"]]
        found: dict[str, set] = {}
        for sp in out["spans"]:
            layer = next(lay for s, e, lay in layer_at if s <= sp["start"] < e)
            found.setdefault(layer, set()).add((sp["start"], sp["end"], sp["label"]))
        return found

    plain = spans_by_layer(span_model=None)
    jing_only = spans_by_layer(span_model=str(folder), span_model_mode="model", span_model_labels=None,
                               span_model_layers=["JING"])
    everywhere = spans_by_layer(span_model=str(folder), span_model_mode="model", span_model_labels=None,
                                span_model_layers=["JING", "ZHU", "SHU"])
    assert jing_only["ZHU"] == plain["ZHU"] and jing_only["SHU"] == plain["SHU"]
    assert jing_only["JING"] != plain["JING"] and jing_only["JING"] == everywhere["JING"]
    assert everywhere["SHU"] != plain["SHU"]


def test_split_at_cuts_tokens_and_keeps_every_span_group():
    """A cut inside a token splits it; the text, the other tokens and every span group (by its
    characters) stay; a cut on a boundary changes nothing."""
    from spacy.tokens import Doc, Span
    from spacy.vocab import Vocab

    from pipeline.nlp.retokenize import split_at, token_boundaries

    doc = Doc(Vocab(), words=["司馬", "釋弓", "而后", "卿大夫", "升"], spaces=[False] * 5)
    doc.spans["sc"] = [Span(doc, 0, 1, label="ACTOR"), Span(doc, 3, 4, label="ACTOR")]
    doc.spans["other"] = [Span(doc, 4, 5, label="VERB")]
    assert split_at(doc, [2, 6]) is False and len(doc) == 5  # boundaries only
    assert split_at(doc, [3, 7]) is True
    assert [t.text for t in doc] == ["司馬", "釋", "弓", "而后", "卿", "大夫", "升"]
    assert doc.text == "司馬釋弓而后卿大夫升"
    assert [(s.text, s.label_) for s in doc.spans["sc"]] == [("司馬", "ACTOR"), ("卿大夫", "ACTOR")]
    assert [(s.text, s.label_) for s in doc.spans["other"]] == [("升", "VERB")]
    assert token_boundaries(doc) == {0, 2, 3, 4, 6, 7, 9, 10}
    # a parsed Doc: the first piece keeps the token's head and relation, the others attach to it
    parsed = Doc(Vocab(), words=["司馬", "卿大夫", "升"], spaces=[False] * 3, pos=["NOUN", "NOUN", "VERB"],
                 heads=[2, 2, 2], deps=["nsubj", "obj", "ROOT"])
    assert split_at(parsed, [3]) is True
    assert [(t.text, t.pos_, t.head.text, t.dep_) for t in parsed] == [
        ("司馬", "NOUN", "升", "nsubj"), ("卿", "NOUN", "升", "obj"), ("大夫", "NOUN", "卿", "flat"), ("升", "VERB", "升", "ROOT")]


@pytest.mark.parametrize("text, names", [
    ("射人戒諸公卿大夫射司士戒士射與贊者", ["卿", "大夫"]),  # 大射 p7, unpunctuated: 諸公、卿、大夫
    ("司馬釋弓反位而后卿大夫升就席", ["卿", "大夫"]),  # 大射 p558
])
def test_a_model_span_inside_a_jieba_token_is_kept(processor, text, names):
    """jieba reads 卿大夫 as one word; the span CRF reads 卿 and 大夫 (a list whose 、 the
    unpunctuated edition lost, as the gold has it). The token is cut, not the spans dropped: they
    were lost whole before (neither 卿 nor 大夫 nor 卿大夫 was a span)."""
    out = processor.process({"text": text, "meta": {"layer": "JING"}})
    actors = [s["text"] for s in out["spans"] if s["label"] == "ACTOR"]
    for name in names:
        assert name in actors


def test_the_spans_of_yili_process_do_not_depend_on_the_word_tokenizer(processor):
    """The spans come from the lexicon and the character span model: jieba (the default), the char
    backend and UD-Kanbun give the same spans and tuples on whole unpunctuated chapters."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor
    from pipeline.read.inputs import read_file

    from conftest import CORPUS

    config = load_config()
    chars = DocumentProcessor({**config, "nlp": {**config["nlp"], "tokenizer": "char"}})
    item = read_file(CORPUS / "zhushu-siku" / "07_dashe.txt")
    by_jieba, by_char = processor.process_item(item), chars.process_item(item)
    assert by_jieba["spans"] == by_char["spans"] and by_jieba["actions"] == by_char["actions"]
    assert len(by_jieba["spans"]) > 10000
    # UD-Kanbun (a test dependency) cuts words its own way: the same again on 覲禮 of the 鄭注 edition
    kanbun = DocumentProcessor({**config, "nlp": {**config["nlp"], "tokenizer": "udkanbun"}})
    item = read_file(CORPUS / "zhengzhu-sbck" / "10_jinli.txt")
    by_jieba, by_kanbun = processor.process_item(item), kanbun.process_item(item)
    assert by_jieba["spans"] == by_kanbun["spans"] and by_jieba["actions"] == by_kanbun["actions"]
    assert len(by_jieba["spans"]) > 500


def test_no_model_span_opens_on_a_function_word():
    """Seed 003's 主人之贊者 (a lexicon term, one jieba token): the span CRF reads 之贊者, which
    would cut the term in two and hide it. No gold span opens on 之 于 於 而 者; the model's is
    dropped and the lexicon's stands."""
    from pathlib import Path

    from pipeline.text.normalise import normalise_str

    raw = next((Path(__file__).resolve().parents[1] / "pipeline" / "samples").glob("003_*.txt")).read_text(encoding="utf-8")
    start = raw.index("下記云︰「主人之贊者")
    spans = tag_spans(build_nlp(), normalise_str(raw[start:start + 40]))
    assert (5, 10, "ACTOR") in spans  # 主人之赞者
    assert not any(s < 10 < e or s < 5 < e for s, e, _ in spans)
    assert sm.within_text("主人之赞者", [(2, 5, "ACTOR"), (0, 2, "ACTOR")]) == [(0, 2, "ACTOR")]
