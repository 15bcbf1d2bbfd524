"""The shipped stanza lzh tokenizer (models/stanza-lzh): loads offline, segments real text, and a
missing model says where it should be and how to rebuild it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from pipeline.nlp import BackendUnavailable, build_nlp
from pipeline.nlp import stanza_tokenizer
from pipeline.nlp.stanza_tokenizer import default_model_dir, find_model
from pipeline.text.segmentation_eval import kyoto_dir, read_conllu

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to open a connection fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_shipped_model_is_in_models_with_a_card():
    folder = ROOT / "models" / "stanza-lzh"
    assert default_model_dir() == folder
    model = find_model(None)
    assert model.parent == folder and model.suffix == ".pt"
    assert model.stat().st_size < 3_000_000
    assert (folder / "resources.json").read_text(encoding="utf-8").strip() == "{}"
    card = (folder / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert "yili train stanza" in card and "token F1" in card


def test_shipped_model_segments_kyoto_offline(no_network):
    sentences = read_conllu(kyoto_dir() / "lzh_kyoto-ud-test.conllu")
    passage = max(sentences[:200], key=lambda s: len(s.text))  # a real 論語 line, not a title
    pipe = stanza_tokenizer.load_stanza(None)
    doc = pipe(passage.text)
    ranges = [(t.start_char, t.end_char) for s in doc.sentences for t in s.tokens]
    assert ranges and ranges[0][0] == 0 and ranges[-1][1] == len(passage.text)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))  # contiguous, no gaps or overlaps
    assert "".join(passage.text[s:e] for s, e in ranges) == passage.text
    for (s, e), tok in zip(ranges, [t for s_ in doc.sentences for t in s_.tokens]):
        assert passage.text[s:e] == tok.text
    gold = {(s, e) for s, e, _ in passage.tokens}
    assert len(gold & set(ranges)) / len(gold) > 0.8


def test_stanza_backend_gives_docs_whose_offsets_map_back(no_network):
    nlp = build_nlp({"nlp": {"tokenizer": "stanza", "stanza_model_dir": None}})
    text = "子曰學而時習之不亦說乎主人阼階上當楣北面再拜"
    doc = nlp.tokenizer(text)
    assert "".join(t.text for t in doc) == text
    assert all(text[t.idx : t.idx + len(t.text)] == t.text for t in doc)
    assert any(t.text == "主人" for t in doc)  # lexicon terms survive the re-alignment


def test_missing_shipped_model_names_the_path_and_the_fix(tmp_path, monkeypatch):
    empty = tmp_path / "stanza-lzh"
    monkeypatch.setattr(stanza_tokenizer, "default_model_dir", lambda: empty)
    with pytest.raises(BackendUnavailable) as info:
        build_nlp({"nlp": {"tokenizer": "stanza", "stanza_model_dir": None}})
    message = str(info.value)
    assert str(empty) in message
    assert "yili train stanza" in message and "stanza_model_dir" in message
