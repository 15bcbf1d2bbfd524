"""The 斷句 model: breaks found in real unpunctuated 經, the compiled scorer, persistence, evaluation helpers.

Expected breaks are written from reading the text (the usual punctuation of 鄉射禮), not from
the program's output.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from pipeline.text.marks import strip_marks
from pipeline.text.punctuate import Break, ModelError, Punctuator, REBUILD_COMMAND, default_model_dir, training_units
from pipeline.text.segmentation_eval import Counts, chapter_folds, edition_agreement, prf, read_conllu

REPO = Path(__file__).resolve().parents[1]
SEED_001 = REPO / "pipeline" / "samples" / "001_e265843fcb22f799.txt"
SHARED = REPO.parent / "shared"

# 鄉射禮 (chapter 05) 經 lines of 儀禮集釋 (seed 001), in order, without the 鄭注 between them;
# the last passage is hard-wrapped over two lines in the seed.
JING_LINES = [
    "主人坐取爵于上篚以降",
    "賓降",
    "主人阼階前西面坐奠爵興辭降",
    "賓對",
    "主人坐取爵興適洗南面坐奠爵于篚下盥洗",
    "賓進東北面辭洗",
    "主人坐奠爵于篚興對賓反位",
    "主人卒洗壹揖壹讓以賓升賓西階上北面拜洗主人\n阼階上北面奠爵遂荅拜乃降",
]
# The same passage as a reader punctuates it.
READING = (
    "主人坐取爵于上篚，以降。賓降。主人阼階前西面坐奠爵，興，辭降。賓對。"
    "主人坐取爵，興，適洗，南面坐奠爵于篚下，盥洗。賓進，東北面辭洗。主人坐奠爵于篚，興對。賓反位。"
    "主人卒洗，壹揖，壹讓，以賓升。賓西階上北面拜洗。主人\n阼階上北面奠爵，遂荅拜，乃降。"
)


def reading_breaks(reading: str) -> tuple[str, set[int], set[int]]:
    """(text without marks, positions after each mark, positions after each 。) — the hand-listed gold."""
    text, any_break, sentence = "", set(), set()
    for ch in reading:
        if ch in "，。":
            any_break.add(len(text))
            if ch == "。":
                sentence.add(len(text))
        else:
            text += ch
    return text, any_break - {len(text)}, sentence - {len(text)}


@pytest.fixture(scope="module")
def passage() -> str:
    raw = SEED_001.read_text(encoding="utf-8")
    for line in JING_LINES:
        assert line in raw, f"seed 001 no longer holds {line!r}"
    text = "".join(JING_LINES)
    assert reading_breaks(READING)[0] == text
    return text


@pytest.fixture(scope="module")
def shipped() -> Punctuator:
    return Punctuator.load()


@pytest.fixture(scope="module")
def unseen_model() -> Punctuator:
    """A small model trained on 鄉飲酒禮 (chapter 04) only: it never saw 鄉射禮."""
    units = training_units(["04"])
    # no break bias: its labels are crfsuite's own (see test_compiled_scorer_reproduces_crfsuite)
    return Punctuator(max_iterations=40, break_bias=0.0, sentence_kinds=False).fit([u[2] for u in units], [u[1] for u in units])


def _recall_precision(model: Punctuator, text: str) -> tuple[float, float, float, list[Break]]:
    _, gold, sentence = reading_breaks(READING)
    found = model.breaks(text, "JING")
    pos = {b.pos for b in found}
    recall = len(gold & pos) / len(gold)
    precision = len(gold & pos) / len(pos) if pos else 0.0
    sentence_recall = len(sentence & pos) / len(sentence)
    return recall, precision, sentence_recall, found


def test_shipped_model_restores_breaks_in_seed_jing(shipped, passage):
    recall, precision, sentence_recall, found = _recall_precision(shipped, passage)
    assert recall >= 0.8, shipped.punctuate(passage, "JING")
    assert precision >= 0.8, shipped.punctuate(passage, "JING")
    assert sentence_recall >= 0.9
    assert all(b.kind in ("clause", "sentence") for b in found)
    # breaks never fall inside a word the reader keeps together
    text = passage
    for b in found:
        assert text[b.pos - 2 : b.pos + 1] not in {"阼階前", "東北面", "西階上"}, b


def test_model_that_never_saw_the_chapter_still_finds_most_breaks(unseen_model, passage):
    recall, precision, sentence_recall, _ = _recall_precision(unseen_model, passage)
    assert recall >= 0.85, unseen_model.punctuate(passage, "JING")
    assert precision >= 0.8, unseen_model.punctuate(passage, "JING")
    assert sentence_recall >= 0.8


def test_line_breaks_of_hard_wrapped_text_are_skipped(shipped):
    # 主人\n阼階上: the line break is not a unit boundary, and offsets stay those of the raw text
    text = "主人卒洗壹揖壹讓以賓升賓西階上北面拜洗主人\n阼階上北面奠爵遂荅拜乃降"
    found = shipped.breaks(text, "JING")
    assert all(text[b.pos - 1] != "\n" and text[b.pos - 1 : b.pos + 1] != "人\n" for b in found)
    punctuated = shipped.punctuate(text, "JING")
    assert punctuated.replace("，", "").replace("。", "") == text


def test_a_name_written_twice_in_a_row_is_broken_between(shipped):
    """The one given to, then the same one acting: 使者授上介，上介受之 (a sentence of the 聘禮
    kind, a chapter the corpus lacks). The CRF knows which characters repeat on both sides of a
    boundary (``dup1``, ``dup2``); with character n-grams alone it learned only the names it saw
    doubled (公公, 賓賓) and read 上介上介 as one clause."""
    from pipeline.text.break_features import other_attributes

    text = "使者授上介上介受之"
    assert "dup2" in other_attributes(text, "JING", None)[4] and "dup1" in other_attributes("告于公公許", None, None)[2]
    assert shipped.punctuate(text, "JING").startswith("使者授上介，上介")


def test_variant_and_simplified_forms_read_alike(shipped):
    traditional = "主人坐取爵于上篚以降賓降主人阼階前西面坐奠爵興辭降賓對"
    variant = traditional.replace("賓", "賔").replace("荅", "答")
    simplified = "主人坐取爵于上篚以降宾降主人阼阶前西面坐奠爵兴辞降宾对"
    assert "賔" in variant
    assert shipped.breaks(variant, "JING") == shipped.breaks(traditional, "JING")
    assert shipped.breaks(simplified, "JING") == shipped.breaks(traditional, "JING")


def test_layer_bound_splitter_works_with_split_units(shipped, passage):
    from pipeline.text.sentences import split_units

    bound = shipped.for_layer("JING")
    assert bound.breaks(passage) == shipped.breaks(passage, "JING")
    sentences, clauses = split_units(passage, bound)
    assert len(clauses) >= len(sentences) >= 8  # the passage holds at least 10 sentences by reading
    assert "".join(passage[s:e] for s, e in clauses).replace("\n", "") == passage.replace("\n", "")


def test_marks_already_in_the_text_are_kept(shipped):
    text = "士相見之禮。贄，冬用雉，夏用腒"
    found = shipped.breaks(text)
    assert Break(6, "sentence") in found  # after 。
    assert Break(8, "clause") in found  # after 贄，
    assert Break(12, "clause") in found


def test_strip_marks_reads_the_xhtml_punctuation():
    # 士相見禮, the first 經 paragraph of the XHTML edition
    text = "士相見之禮。贄，冬用雉，夏用腒。左頭奉之，曰︰「某也願見，無由達。」"
    st = strip_marks(text)
    assert st.chars == "士相見之禮贄冬用雉夏用腒左頭奉之曰某也願見無由達"
    after = {st.chars[: i + 1][-2:]: label for i, label in enumerate(st.labels) if label != "N"}
    assert after == {"之禮": "S", "禮贄": "C", "用雉": "C", "用腒": "S", "奉之": "C", "之曰": "C", "願見": "C", "由達": "S"}
    assert "「" not in st.chars and "」" not in st.chars


def test_compiled_scorer_reproduces_crfsuite(unseen_model):
    units = training_units(["03"])[:40]
    for _, layer, text in units:
        chars = strip_marks(text).chars
        assert unseen_model.predict_labels(chars, layer) == unseen_model.crfsuite_labels(chars, layer)
    # many texts at once give what one at a time gives
    texts = [strip_marks(t).chars for _, _, t in units]
    layers = [layer for _, layer, _ in units]
    assert unseen_model.predict_labels_many(texts, layers) == [
        unseen_model.predict_labels(t, layer) for t, layer in zip(texts, layers)
    ]


def test_save_load_and_pickle_round_trip(unseen_model, passage, tmp_path):
    folder = unseen_model.save(tmp_path / "punctuate")
    assert (folder / "weights.npz").is_file() and (folder / "settings.json").is_file()
    loaded = Punctuator.load(folder)
    assert loaded.breaks(passage, "JING") == unseen_model.breaks(passage, "JING")
    assert loaded.get_params() == unseen_model.get_params()
    copied = pickle.loads(pickle.dumps(loaded))
    assert copied.breaks(passage, "JING") == unseen_model.breaks(passage, "JING")


def test_lexicon_pairs_mark_what_stands_on_each_side_of_a_boundary():
    # 鄉飲酒禮: 「主人拜送爵，賓少退」 — a verb then an actor, with no mark in the unpunctuated text
    from pipeline.text.break_features import LexiconMarks, other_attributes

    terms = {"ACTOR": ["主人", "賓"], "VERB": ["拜送", "退"], "OBJECT": ["爵"]}
    s = "主人拜送爵賓少退"
    plain = other_attributes(s, "JING", LexiconMarks(terms))
    paired = other_attributes(s, "JING", LexiconMarks(terms, pairs=True))
    assert not any(a[0] in "PQR" for attrs in plain.values() for a in attrs)
    assert "POBJ1|ACT1" in paired[4]  # 爵 | 賓: the boundary the editor marks
    assert "PACT2|VER2" in paired[1]  # 主人 | 拜送
    assert "QACT1|少" in paired[5] and "R少|VER1" in paired[6]


def test_models_saved_before_lexicon_pairs_load_without_them(unseen_model, passage, tmp_path):
    import json

    folder = unseen_model.save(tmp_path / "old")
    settings = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    del settings["params"]["lexicon_pairs"]
    del settings["params"]["jing_repeat"]
    (folder / "settings.json").write_text(json.dumps(settings, ensure_ascii=False), encoding="utf-8")
    old = Punctuator.load(folder)
    assert old.lexicon_pairs is False and old._lexicon().pairs is False and old.jing_repeat == 1
    shipped = Punctuator.load(default_model_dir())  # trained with both
    assert shipped.lexicon_pairs is True and shipped.jing_repeat > 1


def test_repeating_the_jing_changes_what_is_learned_not_what_is_counted():
    # two 經 and two 注 passages of 鄉飲酒禮: the 經 seen three times gives another model
    texts = ["主人坐取爵，實之賓之席前，西北面獻賓。", "賓西階上拜，主人少退。",
             "獻，進也。進酒於賓。", "少退，少辟。"]
    layers = ["JING", "JING", "ZHU", "ZHU"]
    once = Punctuator(jing_repeat=1, max_iterations=20).fit(texts, layers)
    thrice = Punctuator(jing_repeat=3, max_iterations=20).fit(texts, layers)
    assert once.training_["chars"] == thrice.training_["chars"]  # the text itself is counted once
    assert once.crfsuite_bytes_ != thrice.crfsuite_bytes_


def test_missing_or_corrupt_model_names_path_and_rebuild_command(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(ModelError) as err:
        Punctuator.load(missing)
    assert str(missing) in str(err.value) and REBUILD_COMMAND in str(err.value)
    assert REBUILD_COMMAND == "yili train punctuate"
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "weights.npz").write_bytes(b"not a model")
    (broken / "settings.json").write_text('{"format": 1, "params": {}, "lexicon_terms": {"ACTOR": ["主人"]}}')
    with pytest.raises(ModelError) as err:
        Punctuator.load(broken)
    assert str(broken) in str(err.value) and REBUILD_COMMAND in str(err.value)


def test_unfitted_model_says_so():
    with pytest.raises(ModelError):
        Punctuator().breaks("主人升")


def test_texts_without_anything_to_break(shipped):
    assert shipped.breaks("") == []
    assert shipped.breaks("賓") == []
    assert shipped.breaks("。，「」\n") == []
    assert shipped.breaks_many(["", "賓降", "主人升"], ["JING", None, "ZHU"])[0] == []


def test_shipped_model_is_small_and_in_models():
    folder = default_model_dir()
    assert folder.name == "punctuate"
    size = sum(p.stat().st_size for p in folder.iterdir())
    assert size < 20_000_000
    assert (folder / "MODEL_CARD.md").is_file()


def test_break_counts_and_folds():
    counts = Counts().add(list("NCNSN"), list("NSNNC"))  # last position is never counted
    scores = counts.scores()
    assert scores["any"]["p"] == 1.0 and scores["any"]["r"] == 0.5
    assert scores["clause"]["gold"] == 1 and scores["clause"]["predicted"] == 0
    assert scores["sentence"]["predicted"] == 1 and scores["sentence"]["f1"] == 0.0
    assert prf(0, 0, 0)["f1"] == 0.0
    folds = chapter_folds(["03", "04", "05", "07", "10", "11", "12"], 3)
    assert sorted(ch for fold in folds for ch in fold) == ["03", "04", "05", "07", "10", "11", "12"]
    assert all(fold for fold in folds)


def test_an_independent_editor_agrees_with_the_xhtml_jing_on_most_breaks():
    """Seed 000 (a modern translation) punctuates the 經 of 鄉射禮 and 大射 itself: most passages
    align with the XHTML edition's, and the two editors agree well above the model but not fully."""
    other = edition_agreement()
    assert other["passages"] > 0.9 * other["of"] > 450
    assert 0.9 < other["any"]["f1"] < 0.99
    # the kind of break is where the editors differ most: the translation often ends a sentence where the XHTML has ，
    assert other["sentence"]["f1"] < other["clause"]["f1"] < other["any"]["f1"]


def test_read_conllu_spans_match_the_text():
    sentences = read_conllu(SHARED / "ud-kyoto" / "lzh_kyoto-ud-test.conllu")
    first = sentences[0]
    assert first.text == "學而篇第一"
    assert [first.text[s:e] for s, e, _ in first.tokens] == ["學", "而", "篇", "第", "一"]
    assert first.tokens[0][2] == "VERB"
    second = sentences[1]
    assert second.text == "子曰" and second.paragraph > first.paragraph


def test_key_table_finds_every_key_and_misses_the_rest():
    import numpy as np

    from pipeline.text.punctuate_hash import KeyTable

    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(0, 2**40, 5000))
    keys = np.concatenate([keys, keys[:50] + 2**41])  # same low bits: probing must tell them apart
    rng.shuffle(keys)
    table = KeyTable.build(keys)
    assert (table.lookup(keys) == np.arange(len(keys))).all()
    others = np.setdiff1d(rng.integers(0, 2**42, 5000), keys)
    assert (table.lookup(others) == len(keys)).all()
    assert len(table.lookup(np.zeros(0, dtype=np.int64))) == 0


def test_break_bias_trades_precision_for_recall(unseen_model):
    """A bias against "no break" finds more breaks in unseen text, and more of the editor's."""
    units = training_units(["05"])[:60]
    texts = [strip_marks(t).chars for _, _, t in units]
    layers = [layer for _, layer, _ in units]
    plain = unseen_model.predict_labels_many(texts, layers)
    biased = Punctuator(**{**unseen_model.get_params(), "break_bias": 1.0})
    biased.crf_, biased.lexicon_terms_ = unseen_model.crf_, unseen_model.lexicon_terms_
    more = biased.predict_labels_many(texts, layers)
    count = lambda rows: sum(label != "N" for row in rows for label in row)  # noqa: E731
    assert count(more) > count(plain)
    gold = [strip_marks(t).labels for _, _, t in units]
    hits = lambda rows: sum(g != "N" and p != "N" for gr, pr in zip(gold, rows) for g, p in zip(gr[:-1], pr[:-1]))  # noqa: E731
    assert hits(more) > hits(plain)
    # without the layer the model already finds too many breaks: the bias is not applied there
    assert biased.predict_labels_many(texts) == unseen_model.predict_labels_many(texts)


def test_crf_with_lstm_round_trip_and_missing_lstm_file(passage, tmp_path):
    """The CRF + BiLSTM model: saved without pickles, loaded alike; without its lstm.npz the error
    names the file and the command that rebuilds that model."""
    from pipeline.text.punctuate import LSTM_FILE, LSTM_REBUILD_COMMAND

    units = training_units(["03"])
    model = Punctuator(max_iterations=20, lstm_weight=2.0, lstm_epochs=1).fit(
        [u[2] for u in units], [u[1] for u in units]
    )
    assert model.lstm_ is not None and model.training_["lstm"]["chars"] == model.training_["chars"]
    folder = model.save(tmp_path / "punctuate-lstm")
    loaded = Punctuator.load(folder)
    assert loaded.get_params() == model.get_params()
    assert loaded.predict_labels(passage, "JING") == model.predict_labels(passage, "JING")
    copied = pickle.loads(pickle.dumps(loaded))
    assert copied.breaks(passage, "JING") == model.breaks(passage, "JING")
    (folder / LSTM_FILE).unlink()
    with pytest.raises(ModelError) as err:
        Punctuator.load(folder)
    assert str(folder / LSTM_FILE) in str(err.value) and LSTM_REBUILD_COMMAND in str(err.value)


def test_lstm_model_without_torch_says_torch_is_needed(monkeypatch):
    """The shipped CRF + BiLSTM model on a machine without torch: the error says to install torch
    (not to rebuild a model that is fine), and names the folder."""
    import sys

    from pipeline.config import models_dir

    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now fails as if not installed
    with pytest.raises(ModelError) as err:
        Punctuator.load("models/punctuate-lstm")
    message = str(err.value)
    assert "torch" in message and "pip install torch" in message and "rebuild" not in message
    assert str(models_dir() / "punctuate-lstm") in message


def test_relative_model_paths_read_from_the_working_directory_then_the_checkout(tmp_path, monkeypatch):
    """One rule for every model path of a config: ./x when it exists, else the checkout's x."""
    from pipeline.config import ROOT, model_path

    monkeypatch.chdir(tmp_path)
    assert model_path("models/punctuate") == ROOT / "models" / "punctuate"
    (tmp_path / "models" / "punctuate").mkdir(parents=True)
    assert model_path("models/punctuate") == tmp_path / "models" / "punctuate"
    assert model_path(tmp_path / "elsewhere") == tmp_path / "elsewhere"


def test_pretraining_text_holds_only_the_chapters_given():
    """The LM text of a fold: the chapters given in every edition, no 考證, no other chapter."""
    from pipeline.corpus import iter_units
    from pipeline.text.normalise import normalise_str
    from pipeline.text.pretrain_lstm import pretraining_texts

    texts = pretraining_texts(["03"], kyoto=False)
    joined = "\n".join(s for s, _ in texts)
    assert {layer for _, layer in texts} == {"JING", "ZHU", "SHU"}
    siku = [u for u in iter_units("zhushu-siku", chapters=["03"])]
    assert any(normalise_str(u.text) in joined for u in siku if u.layer == "JING" and len(u.text) > 20)
    assert not any(normalise_str(u.text) in joined for u in siku if u.layer == "OTHER" and len(u.text) > 20)
    held_out = [strip_marks(u[2]).chars for u in training_units(["10"]) if u[1] == "JING"]
    assert not any(normalise_str(s) in joined for s in held_out if len(s) > 12)
    with_kyoto = pretraining_texts(["03"], editions=(), kyoto=True)
    assert with_kyoto and all(layer is None for _, layer in with_kyoto)


def test_pretrained_lm_weights_start_the_tagger(tmp_path):
    """A tiny LM on the 四部叢刊 text of 03: its vocabulary and its char/LSTM weights become the
    tagger's starting point; sizes that differ are refused."""
    import torch

    from pipeline.text.normalise import normalise_str
    from pipeline.text.pretrain_lstm import load_pretrained_arrays, pretrain, pretraining_texts, save_pretrained
    from pipeline.text.punctuate_lstm import LSTMTagger, _module, load_pretrained

    texts = pretraining_texts(["03"], editions=("zhengzhu-sbck",), kyoto=False)
    result = pretrain(texts, epochs=1, emb=16, hidden=16, bigram_emb=8)
    assert not any(k.startswith("w:bigram") for k in result["arrays"])
    arrays = load_pretrained_arrays(save_pretrained(result, tmp_path / "lm.npz"))
    vocab = [str(c) for c in arrays["vocab"]]
    assert len(vocab) == result["info"]["vocab"] and normalise_str("賓") in vocab
    net = _module(len(vocab) + 2, 10, 16, 8, 16, 0.0)
    copied = load_pretrained(net, arrays)
    assert "emb.weight" in copied and "lstm.weight_hh_l0_reverse" in copied
    assert torch.equal(net.lstm.weight_ih_l0, torch.from_numpy(arrays["w:lstm.weight_ih_l0"]))
    with pytest.raises(ValueError, match="emb and hidden"):
        load_pretrained(_module(len(vocab) + 2, 10, 16, 8, 32, 0.0), arrays)
    data = [(normalise_str(st.chars), st.labels, layer)
            for _, layer, text in training_units(["03"])[:30] for st in [strip_marks(text)] if len(st.chars) >= 2]
    tagger = LSTMTagger(emb=16, hidden=16, bigram_emb=8, epochs=1).fit(data, pretrained=arrays)
    assert tagger.vocab_ == vocab


def test_a_model_trained_again_with_given_terms_reads_them_not_the_lexicon(shipped, tmp_path):
    """``lexicon_terms``: the fold models of ``yili evaluate actions`` (unseen form) train with the
    shipped model's terms, so an edit of configs/lexicon changes the reader, not their cuts. The terms
    given are the ones learned from and saved; without them the lexicon as it is now is read."""
    texts = ["主人坐取爵，實之賓之席前，西北面獻賓。", "賓西階上拜，主人少退。"]
    terms = {"ACTOR": ["主人"], "VERB": ["拜"], "OBJECT": [], "LOCATION": [], "FACING": []}
    given = Punctuator(max_iterations=20, lexicon_terms=terms).fit(texts, ["JING", "JING"])
    assert given.lexicon_terms_ == terms
    current = Punctuator(max_iterations=20).fit(texts, ["JING", "JING"])
    assert "宾" in current.lexicon_terms_["ACTOR"] and current.crfsuite_bytes_ != given.crfsuite_bytes_
    loaded = Punctuator.load(given.save(tmp_path / "given"))
    assert loaded.lexicon_terms_ == terms and loaded.lexicon_terms is None  # saved once, as the terms
    # a fold trained "as shipped" (士相見禮 only, 8 s) reads the shipped model's terms
    from pipeline.layers.training import fold_punctuator

    assert fold_punctuator(["03"], shipped_terms=True).lexicon_terms_ == shipped.lexicon_terms_
