"""Sentence or clause for each 斷句 break of the 經 (pipeline/text/sentence_kind.py), on real text."""

from __future__ import annotations

import json
import shutil

import pytest

from pipeline.text.marks import strip_marks
from pipeline.text.normalise import normalise_str
from pipeline.text.punctuate import Punctuator, default_model_dir, training_units
from pipeline.text.sentence_kind import SentenceKinds


def _jing(chapter: str) -> list[tuple[str, list[str]]]:
    units = [strip_marks(text) for _, layer, text in training_units([chapter]) if layer == "JING"]
    return [(normalise_str(st.chars), st.labels) for st in units if len(st.chars) >= 2]


@pytest.fixture(scope="module")
def shipped() -> Punctuator:
    return Punctuator.load()


@pytest.fixture(scope="module")
def kinds(shipped) -> SentenceKinds:
    """Trained on the 經 of 鄉飲酒禮 and 大射 only: it never saw 鄉射禮 (05)."""
    train = _jing("04") + _jing("07")
    return SentenceKinds(actors=shipped.lexicon_terms_["ACTOR"]).fit([c for c, _ in train], [lab for _, lab in train])


def test_the_editors_breaks_get_the_editors_kinds_on_an_unseen_chapter(kinds):
    """鄉射禮's 經 with the editor's own break positions: the kinds read again agree with the editor
    far more often than "always a clause" (the usual kind) does."""
    right = clause = total = 0
    for chars, labels in _jing("05"):
        again = kinds.relabel(chars, labels)
        # positions never move: only the kind of a break is decided
        assert [lab == "N" for lab in again] == [lab == "N" for lab in labels]
        assert again[-1] == labels[-1]
        for i in range(len(labels) - 1):
            if labels[i] != "N":
                total += 1
                right += again[i] == labels[i]
                clause += labels[i] == "C"
    assert total > 1000
    assert right / total >= 0.86
    assert right / total >= clause / total + 0.05


def test_kinds_survive_a_round_trip_through_their_dict(kinds):
    again = SentenceKinds.from_dict(json.loads(json.dumps(kinds.to_dict(), ensure_ascii=False)))
    for chars, labels in _jing("05")[:60]:
        assert again.relabel(chars, labels) == kinds.relabel(chars, labels)


def test_the_shipped_model_reads_again_the_kinds_of_the_jing_only(shipped):
    assert shipped.kinds_ is not None and shipped.sentence_kinds
    units = [(layer, strip_marks(text).chars) for _, layer, text in training_units(["05"])][:200]
    units = [(layer, chars) for layer, chars in units if len(chars) >= 2]
    with_kinds = shipped.predict_labels_many([c for _, c in units], [layer for layer, _ in units])
    saved, shipped.kinds_ = shipped.kinds_, None
    try:
        crf_only = shipped.predict_labels_many([c for _, c in units], [layer for layer, _ in units])
    finally:
        shipped.kinds_ = saved
    changed = 0
    for (layer, _chars), a, b in zip(units, with_kinds, crf_only):
        assert [x == "N" for x in a] == [x == "N" for x in b]  # the same breaks
        if layer != "JING":
            assert a == b
        changed += a != b
    assert changed > 0


def test_a_model_saved_before_sentence_kinds_loads_without_them(tmp_path):
    folder = tmp_path / "old"
    shutil.copytree(default_model_dir(), folder)
    settings = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    settings.pop("sentence_kinds")
    settings["params"].pop("sentence_kinds")
    (folder / "settings.json").write_text(json.dumps(settings, ensure_ascii=False), encoding="utf-8")
    old = Punctuator.load(folder)
    assert old.kinds_ is None and not old.sentence_kinds
    assert old.breaks("主人坐取爵于上篚以降", "JING")
