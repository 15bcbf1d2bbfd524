"""One document through every stage: layers → normalised views → sentences → tags → actions.

:class:`DocumentProcessor` holds the loaded models (built once, reused for every document) and
turns one input record into one output record as SCHEMA section 6 says. It never raises for a
bad document: the caller gets the record back with an ``error`` field instead.
"""

from __future__ import annotations

import copy
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from pipeline.config import load_config
from pipeline.labels import LAYERS
from pipeline.read.inputs import InputItem
from pipeline.records import Action, Removal, Segment


@dataclass
class Stats:
    """What one processed document holds, for the run summary."""

    source: str
    layout: str = ""
    encoding: str = ""
    chars: int = 0
    segments: Counter = field(default_factory=Counter)
    evidence: Counter = field(default_factory=Counter)
    sentences: int = 0
    spans: Counter = field(default_factory=Counter)
    actions: int = 0
    error: Optional[str] = None
    #: the share of its characters lined up with a witness edition (None: not collated)
    witness_share: Optional[float] = None
    #: what the witness decided there: boundaries of its unpunctuated text and characters of its layers
    witness_decided: int = 0


#: witnesses up to this many characters have their anchor strings found at preload (shared by forked
#: workers); a larger set finds them for each witness when a document first lines up with it
WITNESS_PRELOAD = 10_000_000
#: an undecided segment longer than this (chars) is read in pieces (:func:`_sentence_pieces`)
LONG_UNDECIDED = 5000
#: the longest piece such a segment is cut into where no sentence mark comes sooner
LONGEST_PIECE = 400
#: the longest piece the run-together splitter is given of such a segment: whole sentences up to this
#: many characters (dev chapters' 鄭注 with its 注 unmarked, one line: 400 / 1,000 / 2,000 characters
#: 0.794 / 0.798 / 0.801 of the characters right unpunctuated, 0.880 / 0.883 / 0.886 punctuated)
SPLIT_PIECE = 2000
#: undecided characters of one document up to which its long stretches go through the splitter (about
#: 10,000 characters a second); beyond, a dump of that size is classified a piece at a time
SPLIT_BUDGET = 300_000
_SENTENCE_END = re.compile(r"[。？！；○]+[」』”’]*")


def _sentence_pieces(text: str, seg: Segment, longest: int = LONGEST_PIECE) -> list[Segment]:
    """``seg`` itself, or, if it is a long undecided stretch, its sentences as undecided segments,
    none longer than ``longest`` where no sentence mark comes sooner."""
    if seg.evidence != "default" or seg.end - seg.start <= LONG_UNDECIDED:
        return [seg]
    out: list[Segment] = []
    start = seg.start
    ends = [m.end() for m in _SENTENCE_END.finditer(text, seg.start, seg.end)] + [seg.end]
    for end in ends:
        while end - start > longest:
            out.append(Segment(seg.layer, start, start + longest, text[start:start + longest], "default", seg.score))
            start += longest
        if end > start:
            out.append(Segment(seg.layer, start, end, text[start:end], "default", seg.score))
            start = end
    return out


def _grouped(text: str, pieces: list[Segment], longest: int) -> list[Segment]:
    """The consecutive ``pieces`` of one segment (:func:`_sentence_pieces`) joined while they hold no
    more than ``longest`` characters together: as many whole sentences a piece as that many hold.

    Where a group must end, it ends before the last 疏 head it holds after its first sentence (a
    head: the sentences that open a 疏, 「X」至「Y」。○注「A」至「B」。○釋曰…): the splitter reads a
    注疏 by its heads, each 疏 from its head on
    (:meth:`~pipeline.layers.seams.SplitPredictor.reads_by_heads`), and a group that opened inside
    a 疏 would have no head to open it."""
    from pipeline.layers.anchors import SHU_OPENING_RE, head_runs

    out: list[Segment] = []
    group: list[Segment] = []

    def close(upto: int) -> None:
        first, last = group[0], group[upto - 1]
        out.append(Segment(first.layer, first.start, last.end, text[first.start:last.end], first.evidence, first.score))
        del group[:upto]

    for piece in pieces:
        if group and piece.end - group[0].start > longest:
            opening = [a for a, _b in head_runs(k for k, p in enumerate(group) if SHU_OPENING_RE.match(p.text)) if a > 0]
            close(opening[-1] if opening else len(group))
            if group and piece.end - group[0].start > longest:
                close(len(group))
        group.append(piece)
    if group:
        close(len(group))
    return out


def _merge_pieces(text: str, segments: list[Segment], cut: set[tuple[int, int]]) -> list[Segment]:
    """Join consecutive pieces of one cut-up stretch that got the same layer (the lower score)."""
    out: list[Segment] = []
    for seg in segments:
        last = out[-1] if out else None
        if (last is not None and (last.start, last.end) in cut and (seg.start, seg.end) in cut
                and last.end == seg.start and last.layer == seg.layer):
            joined = Segment(seg.layer, last.start, seg.end, text[last.start:seg.end], seg.evidence, min(last.score, seg.score))
            out[-1] = joined
            cut.add((joined.start, joined.end))
        else:
            out.append(seg)
    return out


_SURROGATE = re.compile("[\ud800-\udfff]")


def _working_text(text: str) -> str:
    """``text`` itself, or a copy of the same length that every stage reads (every offset holds for
    the raw text): lone surrogates (possible only through the Python API: files and JSONL lines with
    them are refused when read) become U+FFFD, which the models and OpenCC can read, and an ASCII
    full stop after a Han character becomes 。, which the readers and the run-together splitter look
    for (a copy whose marks were made half-width)."""
    from pipeline.text.normalise import ASCII_STOP

    work = text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        work = _SURROGATE.sub("\ufffd", text)
    if "." in work and ASCII_STOP.search(work):
        work = ASCII_STOP.sub("。", work)
    return work


def undecided_layer(config: dict[str, Any]) -> Optional[str]:
    """``[layers] undecided_layer``: the layer the user gives the text no marker, anchor or layout
    decides (``yili process --layer``), or None (the layer model decides); checked here, once for all."""
    named = (config.get("layers") or {}).get("undecided_layer")
    if named and named not in LAYERS:
        raise ValueError(f"[layers] undecided_layer {named!r} is not one of {', '.join(LAYERS)}")
    return named or None


@dataclass
class _GivenBreaks:
    """Breaks already predicted for one text, behind the splitter interface of ``split_units``."""

    found: list
    #: how many of the text's boundaries a witness decided (a break or none)
    witness: int = 0

    def breaks(self, _text: str) -> list:
        return self.found


class _Without:
    """``nlp`` with one component switched off in :meth:`pipe` (the lexicon spans of a pipeline
    whose span model tags the 經 only)."""

    def __init__(self, nlp: Any, component: str):
        self.nlp = nlp
        self.component = component

    @property
    def pipeline(self) -> list:  # what spans_key reads
        return [(name, proc) for name, proc in self.nlp.pipeline if name != self.component]

    def pipe(self, texts: Any, batch_size: int = 64) -> Any:
        return self.nlp.pipe(texts, batch_size=batch_size, disable=[self.component])


@dataclass
class _Prepared:
    """A record after every stage before the tuples (:meth:`DocumentProcessor._prepare`)."""

    out: dict[str, Any]  # a copy of the record, to be completed
    text: str
    segments: list[Segment]
    removed: list[Removal]
    sentences: list[dict[str, Any]]
    clauses: list[dict[str, Any]]
    spans: list[dict[str, Any]]  # raw offsets, as tagged
    passages: list[Any]  # the 經 passages the tuples are read from
    tagged: list[bool]  # per passage: are its spans kept (its layer is tagged)


class DocumentProcessor:
    def __init__(self, config: Optional[dict[str, Any]] = None, splitter: Any = None):
        """``splitter``: a 斷句 model (a :class:`~pipeline.text.punctuate.Punctuator`) to use instead of
        the one ``[sentences]`` names — an evaluation gives one that never saw the chapter it scores."""
        self.config = config if config is not None else load_config()
        self._nlp = None
        self._nlp_lexicon = None
        self._extractor = None
        self._layer_model = None
        self._layer_model_error: Optional[str] = None
        self._splitter = splitter
        self._splitter_loaded = splitter is not None
        self._witness: Any = None  # a WitnessIndex
        self._witness_loaded = False
        #: seconds spent per stage over every document this processor has seen (for benchmarks)
        self.timings: Counter = Counter()

    # -- lazily built components --------------------------------------------------------------
    @property
    def nlp(self):
        if self._nlp is None:
            from pipeline.nlp import build_nlp

            self._nlp = build_nlp(self.config)
        return self._nlp

    @property
    def nlp_lexicon(self):
        """The tagger for layers outside ``[nlp] span_model_layers``: the learned span model was
        trained on 經 only, so the other layers get the lexicon's spans (and keep its speed). Those
        are read from the lexicon alone (:class:`~pipeline.nlp.ruler.LexiconSpans`: the ruler's
        spans without tokenizing), or, for a pipeline that is more than the ruler, come from the
        same pipeline with the model's component switched off."""
        if self._nlp_lexicon is None:
            from pipeline.nlp.ruler import lexicon_spans_of

            nlp = self.nlp
            off = ["span_model"] if "span_model" in nlp.pipe_names else []
            self._nlp_lexicon = lexicon_spans_of(nlp, off) or (_Without(nlp, "span_model") if off else nlp)
        return self._nlp_lexicon

    @property
    def extractor(self):
        if self._extractor is None:
            from pipeline.actions import ActionExtractor
            from pipeline.nlp.build import lexicon_dir
            from pipeline.nlp.lexicon import Lexicon

            # the lexicon of [paths] lexicon, as the tagger reads it: a term a user adds there is
            # a participant (or thing, or place) for the tuples too
            folder = lexicon_dir(self.config)
            settings = self.config.get("actions", {})
            self._extractor = ActionExtractor(lexicon=Lexicon.load(folder) if folder else None,
                                              scope=settings.get("scope", "passage"),
                                              model_names=bool(settings.get("model_names", False)))
        return self._extractor

    @property
    def splitter(self):
        """The learned 斷句 model for unpunctuated segments (None: rules)."""
        if not self._splitter_loaded:
            self._splitter_loaded = True
            settings = self.config.get("sentences", {})
            if settings.get("splitter") == "crf":
                from pipeline.text.punctuate import Punctuator

                self._splitter = Punctuator.load(settings.get("model"))
        return self._splitter

    @property
    def layer_model(self):
        settings = self.config.get("layers", {})
        if self._layer_model is None and settings.get("use_model", True):
            from pipeline.layers.runtime import load_model  # the runtime form: no scikit-learn

            self._layer_model = load_model(settings.get("model"))
            seams = getattr(self._layer_model, "splitter_", None)
            if seams is not None and settings.get("seam_breaks", True):
                # the one seam of a run whose shape the reader knows falls where the 斷句 model
                # would break (RunTogetherSplitter._best_single_cut): the model [sentences] uses
                from pipeline.text.punctuate import Punctuator

                seams.break_model_ = self.splitter if isinstance(self.splitter, Punctuator) else Punctuator.load(None)
            if self._layer_model is not None:
                self._layer_model.use_memory = bool(settings.get("document_memory", True))
        return self._layer_model

    @property
    def witness(self):
        """The editions ``[witness] paths`` names, read once: a :class:`~pipeline.text.collate.WitnessIndex`
        of their documents, or None."""
        if not self._witness_loaded:
            self._witness_loaded = True
            paths = (self.config.get("witness") or {}).get("paths") or []
            if paths:
                self.use_witness(paths)
        return self._witness

    def use_witness(self, paths: Optional[Sequence[str]]) -> None:
        """Collate the documents from now on with the editions ``paths`` names (None: no witness)."""
        from pipeline.text.collate import WitnessIndex

        self._witness = WitnessIndex(self.read_witness(paths)) if paths else None
        self._witness_loaded = True

    def read_witness(self, paths: Sequence[str]):
        """The witness of the files, folders or globs ``paths``: each document read into its layers
        as `yili process` reads it. A document that cannot be read fails, naming it and its line."""
        from pipeline.read.inputs import iter_inputs
        from pipeline.text.collate import Witness

        found = []
        for item in iter_inputs(paths):
            if item.error is not None:
                raise ValueError(f"witness {item.error}")
            record = item.record
            work = _working_text(record["text"])
            _layout, segments, removed = self.layers({**record, "text": work})
            found.append(Witness.from_segments(item.origin, work, segments, removed))
        if not found:
            raise ValueError(f"witness: no document in {', '.join(map(str, paths))}")
        return found

    def collate(self, text: str, segments: list[Segment], removed: list[Removal], work: Optional[str] = None,
                source: Optional[str] = None):
        """``segments`` with those the models decided cut to the witness's layers where it lines up
        with the document, and the collation (None without a witness, or where too little lines up).
        ``work``: the working copy the stages read (same offsets as ``text``); ``source``: the
        document's file, which is no witness of itself (a folder of editions named as witness)."""
        if self.witness is None:
            return segments, None
        from pipeline.text.collate import Collation

        own = _resolved(source) if source else None
        collation = Collation.of(work if work is not None else text, removed, self.witness,
                                 skip=(lambda w: _resolved(w.source) == own) if own is not None else None)
        if collation is None:
            return segments, None
        out: list[Segment] = []
        for seg in segments:
            if seg.evidence not in ("model", "default"):
                out.append(seg)
                continue
            for piece in collation.layers(text, seg):
                last = out[-1] if out else None
                if (last is not None and piece.evidence == last.evidence == "anchor" and piece.layer == last.layer
                        and piece.start == last.end):
                    # the model's pieces of a run, recut by the witness: 受篋服使者|出矦氏送 (注|經 by the
                    # model) is 受篋服|使者出矦氏送; one 經 segment, not two that a sentence end parts
                    size, more = last.end - last.start, piece.end - piece.start
                    out[-1] = Segment(last.layer, last.start, piece.end, text[last.start:piece.end], "anchor",
                                      round((last.score * size + piece.score * more) / (size + more), 3))
                else:
                    out.append(piece)
        return out, collation

    def preload(self) -> None:
        """Load every model the config asks for now, so that a missing model fails the run once, clearly."""
        from pipeline.nlp.ruler import LexiconSpans

        _ = self.nlp, self.nlp_lexicon, self.extractor, self.splitter, self.layer_model
        if self.witness is not None and sum(len(w.chars) for w in self.witness.witnesses) <= WITNESS_PRELOAD:
            for witness in self.witness.witnesses:
                _ = witness.grams  # found once, before any fork: the workers share them
        if "span_model" in self.nlp.pipe_names or not isinstance(self.nlp_lexicon, LexiconSpans):
            # some text will be tokenized: the backend's dictionary loaded once, before any fork
            warm_up = getattr(self.nlp.tokenizer, "warm_up", None)
            if warm_up is not None:
                warm_up()

    # -- the stages ---------------------------------------------------------------------------
    def layers(self, record: dict[str, Any]) -> tuple[str, list[Segment], list[Removal]]:
        text: str = record["text"]
        meta = record.get("meta") or {}
        given = meta.get("layer")
        if given:
            if given not in LAYERS:
                raise ValueError(f"meta.layer {given!r} is not one of {', '.join(LAYERS)}")
            return "record", [Segment(given, 0, len(text), text, "marker", 1.0)], []
        from pipeline.layers import segment_layers
        from pipeline.layers.classic import classic_layout, read_as_classic

        result = segment_layers(text, meta.get("source"))
        segments = result.segments
        named = undecided_layer(self.config)
        if named:  # the user names the layer of what the reader left undecided, as meta.layer does a record's
            # (not a run whose shape the reader knows, e.g. a 四庫 注 running into its 經: the splitter's)
            segments = [Segment(named, s.start, s.end, s.text, "marker", 1.0)
                        if s.evidence == "default" and s.shape is None else s for s in segments]
        elif (self.config.get("layers") or {}).get("classic_alone", True):
            # a copy of the classic without commentary (no gloss, no 今文/古文 in its text), read
            # as 經 rather than left to the model, which takes many of its paragraphs for 注
            classic = read_as_classic(segments)
            if classic is not None:
                return classic_layout(result.layout), classic, result.removed
        if any(s.evidence == "default" for s in segments) and self.layer_model is not None:
            if any(s.evidence == "default" and s.end - s.start > LONG_UNDECIDED for s in segments):
                # a stretch this long is no run-together line but a whole undecided text (a copy of
                # the 鄭注 whose 注 is not marked, a hard-wrapped one joined into its paragraphs, a
                # dump without line breaks): the splitter reads it a few sentences at a time, as long
                # as its cost stays bounded (classified a sentence at a time, with no splitter, the
                # 鄭注 on one line had 0.54 of its characters right unpunctuated, 0.70 punctuated;
                # split so, 0.80 and 0.89: dev chapters, fold models); a larger dump is classified
                # a sentence at a time
                undecided = sum(s.end - s.start for s in segments if s.evidence == "default")
                split = undecided <= SPLIT_BUDGET
                pieces = [p for seg in segments
                          for p in (_grouped(text, _sentence_pieces(text, seg, SPLIT_PIECE), SPLIT_PIECE) if split
                                    else _sentence_pieces(text, seg))]
                cut = {(p.start, p.end) for p in pieces} - {(seg.start, seg.end) for seg in segments}
                resolved = self.layer_model.resolve_segments(text, pieces, result.removed, **({} if split else {"splitter": None}))
                segments = _merge_pieces(text, resolved, cut)
            else:
                layout, segments = self._resolve_lines(text, result, segments)
                return layout, segments, result.removed
        return result.layout, segments, result.removed

    def _resolve_lines(self, text: str, result: Any, segments: list[Segment]) -> tuple[str, list[Segment]]:
        """The layout and the undecided segments decided by the layer model; in a plain text, decided
        again as its lines show them written (:mod:`pipeline.layers.plain_lines`): a line per 經 and
        its 注 (the 注 unmarked) each in that shape (``[layers] pair_lines``; layout ``pair-lines``), a
        unit a line each line whole (``[layers] unit_lines``; layout ``unit-lines``); a line per 經,
        its 注 and its 疏 read 疏 from its 疏 head on, before it the 經 the head cites and its 注 (else
        the pair shape) (``[layers] shu_lines``; layout ``pair-shu-lines``)."""
        from pipeline.layers import plain_lines as pl
        from pipeline.layers.classic import is_plain, plain_named

        resolved = self.layer_model.resolve_segments(text, segments, result.removed)
        if not is_plain(result.layout):
            return result.layout, resolved
        settings = self.config.get("layers") or {}
        lines = pl.undecided_lines(segments)
        layers = pl.line_layers(lines, resolved)
        pairs = settings.get("pair_lines", True) and pl.reads_as_pairs(layers)
        shaped = pl.as_pairs(segments, lines, layers) if pairs else segments
        tails = pl.shu_tails(text, lines, layers) if settings.get("shu_lines", True) else {}
        if pl.reads_with_shu(lines, tails):
            return plain_named(result.layout, pl.SHU_LAYOUT), self.layer_model.resolve_segments(
                text, pl.with_shu(text, shaped, tails, resolved), result.removed)
        if pairs:
            return plain_named(result.layout, pl.PAIRS_LAYOUT), self.layer_model.resolve_segments(text, shaped, result.removed)
        if settings.get("unit_lines", True) and pl.reads_as_units(layers):
            return plain_named(result.layout, pl.UNITS_LAYOUT), self.layer_model.resolve_segments(
                text, segments, result.removed, splitter=None)
        return result.layout, resolved

    def process(self, record: dict[str, Any], names: Iterable[str] = ()) -> dict[str, Any]:
        """One record through every stage. ``names``: participants the record's document calls so
        elsewhere (:meth:`document_names` of its other passages), for a record that is one passage
        of a longer document."""
        return self._finish(self._prepare(record), names)

    def process_document(self, records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """``records`` that are the passages of one document (a chapter's gold passages), each
        processed as :meth:`process` does, with the names the whole document gives (as `yili
        process` reads the chapter's file: a name the lexicon lacks, read in one passage or from
        the clause openings of all, holds in every passage)."""
        prepared = [self._prepare(record) for record in records]
        names = self.extractor.document_names([p for prep in prepared for p in prep.passages])
        return [self._finish(prep, names) for prep in prepared]

    def document_names(self, records: Sequence[dict[str, Any]]) -> frozenset[str]:
        """The names the passages of ``records`` (one document) give, for :meth:`process`. A record
        that cannot be read gives none (:meth:`process_item` says why when its turn comes)."""
        passages = []
        for record in records:
            try:
                passages.extend(self._prepare(record).passages)
            except Exception:  # noqa: BLE001 - its own error is written with it, not here
                continue
        return self.extractor.document_names(passages)

    def _prepare(self, record: dict[str, Any]) -> "_Prepared":
        """Every stage before the tuples: layers, views, sentences, clauses, tagged spans, passages."""
        from pipeline.actions import Passage
        from pipeline.actions.rites import corpse_ranges, corpse_spans
        from pipeline.read.inputs import record_fault
        from pipeline.text.normalise import segment_view
        from pipeline.text.sentences import split_units
        from pipeline.text.view import overlapping

        fault = record_fault(record)
        if fault is not None:  # yili process has said so for its lines; a caller of the API is told here
            raise ValueError(fault)
        clock = time.perf_counter
        t0 = clock()
        out = copy.deepcopy(record)
        text: str = record["text"]
        work = _working_text(text)
        if work is text:
            layout, segments, removed = self.layers(record)
        else:  # the stages read the working copy (U+FFFD, 。); offsets are the same, texts the raw ones
            layout, segments, removed = self.layers({**record, "text": work})
            segments = [Segment(s.layer, s.start, s.end, text[s.start:s.end], s.evidence, s.score, s.shape) for s in segments]
        source = (record.get("meta") or {}).get("source") if isinstance(record.get("meta"), dict) else None
        decided = segments
        segments, collation = self.collate(text, segments, removed, work, source)
        t1 = clock()
        self.timings["layers"] += t1 - t0
        meta = out.get("meta")
        if isinstance(meta, dict) and "encoding" in meta and layout != "record":  # a whole file we read
            meta.setdefault("layout", layout)
        if collation is not None:  # which edition lent its 斷句 and layers, and to how much of the text
            if not isinstance(meta, dict):
                meta = out["meta"] = {}
            meta["witness"] = {"sources": collation.sources(), "share": round(collation.share, 4),
                               # characters whose layer the witness's edition decided, the model had
                               "layer_chars": _anchored(segments) - _anchored(decided)}
        drop = sorted((r.start, r.end) for r in removed)
        dead = corpse_ranges(text, record.get("meta"))  # 士喪禮, 既夕禮: 尸 is the corpse there
        tag_layers = set(self.config.get("nlp", {}).get("tag_layers", ["JING", "ZHU", "SHU"]))
        action_layers = set(self.config.get("actions", {}).get("layers", ["JING"]))

        sentences: list[dict[str, Any]] = []
        clauses: list[dict[str, Any]] = []
        spans: list[dict[str, Any]] = []
        passages: list[Passage] = []
        t1 = clock()
        views = [(seg, segment_view(work, seg.start, seg.end, overlapping(drop, seg.start, seg.end))) for seg in segments]
        views = [(seg, view) for seg, view in views if view.text]
        t2 = clock()
        self.timings["normalise"] += t2 - t1
        given = self._breaks(views, collation)
        if collation is not None:  # boundaries of the unpunctuated text the witness decided, its breaks or none
            meta["witness"]["boundaries"] = sum(g.witness for g in given.values())
        t3 = clock()
        self.timings["sentences"] += t3 - t2
        wanted = [n for n, (seg, _view) in enumerate(views) if seg.layer in tag_layers or seg.layer in action_layers]
        tagged: dict[int, list[tuple[int, int, str]]] = {}
        for nlp, chosen in self._taggers(wanted, [seg.layer for seg, _view in views]):
            tagged.update(zip(chosen, self._tag_many([views[n][1].text for n in chosen], nlp)))
        self.timings["tagging"] += clock() - t3
        for n, (seg, view) in enumerate(views):
            t2 = clock()
            sents, clas = split_units(view.text, given.get(n))
            t3 = clock()
            self.timings["sentences"] += t3 - t2
            for s, e in sents:
                rs, re_ = view.to_raw(s, e)
                sentences.append({"start": rs, "end": re_, "layer": seg.layer})
            for s, e in clas:
                rs, re_ = view.to_raw(s, e)
                clauses.append({"start": rs, "end": re_, "layer": seg.layer})
            if n not in tagged:
                continue
            seg_spans = tagged[n]
            corpse = any(start <= seg.start < end for start, end in dead)
            if corpse:
                seg_spans = corpse_spans(view.text, seg_spans, self.extractor.normalise)
            if seg.layer in tag_layers:
                for s, e, label in seg_spans:
                    rs, re_ = view.to_raw(s, e)
                    spans.append({"start": rs, "end": re_, "label": label, "text": text[rs:re_]})
            if seg.layer in action_layers:
                quoted = collation.quoted(view.starts, view.text) if collation is not None and n in given else []
                passages.append(Passage(view=view, sentences=sents, clauses=clas, spans=seg_spans, quoted=quoted,
                                        corpse=corpse))
        tagged_passages = [seg.layer in tag_layers for seg, _ in views if seg.layer in action_layers]
        return _Prepared(out, text, segments, removed, sentences, clauses, spans, passages, tagged_passages)

    def _finish(self, prep: "_Prepared", names: Iterable[str] = ()) -> dict[str, Any]:
        """The tuples of a prepared record and its spans refined by them: the output record."""
        out, text, passages, spans = prep.out, prep.text, prep.passages, prep.spans
        t4 = time.perf_counter()
        reading = self.extractor.read(passages, names) if passages else None
        actions: list[Action] = reading.actions if reading else []
        self.timings["actions"] += time.perf_counter() - t4

        if passages:
            from pipeline.actions.spans import refine_passages

            acted_only = self.config.get("actions", {}).get("verb_spans", "acts") == "acts"
            spans = refine_passages(text, spans, passages, prep.tagged, actions, acted_verbs_only=acted_only,
                                    speech=reading.speech, names=reading.names)

        out["segments"] = [s.to_dict() for s in prep.segments]
        out["sentences"] = prep.sentences
        out["clauses"] = prep.clauses
        out["spans"] = spans
        out["actions"] = [a.to_dict() for a in actions]
        out["removed"] = [r.to_dict() for r in prep.removed]
        return out

    def _breaks(self, views: list, collation: Any = None) -> dict[int, "_GivenBreaks"]:
        """The 斷句 of every unpunctuated 經/注/疏 view of a document, in one batch (the model is
        much faster on many texts at once), each with its layer's features; where a punctuated
        witness lines up with the view, its breaks instead. Index → splitter."""
        from pipeline.text.sentences import is_punctuated

        wanted = [n for n, (seg, view) in enumerate(views) if seg.layer != "OTHER" and not is_punctuated(view.text)]
        if not wanted or self.splitter is None:
            return {}
        found = self.splitter.breaks_many([views[n][1].text for n in wanted], [views[n][0].layer for n in wanted])
        if self.config.get("sentences", {}).get("shu_quotations", True):
            found = self._with_quotations(views, wanted, found)
        if collation is None:
            return {n: _GivenBreaks(b) for n, b in zip(wanted, found)}
        given: dict[int, _GivenBreaks] = {}
        for n, breaks in zip(wanted, found):
            decided = collation.breaks(views[n][1].starts, views[n][1].text)
            given[n] = _GivenBreaks(self._with_witness(breaks, decided), len(decided))
        return given

    @staticmethod
    def _with_witness(breaks: list, decided: dict) -> list:
        """``breaks`` where the witness is silent; where it speaks (``decided``: position → its break
        kind, None for no break), a break where it has one (of the model's kind where the model breaks
        there too) and none where it has none."""
        from pipeline.text.sentences import Break

        if not decided:
            return breaks
        # where the model breaks too, its kind stays: the model's sentence kinds were chosen for the
        # tuples (pipeline/text/sentence_kind.py); the editor's 。 against ， moved them −0.2 point
        model_kind = {b.pos: b.kind for b in breaks}
        kept = [b for b in breaks if b.pos not in decided]
        kept.extend(Break(pos, model_kind.get(pos, kind)) for pos, kind in decided.items() if kind is not None)
        return sorted(kept, key=lambda b: b.pos)

    @staticmethod
    def _with_quotations(views: list, wanted: list[int], found: list[list]) -> list[list]:
        """The model's breaks plus a clause break where a later 疏 of the document quotes the
        經/注 text from there on (pipeline/text/quotations.py); a break the model has is kept."""
        from pipeline.text.quotations import quotation_breaks
        from pipeline.text.sentences import Break

        if not any(seg.layer == "SHU" for seg, _view in views):
            return found
        quoted = quotation_breaks([view.text for _seg, view in views], [seg.layer for seg, _view in views])
        out = []
        for n, breaks in zip(wanted, found):
            have = {b.pos for b in breaks}
            extra = [Break(pos, "clause") for pos in quoted[n] if pos not in have]
            out.append(sorted(breaks + extra, key=lambda b: b.pos) if extra else breaks)
        return out

    def _taggers(self, wanted: list[int], layers: list[str]) -> list[tuple[Any, list[int]]]:
        """Which tagger tags which of the ``wanted`` views: all by ``nlp_lexicon`` when there is no
        span model; else the layers of ``[nlp] span_model_layers`` by ``nlp`` and the rest by
        ``nlp_lexicon``."""
        if "span_model" not in self.nlp.pipe_names:
            return [(self.nlp_lexicon, wanted)] if wanted else []
        model_layers = set(self.config.get("nlp", {}).get("span_model_layers") or ["JING", "ZHU", "SHU", "OTHER"])
        split = [(self.nlp, [n for n in wanted if layers[n] in model_layers]),
                 (self.nlp_lexicon, [n for n in wanted if layers[n] not in model_layers])]
        return [(nlp, chosen) for nlp, chosen in split if chosen]

    def _tag_many(self, texts: list[str], nlp=None) -> list[list[tuple[int, int, str]]]:
        """(start, end, label) of the spans of every text, in text order: from the lexicon alone
        (:class:`~pipeline.nlp.ruler.LexiconSpans`), or through ``nlp.pipe``, where a component with
        a ``pipe`` method (a learned model) scores the document's segments in batches."""
        from pipeline.nlp.build import spans_key
        from pipeline.nlp.ruler import LexiconSpans

        nlp = nlp if nlp is not None else self.nlp
        # a text written again (a web copy's doubled paragraph, 如初 passages, a dump of one chapter
        # many times over) is tagged once: its spans are the first copy's
        distinct = list(dict.fromkeys(texts))
        if isinstance(nlp, LexiconSpans):
            tagged = {text: nlp(text) for text in distinct}
        else:
            key = spans_key(nlp)
            tagged = {text: [] for text in distinct}
            todo = [text for text in distinct if text]
            for text, doc in zip(todo, nlp.pipe(todo, batch_size=64)):
                spans = doc.spans[key] if key in doc.spans else []
                tagged[text] = sorted((s.start_char, s.end_char, s.label_) for s in spans)
        return [list(tagged[text]) for text in texts]

    @staticmethod
    def error_record(item: InputItem, message: Optional[str] = None) -> dict[str, Any]:
        out = dict(item.record)
        out["error"] = message or item.error
        return out

    def process_item(self, item: InputItem) -> dict[str, Any]:
        """Like :meth:`process`, but a failure gives the record with an ``error`` field, never an exception."""
        if item.error is not None:
            return self.error_record(item)
        try:
            return self.process(item.record, item.names)
        except Exception as exc:  # one bad document never stops the run
            return self.error_record(item, f"{item.origin}: {type(exc).__name__}: {exc}")


def _anchored(segments: Sequence[Segment]) -> int:
    """How many characters of ``segments`` an anchor decided."""
    return sum(s.end - s.start for s in segments if s.evidence == "anchor")


@lru_cache(maxsize=4096)
def _resolved(source: str) -> str:
    """A file's path made absolute (a source named two ways is one file); any other source as it is.
    Asked for every witness of every document: remembered."""
    try:
        path = Path(source)
        return str(path.resolve()) if path.is_file() else source
    except (OSError, ValueError):
        return source


def stats_from_record(out: dict[str, Any]) -> Stats:
    """The summary of one output record (also of one read back from a previous run)."""
    meta = out.get("meta") if isinstance(out.get("meta"), dict) else {}
    text = out.get("text")
    stats = Stats(
        source=str(meta.get("source", "")),
        layout=str(meta.get("layout", "record" if "segments" in out else "")),
        encoding=str(meta.get("encoding", "")),
        chars=len(text) if isinstance(text, str) else 0,
        error=out.get("error"),
    )
    for seg in out.get("segments", []):
        stats.segments[seg["layer"]] += 1
        stats.evidence[seg["evidence"]] += 1
    for span in out.get("spans", []):
        stats.spans[span["label"]] += 1
    witness = meta.get("witness")
    if isinstance(witness, dict) and isinstance(witness.get("share"), (int, float)):
        stats.witness_share = float(witness["share"])
        stats.witness_decided = sum(int(witness.get(k) or 0) for k in ("layer_chars", "boundaries"))
    stats.sentences = len(out.get("sentences", []))
    stats.actions = len(out.get("actions", []))
    return stats
