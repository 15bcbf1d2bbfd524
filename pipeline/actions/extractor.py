"""Action tuples (SCHEMA section 4) from the 經 passages of one document.

How a document is read
----------------------
* Each passage (a 經 segment: a paragraph of the edition, or the 經 between two notes) is read
  alone by default, as SCHEMA section 4 asks (the agent is the one the passage itself makes the
  agent; ``null`` where it names none) and as the gold is made. With ``[actions] scope =
  "document"`` the passages are one running text instead: the 經 segments of a document are
  interrupted only by commentary, so the actor of a clause without a subject carries over from
  one passage to the next (more actors filled in, fewer that the passage alone supports). The
  carried actor is then reset at a chapter title (…禮第五, 大射儀第七), at the start of the 記 (a
  passage that is 記 or opens with 記。), and when a passage opens a new rite (X之禮。 / X之儀。 at
  its start); that name states no act (射 of 鄉射之禮).
* Clauses are the given ``Passage.clauses`` cut again at every clause mark (，。；：「」…), so a
  sentence-level splitter still gives clauses; in unpunctuated text the clause analyser
  (:mod:`pipeline.actions.clause`) splits a long clause where a participant starts a new predicate.
  The given spans are not used: the analyser matches the lexicon itself (tagged spans may be
  imperfect and the roles need more than labels: 以, 于, 自, 皆, 不 …), with one exception: with
  ``model_names`` (``[actions] model_names``, on by default) an ACTOR span whose words the lexicon
  does not know as a participant (the span model's reading of a name the lexicon lacks: 主婦, 宗人
  in a chapter it never saw) is a participant token, unless it ends on a thing or place (眾弓矢),
  is what a definition is about (方明者，木也), opens with a causative (使人) or is a single
  character the vocabulary knows otherwise. Such a name of two characters or more, not ending in 者
  nor opening with a number, is a participant wherever the document writes it
  (:meth:`ActionExtractor.document_names`: the model reads 佐食 in 10 of its 34 mentions in 特牲
  when the lexicon lacks it). So is a word the vocabulary does not know that opens three clauses
  or more of the document before three different acts or more (:mod:`pipeline.actions.subjects`:
  尸 and 祝 of 特牲, 侯氏 of 覲禮, single characters the model misses). In its own passage, so is a word
  nobody knows that opens the passage or a sentence of it before an act only a person does
  (侯氏再拜稽首 read alone: :func:`pipeline.actions.subjects.passage_subjects`).
* A passage of 士喪禮 or 既夕禮 (``Passage.corpse``, from the document: :mod:`pipeline.actions.rites`)
  is read with 尸 a thing, not a participant: there he is the corpse (GUIDE §2), whom nobody carries
  over to the next act and who acts in no clause.
* Quoted speech 「…」 / “…” / 『…』 yields nothing. Unquoted speech after 曰 runs to the end of the
  sentence (punctuated text) or of the clause (unpunctuated text; the next clause where the 斷句 cut
  right after 曰), and on over clauses that speak in the first or second person (某, 吾子, 敢).
* 如初 / 如賓禮 are skipped, never expanded.

Who acts in each clause and the roles of each act: :mod:`pipeline.actions.walk`, which reads
the clauses.
"""

from __future__ import annotations

from itertools import groupby
from typing import Callable, Iterable, Optional, Sequence

from pipeline.actions.clause import ClauseAnalyser
from pipeline.actions.normal import default_normalise
from pipeline.actions.passage import Passage, Reading
from pipeline.actions.rites import corpse_lexicon
from pipeline.actions.speech import ANSWERS, NARRATIVE_OPENERS, NARRATIVE_WORDS, SPEECH_WORDS
from pipeline.actions.subjects import discover_subjects, handed_names, listed_names, passage_subjects
from pipeline.actions.tokens import (NAME_NEVER_OPENS, PARTICLES_BEFORE_NAMES, SortedSpans, counted_times, longest_match,
                                     split_doubled, written_at)
from pipeline.actions.vocabulary import SENTENCE_MARKS, Vocabulary
from pipeline.actions.walk import _RITE_OPEN, _Run
from pipeline.nlp.lexicon import Lexicon
from pipeline.records import Action


#: a name that opens with a number is no name of the whole document (三獻, 二大夫)
_NUMERALS = frozenset("一二三四五六七八九十壹貳贰參参叁两兩")

#: how far a clause without a subject looks for its actor: its passage (SCHEMA), or the document
SCOPES = ("passage", "document")


#: characters no participant's name ends on (particles, prepositions, conjunctions): a span the model
#: reads as a name and that ends on one is not a participant
_NAME_NEVER_ENDS = frozenset("以于於而則则乃遂也矣焉乎")  # both scripts: the view is simplified
#: what, after an act, makes no name with it: 人 "someone" (賜人, 授人), 之 (送之)
_NOT_NAMES = frozenset({"人", "之"})


class ActionExtractor:
    """Clause analysis + carry-over → :class:`pipeline.records.Action` lists (see module docstring)."""

    def __init__(self, lexicon: Optional[Lexicon] = None, normalise: Optional[Callable[[str], str]] = None,
                 scope: str = "passage", model_names: bool = False):
        if scope not in SCOPES:
            raise ValueError(f"actions scope {scope!r} is not one of {', '.join(SCOPES)}")
        self.lexicon = lexicon if lexicon is not None else Lexicon.load()
        self.normalise = normalise if normalise is not None else default_normalise()
        self.vocabulary = Vocabulary.build(self.lexicon, self.normalise)
        self.analyser = ClauseAnalyser(self.vocabulary)
        self.scope = scope
        #: a passage's ACTOR spans whose words the lexicon does not know as participants (the span
        #: model's reading of a name: 商祝, 哭者) are participants for the clause analysis too
        self.model_names = model_names
        #: in the normalised view's form (爾 is 尔 there)
        self.speech_words = frozenset(self.normalise(c) for c in SPEECH_WORDS)
        self.narrative_openers = frozenset(self.normalise(c) for c in NARRATIVE_OPENERS)
        self.narrative_words = tuple(self.normalise(w) for w in NARRATIVE_WORDS)
        self.answer_words = tuple(self.normalise(w) for w in ANSWERS)
        #: this reader's 尸 is the corpse (:meth:`for_the_dead` made it); the other, made when needed
        self.reads_corpse = False
        self._for_the_dead: Optional[ActionExtractor] = None

    # -- public -------------------------------------------------------------------------------
    def extract(self, passages: Iterable[Passage], names: Iterable[str] = ()) -> list[Action]:
        """The tuples of ``passages`` (a document's 經 segments, in order). With ``scope="passage"``
        (SCHEMA section 4: the agent is the one *the passage itself* makes the agent) each passage
        is read alone; with ``"document"`` the carried actor runs on from one passage to the next."""
        return self.read(passages, names).actions

    def for_the_dead(self) -> "ActionExtractor":
        """The reader of 士喪禮 and 既夕禮: this one's lexicon with 尸 a thing (:func:`corpse_lexicon`)."""
        if self.reads_corpse:
            return self
        if self._for_the_dead is None:
            reader = ActionExtractor(corpse_lexicon(self.lexicon), self.normalise, self.scope, self.model_names)
            reader.reads_corpse = True
            self._for_the_dead = reader
        return self._for_the_dead

    def read(self, passages: Iterable[Passage], names: Iterable[str] = ()) -> "Reading":
        """:meth:`extract`, with where each passage speaks without quotation marks."""
        passages = list(passages)
        names = self.document_names(passages, names) if self.model_names else frozenset()
        if not self.reads_corpse and any(p.corpse for p in passages):
            return self._read_by_rite(passages, names)
        return self._read_runs(passages, names)

    def _read_runs(self, passages: list[Passage], names: frozenset[str]) -> "Reading":
        """The passages read in order, ``names`` those of the whole document."""
        runs: list[_Run] = []
        speech: list[list[tuple[int, int]]] = []
        read_names: list[list[tuple[int, int]]] = []
        given: dict[tuple, frozenset[str]] = {}  # a passage written again gives the same names
        for number, passage in enumerate(passages):
            if not runs or self.scope == "passage":
                runs.append(_Run(self))
            if self.model_names:
                key = (passage.view.text, tuple(passage.clauses))
                if key not in given:
                    given[key] = self._passage_names(passage)
                mine = names | given[key]
            else:
                mine = names
            speech.append(runs[-1].passage(number, passage, mine))
            read_names.append(sorted((runs[-1].names or {}).items()))
        return Reading([e.action for run in runs for e in run.emitted], speech, read_names)

    def _read_by_rite(self, passages: list[Passage], names: frozenset[str]) -> "Reading":
        """Each run of passages of one kind (the corpse's chapters or not) read by its reader, the
        names of the whole document given to both; a run ends where a chapter title stands, where
        the carried actor is reset anyway."""
        actions: list[Action] = []
        speech: list[list[tuple[int, int]]] = []
        read_names: list[list[tuple[int, int]]] = []
        for corpse, run in groupby(passages, key=lambda p: p.corpse):
            reading = (self.for_the_dead() if corpse else self)._read_runs(list(run), names)
            actions += reading.actions
            speech += reading.speech
            read_names += reading.names
        return Reading(actions, speech, read_names)

    def document_names(self, passages: Sequence[Passage], names: Iterable[str] = ()) -> frozenset[str]:
        """The names the span model read anywhere in the document (normalised), those that open
        clause after clause before an act (:func:`discover_subjects`), and ``names`` (a document's
        names as this method gave them, for a passage read alone): a chapter calls its participants
        the same throughout, and the model does not read every mention (佐食 in 10 of its 34 in 特牲
        when the lexicon lacks it) nor single characters (尸, 祝)."""
        found = set()
        # each distinct passage once (a chapter dumped many times over writes each again)
        for text, spans in dict.fromkeys((p.view.text, tuple(p.spans)) for p in passages):
            found.update(text[s:e] for s, e in (self._names_in(text, list(spans)) or {}).items())
        # a title, not one who is so described (射者, 立者: the one who shoots or stands there), a
        # number of people or things (三獻, 一和: who they are depends on where they are written) or a
        # character that is also part of other words (人, 眾)
        named = frozenset(n for n in found if len(n) > 1 and not n.endswith(self.vocabulary.zhe) and n[0] not in _NUMERALS)
        subjects = discover_subjects([(p.view.text, p.clauses) for p in passages], self.vocabulary)
        return named | subjects | {self.normalise(n) for n in names}

    def _passage_names(self, passage: Passage) -> frozenset[str]:
        """The names a passage gives itself (:func:`passage_subjects`: 侯氏 of 侯氏再拜稽首 read
        alone), its clauses naming a rite (鄉飲酒之禮, where 飲 is no act) left aside, and the words it
        lists with known participants before their act (:func:`listed_names`: 卿 of 諸公、卿、大夫皆降)."""
        text = passage.view.text
        return passage_subjects(text, [c for c in passage.clauses if not _RITE_OPEN.match(text[c[0]:c[1]])],
                                self.vocabulary, [s for s, _ in passage.sentences]) | listed_names(text, self.vocabulary) \
            | handed_names(text, passage.clauses, self.vocabulary)

    def _names_in(self, text: str, spans: list[tuple[int, int, str]], known: frozenset[str] = frozenset()) -> Optional[dict[int, int]]:
        """start → end of a passage's ACTOR spans that are no participant of the vocabulary, and
        of the ``known`` names of its document written where no longer word or name covers them."""
        voc = self.vocabulary
        kinds = voc.kinds
        spans = [x for x in split_doubled(text, list(spans)) if x[2] == "ACTOR"]  # only ACTORs are read here
        actors = SortedSpans(spans)  # the same, sorted (``spans`` keeps the order a later name wins by)
        # where the known names are written, in reading order, the longer first where two start
        # together: of two that cross (長兄弟|長兄弟 holds 兄弟長 too) the first read is the name, as
        # the tokenizer reads, whatever order the set of names comes in
        for at, end in written_at(text, known):
            longer = any(longest_match(text, k, len(text), voc) > end - k for k in range(max(0, at - voc.max_len + 1), at + 1))
            inside, crossing = actors.around(at, end)
            if not longer and not crossing:  # a shorter span inside it (婦 of 主婦) gives way
                if inside:
                    spans = [x for x in spans if x not in inside]
                spans.append((at, end, "ACTOR"))
                actors.replace(inside, (at, end, "ACTOR"))

        def thing_at_end(s: int, e: int) -> bool:  # 眾弓矢: the many bows and arrows
            return any(kinds.get(text[k:e], set()) & {"OBJECT", "LOCATION"} for k in range(s + 1, e))

        def defined(e: int) -> bool:  # 方明者，木也: what a thing is, no one who acts
            if text[e - 1] != voc.zhe:
                return False
            rest = text[e:e + 8]
            return voc.ye in rest[:next((k for k, ch in enumerate(rest) if ch in SENTENCE_MARKS), len(rest))]

        def act_on_one(s: int, e: int) -> bool:  # 酳婦亦如之 (士昏禮): an act outside the closed list and its participant
            return e - s > 1 and "OTHERV" in kinds.get(text[s], ()) and "ACTOR" in kinds.get(text[s + 1:e], ())

        def not_one_who(s: int, e: int) -> bool:
            """A 者 that names no one: a count of times (曾子問 哭踊三者三), or after 命 / 請 the one bidden
            and after 有 those there are (投壺 命弦者曰, 有入者)."""
            return text[e - 1] == voc.zhe and (counted_times(text, s, e - 1, len(text), voc)
                                               or text[s] in voc.request_verbs or text[s] in voc.existentials)

        def act_words(s: int, e: int) -> bool:
            """An act (成服拜賓, 奔喪), or two characters of an act and what follows it: 執食 (曲禮 執食興辭, two
            acts), 賜人 (少儀: 人 someone given to)."""
            if kinds.get(text[s:e], set()) & {"VERB", "OTHERV"}:
                return True
            return e - s == 2 and bool(kinds.get(text[s], set()) & {"VERB", "OTHERV"}) and text[e - 1] != voc.zhe \
                and bool(kinds.get(text[e - 1], set()) & {"VERB", "OTHERV"} | _NOT_NAMES)

        def past_particles(s: int, e: int) -> int:
            """以酌者 (少儀 以酌者之左為上): the name is 酌者, 以 takes it; not 以爵拜者 (鄉射禮 記: who bows
            with the cup), whose 以 opens the name."""
            while e - s > 2 and text[s] in PARTICLES_BEFORE_NAMES and kinds.get(text[s + 1], set()) & {"VERB", "OTHERV"}:
                s += 1
            return s

        spans = [(past_particles(s, e) if label == "ACTOR" else s, e, label) for s, e, label in spans]
        names = {s: e for s, e, label in spans if label == "ACTOR" and (e - s > 1 or text[s] not in kinds)
                 and voc.placeholder not in text[s:e]  # 某 "so-and-so" of the set words (士昏禮 某敢不告期)
                 and text[e - 1] not in _NAME_NEVER_ENDS  # 舉以 (聘禮 without marks: 坐取獻舉以入告): no name
                 and text[s] not in NAME_NEVER_OPENS  # 蓋觀者, 古者 (射義, 郊特牲)
                 and "ACTOR" not in kinds.get(text[s:e], ()) and text[s] not in voc.causatives
                 and not thing_at_end(s, e) and not defined(e) and not act_on_one(s, e)
                 and not not_one_who(s, e) and not act_words(s, e)}
        return names or None

    def extract_text(self, raw: str, start: int = 0, end: Optional[int] = None) -> list[Action]:
        """Tuples of one punctuated raw 經 text (a convenience for tools and the REPL)."""
        return self.extract([Passage.from_raw(raw, start, end)])
