"""A learned span tagger beside the lexicon: ``yili train spans`` and the ``yili_span_model`` component.

The lexicon ruler (:mod:`pipeline.nlp.ruler`) finds the terms it lists; a learned model can find
the ones it does not (当西序, 宾之席前, 媵爵者) and, with the lexicon's own tags as input, learn
where a listed term is no span (拜送 → 送 is a purpose, not an act).

**Model.** A spaCy ``ner`` (transition-based) on one token per character of the normalised view —
the same view the ruler tags, whatever the pipeline's tokenizer — whose token vectors embed two
features per character: the character itself (``NORM``) and the lexicon ruler's tag on it
(``TAG``: ``B-LOC``, ``I-ACT`` … or ``O``). In training, each lexicon span is hidden from the
features with probability ``lexicon_dropout`` so that the model also learns to find spans from the
characters alone. Gold: ``annotations/actions/dev`` (156 經 passages, SCHEMA section 5), each
passage also stripped of its punctuation (the pipeline tags unpunctuated text too).

**Component.** ``yili_span_model`` runs after ``lexicon_ruler`` and rewrites ``doc.spans[key]``
from the lexicon spans and the model spans (``mode``):

- ``fill``: lexicon spans, plus model spans where the lexicon found nothing (no overlap);
- ``override``: model spans, plus lexicon spans the model does not overlap — but not a model ACTOR
  span that is two or more listed participants back to back (大夫士, 介遵者: in text without marks
  the model joins a list into one name), where the lexicon's list is kept;
- ``model``: model spans only;

and ``labels`` (``[nlp] span_model_labels``) limits the model spans considered to those labels.
A place the model ends on the direction of the facing after it, or on 之 before it, is mended
(:func:`facing_edges`: 阼階上西｜鄉 → 阼階上｜西鄉).

A model span whose boundary falls inside a token of the host tokenizer cuts that token
(:mod:`pipeline.nlp.retokenize`: jieba's 卿大夫 where the model reads the list 卿 | 大夫); the spans
of ``yili process`` are the same with jieba, one token per character or UD-Kanbun. The model is
loaded from a local folder only (``models/spans`` by default, ``[nlp] span_model``); nothing is
ever downloaded. A missing or unreadable folder raises :class:`SpanModelError` naming the path
and the command that rebuilds it.
"""

from __future__ import annotations

import datetime as _dt
import json
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc, Span

from pipeline.config import shipped
from pipeline.labels import SPAN_LABELS
from pipeline.nlp.retokenize import split_at, token_boundaries

REPO = Path(__file__).resolve().parents[2]
DEFAULT_MODEL_DIR = shipped("models/spans")
CRF_MODEL_DIR = shipped("models/spans-crf")
GOLD_DIR = REPO / "annotations" / "actions"
REBUILD = "yili train spans"
MODES = ("fill", "override", "model")
INFO_FILE = "yili_span_model.json"
FORMAT = 1

Triple = tuple[int, int, str]


class SpanModelError(RuntimeError):
    """The span model cannot be loaded: the message names the path and the command that rebuilds it."""


def resolve_model_dir(value: Optional[str | Path]) -> Optional[Path]:
    """``[nlp] span_model`` as a folder: None/""/false → no model; ``true``/"default" → models/spans;
    a relative path as :func:`pipeline.config.model_path` reads it (working directory, else checkout)."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "null", "none", "false")):
        return None
    if value is True or (isinstance(value, str) and value.strip().lower() in ("true", "default")):
        return DEFAULT_MODEL_DIR
    from pipeline.config import model_path

    return model_path(value)


# -- features ---------------------------------------------------------------------------------------

_SHORT = {"ACTOR": "ACT", "VERB": "VRB", "OBJECT": "OBJ", "LOCATION": "LOC", "FACING": "FAC"}


def lexicon_tags(length: int, spans: Iterable[Triple]) -> list[str]:
    """One feature tag per character: ``B-LOC`` / ``I-LOC`` … inside a lexicon span, else ``O``."""
    tags = ["O"] * length
    for s, e, label in spans:
        short = _SHORT.get(label, "UNK")
        for i in range(max(s, 0), min(e, length)):
            tags[i] = ("B-" if i == s else "I-") + short
    return tags


def char_doc(nlp: Language, text: str, lexicon: Iterable[Triple]) -> Doc:
    """The model's input: one token per character, the lexicon tags in ``token.tag_``."""
    doc = Doc(nlp.vocab, words=list(text), spaces=[False] * len(text), tags=lexicon_tags(len(text), lexicon))
    return doc


# -- the learned model ------------------------------------------------------------------------------

DEFAULTS: dict[str, Any] = {
    "width": 96,
    "depth": 4,
    "window": 1,
    "rows_chars": 3000,
    "rows_tags": 64,
    "hidden": 64,
    "epochs": 30,
    "dropout": 0.2,
    "lexicon_dropout": 0.1,
    "batch": 8,
    "learn_rate": 0.002,
    "unpunctuated": True,
    "use_lexicon": True,
    "seed": 0,
}


def blank_model(settings: dict[str, Any]) -> Language:
    import spacy

    nlp = spacy.blank("zh")
    attrs = ["NORM", "TAG"] if settings["use_lexicon"] else ["NORM"]
    rows = [settings["rows_chars"], settings["rows_tags"]][: len(attrs)]
    nlp.add_pipe(
        "ner",
        config={
            "model": {
                "@architectures": "spacy.TransitionBasedParser.v2",
                "state_type": "ner",
                "extra_state_tokens": False,
                "hidden_width": settings["hidden"],
                "maxout_pieces": 2,
                "use_upper": True,
                "nO": None,
                "tok2vec": {
                    "@architectures": "spacy.Tok2Vec.v2",
                    "embed": {
                        "@architectures": "spacy.MultiHashEmbed.v2",
                        "width": settings["width"],
                        "attrs": attrs,
                        "rows": rows,
                        "include_static_vectors": False,
                    },
                    "encode": {
                        "@architectures": "spacy.MaxoutWindowEncoder.v2",
                        "width": settings["width"],
                        "depth": settings["depth"],
                        "window_size": settings["window"],
                        "maxout_pieces": 3,
                    },
                },
            }
        },
    )
    return nlp


def write_model_folder(folder: str | Path, info: dict[str, Any], write: Callable[[Path], None]) -> Path:
    """Save a span model: ``write`` fills a sibling temporary folder, the info file is added, and
    then each of its items replaces its namesake in ``folder`` (other files there, a model card, stay)."""
    folder = Path(folder)
    tmp = folder.with_name(folder.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    write(tmp)
    (tmp / INFO_FILE).write_text(json.dumps(info, ensure_ascii=False, indent=1), encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    for item in tmp.iterdir():
        target = folder / item.name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        item.rename(target)
    tmp.rmdir()
    return folder


@dataclass
class SpanModel:
    """The learned tagger: a private spaCy pipeline (one ``ner``) over character docs."""

    nlp: Language
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def use_lexicon(self) -> bool:
        return bool(self.info.get("settings", {}).get("use_lexicon", True))

    def predict(self, text: str, lexicon: Sequence[Triple] = ()) -> list[Triple]:
        """(start, end, label) the model finds in ``text`` (a normalised view), given the lexicon spans."""
        if not text:
            return []
        doc = char_doc(self.nlp, text, lexicon if self.use_lexicon else ())
        for _name, proc in self.nlp.pipeline:
            doc = proc(doc)
        return [(e.start_char, e.end_char, e.label_) for e in doc.ents]

    def predict_many(self, items: Sequence[tuple[str, Sequence[Triple]]]) -> list[list[Triple]]:
        docs = [char_doc(self.nlp, t, lex if self.use_lexicon else ()) for t, lex in items]
        for _name, proc in self.nlp.pipeline:
            docs = list(proc.pipe(docs))
        return [[(e.start_char, e.end_char, e.label_) for e in d.ents] for d in docs]

    def save(self, folder: str | Path) -> Path:
        return write_model_folder(folder, self.info, lambda tmp: self.nlp.to_disk(tmp / "ner"))

    @classmethod
    def load(cls, folder: str | Path) -> "SpanModel":
        folder = Path(folder)
        how = f"rebuild it with `{REBUILD}` (or set [nlp] span_model = null)"
        if not (folder / INFO_FILE).is_file() or not (folder / "ner").is_dir():
            raise SpanModelError(f"span model not found at {folder}: {how}")
        try:
            import spacy

            info = json.loads((folder / INFO_FILE).read_text(encoding="utf-8"))
            if info.get("format") != FORMAT:
                raise ValueError(f"format {info.get('format')!r}, expected {FORMAT}")
            nlp = spacy.load(folder / "ner")
            if "ner" not in nlp.pipe_names:
                raise ValueError("no ner component")
        except SpanModelError:
            raise
        except Exception as exc:  # corrupt weights, bad JSON, wrong spaCy version …
            raise SpanModelError(f"span model at {folder} cannot be loaded ({type(exc).__name__}: {exc}): {how}") from exc
        return cls(nlp, info)


def load_span_model(folder: str | Path) -> "SpanModel | Any":
    """The model in ``folder``, of either kind its info file names: the spaCy ``ner``
    (:class:`SpanModel`) or the CRF (:class:`pipeline.nlp.span_crf.CRFSpanModel`)."""
    from pipeline.nlp import span_crf

    folder = Path(folder)
    how = f"rebuild it with `{REBUILD} --kind crf` (or set [nlp] span_model = null)"
    try:
        info = json.loads((folder / INFO_FILE).read_text(encoding="utf-8")) if (folder / INFO_FILE).is_file() else {}
    except ValueError as exc:
        raise SpanModelError(f"span model at {folder} cannot be loaded (bad {INFO_FILE}: {exc}): rebuild it with "
                             f"`{REBUILD}` or `{REBUILD} --kind crf` (or set [nlp] span_model = null)") from exc
    if info.get("kind") != span_crf.KIND:
        return SpanModel.load(folder)
    if not (folder / span_crf.WEIGHTS_FILE).is_file():
        raise SpanModelError(f"span model not found at {folder} (no {span_crf.WEIGHTS_FILE}): {how}")
    try:
        if info.get("format") != FORMAT:
            raise ValueError(f"format {info.get('format')!r}, expected {FORMAT}")
        return span_crf.CRFSpanModel.load(folder, info)
    except Exception as exc:  # truncated or foreign weights file
        raise SpanModelError(f"span model at {folder} cannot be loaded ({type(exc).__name__}: {exc}): {how}") from exc


# -- training data ----------------------------------------------------------------------------------


@dataclass
class Passage:
    """One gold passage in the normalised view the tagger sees, with its lexicon spans."""

    text: str
    gold: list[Triple]
    lexicon: list[Triple]
    chapter: str = ""
    doc: str = ""


def load_gold(chapters: Optional[Iterable[str]] = None, folder: Optional[Path] = None,
              refused: Optional[list[str]] = None) -> list[dict]:
    """The gold records of ``folder`` (by default the dev split only), each with its chapter. A line
    that is no valid record is named in ``refused`` and left out (None: it raises;
    :func:`pipeline.annotate.gold.read_gold`)."""
    from pipeline.annotate.gold import read_gold_folder

    return read_gold_folder(folder if folder is not None else GOLD_DIR / "dev", refused, chapters)


def _view_of(text: str, spans: Sequence[dict], strip: bool) -> tuple[str, list[Triple]]:
    """The normalised view of a gold text and its spans moved into it (punctuation dropped if ``strip``)."""
    from pipeline.text.marks import is_text_char
    from pipeline.text.normalise import segment_view

    view = segment_view(text, 0, len(text))
    vt = view.text
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    for i in range(len(vt)):
        rs, re_ = view.to_raw(i, i + 1)
        starts.setdefault(rs, i)
        ends[re_] = i + 1
    out: list[Triple] = []
    for s in spans:
        a, b = starts.get(s["start"]), ends.get(s["end"])
        if a is not None and b is not None and b > a:
            out.append((a, b, s["label"]))
    if not strip:
        return vt, sorted(out)
    keep = [i for i, ch in enumerate(vt) if is_text_char(ch)]
    where = {old: new for new, old in enumerate(keep)}
    stripped = "".join(vt[i] for i in keep)
    moved = []
    for a, b, label in out:
        inside = [where[i] for i in range(a, b) if i in where]
        if inside:
            moved.append((inside[0], inside[-1] + 1, label))
    return stripped, sorted(moved)


def passages(records: Sequence[dict], lexicon_nlp: Language, unpunctuated: bool = False) -> list[Passage]:
    """Gold records as :class:`Passage` (view text, gold and lexicon spans); with ``unpunctuated``
    each record also gives its punctuation-free form."""
    from pipeline.nlp.build import tag_spans

    out = []
    for rec in records:
        meta = rec.get("meta") or {}
        for strip in ((False, True) if unpunctuated else (False,)):
            text, gold = _view_of(rec["text"], rec.get("spans") or [], strip)
            out.append(Passage(text, gold, tag_spans(lexicon_nlp, text), str(meta.get("chapter", "")), str(meta.get("doc", ""))))
    return out


# -- training ---------------------------------------------------------------------------------------


def _examples(nlp: Language, data: Sequence[Passage], rng: random.Random, lexicon_dropout: float, use_lexicon: bool):
    from spacy.training import Example

    out = []
    for p in data:
        lex = [s for s in p.lexicon if rng.random() >= lexicon_dropout] if use_lexicon else []
        doc = char_doc(nlp, p.text, lex)
        out.append(Example.from_dict(doc, {"entities": [(s, e, label) for s, e, label in p.gold]}))
    return out


def fit(data: Sequence[Passage], settings: Optional[dict[str, Any]] = None,
        log: Optional[Callable[[str], None]] = None) -> Any:
    """A :class:`SpanModel` trained on ``data`` (CPU, spaCy's Python API); with ``settings``
    ``kind = "crf"`` a :class:`pipeline.nlp.span_crf.CRFSpanModel` instead."""
    from spacy.util import fix_random_seed, minibatch

    if (settings or {}).get("kind") == "crf":
        from pipeline.nlp import span_crf

        return span_crf.fit(data, settings, log=log)

    cfg = {**DEFAULTS, **(settings or {})}
    fix_random_seed(int(cfg["seed"]))
    rng = random.Random(int(cfg["seed"]))
    nlp = blank_model(cfg)
    ner = nlp.get_pipe("ner")
    for label in SPAN_LABELS:
        ner.add_label(label)
    started = time.perf_counter()
    first = _examples(nlp, data, rng, 0.0, cfg["use_lexicon"])
    optimizer = nlp.initialize(lambda: first)
    optimizer.learn_rate = float(cfg["learn_rate"])
    losses: dict[str, float] = {}
    for epoch in range(int(cfg["epochs"])):
        examples = _examples(nlp, data, rng, float(cfg["lexicon_dropout"]), cfg["use_lexicon"])
        rng.shuffle(examples)
        losses = {}
        for batch in minibatch(examples, size=int(cfg["batch"])):
            nlp.update(batch, drop=float(cfg["dropout"]), sgd=optimizer, losses=losses)
        if log and (epoch + 1) % 10 == 0:
            log(f"epoch {epoch + 1}: ner loss {losses.get('ner', 0.0):.1f}")
    info = {
        "format": FORMAT,
        "settings": cfg,
        "passages": len(data),
        "chars": sum(len(p.text) for p in data),
        "chapters": sorted({p.chapter for p in data}),
        "train_seconds": round(time.perf_counter() - started, 1),
        "final_loss": round(float(losses.get("ner", 0.0)), 2),
    }
    return SpanModel(nlp, info)


def defaults_for(settings: Optional[dict[str, Any]]) -> dict[str, Any]:
    """The default settings of the kind of model ``settings`` asks for (ner unless kind = "crf")."""
    from pipeline.nlp import span_crf

    return span_crf.DEFAULTS if (settings or {}).get("kind") == span_crf.KIND else DEFAULTS


def train_spans(out: Optional[str | Path] = None, chapters: Optional[Sequence[str]] = None,
                settings: Optional[dict[str, Any]] = None, config: Optional[dict[str, Any]] = None,
                log: Optional[Callable[[str], None]] = None, refused: Optional[list[str]] = None) -> dict[str, Any]:
    """``yili train spans``: train on the dev gold (``chapters`` of it, default all six) and save to
    ``out`` (default ``models/spans``). Returns the model info (path, size, seconds). Gold lines
    that are no valid record are named in ``refused`` and left out (None: the first raises)."""
    from pipeline.nlp.build import build_nlp, lexicon_only

    out_dir = Path(out) if out is not None else DEFAULT_MODEL_DIR
    cfg = {**defaults_for(settings), **(settings or {})}
    records = load_gold(chapters, refused=refused)
    if not records:
        raise FileNotFoundError(f"no gold passages under {GOLD_DIR / 'dev'}" + (f" for chapters {list(chapters)}" if chapters else ""))
    lexicon_nlp = build_nlp(lexicon_only(config))
    data = passages(records, lexicon_nlp, unpunctuated=bool(cfg["unpunctuated"]))
    if log:
        log(f"{len(records)} gold passages ({len(data)} training texts, {sum(len(p.text) for p in data)} chars)")
    model = fit(data, cfg, log=log)
    model.info["date"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    model.info["gold"] = str((GOLD_DIR / "dev").relative_to(REPO)) if GOLD_DIR.is_relative_to(REPO) else str(GOLD_DIR)
    model.save(out_dir)
    size = sum(f.stat().st_size for f in out_dir.rglob("*") if f.is_file())
    return {**model.info, "model_dir": str(out_dir), "size_bytes": size}


# -- combining with the lexicon ---------------------------------------------------------------------


#: characters no span opens on (之 赞者 of 主人之赞者; the gold opens none of its spans so, and a
#: model span that does would cut a lexicon term in two): 其 and 以 open some (其位, 以爵拜者)
NEVER_OPENS = frozenset("之于於而者")


def within_text(text: str, spans: Sequence[Triple]) -> list[Triple]:
    """Model spans without the marks at their edges (西阶, → 西阶: a mark the model never saw in
    training, an ASCII comma, can be read into a span); a span with a mark inside is dropped, and
    so is one that opens on a function word no span opens on (:data:`NEVER_OPENS`)."""
    from pipeline.text.marks import is_text_char

    out = []
    for s, e, label in spans:
        while s < e and not is_text_char(text[s]):
            s += 1
        while e > s and not is_text_char(text[e - 1]):
            e -= 1
        if s < e and text[s] not in NEVER_OPENS and all(is_text_char(ch) for ch in text[s:e]):
            out.append((s, e, label))
    return out


def _overlaps(a: Triple, b: Triple) -> bool:
    return a[0] < b[1] and b[0] < a[1]


class _Taken:
    """The characters the kept spans cover, so that whether a span overlaps one of them costs its own
    length, not the number kept (a long paragraph holds tens of thousands of spans: testing each new
    one against every kept one made :func:`combine` quadratic). Empty spans, which cover no
    character but overlap a span that holds their position strictly inside, are tested one by one
    as :func:`_overlaps` does."""

    def __init__(self, spans: Sequence[Triple], size: int):
        self.chars = bytearray(size)
        self.empty: list[Triple] = []
        self.kept: list[Triple] = []
        for span in spans:
            self.add(span)

    def add(self, span: Triple) -> None:
        s, e = span[0], span[1]
        self.kept.append(span)
        if s < e:
            self.chars[s:e] = b"\x01" * (e - s)
        else:
            self.empty.append(span)

    def overlaps(self, span: Triple) -> bool:
        s, e = span[0], span[1]
        if s >= e:
            return any(_overlaps(span, k) for k in self.kept)
        return any(self.chars[s:e]) or any(_overlaps(span, k) for k in self.empty)


def _listed_chains(model: Sequence[Triple], lexicon: Sequence[Triple]) -> set[Triple]:
    """The model's ACTOR spans that are two or more listed ACTOR terms back to back (大夫士, 介遵者,
    君士): where the text has no marks the model joins a list of participants into one name, which
    the lexicon, knowing each of them, had right."""
    ends = {s: e for s, e, label in lexicon if label == "ACTOR" and s < e}
    chains = set()
    for span in model:
        s, e, label = span
        if label != "ACTOR" or ends.get(s) == e:
            continue
        at, pieces = s, 0
        while at < e and at in ends:
            at, pieces = ends[at], pieces + 1
        if at == e and pieces >= 2:
            chains.add(span)
    return chains


#: the directions and the words of facing, as the normalised view writes them too (东, 乡)
_DIRECTION = set("東西南北东")
_FACES = set("面鄉乡")


def facing_edges(spans: Sequence[Triple], text: str) -> list[Triple]:
    """Where a model's place runs into the facing after it (阼階上西｜鄉 → 阼階上｜西鄉; 阼階之｜東南面 →
    阼階之東｜南面): in text without marks the model can end a place on the direction of the facing
    that follows, or before the direction that ends it — a place never ends on a direction written
    just before 面 / 鄉, nor on 之. The place gives that character back, or takes it, and the facing
    is what is left of it. ``spans`` never overlap (what :func:`combine` keeps), so a character right
    after a place is covered only by a span that starts there."""
    spans = sorted(spans)
    starts = {s: n for n, (s, e, _) in enumerate(spans) if s < e}
    out = list(spans)
    for n, (s, e, label) in enumerate(spans):
        if label != "LOCATION" or e >= len(text):
            continue
        if e - s > 1 and text[e - 1] in _DIRECTION and text[e] in _FACES:
            out[n] = (s, e - 1, label)
            if e not in starts:
                out.append((e - 1, e + 1, "FACING"))
        elif text[e - 1] == "之" and e in starts:
            nxt = starts[e]
            fs, fe, flabel = spans[nxt]
            if flabel == "FACING" and fe - fs == 3 and text[fs] in _DIRECTION and text[fs + 1] in _DIRECTION:
                out[n] = (s, e + 1, label)
                out[nxt] = (fs + 1, fe, flabel)
    return sorted(out)


def combine(lexicon: Sequence[Triple], model: Sequence[Triple], mode: str = "fill",
            labels: Optional[Iterable[str]] = None) -> list[Triple]:
    """The spans to keep from the lexicon's and the model's, never overlapping (see the module
    docstring); with ``labels``, only the model spans of those labels are considered."""
    if labels is not None:
        wanted = set(labels)
        model = [s for s in model if s[2] in wanted]
    if mode == "model":
        return sorted(model)
    if mode == "fill":
        first, second = lexicon, model
    elif mode == "override":
        chains = _listed_chains(model, lexicon)
        first, second = [s for s in model if s not in chains], lexicon
    else:
        raise ValueError(f"unknown span model mode {mode!r}: choose one of {', '.join(MODES)}")
    size = max((max(s, e) for s, e, _ in (*first, *second)), default=0)
    taken = _Taken(first, size)
    for span in second:
        if not taken.overlaps(span):
            taken.add(span)
    return sorted(taken.kept)


# -- the spaCy component ----------------------------------------------------------------------------


class SpanModelComponent:
    """Rewrites ``doc.spans[spans_key]`` (the lexicon spans) with the model's, per ``mode``."""

    def __init__(self, nlp: Language, name: str, model_dir: str, spans_key: str, mode: str,
                 labels: Optional[list[str]] = None):
        if mode not in MODES:
            raise ValueError(f"unknown [nlp] span_model_mode {mode!r}: choose one of {', '.join(MODES)}")
        unknown = set(labels or ()) - set(SPAN_LABELS)
        if unknown:
            raise ValueError(f"unknown [nlp] span_model_labels {sorted(unknown)}: choose among {', '.join(SPAN_LABELS)}")
        self.name = name
        self.key = spans_key
        self.mode = mode
        self.labels = list(labels) if labels else None
        self.model_dir = str(model_dir)
        self.model = load_span_model(resolve_model_dir(model_dir) or DEFAULT_MODEL_DIR)

    def __call__(self, doc: Doc) -> Doc:
        return next(self.pipe([doc]))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        """Docs in batches: the model's ``ner`` scores a batch at once (about 1.5× faster than one by one)."""
        from spacy.util import minibatch

        from pipeline.nlp.base import doc_text

        for batch in minibatch(docs, size=batch_size):
            items = []
            for doc in batch:
                existing = list(doc.spans[self.key]) if self.key in doc.spans else []
                items.append((doc_text(doc), existing))
            todo = [i for i, (text, _) in enumerate(items) if text]
            found = self.model.predict_many(
                [(items[i][0], [(s.start_char, s.end_char, s.label_) for s in items[i][1]]) for i in todo]
            )
            results = {i: within_text(items[i][0], spans) for i, spans in zip(todo, found)}
            for i, doc in enumerate(batch):
                if i in results:
                    self._apply(doc, items[i][0], items[i][1], results[i])
                yield doc

    def _apply(self, doc: Doc, text: str, existing: list[Span], found: list[Triple]) -> None:
        lexicon = [(s.start_char, s.end_char, s.label_) for s in existing]
        by_range = {(s.start_char, s.end_char, s.label_): s for s in existing}
        chosen = facing_edges(combine(lexicon, found, self.mode, self.labels), text)
        edges = [x for s, e, label in chosen if (s, e, label) not in by_range for x in (s, e)]
        if edges:
            bounds = token_boundaries(doc)
            off = [x for x in edges if x not in bounds]
            if off and split_at(doc, off):  # the model's edge inside a token: cut the token, keep the span
                by_range = {}
        spans: list[Span] = []
        for s, e, label in chosen:
            span = by_range.get((s, e, label)) or doc.char_span(s, e, label=label, alignment_mode="strict")
            if span is not None:
                spans.append(span)
        doc.spans[self.key] = spans

    # the model folder is named in the config; nothing of it is written with the host pipeline
    def to_disk(self, path, *, exclude=()):  # noqa: D401 - spaCy serialisation hook
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path, *, exclude=()):
        return self

    def to_bytes(self, *, exclude=()) -> bytes:
        return b""

    def from_bytes(self, data: bytes, *, exclude=()):
        return self


@Language.factory(
    "yili_span_model",
    default_config={"model_dir": "models/spans", "spans_key": "sc", "mode": "fill", "labels": None},
)
def make_span_model(nlp: Language, name: str, model_dir: str, spans_key: str, mode: str,
                    labels: Optional[list[str]]) -> SpanModelComponent:
    return SpanModelComponent(nlp, name, model_dir, spans_key, mode, labels)
