"""斷句: restore clause and sentence breaks in unpunctuated 經, 注 and 疏.

A linear-chain CRF labels each character with what followed it in a punctuated edition: ``N``
nothing, ``C`` a clause mark (，、：︰), ``S`` a sentence mark (。？！；, and ○, which opens a new
part of a 疏). Quotation marks, brackets and the interpuncts of book titles (‧．·) are not breaks:
a quotation starts wherever its own clause starts, and the colon before it (曰︰「…」) is the break
when the editor wrote one.

Features per character boundary (between char *i* and *i+1*), all on the normalised form
(:func:`pipeline.text.normalise.normalise_str`, so traditional, simplified and variant forms read
alike): the characters in a ±``window`` window, the character bigrams and trigrams around the
boundary, whether a ritual-lexicon term (``configs/lexicon``: ACTOR, VERB, OBJECT, LOCATION, FACING)
ends at *i*, starts at *i+1* or runs across the boundary, the first and last boundaries of the
text, and the layer (經/注/疏) crossed with the characters at the boundary. Function words (也 矣 焉
曰 者 之 而 以 于 …) need no list of their own: their unigram and n-gram features carry them.

crfsuite (``pycrfsuite``, installed with sklearn-crfsuite) trains the model; prediction does not
use it: :class:`~pipeline.text.crf_runtime.CompiledCRF` holds the same weights as arrays and scores all features of all
positions with numpy, which is several times faster than building crfsuite's feature strings.
The model folder is self-contained: the lexicon terms it was trained with are saved beside the
weights, so editing ``configs/lexicon`` later does not silently change what an old model sees.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional, Sequence

from pipeline.text.break_features import LAYER_NAMES, LexiconMarks, boundary_features, ngram_templates
from pipeline.text.crf_runtime import CompiledCRF
from pipeline.text.marks import CLAUSE_MARKS, SENTENCE_MARKS, Stripped, strip_marks
from pipeline.text.normalise import normalise_str
from pipeline.text.sentences import Break  # (pos, kind): a new unit starts at ``pos``; kind "clause" / "sentence"

#: The file names inside a model folder.
MODEL_FILE = "weights.npz"
LSTM_FILE = "lstm.npz"  # the BiLSTM beside the CRF, only in models trained with lstm_weight > 0
SETTINGS_FILE = "settings.json"
CARD_FILE = "MODEL_CARD.md"
REBUILD_COMMAND = "yili train punctuate"
LSTM_REBUILD_COMMAND = "python -m pipeline.text.punctuate_lstm"  # models/punctuate-lstm (CRF + BiLSTM)
FORMAT_VERSION = 1

LABELS = ("N", "C", "S")
KINDS = {"C": "clause", "S": "sentence"}


class ModelError(RuntimeError):
    """The 斷句 model cannot be loaded: the message names the path and the command that rebuilds it."""


def default_model_dir() -> Path:
    """``models/punctuate`` of the checkout, else the copy installed inside the package."""
    from pipeline.config import shipped

    return shipped("models/punctuate")


# -- the model --------------------------------------------------------------------------------


class Punctuator:
    """Restores clause and sentence breaks; a CRF over character windows (see the module doc).

    Settings (scikit-learn style, nothing learned here): ``window`` characters each side of a
    boundary; ``c1`` / ``c2`` the L1 / L2 penalties and ``max_iterations`` of crfsuite's L-BFGS;
    ``use_lexicon`` the ritual-lexicon features (terms from ``lexicon_dir``, default
    ``configs/lexicon``, or the normalised ``lexicon_terms`` given: a model trained again with the
    terms of another, so that an edit of the lexicon does not move its cuts); ``use_layer`` the
    經/注/疏 features; ``lexicon_pairs`` the lexicon labels on both sides of a boundary
    (:class:`LexiconMarks`; off in models saved before it existed); ``jing_repeat`` how many times
    the CRF sees each 經 text (the 經 is an eighth of the characters and reads unlike the
    commentaries: 3 gave held-out 經 +0.8 to +1.3 points on three chapter folds). The defaults were chosen on three
    chapters held out of training (05, 11, 14): a stronger L1 penalty with 60 iterations gives the
    F1 of 100 iterations at half the training time and a smaller model.

    ``break_bias`` is taken from the score of "no break" before decoding: given the layer, the CRF
    finds fewer breaks than the editor made (precision 0.83, recall 0.72), and trading a little
    precision for recall raises F1 at no cost in speed. Without the layer it finds too many
    already (precision 0.68, recall 0.81), so there the bias is not applied. ``sentence_kinds``: the
    kind (sentence or clause) of each break in the 經 decided again from the clauses on both sides
    (:mod:`pipeline.text.sentence_kind`; off in models saved before it existed). ``lstm_weight`` > 0 trains a character BiLSTM
    (:mod:`pipeline.text.punctuate_lstm`, ``lstm_epochs``) beside the CRF and adds that many times
    its log-probabilities to the CRF's scores: better, but several times slower.
    """

    def __init__(
        self,
        window: int = 4,
        c1: float = 0.2,
        c2: float = 0.005,
        max_iterations: int = 60,
        use_lexicon: bool = True,
        use_layer: bool = True,
        lexicon_dir: Optional[str] = None,
        lexicon_terms: Optional[dict] = None,
        lexicon_pairs: bool = True,
        jing_repeat: int = 3,
        break_bias: float = 0.8,
        sentence_kinds: bool = True,
        lstm_weight: float = 0.0,
        lstm_epochs: int = 8,
    ):
        self.window = window
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.use_lexicon = use_lexicon
        self.use_layer = use_layer
        self.lexicon_dir = lexicon_dir
        self.lexicon_terms = lexicon_terms
        self.lexicon_pairs = lexicon_pairs
        self.jing_repeat = max(1, int(jing_repeat))
        self.break_bias = break_bias
        self.sentence_kinds = sentence_kinds
        self.lstm_weight = lstm_weight
        self.lstm_epochs = lstm_epochs

    def get_params(self) -> dict:
        names = ("window", "c1", "c2", "max_iterations", "use_lexicon", "use_layer", "lexicon_dir", "lexicon_terms", "lexicon_pairs",
                 "jing_repeat", "break_bias", "sentence_kinds", "lstm_weight", "lstm_epochs")
        return {k: getattr(self, k) for k in names}

    # -- features -----------------------------------------------------------------------------
    def _lexicon(self) -> Optional[LexiconMarks]:
        if not self.use_lexicon:
            return None
        if getattr(self, "lexicon_terms_", None) is None:
            from pipeline.nlp.lexicon import Lexicon

            lex = Lexicon.load(Path(self.lexicon_dir) if self.lexicon_dir else None)
            self.lexicon_terms_ = lex.normalised(normalise_str)
        if getattr(self, "_marks", None) is None:
            self._marks = LexiconMarks(self.lexicon_terms_, pairs=self.lexicon_pairs)
        return self._marks

    def features(self, chars: str, layer: Optional[str] = None) -> list[list[str]]:
        """Features of each boundary of ``chars`` (unpunctuated, not yet normalised)."""
        return boundary_features(
            normalise_str(chars), layer if self.use_layer else None, self.window, self._lexicon()
        )

    # -- learning -----------------------------------------------------------------------------
    def fit(self, texts: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None) -> "Punctuator":
        """Learn where the marks of the punctuated ``texts`` are (``layers``: JING/ZHU/SHU per text)."""
        import pycrfsuite

        layers = list(layers) if layers is not None else [None] * len(texts)
        if len(layers) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(layers)} layers")
        self.lexicon_terms_ = self.lexicon_terms
        self._marks = None
        trainer = pycrfsuite.Trainer(verbose=False)
        chars = 0
        counts = {label: 0 for label in LABELS}
        for text, layer in zip(texts, layers):
            st = strip_marks(text)
            if len(st.chars) < 2:
                continue
            feats = self.features(st.chars, layer)
            for _ in range(self.jing_repeat if layer == "JING" else 1):
                trainer.append(feats, st.labels)
            chars += len(st.chars)
            for label in st.labels[:-1]:
                counts[label] += 1
        if not chars:
            raise ValueError("no text to learn from: every text is empty or shorter than two characters")
        trainer.set_params(
            {"c1": self.c1, "c2": self.c2, "max_iterations": self.max_iterations, "feature.possible_transitions": True}
        )
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "model.crfsuite"
            trainer.train(str(path))
            tagger = pycrfsuite.Tagger()
            tagger.open(str(path))
            self.crf_ = CompiledCRF.from_tagger(tagger)
            tagger.close()
            self.crfsuite_bytes_ = path.read_bytes()  # kept in memory to check the compiled scorer
        last = trainer.logparser.last_iteration or {}
        self.training_ = {
            "texts": len(texts),
            "chars": chars,
            "boundaries": counts,
            "iterations": last.get("num"),
            "active_features": last.get("active_features"),
            "loss": last.get("loss"),
        }
        self.kinds_ = self._fit_kinds(texts, layers) if self.sentence_kinds else None
        self.lstm_ = None
        if self.lstm_weight:
            from pipeline.text.punctuate_lstm import LSTMTagger

            data = []
            for text, layer in zip(texts, layers):
                st = strip_marks(text)
                if len(st.chars) >= 2:
                    data.append((normalise_str(st.chars), st.labels, layer if self.use_layer else None))
            self.lstm_ = LSTMTagger(epochs=self.lstm_epochs).fit(data)
            self.training_["lstm"] = self.lstm_.training_
        return self

    def _fit_kinds(self, texts: Sequence[str], layers: Sequence[Optional[str]]):
        """The 經's sentence-or-clause model (:class:`~pipeline.text.sentence_kind.SentenceKinds`)
        on the 經 texts' own breaks; None when there is no 經 with both kinds to learn from."""
        from pipeline.text.sentence_kind import SentenceKinds

        jing = [strip_marks(text) for text, layer in zip(texts, layers) if layer == "JING"]
        jing = [st for st in jing if len(st.chars) >= 2]
        self._lexicon()
        actors = (getattr(self, "lexicon_terms_", None) or {}).get("ACTOR", [])
        try:
            return SentenceKinds(actors=actors).fit([normalise_str(st.chars) for st in jing], [st.labels for st in jing])
        except ValueError:
            return None

    # -- prediction ---------------------------------------------------------------------------
    def _check(self) -> None:
        if getattr(self, "crf_", None) is None:
            raise ModelError(f"this Punctuator is not fitted; call fit() or load a model (`{REBUILD_COMMAND}`)")

    def predict_labels(self, chars: str, layer: Optional[str] = None) -> list[str]:
        """``N``/``C``/``S`` after each character of an unpunctuated string of text characters."""
        return self.predict_labels_many([chars], [layer])[0]

    def predict_labels_many(
        self, strings: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None
    ) -> list[list[str]]:
        """:meth:`predict_labels` of many strings, scored together per layer (much faster for many
        short texts than one call each)."""
        import numpy as np

        self._check()
        layers = list(layers) if layers is not None else [None] * len(strings)
        crf, lexicon = self.crf_, self._lexicon()
        out: list[list[str]] = [[] for _ in strings]
        groups: dict[Optional[str], list[int]] = {}
        for i, (chars, layer) in enumerate(zip(strings, layers)):
            if chars:
                groups.setdefault(layer if self.use_layer and layer in LAYER_NAMES else None, []).append(i)
        for layer, members in groups.items():
            normalised = [normalise_str(strings[i]) for i in members]
            templates = ngram_templates(self.window, layer)
            scored = crf.scores_many(normalised, templates, layer, lexicon)
            lstm = getattr(self, "lstm_", None)
            if lstm is not None and self.lstm_weight:
                from pipeline.text.punctuate_lstm import LABEL_IDS

                columns = [LABEL_IDS[label] for label in crf.labels]
                logp = lstm.log_probs(normalised, [layer] * len(normalised))
                scored = [scores + self.lstm_weight * lp[:, columns] for scores, lp in zip(scored, logp)]
            if self.break_bias and layer is not None:  # without the layer it already over-predicts
                shift = np.array([-self.break_bias if label == "N" else 0.0 for label in crf.labels])
                scored = [scores + shift for scores in scored]
            kinds = getattr(self, "kinds_", None) if layer == "JING" else None
            for i, text, scores in zip(members, normalised, scored):
                out[i] = crf.decode(scores)
                if kinds is not None:
                    out[i] = kinds.relabel(text, out[i])
        return out

    def breaks(self, text: str, layer: Optional[str] = None) -> list[Break]:
        """The clause and sentence breaks of ``text`` (meant for unpunctuated text, e.g. a view's text).

        Spaces, line breaks, quotes and other marks are skipped when reading; marks that make a
        break (。，…) are kept as breaks and the model fills in the boundaries between them.
        ``pos`` is the index right after the unit's last character (after its mark, if any); no
        break is reported at the end of the text.
        """
        return self.breaks_many([text], [layer])[0]

    def for_layer(self, layer: Optional[str]) -> "LayerPunctuator":
        """This model with the layer fixed: an object with ``.breaks(text)``, the splitter interface
        of :func:`pipeline.text.sentences.split_units`. Without the layer, breaks F1 drops by
        about three points (see the evaluation)."""
        return LayerPunctuator(self, layer)

    def breaks_many(self, texts: Sequence[str], layers: Optional[Sequence[Optional[str]]] = None) -> list[list[Break]]:
        """:meth:`breaks` of many texts at once (e.g. all unpunctuated segments of a document)."""
        stripped = [strip_marks(text) for text in texts]
        predicted = self.predict_labels_many([st.chars for st in stripped], layers)
        return [_breaks_of(st, guess) for st, guess in zip(stripped, predicted)]

    def punctuate(self, text: str, layer: Optional[str] = None, clause: str = "，", sentence: str = "。") -> str:
        """``text`` with a mark written at each predicted break (for reading and review)."""
        parts: list[str] = []
        pos = 0
        for b in self.breaks(text, layer):
            if pos < b.pos:
                parts.append(text[pos : b.pos])
                pos = b.pos
            if not (b.pos > 0 and (text[b.pos - 1] in SENTENCE_MARKS or text[b.pos - 1] in CLAUSE_MARKS)):
                parts.append(clause if b.kind == "clause" else sentence)
        parts.append(text[pos:])
        return "".join(parts)

    # -- persistence --------------------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_marks"] = None  # rebuilt from lexicon_terms_ on first use
        state.pop("crfsuite_bytes_", None)  # only for checking right after fit; large
        return state

    def crfsuite_labels(self, chars: str, layer: Optional[str] = None) -> list[str]:
        """The labels crfsuite itself gives (only right after :meth:`fit`): the reference that
        :class:`CompiledCRF` must reproduce."""
        import pycrfsuite

        if getattr(self, "crfsuite_bytes_", None) is None:
            raise ModelError("the crfsuite model is only kept in memory after fit()")
        tagger = pycrfsuite.Tagger()
        tagger.open_inmemory(self.crfsuite_bytes_)
        try:
            return list(tagger.tag(self.features(chars, layer)))
        finally:
            tagger.close()

    def save(self, folder: Path) -> Path:
        """Write the weights (``weights.npz``) and the settings (``settings.json``) to ``folder``."""
        import numpy as np

        self._check()
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self._lexicon()  # the terms the model was trained with are saved with it
        with open(folder / MODEL_FILE, "wb") as fh:
            np.savez_compressed(fh, **self.crf_.to_arrays())
        if getattr(self, "lstm_", None) is not None:
            with open(folder / LSTM_FILE, "wb") as fh:
                np.savez_compressed(fh, **self.lstm_.to_arrays())
        settings = {
            "format": FORMAT_VERSION,
            "params": {k: v for k, v in self.get_params().items() if k != "lexicon_terms"},  # saved below
            "lexicon_terms": getattr(self, "lexicon_terms_", None),
            "training": getattr(self, "training_", None),
            "lstm": self.lstm_.get_params() if getattr(self, "lstm_", None) is not None else None,
            "sentence_kinds": self.kinds_.to_dict() if getattr(self, "kinds_", None) is not None else None,
        }
        (folder / SETTINGS_FILE).write_text(json.dumps(settings, ensure_ascii=False, indent=1), encoding="utf-8")
        return folder

    @classmethod
    def load(cls, folder: Optional[Path] = None) -> "Punctuator":
        """The model saved in ``folder`` (default: :func:`default_model_dir`).

        A missing or unreadable model raises :class:`ModelError` naming the path and the command
        that rebuilds it.
        """
        import numpy as np

        from pipeline.config import model_path

        folder = model_path(folder) if folder is not None else default_model_dir()
        model_path, settings_path = folder / MODEL_FILE, folder / SETTINGS_FILE
        for path in (model_path, settings_path):
            if not path.is_file():
                raise ModelError(f"斷句 model not found: {path}; rebuild it with `{REBUILD_COMMAND}`")
        command = REBUILD_COMMAND
        try:
            settings = json.loads(settings_path.read_text(encoding="utf-8"))
            if settings.get("format") != FORMAT_VERSION:
                raise ValueError(f"format {settings.get('format')!r}, expected {FORMAT_VERSION}")
            model = cls(**{"lexicon_pairs": False, "jing_repeat": 1, "sentence_kinds": False, **settings["params"]})  # older models
            if model.lstm_weight:
                command = LSTM_REBUILD_COMMAND
            model.lexicon_terms_ = settings.get("lexicon_terms")
            if model.use_lexicon and not model.lexicon_terms_:
                raise ValueError("the settings hold no lexicon terms")
            model.training_ = settings.get("training")
            model.kinds_ = None
            if model.sentence_kinds and settings.get("sentence_kinds"):
                from pipeline.text.sentence_kind import SentenceKinds

                model.kinds_ = SentenceKinds.from_dict(settings["sentence_kinds"])
            with np.load(model_path, allow_pickle=False) as arrays:
                model.crf_ = CompiledCRF.from_arrays(arrays)
            model.lstm_ = None
            if model.lstm_weight:
                from pipeline.text.punctuate_lstm import LSTMTagger

                if not (folder / LSTM_FILE).is_file():
                    raise FileNotFoundError(f"{folder / LSTM_FILE} is missing")
                with np.load(folder / LSTM_FILE, allow_pickle=False) as arrays:
                    model.lstm_ = LSTMTagger.from_arrays(arrays, settings.get("lstm") or {})
            if sorted(model.crf_.labels) != sorted(LABELS):
                raise ValueError(f"labels {model.crf_.labels}, expected {list(LABELS)}")
            model._marks = None
        except ModuleNotFoundError as exc:
            if exc.name != "torch":
                raise
            raise ModelError(
                f"斷句 model in {folder} has a BiLSTM, which needs torch (not installed): "
                "`pip install torch==2.13.0` (CPU), or leave `[sentences] model` unset for the CRF model"
            ) from exc
        except Exception as exc:  # truncated, corrupt or foreign files
            raise ModelError(
                f"斷句 model in {folder} cannot be read ({type(exc).__name__}: {exc}); rebuild it with `{command}`"
            ) from exc
        return model


@dataclass(frozen=True)
class LayerPunctuator:
    """A :class:`Punctuator` bound to one layer (see :meth:`Punctuator.for_layer`)."""

    model: Punctuator
    layer: Optional[str]

    def breaks(self, text: str) -> list[Break]:
        return self.model.breaks(text, self.layer)


def _breaks_of(st: Stripped, predicted: Sequence[str]) -> list[Break]:
    """Breaks from the marks a text has and the labels predicted for its characters."""
    out: list[Break] = []
    last = len(st.chars) - 1
    for i, (marked, guess) in enumerate(zip(st.labels, predicted)):
        if i == last:
            break  # the end of the text ends its last unit anyway
        label = marked if marked != "N" else guess
        if label == "N":
            continue
        pos = st.mark_end[i] if marked != "N" else st.index[i] + 1
        out.append(Break(pos, KINDS[label]))
    return out


# -- training data and the shipped model ------------------------------------------------------


def training_units(chapters: Optional[Iterable[str]] = None) -> list[tuple[str, str, str]]:
    """(chapter, layer, punctuated text) of every 經/注/疏 unit of the punctuated XHTML edition."""
    from pipeline.corpus import iter_units

    return [
        (u.chapter, u.layer, u.text)
        for u in iter_units("zhushu-xhtml", chapters=chapters)
        if u.layer in LAYER_NAMES
    ]


def default_results_file() -> Path:
    """``bench/results/segmentation.json``: where ``yili evaluate segmentation`` writes its figures."""
    return Path(__file__).resolve().parents[2] / "bench" / "results" / "segmentation.json"


def train_punctuator(out: Optional[Path] = None, chapters: Optional[Iterable[str]] = None, **params) -> dict:
    """``yili train punctuate``: fit on the XHTML edition (all its chapters, or ``chapters``), save to
    ``out`` (default ``models/punctuate``) with a model card; returns a summary."""
    import time

    out = Path(out) if out is not None else default_model_dir()
    units = training_units(chapters)
    if not units:
        raise ValueError("no training units: is ../shared/corpus/zhushu-xhtml there?")
    started = time.perf_counter()
    model = Punctuator(**params).fit([u[2] for u in units], [u[1] for u in units])
    model.training_.update(
        chapters=sorted({u[0] for u in units}),
        edition="zhushu-xhtml",
        train_seconds=round(time.perf_counter() - started, 1),
    )
    model.save(out)
    write_model_card(out)
    return {"model": str(out), "params": model.get_params(), "size_bytes": (out / MODEL_FILE).stat().st_size,
            **model.training_}


def write_model_card(folder: Path, results_file: Optional[Path] = None) -> Path:
    """MODEL_CARD.md of the model in ``folder``: what it is, what it was trained on (from its
    settings), and the figures of the latest evaluation (``results_file``, default
    :func:`default_results_file`, when it exists)."""
    folder = Path(folder)
    settings = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
    training = settings.get("training") or {}
    size = (folder / MODEL_FILE).stat().st_size
    results = Path(results_file) if results_file is not None else default_results_file()
    lines = [
        "# 斷句 model (clause and sentence breaks)",
        "",
        "A linear-chain CRF that labels each character of unpunctuated 經, 注 or 疏 with the break that",
        "follows it: none, clause (，、：︰) or sentence (。？！；, ○). Trained with crfsuite, scored by",
        "`CompiledCRF` (numpy). Code: `pipeline/text/punctuate.py`; use: `Punctuator.load().breaks(text, layer)`.",
        f"Rebuild: `{REBUILD_COMMAND}` (reads `../shared/corpus/zhushu-xhtml`).",
        "",
    ]
    params = settings.get("params") or {}
    if params.get("lstm_weight"):
        lstm = training.get("lstm") or {}
        lines[-2] = f"Rebuild: `{LSTM_REBUILD_COMMAND}` (reads `../shared/corpus/zhushu-xhtml`)."
        lines += [
            f"Beside the CRF, a character BiLSTM (`pipeline/text/punctuate_lstm.py`, `{LSTM_FILE}`,"
            f" {(folder / LSTM_FILE).stat().st_size / 1e6:.1f} MB, {lstm.get('vocab')} chars, trained in {lstm.get('seconds')} s):",
            f"{params['lstm_weight']} × its log-probabilities are added to the CRF's scores before the Viterbi search.",
            "",
        ]
    if params.get("break_bias"):
        lines += [
            f"Before decoding, {params['break_bias']} is taken from the score of \"no break\" at every character of a text",
            "whose layer is given: the CRF alone finds fewer breaks than the editor made, and this trades a little",
            "precision for recall (without the layer it already finds too many: no bias there).",
            "",
        ]
    lines += [
        "## Training data",
        "",
        f"- 儀禮注疏, punctuated XHTML edition (after the 東里書齋 text), chapters {', '.join(training.get('chapters', []))}:",
        f"  {training.get('texts')} paragraphs (經, 注, 疏), {training.get('chars')} characters once the marks are stripped.",
        f"- Boundaries (after each char but a paragraph's last): {training.get('boundaries')} — N none, C clause, S sentence.",
        "- Quotes, brackets and title interpuncts are dropped without a break; ○ counts as a sentence break.",
        "- Texts are read through `normalise_str` (opencc t2s + the edition variants), so 賓/賔/宾 are one character.",
        "",
        "## Settings and size",
        "",
        f"- {json.dumps(settings.get('params'), ensure_ascii=False)}",
        f"- L-BFGS iterations: {training.get('iterations')}; active features: {training.get('active_features')};"
        f" `{MODEL_FILE}` {size / 1e6:.1f} MB; training time {training.get('train_seconds')} s.",
        "",
        "## Evaluation",
        "",
    ]
    if results.is_file():
        data = json.loads(results.read_text(encoding="utf-8"))
        brk = data.get("breaks", {})
        lines += [
            f"Chapters never seen in training ({brk.get('folds')} chapter-level folds), from `{data.get('command')}`:",
            "",
            "| layer | any P | any R | any F1 | clause F1 | sentence F1 |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        rows = dict(brk.get("by_layer", {}))
        if "all" in brk:
            rows["all"] = brk["all"]
        for layer, row in rows.items():
            lines.append(
                f"| {layer} | {row['any']['p']:.3f} | {row['any']['r']:.3f} | **{row['any']['f1']:.3f}** |"
                f" {row['clause']['f1']:.3f} | {row['sentence']['f1']:.3f} |"
            )
        agree = data.get("self_agreement")
        if agree:
            lines += ["", f"The edition against itself (a 疏 quoting its 經/注 verbatim vs the source): F1 {agree['f1']:.3f}."]
        other = data.get("edition_agreement")
        if other:
            lines += [f"Two editors on the 經 of {', '.join(other['chapters'])} (seed {other['seed'][:3]} against the XHTML "
                      f"edition, {other['passages']} passages): F1 {other['any']['f1']:.3f}."]
        kyoto = data.get("kyoto_breaks")
        if kyoto:
            lines += [f"Another genre (UD Kyoto test, its sentence ends as gold): F1 {kyoto['f1']:.3f}."]
        speed = data.get("punctuator_speed")
        if speed:
            lines += [
                f"Speed, one process, per CPU-second: {speed['chars_per_s']:,} chars/s one paragraph per call,"
                f" {speed['chars_per_s_batched']:,} chars/s with `breaks_many`."
            ]
    else:
        lines.append("Run `yili evaluate segmentation` (or `python bench/segmentation.py`) for the figures.")
    lines += [
        "",
        "## Limits",
        "",
        "- One editor's punctuation, not always consistent with itself (云︰「…」 beside 云「…」; clause vs",
        "  sentence marks; its quotations drop breaks). Two editors agree on the 經 far better than the model",
        "  does (`edition_agreement` in `yili evaluate segmentation`): the gap is the model's, not the data's.",
        "- Local context only (±window characters; the BiLSTM, when there is one, reads the paragraph but was",
        "  trained on 150-char pieces): parallel clauses and long lists are often cut wrong;",
        "  clause vs sentence is much weaker than break vs no break.",
        "- Trained on the 儀禮 and its commentaries only: on other genres (論語, 孟子) it is far weaker.",
    ]
    path = folder / CARD_FILE
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
