"""The CRF span tagger beside the lexicon (pipeline/nlp/span_crf.py), the default span model:
training, loading either kind, batched decoding, its errors, and what it adds on real passages."""

from __future__ import annotations

import copy
import json
import shutil

import numpy as np
import pytest

from pipeline.labels import SPAN_LABELS
from pipeline.nlp import build_nlp
from pipeline.nlp import span_crf
from pipeline.nlp import span_model as sm


@pytest.fixture(scope="module")
def crf_model(tmp_path_factory):
    """A CRF trained on two small dev chapters (03 and 10), saved and loaded back."""
    folder = tmp_path_factory.mktemp("spans-crf") / "model"
    info = sm.train_spans(folder, chapters=["03", "10"], settings={"kind": "crf"})
    assert info["kind"] == "crf" and info["chapters"] == ["03", "10"]
    return folder, info


@pytest.fixture(scope="module")
def chapter05():
    lexicon_nlp = build_nlp({"nlp": {"tokenizer": "jieba"}})
    return sm.passages(sm.load_gold(["05"]), lexicon_nlp, unpunctuated=True)


def test_training_writes_a_small_model_that_loads_as_a_crf(crf_model):
    folder, info = crf_model
    assert (folder / span_crf.WEIGHTS_FILE).is_file() and info["size_bytes"] < 1e6
    saved = json.loads((folder / sm.INFO_FILE).read_text(encoding="utf-8"))
    assert saved["kind"] == "crf" and saved["settings"]["lexicon_dropout"] == span_crf.DEFAULTS["lexicon_dropout"]
    model = sm.load_span_model(folder)
    assert isinstance(model, span_crf.CRFSpanModel)
    assert {label[2:] for label in model.crf.labels if label != "O"} == set(SPAN_LABELS)


def test_it_finds_gold_spans_on_a_chapter_it_never_saw(crf_model, chapter05):
    model = sm.load_span_model(crf_model[0])
    found = model.predict_many([(p.text, p.lexicon) for p in chapter05])
    right = total = 0
    for spans, p in zip(found, chapter05):
        for s, e, label in spans:
            assert 0 <= s < e <= len(p.text) and label in SPAN_LABELS
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # BIO spans never overlap
        right += len(set(spans) & set(p.gold))
        total += len(spans)
    assert total > 1000 and right / total > 0.8
    # without the lexicon's tags it still reads spans from the characters (lexicon dropout in training)
    alone = model.predict_many([(p.text, []) for p in chapter05[:200]])
    assert sum(len(set(f) & set(p.gold)) for f, p in zip(alone, chapter05)) > 100


def test_batched_decoding_is_the_plain_viterbi(crf_model, chapter05):
    """predict_many decodes a batch in one numpy pass; the paths are crfsuite's (CompiledCRF.decode)."""
    model = sm.load_span_model(crf_model[0])
    items = [(p.text, p.lexicon) for p in chapter05[:300]] + [("", [])]
    batched = model.predict_many(items)
    assert batched[-1] == []
    for (text, lexicon), got in zip(items[:-1], batched):
        scores = model.crf.scores_many([text], span_crf.templates(2), None, None)[0]
        for i, attrs in enumerate(span_crf.lexicon_attributes(text, lexicon, 2)):
            for a in attrs:
                if a in model.crf.other:
                    scores[i] += model.crf.other[a]
        assert got == span_crf.spans_of(model.crf.decode(scores)) == model.predict(text, lexicon)


def test_viterbi_many_keeps_crfsuite_ties():
    trans = np.zeros((3, 3))
    scores = [np.zeros((4, 3)), np.array([[0.0, 1.0, 1.0], [2.0, 0.0, 2.0]])] * 3
    assert span_crf.viterbi_many(scores, trans) == [[0, 0, 0, 0], [1, 0]] * 3


def test_viterbi_many_groups_texts_of_like_length(monkeypatch):
    """A long text among short ones is decoded apart (no batch padded to its length), and every
    path is the plain Viterbi's, in the order given."""
    from pipeline.text.crf_runtime import viterbi

    rng = np.random.default_rng(0)
    trans = rng.normal(size=(5, 5))
    scores = [rng.normal(size=(n, 5)) for n in [3, 40, 7, 5000, 12, 1, 9, 8, 30, 6]]
    padded = []
    real = span_crf._viterbi_padded
    monkeypatch.setattr(span_crf, "BATCH_CELLS", 200)
    monkeypatch.setattr(span_crf, "_viterbi_padded", lambda s, t: padded.append([len(x) for x in s]) or real(s, t))
    got = span_crf.viterbi_many(scores, trans)
    assert got == [viterbi(s.tolist(), trans.tolist()) for s in scores]
    assert padded and all(len(g) * max(g) <= 200 for g in padded)


def test_model_spans_keep_off_the_marks():
    """A mark the model never saw (the ASCII comma of seed 004) is not read into a span."""
    text = "侯氏降自西阶,东面"
    assert sm.within_text(text, [(4, 7, "LOCATION"), (5, 9, "LOCATION"), (6, 7, "ACTOR")]) == [(4, 6, "LOCATION")]


def test_bio_round_trip():
    spans = [(0, 2, "ACTOR"), (2, 3, "VERB"), (5, 8, "LOCATION")]
    assert span_crf.spans_of(span_crf.bio(9, spans)) == spans
    assert span_crf.spans_of(["I-OBJECT", "I-OBJECT", "O"]) == [(0, 2, "OBJECT")]


def test_default_pipeline_names_the_crf():
    from pipeline.config import load_config

    cfg = load_config()["nlp"]
    assert cfg["span_model"] == "models/spans-crf" and cfg["span_model_labels"] == ["LOCATION", "ACTOR"]
    nlp = build_nlp(load_config())
    assert nlp.pipe_names == ["lexicon_ruler", "span_model"]
    assert isinstance(nlp.get_pipe("span_model").model, span_crf.CRFSpanModel)


@pytest.mark.parametrize("text, span, label", [
    ("尸出門，哭者止。", "哭者", "ACTOR"),  # 士虞禮 p405: a 者-name the lexicon does not list
    ("庶兄弟襚，使人以將命于室，主人拜于位，委衣于尸東牀上。", "尸東牀上", "LOCATION"),  # 士喪禮 p62
])
def test_the_shipped_crf_finds_what_the_lexicon_lacks(text, span, label):
    """Two passages of held-out chapters: the default pipeline tags the span, the lexicon alone does not."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    start = text.index(span)
    wanted = {"start": start, "end": start + len(span), "label": label}

    def spans(cfg):
        out = DocumentProcessor(cfg).process({"text": text, "meta": {"layer": "JING"}})
        return [{k: s[k] for k in ("start", "end", "label")} for s in out["spans"]]

    plain = copy.deepcopy(load_config())
    plain["nlp"]["span_model"] = None
    assert wanted in spans(load_config())
    assert wanted not in spans(plain)


def test_missing_or_corrupt_crf_names_path_and_command(crf_model, tmp_path):
    folder, _ = crf_model
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    (broken / span_crf.WEIGHTS_FILE).write_bytes(b"not a weights file")
    with pytest.raises(sm.SpanModelError) as err:
        build_nlp({"nlp": {"tokenizer": "char", "span_model": str(broken)}})
    assert str(broken) in str(err.value) and "yili train spans" in str(err.value) and "--kind crf" in str(err.value)
    (broken / span_crf.WEIGHTS_FILE).unlink()
    with pytest.raises(sm.SpanModelError) as err:
        sm.load_span_model(broken)
    assert str(broken) in str(err.value) and "--kind crf" in str(err.value)
    (broken / sm.INFO_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(sm.SpanModelError) as err:
        sm.load_span_model(broken)
    assert str(broken) in str(err.value) and "yili train spans" in str(err.value)


def test_train_spans_kind_crf_command(tmp_path):
    from typer.testing import CliRunner

    from pipeline.cli import app

    out = tmp_path / "crf"
    result = CliRunner().invoke(app, ["train", "spans", "--kind", "crf", "--out", str(out), "--chapter", "10"])
    assert result.exit_code == 0, result.output
    assert sm.load_span_model(out).info["chapters"] == ["10"]
    result = CliRunner().invoke(app, ["train", "spans", "--kind", "rnn", "--out", str(out)])
    assert result.exit_code == 2 and "ner or crf" in result.output
