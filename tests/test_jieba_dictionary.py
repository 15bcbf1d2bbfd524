"""The jieba backend's Classical Chinese word list (models/jieba-lzh), built from UD Kyoto's training file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.config import load_config
from pipeline.nlp import build_nlp
from pipeline.nlp.jieba_dictionary import DEFAULT_DIR, DICT_FILE, DictionaryError, build_dictionary
from pipeline.text.normalise import normalise_str


@pytest.fixture(scope="module")
def shipped_jieba():
    nlp = load_config()["nlp"]
    assert nlp["tokenizer"] == "jieba" and nlp["jieba_dictionary"] == "models/jieba-lzh"
    return build_nlp({"nlp": {"tokenizer": "jieba", "jieba_dictionary": nlp["jieba_dictionary"]}}).tokenizer


def test_the_shipped_word_list_is_what_yili_train_jieba_builds(tmp_path: Path):
    info = build_dictionary(tmp_path)
    assert (tmp_path / DICT_FILE).read_text(encoding="utf-8") == (DEFAULT_DIR / DICT_FILE).read_text(encoding="utf-8")
    assert info["words"] > 2000 and info["multi_character_words"] > 200
    lines = (tmp_path / DICT_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[0] == "之 1996"  # the commonest word of 論語, 孟子 and 禮記, with its count
    assert f"{normalise_str('君子')} " in "\n".join(lines)  # words are in the normalised view's form


def test_classical_words_are_not_joined_into_modern_compounds(shipped_jieba):
    # 論語 學而 (UD Kyoto test, words as its annotators cut them): jieba's own dictionary reads
    # 有朋自遠方來 as one modern idiom and 巧言令色 as another
    modern = build_nlp({"nlp": {"tokenizer": "jieba", "jieba_dictionary": None}}).tokenizer
    for text, words in (("有朋自遠方來", "有 朋 自 遠 方 來"), ("巧言令色鮮矣仁", "巧 言 令 色 鮮 矣 仁")):
        view = normalise_str(text)
        assert [t.text for t in shipped_jieba(view)] == normalise_str(words).split()
        assert len(modern(view)) < len(view)


def test_ritual_terms_stay_whole_with_the_classical_word_list(shipped_jieba):
    view = normalise_str("主人坐取爵于上篚")  # 鄉飲酒禮
    assert [t.text for t in shipped_jieba(view)][:2] == [normalise_str("主人"), normalise_str("坐")]
    assert normalise_str("上篚") in [t.text for t in shipped_jieba(view)]


def test_a_missing_word_list_names_its_path_and_the_command_that_rebuilds_it(tmp_path: Path):
    missing = tmp_path / "no-such-dictionary"
    with pytest.raises(DictionaryError) as info:
        build_nlp({"nlp": {"tokenizer": "jieba", "jieba_dictionary": str(missing)}})
    assert str(missing) in str(info.value) and "yili train jieba" in str(info.value)
