"""The ``yili`` command. Thin: parse options, call the stages, report.

``yili process`` and ``yili classify`` are the stable interfaces of SCHEMA section 6.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.command_errors import refuse_output_among_inputs, said

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
train_app = typer.Typer(no_args_is_help=True, help="Train the shipped models from annotations/ and ../shared/corpus.")
evaluate_app = typer.Typer(no_args_is_help=True, help="Evaluate on held-out chapters; figures go to bench/results/.")
app.add_typer(train_app, name="train")
app.add_typer(evaluate_app, name="evaluate")

err = Console(stderr=True, soft_wrap=True)  # never break a path or a command in a message


def _exit_for_failures(failed: int) -> None:
    """The exit status is the number of failed documents (capped at 255 by the operating system)."""
    if failed:
        err.print(f"[red]{failed} document(s) failed[/red] (see their 'error' fields)")
    raise typer.Exit(code=min(failed, 255))


EVIDENCE_ABBREV = {"marker": "mk", "anchor": "an", "layout": "ly", "model": "md", "default": "df"}


def _summary_table(rows, names: list[str]) -> Table:
    """One row per document; narrow enough for an 80-column terminal. A failed document's row says
    so in its layout column: its error, printed in full as it happened, has no room here (a column for
    it, squeezed to nothing, had folded each such row over a dozen blank lines)."""
    table = Table(
        title="yili process",
        caption="segments decided by: mk marker, an anchor, ly layout, md model, df default",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        collapse_padding=True,
    )
    data = []
    for st, name in zip(rows, names):
        evidence = " ".join(f"{EVIDENCE_ABBREV.get(k, k)}{v}" for k, v in sorted(st.evidence.items()))
        layout = st.layout if st.encoding in ("", "utf-8") else f"{st.layout} ({st.encoding})"
        if st.error:
            layout = "[red]failed[/red]"
        data.append([
            escape(name),
            layout,
            "/".join(str(st.segments.get(layer, 0)) for layer in ("JING", "ZHU", "SHU", "OTHER")),
            evidence,
            str(st.sentences),
            str(sum(st.spans.values())),
            str(st.actions),
        ])
    heads = ["document", "layout", "經/注/疏/other", "decided by", "sent", "spans", "tuples"]
    for i, head in enumerate(heads):
        widest = max([len(row[i]) for row in data] + [len(head)])
        if head in ("document", "layout"):
            table.add_column(head, no_wrap=True, max_width=14, overflow="ellipsis")
        elif head == "decided by":
            table.add_column(head, overflow="fold", min_width=8)
        else:
            table.add_column(head, justify="right", no_wrap=True, min_width=widest)
    for row in data:
        table.add_row(*row)
    return table


@app.command()
def process(
    inputs: List[str] = typer.Argument(None, help="Text files (.txt .xhtml, web pages .html, Kanripo org), EPUB books (a document a chapter), Word .docx, JSONL files of records, folders or globs."),
    output: Path = typer.Option(..., "-o", "--output", help="Output JSONL: one line per input document, in input order."),
    config: Optional[Path] = typer.Option(None, "-c", "--config", help="A .cfg whose sections override configs/default.cfg."),
    samples: bool = typer.Option(False, "--samples", help="Also process the bundled sample texts (the five seeds)."),
    jobs: int = typer.Option(1, "-j", "--jobs", min=1, help="Worker processes (or Dask workers of a local cluster)."),
    executor: str = typer.Option("local", "--executor", help="'local' (worker processes) or 'dask'."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address (tcp://host:8786); default: a LocalCluster."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep finished documents in OUT.d/ and reuse them: resumes an interrupted run, skips unchanged inputs."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress bar and no summary table."),
    layer: Optional[str] = typer.Option(None, "--layer", help="The layer of text no marker, anchor or layout decides "
                                        "(JING for a copy of the classic without commentary); default: the layer model, except that a "
                                        "copy of the classic alone of 600 Han characters or more is read as 經 by itself."),
    witness: Optional[List[str]] = typer.Option(None, "--witness", help="Another edition of the same text (files, folders or globs; "
                                                "repeatable): where the texts line up, its punctuation and its layers are used."),
    collate: bool = typer.Option(False, "--collate", help="Every input document is a witness of the others "
                                 "(several editions of a text processed together; as --witness with the inputs)."),
) -> None:
    """Segment layers, split sentences, tag spans and extract action tuples (SCHEMA section 6)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pipeline.batch.runner import EXECUTORS, BatchRunner, ExecutorUnavailable
    from pipeline.config import load_config
    from pipeline.process import undecided_layer
    from pipeline.read.inputs import documents_in, expand_paths, sample_paths

    paths = list(inputs or [])
    if samples:
        paths += [str(p) for p in sample_paths()]
    if not paths:
        err.print("[red]no input[/red]: name files, folders or globs, or use --samples")
        raise typer.Exit(code=2)
    if executor not in EXECUTORS:  # it had been a traceback from the runner, after the models loaded
        err.print(f"[red]unknown --executor {escape(repr(executor))}[/red]: use {' or '.join(map(repr, EXECUTORS))}")
        raise typer.Exit(code=2)
    refuse_output_among_inputs(err, paths, output)
    loaded = None
    try:
        overrides: dict = {"layers": {"undecided_layer": layer.upper()}} if layer else {}
        if witness or collate:
            overrides["witness"] = _witness_setting(list(witness or []), paths if collate else [], output)
        cfg = load_config(config, overrides or None)
        named = (cfg.get("witness") or {}).get("paths") or []
        if named and "digest" not in cfg["witness"]:  # a witness named in a -c config: its files' digest too
            cfg["witness"] = {**cfg["witness"], **_witness_setting(list(named), output=output)}
        undecided_layer(cfg)  # a wrong --layer (or [layers] undecided_layer) fails the run once, here
        if executor == "local":  # fail once, clearly, if a model the config asks for is missing
            from pipeline.process import DocumentProcessor

            loaded = DocumentProcessor(cfg)
            loaded.preload()  # reused in process, and shared with forked workers
    except Exception as exc:
        err.print(f"[red]cannot set up the pipeline:[/red] {escape(str(exc))}")  # [layers] … is no markup
        raise typer.Exit(code=2)

    total_files = sum(documents_in(path) for path in expand_paths(paths, output))
    progress = Progress(
        TextColumn("[bold]yili process"), BarColumn(), TextColumn("{task.completed}/{task.total} docs"),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=err, disable=quiet, transient=True,
    )
    chars = 0
    started = __import__("time").perf_counter()

    def on_result(stats) -> None:
        nonlocal chars
        chars += stats.chars
        if stats.error:
            err.print(f"[red]error[/red] {stats.error}")
        elapsed = max(__import__("time").perf_counter() - started, 1e-9)
        progress.update(task, advance=1, rate=f"{chars / elapsed:,.0f} chars/s")

    runner = BatchRunner(cfg, jobs=jobs, executor=executor, scheduler=scheduler, resume=resume, on_result=on_result,
                         processor=loaded)
    with progress:
        task = progress.add_task("process", total=total_files, rate="")
        try:
            report = runner.run(paths, output)
        except ExecutorUnavailable as exc:
            err.print(f"[red]{escape(str(exc))}[/red]")  # 'yili[dask]' is no markup
            raise typer.Exit(code=2)
        except OSError as exc:
            err.print(f"[red]cannot write {output}:[/red] {exc.strerror or exc}")
            raise typer.Exit(code=2)
    if not quiet:
        Console().print(_summary_table(report.rows, report.names))
        Console().print(
            f"{len(report.rows)} document(s), {report.chars:,} chars in {report.seconds:.1f}s "
            f"({report.chars_per_second:,.0f} chars/s; {report.reused} reused from {output}.d/) → {output}"
        )
        hints = [_unmarked_hint(report.rows), _classic_hint(report.rows), _lines_hint(report.rows),
                 _passages_hint(report.passages), _left_out_hint(paths)]
        if (cfg.get("witness") or {}).get("paths"):
            hints.append(_witness_hint(report.rows))
        for hint in hints:
            if hint:
                err.print(escape(hint))  # "[layers] …" is a config section, not markup
    _exit_for_failures(report.failed)


def _witness_setting(paths: List[str], inputs: List[str] = (), output: Optional[Path] = None) -> dict:
    """``[witness]`` for the ``paths`` named (and the ``inputs``, with --collate): absolute, each
    once, and with a digest of the files' bytes, so that a resumed run recomputes the documents
    when a witness changed (the config is part of their key). A witness that is not there stops
    the run; an input that is not there is that input's error, reported in its place. The run's
    ``output``, in a folder named, is no witness (its last version would be read as one)."""
    import hashlib

    from pipeline.read.inputs import broken_link, expand_paths

    named = list(expand_paths(paths, output))
    for path in named:
        if not path.is_file():
            link = broken_link(path)  # found in a folder of editions, or named: either way the witness is not there
            raise ValueError(f"--witness: {path} is {link}" if link else f"--witness: no such file: {path}")
    files: dict[str, Path] = {}
    for path in named + [p for p in expand_paths(inputs, output) if p.is_file()]:
        files.setdefault(str(path.resolve()), path)
    if not files:
        raise ValueError(f"--witness: no file in {', '.join([*paths, *inputs])}")
    digest = hashlib.sha1()
    for resolved, path in files.items():
        digest.update(resolved.encode())
        digest.update(path.read_bytes())
    return {"paths": list(files), "digest": digest.hexdigest()[:12]}


def _witness_hint(rows) -> str:
    """How many documents the witness reached: one it did not reach is read as without it, which a
    scholar who named the witness for it should hear (another chapter, another book)."""
    good = [st for st in rows if not st.error]
    collated = [st for st in good if st.witness_share is not None]
    text = f"{len(collated)} of {len(good)} document(s) collated with the witness"
    if collated:
        mean = sum(st.witness_share for st in collated) / len(collated)
        text += f" ({mean:.0%} of their characters lined up on average)"
        idle = [st for st in collated if not st.witness_decided]
        if idle:  # a punctuated edition whose markers decided its layers: the witness had nothing to give
            text += (f"; {len(idle)} of them took nothing from it (their own marks, markers and anchors had decided: "
                     "meta.witness boundaries and layer_chars are 0)")
    missed = [st.source for st in good if st.witness_share is None]
    if missed:
        text += "; nothing lined up with " + ", ".join(Path(source).name or "a record" for source in missed[:5])
        text += f" and {len(missed) - 5} more" if len(missed) > 5 else ""
        text += ": read without it."
    return text


def _passages_hint(passages) -> Optional[str]:
    """A word for records read as the passages of one document (pipeline/batch/passages.py): each is
    read with the names its whole document gives, so it may come out otherwise than alone."""
    if not passages:
        return None
    return (f"{sum(passages.values())} record(s) read as the passages of {len(passages)} document(s) (meta.doc, or "
            "meta.source and meta.chapter), with the participants each document names; "
            "[actions] passages_as_document = false reads every record alone.")


def _classic_hint(rows) -> Optional[str]:
    """A word for documents read as the classic alone (pipeline/layers/classic.py): the rule looks for
    what a commentary writes, and a commentary that writes none of it would be read as 經."""
    classic = [st for st in rows if not st.error and (st.layout or "").rsplit("/", 1)[-1] == "classic"]
    if not classic:
        return None
    return (f"{len(classic)} document(s) read as the classic alone (no marker, and no gloss or note on the readings "
            "a commentary writes): every line 經. If one holds commentary, run with -c a config that sets "
            "[layers] classic_alone = false.")


def _lines_hint(rows) -> Optional[str]:
    """A word for plain texts whose lines were read as written (pipeline/layers/plain_lines.py): the
    model's own reading of the lines decided it, and a scholar may know better."""
    from pipeline.layers import plain_lines as pl

    readings = {pl.PAIRS_LAYOUT: "a line per 經 and its 注 (each line 經, then its 注)",
                pl.UNITS_LAYOUT: "a unit a line (each line one layer)",
                pl.SHU_LAYOUT: "a line per 經, its 注 and its 疏 (疏 from its head to the line's end)"}
    kinds = [(st.layout or "").rsplit("/", 1)[-1] for st in rows if not st.error]
    said = [f"{n} {reading}" for layout, reading in readings.items() if (n := kinds.count(layout))]
    if not said:
        return None
    return (f"Plain text read as its lines are written, the 注 unmarked: {'; '.join(said)}. "
            "[layers] pair_lines, unit_lines or shu_lines = false reads the lines as the model finds them.")


def _left_out_hint(paths: List[str]) -> Optional[str]:
    """A word for the files of the folders named that were not read (by their kind): a scholar's folder
    may hold a TEI .xml or a .text copy that is meant to be read."""
    from collections import Counter

    from pipeline.read.inputs import left_out

    files = left_out(paths)
    if not files:
        return None
    kinds = Counter(p.suffix.lower() or p.name for p in files)
    listed = ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    return (f"{len(files)} file(s) in the folders named were left out: yili does not take their kind from a folder "
            f"({listed}; the first: {files[0]}). Name such a file to read it as text.")


def _unmarked_hint(rows) -> Optional[str]:
    """A word for documents whose 經 and 注 the layer model alone told apart: a copy of the classic
    without commentary is read so too, and the model (learned from 注疏 editions) takes many of its
    paragraphs for 注."""
    unmarked = [st for st in rows if not st.error and set(st.evidence) == {"model"}
                and st.segments.get("JING") and st.segments.get("ZHU")]
    if not unmarked:
        return None
    return (f"{len(unmarked)} document(s) have no marker, anchor or layout that tells 經 from 注: the layer model "
            "decided every segment. If a text is the classic alone, read it with --layer JING.")


#: how `yili classify` read each document's records (the orders of :func:`pipeline.layers.predict.order_transitions`:
#: neighbours weighed as consecutive units, as a sample with gaps, or not at all)
_ORDER_WORDS = {"adjacent": "as consecutive units", "gaps 0.5": "as a sample with gaps", "gaps 0.25": "as a sparse sample",
                "none": "record by record"}


def _orders_said(orders: dict[str, int]) -> str:
    """'document(s) read: 2 as consecutive units, 1 record by record'."""
    said = (f"{n} {_ORDER_WORDS.get(kind, kind)}" for kind, n in sorted(orders.items(), key=lambda kv: -kv[1]))
    return "document(s) read: " + ", ".join(said)


@app.command()
def classify(
    input: Path = typer.Argument(..., help="JSONL records with a 'text' field."),
    output: Path = typer.Option(..., "-o", "--output", help="Output JSONL: each record with 'label' and 'scores'."),
    model: Optional[Path] = typer.Option(None, "-m", "--model", help="Layer model folder (default: models/layers)."),
) -> None:
    """Label each record JING/ZHU/SHU/OTHER with per-layer probabilities (SCHEMA section 6)."""
    import json

    from pipeline.layers.predict import ModelError, classify_records
    from pipeline.layers.runtime import load_model
    from pipeline.read.inputs import JSONL_SUFFIXES, iter_jsonl

    with said(err, ModelError):
        layer_model = load_model(model)
    if not input.is_file():
        err.print(f"[red]no such file:[/red] {input}")
        raise typer.Exit(code=2)
    refuse_output_among_inputs(err, [input], output)
    items = list(iter_jsonl(input))
    good = [item.record for item in items if item.error is None]
    orders: dict[str, int] = {}
    labelled = iter(classify_records(good, layer_model, orders))
    failed = 0
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        tmp = output.with_name(output.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for item in items:
                if item.error is not None:
                    rec = {**item.record, "error": item.error}
                else:
                    rec = next(labelled)
                    if "error" in rec:
                        rec["error"] = f"{item.origin}: {rec['error']}"
                if "error" in rec:
                    failed += 1
                    err.print(f"[red]error[/red] {rec['error']}")
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")  # as yili process writes: readable Han
        tmp.replace(output)
    except OSError as exc:
        err.print(f"[red]cannot write {output}:[/red] {exc.strerror or exc}")
        raise typer.Exit(code=2)
    count = len(items)
    err.print((f"{count - failed} of {count}" if failed else f"{count}") + f" record(s) classified → {output}"
              + (f"; {_orders_said(orders)}" if orders else ""))
    if items and failed == count and input.suffix.lower() not in JSONL_SUFFIXES:
        err.print(f"{input.name} holds no JSONL record: yili classify reads records, a {{\"text\": …}} object a "
                  "line; a text file is read by yili process, whose segments carry each layer and its score.")
    _exit_for_failures(failed)


# -- training -------------------------------------------------------------------------------------


def _needs_shared(command):
    """For a training or evaluation command, which reads ../shared (the corpus, UD Kyoto): a folder or
    file that is not there is said with status 2, as `train jieba` and `train spans` said it (the
    others had ended in a traceback whose last line held the same message)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        with said(err, FileNotFoundError):
            return command(*args, **kwargs)

    return run


@train_app.command("layers")
@_needs_shared
def train_layers_command(
    out: Optional[Path] = typer.Option(None, "--out", help="Model folder (default: models/layers)."),
    splitter: bool = typer.Option(True, "--splitter/--no-splitter", help="Also fit the run-together splitter."),
    gold: bool = typer.Option(True, "--gold/--no-gold", help="Add the hand-checked records of annotations/layers."),
) -> None:
    """Retrain the layer classifier (and splitter) from annotations/ and ../shared/corpus."""
    from pipeline.layers.training import train_layers

    refused: list[str] = []
    info = train_layers(out, with_gold=gold, with_splitter=splitter, log=err.print, refused=refused)
    Console().print(f"layer model: {info['model_dir']} ({info['model_bytes'] / 1e6:.1f} MB, {info['seconds']['total']} s)")
    _exit_for_refused_gold(refused)


@train_app.command("punctuate")
@_needs_shared
def train_punctuate_command(
    out: Optional[Path] = typer.Option(None, "--out", help="Model folder (default: models/punctuate)."),
) -> None:
    """Retrain the 斷句 model on the punctuated XHTML edition of ../shared/corpus."""
    from pipeline.text.punctuate import train_punctuator

    info = train_punctuator(out)
    Console().print(f"斷句 model: {info['model']} ({info['size_bytes'] / 1e6:.1f} MB, {info.get('train_seconds')} s)")


@train_app.command("stanza")
@_needs_shared
def train_stanza_command(
    out: Optional[Path] = typer.Option(None, "--out", help="Model folder (default: models/stanza-lzh)."),
    steps: int = typer.Option(6000, "--steps", help="Training steps (batches of 32 windows)."),
    dictionary: bool = typer.Option(True, "--dictionary/--no-dictionary", help="Dictionary features from the training words."),
    evaluate: bool = typer.Option(True, "--evaluate/--no-evaluate", help="Score it on UD Kyoto test."),
) -> None:
    """Retrain the stanza lzh word tokenizer (the `stanza` backend's model) on ../shared/ud-kyoto; CPU, no download."""
    from pipeline.nlp.stanza_training import train_kyoto

    try:
        info = train_kyoto(out, steps=steps, evaluate=evaluate, dictionary=dictionary, log=err.print)
    except ImportError as exc:
        err.print(escape(f"{exc}: pip install torch==2.13.0, then pip install 'yili[stanza]'"))  # rich had eaten [stanza]
        raise typer.Exit(2) from exc
    f1 = ((info.get("test") or {}).get("raw") or {}).get("tokens", {}).get("f1")
    Console().print(f"stanza tokenizer: {info['model']} ({info['size_bytes'] / 1e6:.2f} MB, {info['train_seconds']} s"
                    + (f", Kyoto test token F1 {f1:.3f})" if f1 is not None else ")"))


@train_app.command("jieba")
def train_jieba_command(
    out: Optional[Path] = typer.Option(None, "--out", help="Dictionary folder (default: models/jieba-lzh)."),
) -> None:
    """Rebuild the jieba backend's Classical Chinese word list from UD Kyoto's training file (a second)."""
    from pipeline.nlp.jieba_dictionary import build_dictionary

    with said(err, FileNotFoundError):
        info = build_dictionary(out)
    Console().print(f"jieba dictionary: {info['words']:,} words ({info['multi_character_words']:,} of more than one character) "
                    f"from {info['source']} → {out or 'models/jieba-lzh'}")


@train_app.command("spans")
def train_spans_command(
    out: Optional[Path] = typer.Option(None, "--out", help="Model folder (default: models/spans-crf with --kind crf, else models/spans)."),
    chapter: List[str] = typer.Option([], "--chapter", help="Train on these dev chapters only (repeatable; default: all six)."),
    epochs: Optional[int] = typer.Option(None, "--epochs", help="Training epochs of the ner (default: the span model's)."),
    kind: str = typer.Option("ner", "--kind", help="ner (spaCy, ~7 min) or crf (crfsuite, ~10 s; the one the default config uses; --epochs does not apply)."),
) -> None:
    """Retrain a span model beside the lexicon on the dev action gold of annotations/actions."""
    from pipeline.nlp.span_model import CRF_MODEL_DIR, train_spans

    if kind not in ("ner", "crf"):
        err.print(f"[red]unknown --kind {kind!r}:[/red] choose ner or crf")
        raise typer.Exit(2)
    settings: dict = {"epochs": epochs} if epochs else {}
    if kind == "crf":
        settings = {"kind": "crf"}
        out = out or CRF_MODEL_DIR
    refused: list[str] = []
    with _cannot("train the span model", refused):
        info = train_spans(out, chapters=chapter or None, settings=settings or None, log=err.print, refused=refused)
    Console().print(f"span model: {info['model_dir']} ({info['size_bytes'] / 1e6:.1f} MB, {info['train_seconds']} s, "
                    f"{info['passages']} training texts from chapters {' '.join(info['chapters'])})")
    _exit_for_refused_gold(refused)


@contextlib.contextmanager
def _cannot(what: str, refused: List[str]) -> Iterator[None]:
    """No gold to work from (a FileNotFoundError inside): the gold lines left out on the way, then
    'cannot WHAT: why', status 2."""
    try:
        yield
    except FileNotFoundError as exc:
        _say_refused_gold(refused)
        err.print(f"[red]cannot {what}:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc


def _say_refused_gold(refused: List[str]) -> None:
    """Name each gold line left out (file:line: why)."""
    for why in refused:
        err.print(f"[red]gold line left out:[/red] {escape(why)}")


def _exit_for_refused_gold(refused: List[str]) -> None:
    """After a training or an evaluation that left gold lines out: name them, and exit with their
    number, capped at 255 (the figures and models were made from the other records)."""
    if refused:
        _say_refused_gold(refused)
        err.print(f"[red]{len(refused)} gold line{'s' if len(refused) != 1 else ''} left out[/red]: mend them and run again")
        raise typer.Exit(min(len(refused), 255))


# -- evaluation -----------------------------------------------------------------------------------

RESULTS = Path(__file__).resolve().parents[1] / "bench" / "results"


@evaluate_app.command("layers")
@_needs_shared
def evaluate_layers_command(
    out: Path = typer.Option(RESULTS / "layers.json", "--out", help="JSON figures (a .md summary is written beside)."),
    folds: int = typer.Option(4, "--folds", help="Chapter-level folds."),
    splitter: bool = typer.Option(True, "--splitter/--no-splitter", help="Also score the run-together splitter."),
) -> None:
    """Layer classifier vs the TF-IDF baseline on held-out chapters; run-together character accuracy."""
    from pipeline.layers.training import evaluate_layers

    refused: list[str] = []
    evaluate_layers(out, folds=folds, with_splitter=splitter, log=err.print, refused=refused)
    Console().print(out.with_suffix(".md").read_text(encoding="utf-8"))
    _exit_for_refused_gold(refused)


@evaluate_app.command("segmentation")
@_needs_shared
def evaluate_segmentation_command(
    out: Path = typer.Option(RESULTS / "segmentation.json", "--out", help="JSON figures (a .md summary is written beside)."),
    folds: int = typer.Option(4, "--folds", help="Chapter-level folds (11 = leave one chapter out)."),
    workers: int = typer.Option(2, "--workers", help="Processes training folds in parallel."),
) -> None:
    """斷句 break P/R/F1 on unseen chapters; tokenizer F1 and speed on UD Kyoto."""
    from pipeline.text.segmentation_eval import evaluate_segmentation

    evaluate_segmentation(out, folds=folds, workers=workers)
    Console().print(out.with_suffix(".md").read_text(encoding="utf-8"))


@evaluate_app.command("actions")
def evaluate_actions_command(
    out: Path = typer.Option(RESULTS / "actions.json", "--out", help="JSON figures (a .md summary is written beside)."),
    split: List[str] = typer.Option(["dev", "test"], "--split", help="Gold splits to score (annotations/actions/SPLIT)."),
    config: Optional[Path] = typer.Option(None, "-c", "--config", help="A .cfg whose sections override configs/default.cfg (score another tokenizer, the span model …)."),
    unseen: bool = typer.Option(True, "--unseen/--no-unseen", help="Also score the unpunctuated form with a 斷句 model that never saw the chapter (trains one per chapter fold, ~2 min)."),
    documents: bool = typer.Option(True, "--documents/--no-documents", help="Also score each chapter's passages read as one document, as yili process reads a chapter's file."),
    form: Optional[List[str]] = typer.Option(None, "--form", help="Forms of the gold passages to read: punctuated, unpunctuated (after the shipped 斷句), simplified; repeat for several (all three when none is named)."),
    errors: Optional[Path] = typer.Option(None, "--errors", help="Also write the passages with a tuple or span wrong, each unmatched tuple and span with its kind, to this JSONL (of the splits named by --errors-split)."),
    errors_split: List[str] = typer.Option(["dev"], "--errors-split", help="Splits whose errors --errors writes; the held-out test split only when named (reading its errors is developing on it)."),
) -> None:
    """Tuple P/R/F1, role accuracy and span P/R/F1 per chapter, dev and held-out test kept apart."""
    from pipeline.actions.report import chosen_forms, evaluate_actions
    from pipeline.config import load_config

    # an unknown form; a -c that cannot be read, or sets what yili does not read
    with said(err, OSError, ValueError):
        forms = chosen_forms(form)
        settings = load_config(config) if config else None
    refused: list[str] = []
    with _cannot("evaluate the actions", refused):  # a split with no gold file
        evaluate_actions(out, splits=split, config=settings, config_path=config, unseen=unseen,
                         documents=documents, refused=refused, forms=forms, errors_file=errors,
                         error_splits=errors_split)
    Console().print(out.with_suffix(".md").read_text(encoding="utf-8"))
    _exit_for_refused_gold(refused)


@evaluate_app.command("all")
def evaluate_all_command() -> None:
    """Every evaluation above, with default settings; one that ends in error does not stop the
    others, and the exit status is the sum of theirs."""
    status = 0
    for run in (lambda: evaluate_layers_command(RESULTS / "layers.json", 4, True),
                lambda: evaluate_segmentation_command(RESULTS / "segmentation.json", 4, 2),
                lambda: evaluate_actions_command(RESULTS / "actions.json", ["dev", "test"], None, True, True, None, None, ["dev"])):
        try:
            run()
        except typer.Exit as exc:
            status += exc.exit_code
    if status:
        raise typer.Exit(min(status, 255))


# -- the other workflows register their own commands -------------------------------------------------

def _register_workflows() -> None:
    from pipeline.annotate.commands import register
    from pipeline.export.command import export_command

    app.command("export")(export_command)
    register(app, train_app)


_register_workflows()


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
