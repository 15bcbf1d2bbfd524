"""Train stanza tokenizers offline: ``yili train stanza`` (the lzh word tokenizer the ``stanza``
backend ships) and an experimental 斷句 model (a stanza tokenizer whose "sentences" are the units
between two marks).

Stanza's tokenizer is a character tagger: per character 0 (inside a token), 1 (ends a token),
2 (ends a token and a sentence). Its training code reads a plain-text file (paragraphs separated
by a blank line) and a label file of the same shape (one digit per character). Both are written
here straight from the data, so nothing of stanza's dataset scripts (or the network) is needed:

- the word tokenizer: the UD Classical Chinese Kyoto treebank (``../shared/ud-kyoto``), train for
  training, a slice of dev for early stopping; paragraphs from ``# newpar`` / ``# newdoc``;
  punctuation words left out (the pipeline and the evaluation read unpunctuated text);
- the 斷句 model: units of the punctuated XHTML edition with their marks stripped
  (:func:`pipeline.text.punctuate.strip_marks`), every character its own token, a sentence end
  where any mark followed.

Training runs on the CPU with one thread; stanza's trainer saves the best model on the dev slice.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable, Optional, Sequence

#: where the shipped lzh word tokenizer lives (the ``stanza`` backend's default model folder)
MODEL_NAME = "lzh_kyoto_tokenizer.pt"
REBUILD_COMMAND = "yili train stanza"


def default_model_dir() -> Path:
    """``models/stanza-lzh`` of the checkout."""
    from pipeline.config import shipped

    return shipped("models/stanza-lzh")


def kyoto_dir() -> Path:
    from pipeline.corpus import corpus_dir

    return corpus_dir().parent / "ud-kyoto"


def kyoto_train_file(folder: Optional[Path] = None) -> Path:
    """The Kyoto training CoNLL-U (the shared copy is named ``lzh_kyoto-ud-train.OLD-….conllu``)."""
    folder = Path(folder) if folder else kyoto_dir()
    exact = folder / "lzh_kyoto-ud-train.conllu"
    if exact.is_file():
        return exact
    found = sorted(folder.glob("lzh_kyoto-ud-train*.conllu"))
    if not found:
        raise FileNotFoundError(f"no lzh_kyoto-ud-train*.conllu in {folder}")
    return found[-1]


# -- data: CoNLL-U and marked text to stanza's txt + toklabels ---------------------------------


def conllu_paragraphs(path: Path, drop_punct: bool = True) -> list[list[list[str]]]:
    """Paragraphs of a CoNLL-U file, each a list of sentences, each a list of word forms."""
    paragraphs: list[list[list[str]]] = []
    current: list[list[str]] = []
    words: list[str] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("# newpar") or line.startswith("# newdoc"):
            if words:
                current.append(words)
                words = []
            if current:
                paragraphs.append(current)
                current = []
            continue
        if not line.strip():
            if words:
                current.append(words)
                words = []
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 4 or "-" in cols[0] or "." in cols[0]:
            continue
        if drop_punct and cols[3] == "PUNCT":
            continue
        form = "".join(cols[1].split())
        if form:
            words.append(form)
    if words:
        current.append(words)
    if current:
        paragraphs.append(current)
    return paragraphs


def paragraph_labels(sentences: Sequence[Sequence[str]]) -> tuple[str, str]:
    """(text, labels) of one paragraph: ``0`` inside a word, ``1`` word end, ``2`` sentence end."""
    text: list[str] = []
    labels: list[str] = []
    for words in sentences:
        for word in words:
            text.append(word)
            labels.append("0" * (len(word) - 1) + "1")
        if labels:
            labels[-1] = labels[-1][:-1] + "2"
    return "".join(text), "".join(labels)


def write_stanza_data(pairs: Iterable[tuple[str, str]], txt: Path, labels: Path, max_chars: Optional[int] = None) -> int:
    """Write (text, labels) paragraphs as stanza's txt / toklabels files; returns the characters written."""
    texts: list[str] = []
    labs: list[str] = []
    chars = 0
    for text, lab in pairs:
        if not text:
            continue
        assert len(text) == len(lab), (text, lab)
        texts.append(text)
        labs.append(lab)
        chars += len(text)
        if max_chars is not None and chars >= max_chars:
            break
    Path(txt).write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    Path(labels).write_text("\n\n".join(labs) + "\n", encoding="utf-8")
    return chars


def break_pairs(texts: Iterable[str]) -> Iterable[tuple[str, str]]:
    """(characters, labels) for the 斷句 model: each unit's marks stripped, every character a token
    (``1``), a sentence end (``2``) where any mark followed; the unit's end is a sentence end."""
    from pipeline.text.marks import strip_marks

    for text in texts:
        st = strip_marks(text)
        if not st.chars:
            continue
        lab = ["2" if g != "N" else "1" for g in st.labels]
        lab[-1] = "2"
        yield st.chars, "".join(lab)


# -- training ----------------------------------------------------------------------------------


def _single_thread() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch

    torch.set_num_threads(1)


def train_stanza_tokenizer(
    train_txt: Path, train_labels: Path, dev_txt: Path, dev_labels: Path, save_path: Path,
    steps: int = 3000, eval_steps: int = 500, max_seqlen: int = 100, batch_size: int = 32,
    seed: int = 1234, extra: Sequence[str] = (), shorthand: str = "lzh_kyoto",
) -> Path:
    """Run stanza's own tokenizer training (``stanza.models.tokenizer``) on the CPU; returns the model path."""
    _single_thread()
    from stanza.models import tokenizer as stanza_tokenizer

    save_path = Path(save_path)
    save_path.parent.mkdir(parents=True, exist_ok=True)
    mwt = save_path.parent / "no-mwt.json"  # stanza's trainer insists on an MWT file: none here
    mwt.write_text("[]", encoding="utf-8")
    args = [
        "--mode", "train", "--lang", "lzh", "--shorthand", shorthand,
        "--txt_file", str(train_txt), "--label_file", str(train_labels),
        "--dev_txt_file", str(dev_txt), "--dev_label_file", str(dev_labels),
        "--mwt_json_file", str(mwt), "--skip_newline", "--no_use_mwt",
        "--steps", str(steps), "--eval_steps", str(eval_steps), "--report_steps", "100",
        "--max_seqlen", str(max_seqlen), "--batch_size", str(batch_size),
        "--save_dir", str(save_path.parent), "--save_name", save_path.name,
        "--seed", str(seed), "--cpu", *extra,
    ]
    stanza_tokenizer.main(args)
    if not save_path.is_file():
        raise RuntimeError(f"stanza training wrote no model at {save_path}")
    return save_path


def load_pipeline(model_path: Path, folder: Optional[Path] = None):
    """A tokenize-only stanza Pipeline on a local model file; never downloads."""
    import stanza

    model_path = Path(model_path)
    folder = Path(folder) if folder else model_path.parent
    resources = folder / "resources.json"
    if not resources.exists():
        resources.write_text("{}", encoding="utf-8")
    return stanza.Pipeline(
        lang="lzh", dir=str(folder), download_method=None, processors="tokenize",
        tokenize_model_path=str(model_path), logging_level="ERROR", use_gpu=False,
    )


def token_scores(pipeline, sentences) -> dict:
    """Raw stanza token P/R/F1 on Kyoto sentences (their punctuation removed), without the lexicon
    re-alignment the yili backend adds; chars/s of one call per sentence."""
    from pipeline.text.normalise import normalise_str
    from pipeline.text.segmentation_eval import prf

    texts = [normalise_str(s.text) for s in sentences]
    pipeline(texts[0])
    started = time.perf_counter()
    docs = [pipeline(t) for t in texts]
    seconds = time.perf_counter() - started
    tp = fp = fn = 0
    for sent, doc in zip(sentences, docs):
        gold = {(s, e) for s, e, _ in sent.tokens}
        pred = {(t.start_char, t.end_char) for s in doc.sentences for t in s.tokens}
        tp += len(gold & pred)
        fp += len(pred - gold)
        fn += len(gold - pred)
    chars = sum(len(t) for t in texts)
    return {"tokens": prf(tp, fp, fn), "chars": chars, "chars_per_s": round(chars / seconds)}


class _BestStep(logging.Handler):
    """Catches stanza's "Best dev score=… at step N": the step of the checkpoint it kept."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.step: Optional[int] = None

    def emit(self, record: logging.LogRecord) -> None:
        m = re.search(r"Best dev score=\S+ at step (\d+)", record.getMessage())
        if m:
            self.step = int(m.group(1))


def train_kyoto(
    out: Optional[Path] = None, steps: int = 6000, dev_every: int = 5, seed: int = 1234,
    evaluate: bool = True, dictionary: bool = True, log: Callable[[str], None] = print,
) -> dict:
    """``yili train stanza``: train the lzh word tokenizer on UD Kyoto train and 1 - 1/``dev_every``
    of dev (early stopping on every ``dev_every``-th dev paragraph, each sentence on its own so
    stanza's dev score, which mixes token and sentence F1, follows the token F1); save it with
    ``resources.json``, ``training.json`` and a MODEL_CARD.md in ``out`` (default
    ``models/stanza-lzh``); with ``evaluate``, score it on Kyoto test (punctuation removed)."""
    out = Path(out) if out else default_model_dir()
    folder = kyoto_dir()
    train_file, dev_file = kyoto_train_file(folder), folder / "lzh_kyoto-ud-dev.conllu"
    started = time.perf_counter()
    dev_paragraphs = conllu_paragraphs(dev_file)
    held = dev_paragraphs[::dev_every]  # early stopping: every k-th dev paragraph, one sentence per paragraph
    extra = [p for i, p in enumerate(dev_paragraphs) if i % dev_every]  # the rest of dev trains
    train_paragraphs = conllu_paragraphs(train_file) + extra
    with tempfile.TemporaryDirectory(prefix="yili-stanza-") as tmp:
        t = Path(tmp)
        # one "sentence" per paragraph: the backend wants words, not sentences, and stanza's dev score
        # (a mean of token and sentence F1) then follows the token F1
        train_chars = write_stanza_data(
            (paragraph_labels([[w for s in p for w in s]]) for p in train_paragraphs), t / "train.txt",
            t / "train.toklabels")
        opts: list[str] = []
        words = sorted({w for p in train_paragraphs for s in p for w in s if len(w) > 1})
        if dictionary:  # stanza's dictionary features, from the training words of two or more characters
            (t / "words.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
            opts = ["--use_dictionary", "--external_dict", str(t / "words.txt")]
        used_dev = write_stanza_data(
            (paragraph_labels([s]) for p in held for s in p), t / "dev.txt", t / "dev.toklabels")
        log(f"stanza lzh tokenizer: {train_chars:,} training chars ({train_file.name} + 1-1/{dev_every} of "
            f"{dev_file.name}), {used_dev:,} early-stopping chars")
        best = _BestStep()
        stanza_log = logging.getLogger("stanza")
        level = stanza_log.level
        stanza_log.addHandler(best)
        stanza_log.setLevel(logging.INFO)  # the "Best dev score … at step N" line is INFO
        try:
            model = train_stanza_tokenizer(
                t / "train.txt", t / "train.toklabels", t / "dev.txt", t / "dev.toklabels",
                t / "model" / MODEL_NAME, steps=steps, seed=seed, extra=opts)
        finally:
            stanza_log.removeHandler(best)
            stanza_log.setLevel(level)
        out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(model, out / MODEL_NAME)
    (out / "resources.json").write_text("{}", encoding="utf-8")
    info = {
        "model": f"{out.name}/{MODEL_NAME}",
        "size_bytes": (out / MODEL_NAME).stat().st_size,
        "train_file": train_file.name,
        "train_chars": train_chars,
        "dev_file": dev_file.name,
        "dev_chars": used_dev,
        "dev_every": dev_every,
        "steps": steps,
        "seed": seed,
        "dictionary_words": len(words) if dictionary else 0,
        "best_step": best.step,
        "train_seconds": round(time.perf_counter() - started, 1),
        "date": _dt.date.today().isoformat(),
        "command": f"{REBUILD_COMMAND} --steps {steps}" + ("" if dictionary else " --no-dictionary"),
    }
    if evaluate:
        info["test"] = evaluate_kyoto(out)
    (out / "training.json").write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf-8")
    write_model_card(out, info)
    return info


def evaluate_kyoto(model_dir: Path) -> dict:
    """Token scores on Kyoto test (punctuation removed): raw stanza, and the yili ``stanza`` backend
    (the same cuts re-aligned to the ritual lexicon), as :func:`segmentation_eval.tokenizer_scores` does."""
    from pipeline.text.segmentation_eval import read_conllu

    sentences = read_conllu(kyoto_dir() / "lzh_kyoto-ud-test.conllu")
    raw = token_scores(load_pipeline(Path(model_dir) / MODEL_NAME), sentences)
    result = {"test_file": "lzh_kyoto-ud-test.conllu", "raw": raw}
    try:
        from pipeline.nlp import build_nlp
        from pipeline.text.normalise import normalise_str
        from pipeline.text.segmentation_eval import prf

        nlp = build_nlp({"nlp": {"tokenizer": "stanza", "stanza_model_dir": str(model_dir)}})
        texts = [normalise_str(s.text) for s in sentences]
        nlp.tokenizer(texts[0])
        started = time.perf_counter()
        docs = [nlp.tokenizer(t) for t in texts]
        seconds = time.perf_counter() - started
        tp = fp = fn = 0
        for sent, doc in zip(sentences, docs):
            gold = {(s, e) for s, e, _ in sent.tokens}
            pred = {(t.idx, t.idx + len(t.text)) for t in doc if t.text.strip()}
            tp += len(gold & pred)
            fp += len(pred - gold)
            fn += len(gold - pred)
        result["backend"] = {"tokens": prf(tp, fp, fn), "chars_per_s": round(raw["chars"] / seconds)}
    except Exception as exc:  # noqa: BLE001 - the raw figure stands alone
        result["backend"] = {"error": str(exc)}
    return result


def write_model_card(out: Path, info: dict) -> Path:
    test = info.get("test") or {}
    raw = (test.get("raw") or {}).get("tokens")
    backend = (test.get("backend") or {}).get("tokens")
    lines = [
        "# stanza Classical Chinese word tokenizer (models/stanza-lzh)",
        "",
        f"`{MODEL_NAME}`: a stanza neural tokenizer (character tagger: conv + BiLSTM) for Classical",
        "Chinese, used by the `stanza` tokenizer backend (`[nlp] tokenizer = \"stanza\"`) when",
        "`stanza_model_dir` is null. `resources.json` is an empty `{}`: it keeps stanza from ever",
        "looking for a download.",
        "",
        "## Data",
        "",
        f"- train: UD Classical Chinese Kyoto, `{info['train_file']}` plus all but every {info['dev_every']}th paragraph",
        f"  of `{info['dev_file']}` ({info['train_chars']:,} characters; 論語, 孟子, 禮記, 十八史略, 楚辭, 唐詩, 戰國策 …",
        "  minus the test books), punctuation words removed, paragraphs from `# newpar`/`# newdoc`.",
        f"- early stopping: every {info['dev_every']}th paragraph of `{info['dev_file']}` ({info['dev_chars']:,} characters),",
        "  one sentence per paragraph.",
        "- never seen: `lzh_kyoto-ud-test.conllu` (the figures below).",
        "",
        "## Training",
        "",
        f"Date {info['date']}; stanza's own trainer (`stanza.models.tokenizer`), CPU, one thread,",
        f"{info['steps']} steps, batch 32, max_seqlen 100, seed {info['seed']}, no MWT, one \"sentence\" per paragraph,",
        (f"dictionary features from the {info['dictionary_words']:,} words of two or more characters in the training data;"
         if info.get("dictionary_words") else "no dictionary features;"),
        f"{info['train_seconds']} s. Model file {info['size_bytes'] / 1e6:.2f} MB."
        + (f" The checkpoint kept (best on the early-stopping slice) is from step {info['best_step']}."
           if info.get("best_step") else ""),
        "",
        "Rebuild (needs `pip install torch==2.13.0` then `pip install 'stanza>=1.9,<2'`, and ../shared/ud-kyoto):",
        "",
        "```",
        info["command"],
        "```",
        "",
        "## Figures (Kyoto test, punctuation removed, exact token spans)",
        "",
    ]
    if raw:
        lines += [
            "| | token P | token R | token F1 | chars/s (one call per sentence, one thread) |",
            "| --- | --- | --- | --- | --- |",
            f"| stanza model alone | {raw['p']:.3f} | {raw['r']:.3f} | **{raw['f1']:.3f}** | {test['raw']['chars_per_s']:,} |",
        ]
        if backend:
            lines.append(
                f"| yili `stanza` backend (cuts re-aligned to the ritual lexicon) | {backend['p']:.3f} | "
                f"{backend['r']:.3f} | **{backend['f1']:.3f}** | {test['backend']['chars_per_s']:,} |")
        lines += ["", "For comparison (bench/results/segmentation.md): char 0.954, jieba 0.819, udkanbun 0.964."]
    else:
        lines.append("Not evaluated.")
    lines += [
        "",
        "## Limits",
        "",
        "- Kyoto is ~95% one-character words, so the baseline of one token per character is already",
        "  0.954: the model's gain lies in the few multi-character words (names, titles, compounds).",
        "- Trained on 論語/孟子/史書 prose, not on 儀禮 注疏; ritual terms come from the lexicon re-alignment.",
        "- The shared training file is the 2019 release of Kyoto train; dev and test are newer.",
        "- No POS tags (stanza's tagger/parser are not trained here).",
    ]
    card = out / "MODEL_CARD.md"
    card.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return card


# -- the 斷句 experiment: a stanza tokenizer whose sentences are the units between marks ----------


def train_breaks(
    train_texts: Sequence[str], dev_texts: Sequence[str], save_path: Path, steps: int = 4000,
    eval_steps: int = 500, seed: int = 1234, extra: Sequence[str] = (),
) -> Path:
    """Train a stanza tokenizer as a 斷句 model on punctuated texts (marks stripped, a sentence end
    where any mark followed); ``dev_texts`` only pick the best checkpoint."""
    with tempfile.TemporaryDirectory(prefix="yili-stanza-breaks-") as tmp:
        t = Path(tmp)
        write_stanza_data(break_pairs(train_texts), t / "train.txt", t / "train.toklabels")
        write_stanza_data(break_pairs(dev_texts), t / "dev.txt", t / "dev.toklabels")
        return train_stanza_tokenizer(
            t / "train.txt", t / "train.toklabels", t / "dev.txt", t / "dev.toklabels", save_path,
            steps=steps, eval_steps=eval_steps, seed=seed, extra=extra, shorthand="lzh_breaks")


def predict_breaks(pipeline, texts: Sequence[str]) -> list[list[str]]:
    """Per text (unpunctuated characters), ``S`` after each character a sentence of the stanza model
    ends at, else ``N``. All texts go through in one call, as blank-line separated paragraphs."""
    texts = [t for t in texts]
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 2
    doc = pipeline("\n\n".join(texts))
    ends = {s.tokens[-1].end_char - 1 for s in doc.sentences if s.tokens}
    out = []
    for start, t in zip(starts, texts):
        out.append(["S" if start + i in ends else "N" for i in range(len(t))])
    return out
