"""The layer model's runtime form (runtime.npz + runtime.json): same results as the joblib model,
no scikit-learn imported, and a clear error when its files are missing or broken."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import numpy as np
import pytest

from pipeline.layers.predict import ModelError, default_model_dir
from pipeline.layers.runtime import RUNTIME_ARRAYS, RUNTIME_META, RuntimeLayerModel, load_model, load_runtime
from pipeline.read.inputs import read_file
from tests.conftest import CORPUS, REPO, SEEDS


@pytest.fixture(scope="module")
def both():
    from pipeline.layers.classifier import LayerClassifier

    return LayerClassifier.load(default_model_dir()), load_runtime(default_model_dir())


def _files() -> list:
    files = list(SEEDS)
    for edition in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        files += sorted(p for p in edition.iterdir() if p.is_file())[:2]
    assert len(files) >= len(SEEDS) + 8
    return files


def test_the_shipped_model_loads_in_its_runtime_form():
    model = load_model()
    assert isinstance(model, RuntimeLayerModel) and model.splitter_ is not None
    assert model.splitter_.piece_tagger_ is not None


def test_runtime_segments_equal_the_joblib_model_on_seeds_and_corpus(both):
    from pipeline.process import DocumentProcessor

    joblib_model, runtime = both
    runs = []
    for model in both:
        proc = DocumentProcessor()
        proc._layer_model = model
        out = []
        for path in _files():
            _layout, segments, _removed = proc.layers(read_file(path).record)
            out.append(segments)
        runs.append(out)
    n_model = 0
    for a, b in zip(*runs):
        assert [(s.layer, s.start, s.end, s.evidence) for s in a] == [(s.layer, s.start, s.end, s.evidence) for s in b]
        assert np.allclose([s.score for s in a], [s.score for s in b], rtol=0, atol=1e-6)
        n_model += sum(s.evidence == "model" for s in a)
    assert n_model > 30  # the model (and its splitter) decided many segments


def test_runtime_probabilities_equal_the_joblib_model_on_snippets(both):
    joblib_model, runtime = both
    rng = random.Random(7)
    snippets = ["", "。", "ABC", "主人", "注云"]
    for path in _files():
        raw = read_file(path).record["text"]
        snippets += [raw[i : i + rng.randint(1, 400)] for i in (rng.randrange(len(raw)) for _ in range(60))]
    for separate in (True, False):
        a, b = joblib_model.text_proba(snippets, separate), runtime.text_proba(snippets, separate)
        assert np.allclose(a, b, rtol=0, atol=1e-9)
        assert (a.argmax(axis=1) == b.argmax(axis=1)).all()
    assert np.allclose(joblib_model._logits(snippets[5:]), runtime._logits(snippets[5:]), rtol=0, atol=1e-9)
    text = SEEDS[3].read_text(encoding="utf-8")[:3000]
    assert joblib_model.splitter_.predict(text, joblib_model) == runtime.splitter_.predict(text, runtime)
    assert joblib_model.splitter_._crf_labels(text) == runtime.splitter_._crf_labels(text)


def test_window_scores_are_the_mean_weight_of_the_ngrams_inside_each_window():
    """The windows of all widths are computed together; each must still be the plain mean of the
    hashed n-gram weights that lie wholly inside it, plus the intercept."""
    from pipeline.layers.seams import _hash

    scorer = load_model().splitter_.scorer_
    han = "主人坐取爵于篚降洗賓降主人辭降賓對東面立主人坐取爵沃洗者西北面"
    n = len(han)
    windows = scorer.window_scores(han)
    assert len(windows) == len(scorer.widths)

    def plain(lo: int, hi: int) -> np.ndarray:
        lo, hi = max(lo, 0), min(hi, n)
        rows = [scorer.coef_[_hash(han[i : i + k], scorer.n_features)]
                for k in scorer.orders for i in range(lo, hi - k + 1)]
        return (np.mean(np.asarray(rows, dtype=np.float64), axis=0) if rows else 0.0) + scorer.intercept_

    close = dict(rtol=0, atol=1e-3)  # the prefix sums run in float32, the weights' own precision
    for w, (left, right, centre) in zip(scorer.widths, windows):
        half = max(w // 2, 1)
        for i in (0, 1, 5, n // 2, n - 2, n - 1):
            assert np.allclose(left[i], plain(i - w, i), **close), (w, i)
            assert np.allclose(right[i], plain(i, i + w), **close), (w, i)
            assert np.allclose(centre[i], plain(i - half, i + half), **close), (w, i)
            assert not np.allclose(left[i], right[i], **close) or i in (0, n - 1), (w, i)


@pytest.fixture
def counted(monkeypatch):
    """A processor whose layer model notes every text it scores: (processor, model, texts seen)."""
    from pipeline.process import DocumentProcessor

    model = load_model()
    proc = DocumentProcessor()
    proc._layer_model = model
    seen: list[str] = []
    raw_logits = model._logits

    def counting(texts):
        seen.extend(texts)
        return raw_logits(texts)

    monkeypatch.setattr(model, "_logits", counting)
    return proc, model, seen


def test_resolving_a_record_scores_each_text_once_and_keeps_nothing_after(counted):
    """The splitter and the segments read the same texts; each is scored once per call, and
    what was remembered is gone when the call returns (the next record is a new text)."""
    proc, model, seen = counted
    record = {"text": "主人揖先入賓厭介入門左介厭眾賓入眾賓皆入門左北上"}  # one piece: splitter and segment read the same text
    _layout, first, _removed = proc.layers(record)
    assert seen and len(seen) == len(set(seen))
    assert getattr(model, "_logit_memo", None) is None
    assert getattr(model.splitter_, "_call_memo", None) is None
    seen.clear()
    _layout, again, _removed = proc.layers(record)
    assert seen  # scored anew, not from a memo of the last call
    assert [(s.layer, s.start, s.end, s.score) for s in again] == [(s.layer, s.start, s.end, s.score) for s in first]


def test_segments_decided_by_markers_are_not_scored(counted):
    """In a 四庫 chapter the 疏 (marked) is most of the text; the model scores only the stretches
    nothing decided, and gives them its layers."""
    from pipeline.layers import segment_layers

    proc, _model, seen = counted
    record = read_file(CORPUS / "zhushu-siku" / "10_jinli.txt").record
    decided = [s for s in segment_layers(record["text"], (record.get("meta") or {}).get("source")).segments if s.evidence != "default"]
    assert sum(s.end - s.start for s in decided) > 20_000
    _layout, segments, _removed = proc.layers(record)
    assert sum(1 for s in segments if s.evidence == "model") >= 5
    assert seen
    assert not {s.text for s in decided if len(s.text) > 20} & set(seen)


def test_processing_a_document_imports_no_scikit_learn(tmp_path):
    code = (
        "import sys\n"
        "from pipeline.process import DocumentProcessor\n"
        "p = DocumentProcessor(); p.preload()\n"
        f"text = open({str(SEEDS[3])!r}, encoding='utf-8').read()\n"
        "out = p.process({'text': text, 'meta': {}})\n"
        "assert out['segments'], out\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'sklearn_crfsuite'))\n"
        "print('LOADED', type(p.layer_model).__name__, len(out['segments']), bad)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    line = [l for l in result.stdout.splitlines() if l.startswith("LOADED")][-1]
    assert line.startswith("LOADED RuntimeLayerModel") and line.endswith("[]"), line


@pytest.fixture()
def copy(tmp_path):
    folder = tmp_path / "layers"
    shutil.copytree(default_model_dir(), folder)
    return folder


@pytest.mark.parametrize("name", [RUNTIME_ARRAYS, RUNTIME_META])
def test_a_truncated_runtime_file_names_the_file_and_the_fix(copy, name):
    victim = copy / name
    victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 3])
    with pytest.raises(ModelError) as info:
        load_model(copy)
    assert str(victim) in str(info.value) and "yili train layers" in str(info.value)


def test_a_corrupt_crf_inside_the_arrays_names_the_file(copy):
    with np.load(copy / RUNTIME_ARRAYS) as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["crf"] = np.frombuffer(b"\x00not a crfsuite model" * 4, dtype=np.uint8)
    np.savez_compressed(copy / RUNTIME_ARRAYS, **arrays)
    with pytest.raises(ModelError) as info:
        load_model(copy)
    assert str(copy / RUNTIME_ARRAYS) in str(info.value) and "yili train layers" in str(info.value)


def test_missing_runtime_arrays_name_the_file(copy):
    (copy / RUNTIME_ARRAYS).unlink()
    with pytest.raises(ModelError) as info:
        load_model(copy)
    assert str(copy / RUNTIME_ARRAYS) in str(info.value) and "yili train layers" in str(info.value)


def test_without_the_runtime_form_the_joblib_model_is_loaded(copy):
    (copy / RUNTIME_META).unlink()
    (copy / RUNTIME_ARRAYS).unlink()
    model = load_model(copy)
    assert type(model).__name__ == "LayerClassifier"


def test_a_runtime_form_made_from_another_joblib_model_is_not_used(copy, capsys):
    """classifier.joblib replaced by hand (here: the same model with another temperature) while the
    runtime form is the old one: the joblib model, the truth, is loaded, with a warning that says
    how to rewrite the runtime form; rewriting it makes the runtime form current again."""
    import joblib

    from pipeline.layers.classifier import LayerClassifier
    from pipeline.layers.predict import MODEL_FILE
    from pipeline.layers.runtime import main as write_runtime

    model = LayerClassifier.load(copy)
    model.temperature_ *= 2
    joblib.dump(model, copy / MODEL_FILE, compress=3)
    loaded = load_model(copy)
    assert type(loaded).__name__ == "LayerClassifier" and loaded.temperature_ == model.temperature_
    assert "python -m pipeline.layers.runtime" in capsys.readouterr().err
    assert write_runtime([str(copy)]) == 0
    current = load_model(copy)
    assert isinstance(current, RuntimeLayerModel) and np.isclose(current.temperature_, model.temperature_)
