"""``yili evaluate segmentation``: how well the 斷句 model and the tokenizers segment unseen text.

Three measurements, written as JSON and Markdown:

1. **Breaks** — the 斷句 model (:mod:`pipeline.text.punctuate`) trained without some chapters of the
   punctuated XHTML edition and tested on them (chapter-level folds: every chapter is tested once,
   by a model that never saw it). Precision, recall and F1 of the break after each character (the
   last character of a paragraph is not counted: a paragraph always ends there), for "any break"
   and for clause and sentence breaks (kind must match), separately for 經, 注 and 疏, and per chapter.
   Beside it, how far people agree: a 疏 that quotes its 經 or 注 verbatim, punctuated by the same
   editor, compared with the source; and the 經 as punctuated by another editor (seed 000, a modern
   translation of 鄉射禮 and 大射) compared with the XHTML edition's.
2. **Tokens** — each tokenizer backend the pipeline offers (:mod:`pipeline.nlp`) on the UD
   Classical Chinese Kyoto test set with its punctuation removed: token P/R/F1 (exact spans), UPOS
   where the backend tags, and characters per second. Plus the 斷句 model's breaks on the same
   test set (its sentence boundaries as gold), a genre it was not trained on.
3. **Speed** of the 斷句 model (characters per second, one process).

A few 經 passages of the unpunctuated 四部叢刊 and 四庫 editions, punctuated by the fold model
that did not see their chapter, are written into the Markdown for reading.
"""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional, Sequence

from pipeline.text.break_features import LAYER_NAMES
from pipeline.text.marks import Stripped, strip_marks
from pipeline.text.punctuate import Punctuator, default_model_dir, training_units, write_model_card
from pipeline.text.quotations import quotation_breaks

KINDS = ("any", "clause", "sentence")
LABEL_OF_KIND = {"clause": "C", "sentence": "S"}


# -- break scores -----------------------------------------------------------------------------


@dataclass
class Counts:
    """True positives, false positives and false negatives per kind of break."""

    tp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    fp: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    fn: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    def add(self, gold: Sequence[str], pred: Sequence[str]) -> "Counts":
        """Count the boundaries after every character but the last (N / C / S labels)."""
        for g, p in zip(gold[:-1], pred[:-1]):
            gb, pb = g != "N", p != "N"
            self.tp["any"] += gb and pb
            self.fp["any"] += pb and not gb
            self.fn["any"] += gb and not pb
            for kind, label in LABEL_OF_KIND.items():
                gk, pk = g == label, p == label
                self.tp[kind] += gk and pk
                self.fp[kind] += pk and not gk
                self.fn[kind] += gk and not pk
        return self

    def merge(self, other: "Counts") -> "Counts":
        for k in KINDS:
            self.tp[k] += other.tp[k]
            self.fp[k] += other.fp[k]
            self.fn[k] += other.fn[k]
        return self

    def scores(self) -> dict[str, dict[str, float]]:
        return {k: prf(self.tp[k], self.fp[k], self.fn[k]) for k in KINDS}


def prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f, 4), "gold": tp + fn, "predicted": tp + fp}


def chapter_folds(chapters: Sequence[str], folds: int) -> list[list[str]]:
    """``folds`` groups of chapters, dealt in turn from the sorted list (every chapter in one group)."""
    names = sorted(set(chapters))
    folds = max(2, min(folds, len(names)))
    return [names[i::folds] for i in range(folds)]


def _run_fold(args) -> dict:
    """Train without the test chapters, predict them; counts per layer and per chapter, and samples."""
    test, units, params, samples = args
    train = [u for u in units if u[0] not in test]
    started = time.perf_counter()
    model = Punctuator(**params).fit([u[2] for u in train], [u[1] for u in train])
    trained = time.perf_counter() - started
    by_layer = {layer: Counts() for layer in LAYER_NAMES}
    by_chapter = {ch: Counts() for ch in test}
    unlayered = Counts()
    tested = [(chapter, layer, st) for chapter, layer, text in units if chapter in test
              for st in [strip_marks(text)] if len(st.chars) >= 2]
    started = time.perf_counter()
    preds = model.predict_labels_many([st.chars for _, _, st in tested], [layer for _, layer, _ in tested])
    predicted = time.perf_counter() - started
    for (chapter, layer, st), pred in zip(tested, preds):
        by_layer[layer].add(st.labels, pred)
        by_chapter[chapter].add(st.labels, pred)
    for (_, _, st), pred in zip(tested, model.predict_labels_many([st.chars for _, _, st in tested])):
        unlayered.add(st.labels, pred)
    quoted = {layer: Counts() for layer in LAYER_NAMES}
    for (_, layer, st), pred in zip(tested, with_quotations(tested, preds)):
        quoted[layer].add(st.labels, pred)
    chars = sum(len(st.chars) for _, _, st in tested)
    shown = [
        {"chapter": s["chapter"], "edition": s["edition"], "text": s["text"],
         "punctuated": model.punctuate(s["text"], s["layer"])}
        for s in samples if s["chapter"] in test
    ]
    return {
        "test": list(test),
        "train_chars": (model.training_ or {}).get("chars"),
        "train_seconds": round(trained, 1),
        "predict_chars": chars,
        "predict_seconds": round(predicted, 2),
        "by_layer": by_layer,
        "by_chapter": by_chapter,
        "unlayered": unlayered,
        "quoted": quoted,
        "samples": shown,
    }


def with_quotations(tested: Sequence[tuple[str, str, Stripped]], preds: Sequence[list[str]]) -> list[list[str]]:
    """The predicted labels plus a clause break wherever a later 疏 of the chapter quotes the
    經/注 text from there (:func:`pipeline.text.quotations.quotation_breaks`): what ``yili process``
    adds in a 注疏 edition. ``tested`` in reading order, chapter by chapter."""
    out = [list(pred) for pred in preds]
    by_chapter: dict[str, list[int]] = {}
    for n, (chapter, _layer, _st) in enumerate(tested):
        by_chapter.setdefault(chapter, []).append(n)
    for members in by_chapter.values():
        found = quotation_breaks([tested[n][2].chars for n in members], [tested[n][1] for n in members])
        for n, starts in zip(members, found):
            for pos in starts:  # a break before index pos: after the character pos - 1
                if out[n][pos - 1] == "N":
                    out[n][pos - 1] = "C"
    return out


def unpunctuated_samples(per_edition: int = 3, max_chars: int = 90) -> list[dict]:
    """A few 經 runs of the unpunctuated editions (四部叢刊 鄭注, 四庫 注疏), one per chapter in turn."""
    from pipeline.corpus import iter_units

    out: list[dict] = []
    for edition in ("zhengzhu-sbck", "zhushu-siku"):
        seen: set[str] = set()
        for u in iter_units(edition):
            if len(seen) >= per_edition:
                break
            if u.layer != "JING" or u.chapter in seen or not 30 <= len(u.text) <= max_chars:
                continue
            seen.add(u.chapter)
            out.append({"chapter": u.chapter, "edition": edition, "layer": "JING", "text": u.text})
    return out


def evaluate_breaks(folds: int = 4, params: Optional[dict] = None, workers: int = 2,
                    chapters: Optional[Iterable[str]] = None) -> dict:
    """Break P/R/F1 with chapter-level folds, per layer and kind, per chapter; fold timings."""
    units = training_units(chapters)
    groups = chapter_folds([u[0] for u in units], folds)
    params = dict(params or {})
    samples = unpunctuated_samples()
    jobs = [(group, units, params, samples) for group in groups]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            results = list(pool.map(_run_fold, jobs))
    else:
        results = [_run_fold(job) for job in jobs]
    by_layer = {layer: Counts() for layer in LAYER_NAMES}
    by_chapter: dict[str, Counts] = {}
    total = Counts()
    unlayered = Counts()
    quoted = {layer: Counts() for layer in LAYER_NAMES}
    quoted_total = Counts()
    for res in results:
        unlayered.merge(res["unlayered"])
        for layer, counts in res["quoted"].items():
            quoted[layer].merge(counts)
            quoted_total.merge(counts)
        for layer, counts in res["by_layer"].items():
            by_layer[layer].merge(counts)
            total.merge(counts)
        by_chapter.update(res["by_chapter"])
    return {
        "folds": len(groups),
        "fold_chapters": groups,
        "params": Punctuator(**params).get_params(),
        "all": total.scores(),
        "all_layer_not_given": unlayered.scores(),
        "all_with_quotations": quoted_total.scores(),
        "by_layer_with_quotations": {layer: c.scores() for layer, c in quoted.items()},
        "by_layer": {layer: c.scores() for layer, c in by_layer.items()},
        "by_chapter": {ch: by_chapter[ch].scores()["any"] for ch in sorted(by_chapter)},
        "fold_train_seconds": [r["train_seconds"] for r in results],
        "fold_train_chars": [r["train_chars"] for r in results],
        "samples": [s for r in results for s in r["samples"]],
    }


def quote_agreement(min_len: int = 8) -> dict:
    """The edition against itself: breaks inside a 疏's verbatim quotation of its chapter's 經/注
    (「…」 of at least ``min_len`` characters) compared with the breaks of the quoted source."""
    units = training_units()
    sources: dict[str, list] = {}
    for chapter, layer, text in units:
        if layer in ("JING", "ZHU"):
            sources.setdefault(chapter, []).append(strip_marks(text))
    counts = Counts()
    quotes = 0
    for chapter, layer, text in units:
        if layer != "SHU":
            continue
        for m in re.finditer(r"「([^「」]+)」", text):
            quoted = strip_marks(m.group(1))
            if len(quoted.chars) < min_len:
                continue
            for src in sources.get(chapter, []):
                at = src.chars.find(quoted.chars)
                if at >= 0:
                    counts.add(src.labels[at : at + len(quoted.chars)], quoted.labels)
                    quotes += 1
                    break
    return {"quotes": quotes, "min_len": min_len, **counts.scores()["any"]}


#: A seed punctuated by another editor than the XHTML edition's: a modern translation of 鄉射禮
#: and 大射 (simplified, the 經 only); the 注疏 web texts 003 / 004 share the XHTML punctuation.
INDEPENDENT_EDITION = ("000_c4633f1a85a239be.txt", ("05", "07"))


def edition_agreement(seed: str = INDEPENDENT_EDITION[0], chapters: Sequence[str] = INDEPENDENT_EDITION[1],
                      anchor: int = 10, min_block: int = 4) -> dict:
    """Two editors on the same words: the breaks of the 經 in an independently punctuated edition
    (a bundled seed) against the XHTML edition's, where both have the same characters.

    Each XHTML 經 passage is found in the seed by its first ``anchor``-character stretch (both in
    the matching form, simplified, one character for one); its characters are aligned with difflib
    and only boundaries inside common blocks of ``min_block`` characters or more count. A passage
    counts if four fifths of it align. Where the seed gives a passage twice, its first copy is read."""
    import difflib

    from pipeline.text.normalise import normalise_str as fold  # one char per char: indices carry over

    path = Path(__file__).resolve().parents[1] / "samples" / seed
    other = strip_marks(path.read_text(encoding="utf-8"))
    folded = fold(other.chars)
    counts = Counts()
    found = total = 0
    for _chapter, layer, text in training_units(chapters):
        if layer != "JING":
            continue
        ours = strip_marks(text)
        chars = fold(ours.chars)
        if len(chars) < 8:
            continue
        total += 1
        at = next((folded.find(chars[k : k + anchor]) - k for k in range(0, max(1, len(chars) - anchor), 5)
                   if chars[k : k + anchor] in folded), None)
        if at is None:
            continue
        lo, hi = max(0, at - 20), min(len(folded), at + len(chars) + 20)
        blocks = [b for b in difflib.SequenceMatcher(None, chars, folded[lo:hi], autojunk=False).get_matching_blocks()
                  if b.size >= min_block]
        if sum(b.size for b in blocks) < 0.8 * len(chars):
            continue
        found += 1
        for b in blocks:  # the boundaries after each aligned char but the block's last
            counts.add(ours.labels[b.a : b.a + b.size], other.labels[lo + b.b : lo + b.b + b.size])
    scores = counts.scores()
    return {"seed": seed, "chapters": list(chapters), "passages": found, "of": total,
            **{kind: scores[kind] for kind in KINDS}}


# -- UD Kyoto: tokens and breaks --------------------------------------------------------------


@dataclass
class ConllSentence:
    text: str
    tokens: list[tuple[int, int, str]]  # (start, end, UPOS) in ``text``
    paragraph: int


def read_conllu(path: Path) -> list[ConllSentence]:
    """Sentences of a CoNLL-U file with their word spans and UPOS; punctuation words removed."""
    out: list[ConllSentence] = []
    forms: list[tuple[str, str]] = []
    paragraph = 0

    def flush() -> None:
        if not forms:
            return
        text, tokens, pos = "", [], 0
        for form, upos in forms:
            tokens.append((pos, pos + len(form), upos))
            pos += len(form)
            text += form
        out.append(ConllSentence(text, tokens, paragraph))
        forms.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# newpar") or line.startswith("# newdoc"):
            paragraph += 1
        if not line.strip():
            flush()
            continue
        if line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 4 or "-" in cols[0] or "." in cols[0]:
            continue
        if cols[3] == "PUNCT":
            continue
        forms.append((cols[1], cols[3]))
    flush()
    return out


def kyoto_dir() -> Path:
    from pipeline.corpus import corpus_dir

    return corpus_dir().parent / "ud-kyoto"


def tokenizer_scores(sentences: list[ConllSentence], backends: Sequence[str] = ("char", "jieba", "udkanbun", "stanza")) -> dict:
    """Token P/R/F1 (exact spans), UPOS F1 where the backend tags, chars/s; per backend."""
    from pipeline.config import load_config
    from pipeline.nlp import BackendUnavailable, build_nlp
    from pipeline.text.normalise import normalise_str

    # each backend as the default config sets it up (its dictionary, function words, model folder)
    shipped = {k: v for k, v in (load_config().get("nlp") or {}).items()
               if k in ("function_words", "jieba_hmm", "jieba_dictionary", "stanza_model_dir")}
    texts = [normalise_str(s.text) for s in sentences]
    chars = sum(len(t) for t in texts)
    out: dict[str, dict] = {}
    for name in backends:
        try:
            nlp = build_nlp({"nlp": {**shipped, "tokenizer": name}})
            tokenizer = nlp.tokenizer
            tokenizer(texts[0])  # loads lazily held resources before the clock starts
        except Exception as exc:  # noqa: BLE001 - one broken backend must not end the benchmark
            kind = "" if isinstance(exc, (BackendUnavailable, ImportError, OSError)) else f"{type(exc).__name__}: "
            out[name] = {"available": False, "reason": (kind + str(exc)).splitlines()[0][:300]}
            continue
        started = time.perf_counter()
        docs = [tokenizer(t) for t in texts]
        seconds = time.perf_counter() - started
        tp = fp = fn = 0
        tag_tp = tag_fp = tag_fn = 0
        tagged = any(tok.pos_ for doc in docs[:50] for tok in doc)
        for sent, doc in zip(sentences, docs):
            gold = {(s, e) for s, e, _ in sent.tokens}
            pred = {(t.idx, t.idx + len(t.text)) for t in doc if t.text.strip()}
            tp += len(gold & pred)
            fp += len(pred - gold)
            fn += len(gold - pred)
            if tagged:
                gold_t = {(s, e, u) for s, e, u in sent.tokens}
                pred_t = {(t.idx, t.idx + len(t.text), t.pos_) for t in doc if t.text.strip()}
                tag_tp += len(gold_t & pred_t)
                tag_fp += len(pred_t - gold_t)
                tag_fn += len(gold_t - pred_t)
        out[name] = {
            "available": True,
            "tokens": prf(tp, fp, fn),
            "upos": prf(tag_tp, tag_fp, tag_fn) if tagged else None,
            "chars_per_s": round(chars / seconds) if seconds else None,
            "chars": chars,
        }
    return out


def kyoto_breaks(model: Punctuator, sentences: list[ConllSentence]) -> dict:
    """The 斷句 model on the Kyoto test paragraphs: gold breaks at its sentence ends ("any" only)."""
    counts = Counts()
    paragraphs: dict[int, list[ConllSentence]] = {}
    for s in sentences:
        paragraphs.setdefault(s.paragraph, []).append(s)
    for sents in paragraphs.values():
        chars = "".join(s.text for s in sents)
        gold: list[str] = []
        for s in sents:
            gold += ["N"] * (len(s.text) - 1) + ["S"]
        if len(chars) < 2:
            continue
        pred = model.predict_labels(chars)
        pred_any = ["S" if p != "N" else "N" for p in pred]
        counts.add(gold, pred_any)
    return {"paragraphs": len(paragraphs), **counts.scores()["any"]}


def punctuator_speed(model: Punctuator, texts: Sequence[tuple[str, str]]) -> dict:
    """Characters per second of the 斷句 model on unpunctuated (layer, text) pairs: one
    :meth:`Punctuator.breaks` call per text, and all texts in one :meth:`Punctuator.breaks_many`.

    Per CPU-second of this process (``time.process_time``; the model runs on one thread), so that
    other processes sharing the cores do not lower the figure; the wall-clock rate of the batched
    call is given beside it."""
    plain = [(layer, strip_marks(text).chars) for layer, text in texts]
    chars = sum(len(t) for _, t in plain)
    model.breaks_many([t for _, t in plain[:20]], [layer for layer, _ in plain[:20]])  # lazy set-up off the clock
    started = time.process_time()
    for layer, text in plain:
        model.breaks(text, layer)
    one_by_one = time.process_time() - started
    started, wall = time.process_time(), time.perf_counter()
    model.breaks_many([t for _, t in plain], [layer for layer, _ in plain])
    batched, wall = time.process_time() - started, time.perf_counter() - wall
    return {
        "chars": chars,
        "texts": len(plain),
        "clock": "process_time",
        "chars_per_s": round(chars / one_by_one) if one_by_one else None,
        "chars_per_s_batched": round(chars / batched) if batched else None,
        "chars_per_wall_s_batched": round(chars / wall) if wall else None,
    }


# -- the whole evaluation ---------------------------------------------------------------------


def evaluate_segmentation(out_file: Path, folds: int = 4, workers: int = 2, model_dir: Optional[Path] = None,
                          backends: Sequence[str] = ("char", "jieba", "udkanbun", "stanza"),
                          command: str = "yili evaluate segmentation", update_card: bool = True) -> dict:
    """Run the three measurements; write ``out_file`` (JSON) and the same name with ``.md``; with
    ``update_card``, the model card of the evaluated model quotes the new figures."""
    started = time.perf_counter()
    results: dict = {"command": command}
    try:
        model: Optional[Punctuator] = Punctuator.load(model_dir)
    except Exception as exc:  # noqa: BLE001 - reported, not fatal: the fold figures stand alone
        model = None
        results["shipped_model"] = {"error": str(exc)}
    # the folds train with the shipped model's settings, so the figures are the shipped model's
    params = {k: v for k, v in model.get_params().items() if k != "lexicon_dir"} if model else None
    results["breaks"] = evaluate_breaks(folds=folds, params=params, workers=workers)
    results["self_agreement"] = quote_agreement()
    results["edition_agreement"] = edition_agreement()
    sentences = read_conllu(kyoto_dir() / "lzh_kyoto-ud-test.conllu")
    results["tokenizers"] = tokenizer_scores(sentences, backends)
    if model is not None:
        results["shipped_model"] = {"path": str(model_dir or default_model_dir()), "training": model.training_}
        results["kyoto_breaks"] = kyoto_breaks(model, sentences)
        sample = [(layer, text) for _, layer, text in training_units()]
        results["punctuator_speed"] = punctuator_speed(model, sample)
    results["seconds"] = round(time.perf_counter() - started, 1)
    results["machine"] = {"cpus": os.cpu_count()}
    out_file = Path(out_file)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    out_file.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    out_file.with_suffix(".md").write_text(markdown_report(results), encoding="utf-8")
    if update_card and "error" not in results["shipped_model"]:
        write_model_card(Path(model_dir) if model_dir else default_model_dir(), out_file)
    return results


def _row(name: str, s: dict) -> str:
    return f"| {name} | {s['p']:.3f} | {s['r']:.3f} | **{s['f1']:.3f}** | {s['gold']} |"


def markdown_report(results: dict) -> str:
    """The figures as Markdown tables (quoted in the README)."""
    brk = results["breaks"]
    lines = [
        "# Segmentation: 斷句 breaks and tokenizers",
        "",
        f"Command: `{results.get('command')}` ({results.get('seconds')} s on {results['machine']['cpus']} cores).",
        "",
        f"Model settings (the folds train with them): `{json.dumps(brk.get('params'), ensure_ascii=False)}`",
        "",
        f"## 斷句 breaks on unseen chapters ({brk['folds']} chapter-level folds: {brk['fold_chapters']})",
        "",
        "Each chapter is tested by a model trained on the other folds' chapters only. A break is the",
        "boundary after a character that a mark followed in the punctuated XHTML edition; clause =",
        "，、：︰, sentence = 。？！；○. \"any\" ignores the kind; clause/sentence need the kind right.",
        "",
        "| layer / kind | P | R | F1 | gold breaks |",
        "| --- | --- | --- | --- | --- |",
    ]
    for layer, scores in brk["by_layer"].items():
        for kind in KINDS:
            lines.append(_row(f"{layer} {kind}", scores[kind]))
    for kind in KINDS:
        lines.append(_row(f"all {kind}", brk["all"][kind]))
    if "all_layer_not_given" in brk:
        lines.append(_row("all any, layer not given", brk["all_layer_not_given"]["any"]))
    lines += ["", "Per chapter (any break, F1): " + ", ".join(f"{ch} {s['f1']:.3f}" for ch, s in brk["by_chapter"].items()), ""]
    quoted = brk.get("by_layer_with_quotations")
    if quoted:
        lines += [
            "With the document's 疏 (what `yili process` does in a 注疏 edition, `[sentences] shu_quotations`):",
            "a clause break is added where a later 疏 of the chapter quotes the 經/注 from there on",
            "(云X者, X of ≥ 4 chars found once in the unit; `pipeline/text/quotations.py`).",
            "",
            "| layer | P | R | F1 | gold breaks |",
            "| --- | --- | --- | --- | --- |",
        ]
        lines += [_row(f"{layer} any, with 疏 quotations", quoted[layer]["any"]) for layer in ("JING", "ZHU")]
        lines += [_row("all any, with 疏 quotations", brk["all_with_quotations"]["any"]), ""]
    agree = results.get("self_agreement")
    if agree:
        lines += [
            f"The edition against itself: {agree['quotes']} verbatim quotations (≥ {agree['min_len']} chars) of a chapter's",
            f"經/注 inside its 疏, punctuated by the same editor, agree with their source at P {agree['p']:.3f},",
            f"R {agree['r']:.3f}, F1 {agree['f1']:.3f} (any break).",
            "",
        ]
    other = results.get("edition_agreement")
    if other:
        jing = results["breaks"]["by_layer"].get("JING", {}).get("any", {})
        lines += [
            f"Two editors: the 經 of {', '.join(other['chapters'])} punctuated by another editor (a modern",
            f"translation, seed {other['seed'][:3]}; {other['passages']} of {other['of']} passages aligned) agrees with the",
            f"XHTML edition at P {other['any']['p']:.3f}, R {other['any']['r']:.3f}, F1 **{other['any']['f1']:.3f}** (any break;",
            f"clause {other['clause']['f1']:.3f}, sentence {other['sentence']['f1']:.3f}), the model on unseen 經 {jing.get('f1', 0):.3f}:",
            "the quotations above mostly drop breaks of their source (high precision, low recall),",
            "so two editors on the 經 itself are the better measure of what a model can reach.",
            "",
        ]
    kb = results.get("kyoto_breaks")
    if kb:
        lines += [
            f"Out of genre: the shipped model on the UD Kyoto test paragraphs ({kb['paragraphs']}; 論語, 孟子, 中庸 …),",
            f"gold = its sentence ends: P {kb['p']:.3f}, R {kb['r']:.3f}, F1 {kb['f1']:.3f}.",
            "",
        ]
    speed = results.get("punctuator_speed")
    if speed:
        lines += [
            f"Speed on the {speed['texts']:,} paragraphs ({speed['chars']:,} chars), one process, chars per CPU-second:",
            f"`Punctuator.breaks` one call per paragraph {speed['chars_per_s']:,} chars/s; `Punctuator.breaks_many` on all",
            f"of them {speed['chars_per_s_batched']:,} chars/s ({speed.get('chars_per_wall_s_batched') or 0:,} per wall-clock second, cores shared).",
            "",
        ]
    if results.get("tokenizers"):
        lines += [
            "## Tokenizers on UD Kyoto test (punctuation removed)",
            "",
            "| backend | token P | token R | token F1 | UPOS F1 | chars/s |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
    for name, row in results.get("tokenizers", {}).items():
        if not row.get("available"):
            lines.append(f"| {name} | — | — | — | — | unavailable: {row.get('reason', '')} |")
            continue
        t, u = row["tokens"], row.get("upos")
        lines.append(
            f"| {name} | {t['p']:.3f} | {t['r']:.3f} | **{t['f1']:.3f}** | {u['f1']:.3f} |" if u else
            f"| {name} | {t['p']:.3f} | {t['r']:.3f} | **{t['f1']:.3f}** | — |"
        )
        lines[-1] += f" {row['chars_per_s']:,} |"
    samples = brk.get("samples") or []
    if samples:
        lines += ["", "## Unpunctuated editions, punctuated by the fold model that did not see the chapter", ""]
        for s in samples:
            lines.append(f"- {s['edition']} {s['chapter']}: {s['punctuated']}")
    return "\n".join(lines) + "\n"
