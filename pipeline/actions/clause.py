"""One clause of 經 text → the acts it states, with the roles written inside the clause.

The analyser walks the tokens left to right, the way the ritual prose is built:

    [actor] [place] [facing] [皆 遂 乃 …] [不] [荅] [再/三] VERB [purpose] [object|person] [于/自 place] …

Serial verbs share what stands before them (主人坐取爵 → 坐, 取 with object 爵; a place or a facing
before the verbs goes to every verb after it). A participant after a finished verb phrase that is
itself followed by a predicate opens a new piece with a new written subject: in unpunctuated text
(賓出迎再拜主人荅再拜) this is what splits the clause, as does one right after a facing or a direction
(東面三耦皆進, 上侯氏受: they follow their subject). Otherwise a participant after a verb is its
target (獻賓, 拜介), and one after 以/與 is the one the act is done with (主人以賓三揖).

The actor of acts without a written subject is not decided here: the extractor does that with
what came before (carry-over, 卒洗 → the washer, 荅拜 → not the bower).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from pipeline.actions.tokens import Token
from pipeline.actions.vocabulary import (
    ACTOR, ADV, AND, CHAR, COUNT, DANG, DIR, FACING_KIND, LIKE, LOCATION, MOTION_VERBS, NEG, NUM, OBJECT,
    ORDER, OTHERV, PREFIX, PREP, PUNCT, PURPOSE, RESP, SAY, TARGET_VERBS, VERB, WITH, ZHI, Vocabulary,
)

Span = tuple[int, int]

#: the marks of a list, inside a phrase (命設豐、實觶: one request of two acts)
_LIST_MARKS = frozenset("、")

#: words between 不 and an act that leave the act negated (不敢辭, 不能拜, 不得獻, 不可以…), and
#: the archer's gear put on (不決、遂、袒: a list of acts under one 不)
_AUXILIARIES = frozenset("敢能得可肯必复復再又亦相自決决遂拾")


@dataclass
class Draft:
    """An act as the clause states it; spans are view coordinates."""

    lemma: str
    surface: Span
    clause: Span
    verb_token: Span
    count: Optional[int] = None
    response: bool = False
    negated: bool = False
    purpose: Optional[Span] = None
    object: Optional[Span] = None
    target: Optional[Span] = None
    location: Optional[Span] = None
    #: where the location came from: "pre" (before the verb), "source" (自 …), "post" (after it)
    location_from: Optional[str] = None
    facing: Optional[Span] = None
    subject: Optional[Span] = None
    all_marker: bool = False
    #: True while the location is the bare 位 of 即位 / 復位: a written place after it wins
    location_generic: bool = False
    #: 卒洗 → "洗": the act this one finishes (its actor is the one who did that act)
    finishes: Optional[str] = None


@dataclass
class Piece:
    """A stretch of a clause under one written subject (or none)."""

    clause: Span
    subject: Optional[Span] = None
    acts: list[Draft] = field(default_factory=list)
    place: Optional[Span] = None
    facing: Optional[Span] = None
    all_marker: bool = False
    #: every participant named in the piece, whatever its role (for inference of the other party)
    mentions: list[Span] = field(default_factory=list)
    #: a verb outside the closed list was done (佐食舉幹): the piece is not a bare subject
    other_verb: bool = False
    #: the piece is about a thing (篚在其南, 水在洗東): its place is no participant's
    thing_topic: bool = False
    #: the thing that is the topic (薦俎從設: 薦俎), for the placing verbs of the piece
    topic: Optional[Span] = None
    #: the subject only assists (宗人贊祭, 庶子贊授肺): the principal stays the carried actor
    assist: bool = False
    #: 贊 opening the piece with no subject before it: the assistant himself where no one is carried
    #: (士昏禮 贊洗爵，酌酳主人 opening its passage), else the carried actor assisting (贊設決)
    assistant: Optional[Span] = None
    #: the subject is the one made to act (使人執俎從之, 使二人舉觶): the acts are his
    causee: bool = False
    #: the causee was sent off (遣佐食及執事盥，出): the acts after his clause are his too
    dispatched: bool = False
    #: the subject only treats the carried actor (擯者延之曰, 王勞之): that actor goes on after it
    treats_other: bool = False
    #: the subject treats someone the text does not name, and the clause ends there (君賜，稽首)
    treats_unnamed: bool = False
    #: the acts after 則 of X與之…則 are the one X treated, unnamed (先生與之言則對)
    by_other: bool = False
    #: the participant treated by name (天子賜侯氏以車服): he acts next
    treated: Optional[Span] = None
    #: the clause only says where its subject stands (上射在左, 卦者在左): a formation, not a new agent
    stance: bool = False
    #: things follow the subject and no verb (祝豆籩, cut by the 斷句 from 宗婦徹): maybe the owner
    #: of what the last act handled, not someone acting
    holds_things: bool = False


_SKIP_BEFORE_PREDICATE = {ADV, NEG, COUNT, RESP, PREFIX, LOCATION, DIR, DANG, FACING_KIND}
_PLACE_RUN = {LOCATION, OBJECT, DIR, DANG, NUM, CHAR}
_LIKE_ENDS = ("初", "礼", "仪", "禮", "儀", "服")  # 服: 如主人服 "dressed as the host" (士冠禮)


class ClauseAnalyser:
    def __init__(self, vocabulary: Vocabulary):
        self.voc = vocabulary

    def analyse(self, tokens: list[Token], clause: Span, marked: bool = True,
                subject_cut: bool = False) -> list[Piece]:
        """The pieces of one clause; ``marked``: its text has its own marks (not the 斷句's clauses,
        which can cut a subject off its act); ``subject_cut``: a 斷句's clause right after one that
        ends on a participant's name (主人|賓右奠觚: maybe his subject; the walk says so where a place of
        one side may open the clause, all that reads it)."""
        return _Walk(self.voc, tokens, clause, marked, subject_cut).run()


class _Walk:
    def __init__(self, voc: Vocabulary, tokens: list[Token], clause: Span, marked: bool = True,
                 subject_cut: bool = False):
        self.voc = voc
        self.toks = tokens
        self.clause = clause
        self.marked = marked
        self.subject_cut = subject_cut
        self.pieces: list[Piece] = []
        self._new_piece(None)

    # -- state --------------------------------------------------------------------------------
    def _new_piece(self, subject: Optional[Span]) -> None:
        self.piece = Piece(self.clause, subject)
        self.piece_start = getattr(self, "_index", 0)
        self.pieces.append(self.piece)
        self.subject = subject
        self.with_target: Optional[Span] = None
        self.with_word: Optional[str] = None
        self.with_used = False
        self.companion: Optional[Span] = None  # 與X after the clause's act: the next act's target
        self.pre_loc: Optional[Span] = None
        self.pre_loc_from: Optional[str] = None
        self.pre_facing: Optional[Span] = None
        self.verb_seen = False
        self.last: Optional[Draft] = None
        self.last_verb_index = -9
        self.command = False
        self.compared = False  # the subject's predicate so far is a comparison (賓如主人服)
        self._reset_prefixes()

    def _reset_prefixes(self) -> None:
        self.neg = False
        self.count: Optional[int] = None
        self.resp = False
        self.prefix_start: Optional[int] = None

    def tok(self, i: int) -> Optional[Token]:
        return self.toks[i] if 0 <= i < len(self.toks) else None

    def kinds(self, i: int) -> frozenset[str]:
        t = self.tok(i)
        return t.kinds if t is not None else frozenset()

    # -- the walk -----------------------------------------------------------------------------
    def run(self) -> list[Piece]:
        i = 0
        n = len(self.toks)
        while i < n:
            self._index = i
            t = self.toks[i]
            k = t.kinds
            adjacent = self.last is not None and self.last_verb_index == i - 1
            if PURPOSE in k and adjacent and self.last.lemma == "拜" and self.last.purpose is None:
                self.last.purpose = (t.start, t.end)
                self.last.surface = (self.last.surface[0], t.end)
                self.last_verb_index = i  # an object may follow: 拜送爵
                i += 1
                continue
            if adjacent and self.last.lemma == "卒" and self.last.object is None and k & {CHAR, OTHERV} \
                    and not k & {ACTOR, PUNCT}:
                self.last.object = (t.start, t.end)  # 卒畫, 卒管, 卒筮, 卒食: the act or the part finished
                self.last_verb_index = i
                i += 1
                continue
            if PUNCT in k and AND not in k:
                self._reset_prefixes()
                i += 1
                continue
            if ORDER in k:
                i += 1
                continue
            if LIKE in k:
                self.compared = self.subject is not None and not self.verb_seen
                i = self._skip_like(i)
                continue
            if SAY in k:
                break  # speech follows to the clause end
            if ACTOR in k and t.text == self.voc.xiang and VERB in self.kinds(i + 1) and i > 0 \
                    and (WITH in self.kinds(i - 1) or self.toks[i - 1].text == "人"):
                i = self._named_not_done(i + 1)  # 以相拜, 使人相祭: 相 "to assist" the act, done by others
                continue
            if ACTOR in k and t.text == self.voc.xiang and self.tok(i + 1) is not None \
                    and self.toks[i + 1].text in self.voc.mutual_after_xiang:
                i += 1  # 相左, 相揖: "each other", not the 相 (the assistant)
                continue
            if AND in k and PUNCT not in k and ACTOR in self.kinds(i + 1) and not self.verb_seen \
                    and self.subject is None:
                not_reached = i == self.piece_start + 1 and self.neg and NEG in self.kinds(self.piece_start)
                if i == self.piece_start or not_reached:
                    j = self._actor_group_end(i + 1)
                    partner = (self.toks[i + 1].start, self.toks[j - 1].end)
                    self.piece.mentions.append(partner)
                    if not_reached:
                        self._reset_prefixes()  # 不及佐食: the act did not reach him; no one new acts
                    else:  # 主人降，及賓盥: together with the 賓, the subject goes on
                        self.with_target, self.with_word = partner, t.text
                    i = j
                    continue
            if ACTOR in k:
                i = self._actor(i)
                continue
            if VERB in k:
                if self._dish_noun(i):
                    i = self._dish(i)
                    continue
                if OBJECT in k or LOCATION in k:
                    if self._noun_verb(i):
                        i += 1
                        continue
                i = self._verb(i)
                continue
            if AND in k and PUNCT not in k and self.kinds(i + 1) & {LOCATION, DANG}:
                j = self._run_end(i + 1)
                if VERB in self.kinds(j) and not self.verb_seen:  # 及階揖: where the act is done
                    self.pre_loc, self.pre_loc_from = (self.toks[i + 1].start, self.toks[j - 1].end), "pre"
                    i = j
                    continue
            if t.text == self.voc.by_way and self.pre_loc is None:
                a = i + 2 if self.toks[i + 1:i + 2] and self.toks[i + 1].text == self.voc.its else i + 1
                j = self._run_end(a) if self.kinds(a) & {LOCATION, DANG, ACTOR} else a
                if j - 1 > a and DIR in self.kinds(j - 1) and LOCATION in self.kinds(j - 2) and VERB in self.kinds(j):
                    j -= 1  # 由其位南進: 南 is the way the act goes, no part of the place
                k2 = j + 1 if self.kinds(j) & {ADV, DIR} else j
                place = (self.toks[i + 1].start, self.toks[j - 1].end) if j > a else None
                if place and VERB in self.kinds(k2):  # 由司射之南退, 由西階升, 皆由其階降: the way taken
                    self.pre_loc, self.pre_loc_from = place, "pre"
                    i = j
                    continue
                if place and adjacent and self.last.location is None and (j >= len(self.toks) or PUNCT in self.kinds(j)):
                    self._set_location(self.last, place, "post")  # 進由中東: the way the act took
                    i = j
                    continue
            if t.text in self.voc.causatives and self.tok(i + 1) is not None and (
                    ACTOR in self.kinds(i + 1) or self.toks[i + 1].text == "人"):
                i = self._causee(i + 1)  # 使人受俎, 使二人舉觶: the one made to act is the subject
                self.piece.dispatched = t.text in self.voc.dispatching
                continue
            if OTHERV in k and OBJECT in k and adjacent and self.last.object is None \
                    and self.last.lemma in self.voc.handling_verbs:
                i = self._object(i)  # 以笥受決、拾: the gear handled, not the act of putting it on
                continue
            if OTHERV in k and t.text in self.voc.assist_words and not self.command and self._assistant_acts(i):
                span = (t.start, t.end)
                if self.piece.acts and self.last_verb_index == i - 1:
                    self._close()  # 皆祭贊以肝從 (皆祭。贊以肝從, joined by a 斷句): the 贊 opens his own act
                    self._new_piece(span)
                    self.piece.mentions.append(span)
                    i += 1
                    continue
                if i == self.piece_start and self.subject is None:
                    self._name_subject(span)  # 贊戶內北面答拜, 贊答拜, 贊以肝從 (士昏禮): the 贊 acts
                    i += 1
                    continue
            if OTHERV in k or (AND in k and PUNCT not in k and self.kinds(i + 1) & {LOCATION, DANG}):
                self.verb_seen = True
                self.piece.other_verb = True
                self.last = None
                self.last_verb_index = -9
                if t.text in ("使", "作", "戒", "擯", "摈") and not self._music_starts(i):
                    self.command = True  # 作上耦射, 戒諸公卿大夫射, 擯升降: bidden, warned of, ushered: not done
                if t.text in self.voc.assist_words and not self.piece.acts:
                    self.piece.assist = True
                    if i == self.piece_start and self.subject is None:
                        self.piece.assistant = (t.start, t.end)
                if t.text in self.voc.treating_verbs and ZHI in self.kinds(i + 1) and not self.piece.acts:
                    self.piece.treats_other = True  # 擯者延之, 王勞之: the one treated acts next
                if t.text in self.voc.treating_verbs and self.subject is not None and not self.piece.acts \
                        and (self.tok(i + 1) is None or PUNCT in self.kinds(i + 1) or self._only_things_after(i)):
                    # 君賜，稽首; 君賜車馬，乘以拜賜 (玉藻): the one given to, unnamed, bows
                    self.piece.treats_unnamed = True
                if t.text in self.voc.treating_verbs and ACTOR in self.kinds(i + 1) and not self.piece.acts \
                        and not (i > 0 and self.toks[i - 1].text == self.voc.normalise("以")):
                    # 天子賜侯氏, 勞侯氏 (not 以賜鍾人: giving with the thing, the giver goes on)
                    self.piece.treated = (self.toks[i + 1].start, self.toks[i + 1].end)
                i += 1
                continue
            if PREP in k:
                i = self._prep(i)
                continue
            if ADV in k and LOCATION in k and VERB in self.kinds(i + 1):
                i += 1  # 序進, 序升: "in order"
                continue
            if LOCATION in k and self._name_then_hand(i):
                self._name_subject((t.start, t.end - 1))  # 賓右取脯，左奉之 (聘禮): the guest's right hand, not the place 賓右
                i += 1
                continue
            if LOCATION in k or DANG in k:
                if OBJECT in k and not self.verb_seen and self.subject is None and i == self.piece_start:
                    self.piece.thing_topic = True  # 俎出于廟門: a thing (also a place word) as topic
                    i = self._object(i)
                elif OBJECT in k and self._object_context(i):
                    i = self._object(i)
                else:
                    i = self._place(i, bare=True)
                continue
            if FACING_KIND in k:
                self._facing(i)
                i += 1
                continue
            if OBJECT in k:
                if not self.verb_seen and self.subject is None:
                    self.piece.thing_topic = True
                i = self._object(i)
                continue
            if NEG in k:
                self.neg = self._negates_the_act(i)
            elif COUNT in k and VERB in self.kinds(i + 1) and self.toks[i + 1].text in self.voc.counted_verbs:
                self.count = self.voc.counts.get(t.text)
                self.prefix_start = t.start if self.prefix_start is None else self.prefix_start
            elif RESP in k and (self.kinds(i + 1) & {VERB, COUNT}):
                self.resp = True
                self.prefix_start = t.start
            elif PREFIX in k and VERB in self.kinds(i + 1):
                nxt = self.toks[i + 1]
                if t.text in self.voc.prefixes.get(nxt.text, ()):
                    self.prefix_start = t.start
            elif ADV in k and t.text == self.voc.about_to and VERB in self.kinds(i + 1):
                i = self._named_not_done(i + 1)  # 公將射，則…: the act to come is not done here
                continue
            elif ADV in k:
                if t.text == self.voc.all_word:
                    self.piece.all_marker = True
                if t.text in self.voc.then_words:
                    self.neg = False  # 不與之言則趨而退 (曲禮): the 不 is the condition's, the 則 act is done
                    if self.subject is not None and self.with_target is not None and not self.piece.acts \
                            and ZHI in self.kinds(self._index_at(self.with_target[0])):
                        # 先生與之言則對 (曲禮): the one spoken with, unnamed, answers; not the master
                        self._close()
                        self._new_piece(None)
                        self.piece.by_other = True
            elif WITH in k and ZHI in self.kinds(i + 1) and not self.verb_seen:
                self.with_target = (self.toks[i + 1].start, self.toks[i + 1].end)  # 侯氏與之讓
                self.with_word = t.text
                i += 2
                continue
            elif WITH in k and self.tok(i + 1) is not None and self.toks[i + 1].text == "其" \
                    and ACTOR in self.kinds(i + 2) and not self.verb_seen:
                j = self._actor_group_end(i + 2)  # 皆與其耦進: each with his partner, the subject acts
                self.piece.mentions.append((self.toks[i + 2].start, self.toks[j - 1].end))
                if self.subject is not None and self.subject[1] == self.toks[i - 1].end:
                    # 大夫與其耦皆適次: written right after the subject, the partners act with him (尸與侑升)
                    self.subject = self.piece.subject = (self.subject[0], self.toks[j - 1].end)
                i = j
                continue
            elif WITH in k and self.kinds(i + 1) & {OBJECT, CHAR} and not self.kinds(i + 1) & {ACTOR}:
                j = i + 1  # 以菹豆, 以虛爵: the instrument, not the object of the verb
                while self.kinds(j) & {CHAR, NUM} and not self.kinds(j) & {OBJECT} and j < i + 3:
                    j += 1
                if OBJECT in self.kinds(j):
                    if not self.verb_seen and self.piece.subject is None and self.tok(j + 1) is not None \
                            and VERB in self.kinds(j + 1) and self.toks[j + 1].text == self.voc.normalise("從"):
                        # 以肝從 with no one named: the liver goes along, brought by someone unnamed
                        # (賓長以肝從 names him); the drinker of the clauses before does not bring it
                        self.piece.thing_topic = True
                        self.piece.topic = (self.toks[i + 1].start, self.toks[j].end)
                    i = j + 1
                    continue
            elif WITH in k and ACTOR in self.kinds(i + 1) and self.verb_seen and self._companion_follows(i):
                j = self._actor_group_end(i + 1)
                self.companion = (self.toks[i + 1].start, self.toks[j - 1].end)
                self.piece.mentions.append(self.companion)
                i = j
                continue
            elif WITH in k and ACTOR in self.kinds(i + 1) and not self.verb_seen:
                j = self._actor_group_end(i + 1)
                self.with_target = (self.toks[i + 1].start, self.toks[j - 1].end)
                self.with_word = t.text
                i = j
                continue
            elif WITH in k and t.text == self.voc.normalise("以") and ACTOR in self.kinds(i + 1) \
                    and self.toks[i + 1].text != self.voc.xiang \
                    and self.last is not None and VERB in self.kinds(self._actor_group_end(i + 1)):
                j = self._actor_group_end(i + 1)  # 壹揖壹讓以賓升: the one led, the subject goes on
                self.piece.mentions.append((self.toks[i + 1].start, self.toks[j - 1].end))
                i = j
                continue
            elif ZHI in k and adjacent:
                self._pronoun(i)
            elif NUM in k and adjacent and self.last.object is None and VERB in self.kinds(i + 1):
                self.last.object = (t.start, t.end)  # 搢三挾一个: three arrows, not a count of 挾
            elif CHAR in k and adjacent and self.last.lemma in ("授", "受") and self.last.target is None \
                    and t.text in self.voc.handed_persons and self._plain_thing(i + 1):
                self.last.target = (t.start, t.end)  # 授人脯, 授老鴈 (士昏禮): to someone, to the steward; 受老束錦 (聘禮): from him
                i = self._object(i + 1)
                continue
            elif (CHAR in k or NUM in k) and adjacent and self._object_follows(i) \
                    and self.last.lemma not in _MOTION_TO_PLACE:
                i = self._object(i)
                continue
            elif CHAR in k and adjacent and self.last.lemma in _TO_POWERS and self.last.target is None \
                    and (end := self._powers_end(i)) > i:
                self.last.target = (t.start, self.toks[end - 1].end)  # 祭天, 祭山、丘陵, 拜日, 祭饎爨、雍爨
                i = end
                continue
            elif CHAR in k and adjacent and self.last.object is None and (self.voc.normalise(self.last.lemma) in self.voc.open_object_verbs
                                                                          or (self.last.lemma == "拜" and self.last.purpose is not None)):
                end = self._open_object_end(i)
                if end > i:
                    self.last.object = (t.start, self.toks[end - 1].end)  # 受爵弁, 執皮弁, 拜受角: a thing the lexicon lacks
                    i = end
                    continue
            elif CHAR in k and adjacent and self.last.location is None and self.last.lemma in _OPEN_PLACE_VERBS:
                end = self._open_object_end(i)
                if end > i:
                    self._set_location(self.last, (t.start, self.toks[end - 1].end), "post")  # 適次: a place the lexicon lacks
                    i = end
                    continue
            i += 1
        self._command_objects()
        self._close()
        return [p for p in self.pieces if p.acts or p.subject or p.place or p.facing or p.treated]

    def _command_objects(self) -> None:
        """What 命 or 請 asks for is its object, written out: 命弟子納射器, 命獲者倚旌于侯中,
        命取矢 (如初 left out), 請徹俎, 請釋獲 (于賓, the one asked, left out; 聘禮 請命于朝, the place), 命筮 (曰 and the words
        left out). It runs from the first word after the verb (after the one bidden, for 命) to
        the clause end; the dev gold (annotations/actions) writes it so for 61 of its 62 命 with an
        object, and no 告 has one."""
        starts: Optional[dict[int, int]] = None
        for piece in self.pieces:
            for d in piece.acts:
                lemma = self.voc.normalise(d.lemma)
                if lemma not in self.voc.request_verbs or d.negated:
                    continue
                if starts is None:
                    starts = {t.start: k for k, t in enumerate(self.toks)}
                after = d.target[1] if d.target is not None and d.target[0] == d.verb_token[1] else d.verb_token[1]
                k = starts.get(after)
                if k is None or not self.kinds(k) & {VERB, CHAR, OTHERV, OBJECT, WITH, ADV} or self.kinds(k) & {ACTOR, PUNCT} \
                        or (WITH in self.kinds(k) and self.toks[k].text != self.voc.normalise("以")):
                    continue  # 請執冪者與羞膳者: persons asked for, no act
                end = k
                while end < len(self.toks) and not self.kinds(end) & {SAY, LIKE} \
                        and not (PUNCT in self.kinds(end) and self.toks[end].text not in _LIST_MARKS) \
                        and self.toks[end].text not in self.voc.request_stops \
                        and not (lemma == self.voc.normalise("請") and PREP in self.kinds(end)
                                 and (self.kinds(end + 1) & {ACTOR, ZHI} or self._at_location(d, end + 1))):
                    end += 1
                while end > k and self.kinds(end - 1) <= {ADV, COUNT}:
                    end -= 1  # 請主人亦如之 (投壺): the same asked of the host, no act written
                if end > k:
                    d.object = (self.toks[k].start, self.toks[end - 1].end)

    def _at_location(self, d: Draft, k: int) -> bool:
        """Does token ``k`` open the place read for ``d`` (聘禮 請命于朝: where the asking is done)?"""
        return d.location is not None and k < len(self.toks) \
            and d.location[0] == self.toks[k].start

    def _close(self) -> None:
        if not self.piece.acts and not self.piece.thing_topic:
            self.piece.place = self.pre_loc
            self.piece.facing = self.pre_facing

    # -- participants -------------------------------------------------------------------------
    def _actor_group_end(self, i: int) -> int:
        """Index after ``ACTOR ((及|、) ACTOR)*`` starting at ``i``; a count of persons written right
        after a participant is part of the name (笙一人 "one of the mouth-organ players")."""
        j = i + 1
        while True:
            if AND in self.kinds(j) and ACTOR in self.kinds(j + 1):
                j += 2
            elif ACTOR in self.kinds(j) and self.toks[j].text in (t.text for t in self.toks[i:j]):
                return j  # 告于公公許, 揖諸公卿大夫諸公卿大夫西面 (marks lost): those addressed, then the same ones act
            elif ACTOR in self.kinds(j) and (self.toks[j].text in self.voc.persons_counted or (
                    self.toks[j - 1].text in self.voc.ranks and self.toks[j].text in self.voc.ranks)
                    or (self.toks[j].text.endswith(self.voc.zhe) and ACTOR in self.kinds(j - 1))):
                j += 1  # 諸公卿大夫: ranks written together are one group; 宗婦贊薦者: one name
            elif ACTOR in self.kinds(j) and ACTOR in self.kinds(j - 1) and self._joined_unmarked(j):
                j += 1  # 賓主人大夫不勝 (a 賓、主人、大夫 whose marks are lost): one group
            else:
                return j

    def _joined_unmarked(self, j: int) -> bool:
        """Is the participant at ``j``, written right after another, listed with it rather than
        naming where it stands (主人介右答拜: at the 介's right) or whose thing follows (賓主人之北)?"""
        if self.toks[j].text == self.toks[j - 1].text:
            return False  # 速賓賓朝服: the one fetched, then the same one acts
        if self.toks[j].text == self.voc.xiang and self.tok(j + 1) is not None \
                and self.toks[j + 1].text in self.voc.mutual_after_xiang:
            return False  # 大夫相食 (公食大夫禮): the officers feed each other, no 相 (assistant) beside them
        k = j - 1
        while self.kinds(k) & {ACTOR, AND}:
            k -= 1
        if self.kinds(k) & {VERB, OTHERV}:
            return False  # 獻眾賓眾賓之長升: the one presented to is not listed with who climbs
        if self.toks[j].text == self.voc.xiang and ACTOR in self.kinds(j + 1):
            return False  # 弟子相工: 相 "to lead" the musicians
        if self.toks[j].text in self.voc.verb_titles:
            return False  # 嗣舉奠: the son lifts the cup, not a 舉奠 beside him
        after = self.kinds(j + 1)
        if LOCATION in after and VERB in after and not self.kinds(j + 2) & {DIR, ZHI}:
            return True  # 舉觶于賓介洗 (于賓、介，洗): 洗 washes here, no place of the 介 (介洗南 would be)
        if LOCATION in after and self.toks[j + 1].text[:1] in self.voc.mats:
            return True  # 賓介席末答拜 (賓、介席末): each at his own mat, not at the 介's
        return not after & {ZHI, DIR, LOCATION}

    def _negates_the_act(self, i: int) -> bool:
        """Does the 不 at ``i`` reach the act after it? Not where another word takes it (不為容，進 /
        若不言，立, joined by the 斷句 as 不為容進, 若不言立); an auxiliary (不敢辭, 不能拜, 不得獻) or the
        archer's gear (不決、遂、袒: none of them) passes it on."""
        nxt = self.tok(i + 1)
        if nxt is None or nxt.text in _AUXILIARIES:
            return True
        if CHAR in nxt.kinds and self.tok(i + 2) is not None and self.toks[i + 2].text in _MANNER_LINKS \
                and VERB in self.kinds(i + 3):
            return False  # 衣服弗服以拜 (玉藻): not wearing it, he bows; the bow is done
        return not (OTHERV in nxt.kinds or (CHAR in nxt.kinds and VERB in self.kinds(i + 2)))

    def _title_is_act(self, i: int) -> bool:
        """Is the verb title at ``i`` (舉奠, 負侯) the act and its thing here, not a participant?
        嗣舉奠: after a subject; 執旌負侯而俟: after the clause's act and its thing. Never after 命
        (命負侯: the one commanded) nor alone in its clause (負侯|皆許諾, as the 斷句 cuts it: the one
        who acts next)."""
        if i > 0 and self.toks[i - 1].text in self.voc.command_verbs:
            return False
        if not (self.kinds(i - 1) - {PUNCT}) and not (self.kinds(i + 1) - {PUNCT}):
            return False
        return (self.subject is not None and not self.verb_seen) or not self._predicate_follows(i + 1) \
            or (self.verb_seen and not self.kinds(i - 1) & {VERB, OTHERV, PUNCT})

    def _name_then_hand(self, i: int) -> bool:
        """Is the place at ``i`` (賓右, 主人右: beside a participant) a participant and his hand? So it is
        where it opens the clause with no one named and a hand's act follows (賓右取脯，左奉之, as 尸左執觶
        is written); 介右坐奠爵, 賓右北面至再拜 (a place, the gold's) and 主人賓右奠觚 (named before) stay places,
        and so does one where the 斷句 may have cut the subject off before it (主人|賓右奠觚, 07 p105)."""
        t = self.toks[i]
        if self.subject_cut or self.verb_seen or self.subject is not None or t.text[-1:] not in _HANDS or len(t.text) < 2:
            return False
        nxt = self.tok(i + 1)
        return ACTOR in self.voc.kinds.get(t.text[:-1], ()) and nxt is not None and VERB in nxt.kinds \
            and nxt.lemma in _HANDED

    def _blessing(self, i: int) -> bool:
        """Is the 祝 at ``i`` the act of blessing, not the invocator? After 乃 it is (士冠禮: 進容，乃祝，
        坐如初，乃冠: the capping guest blesses and goes on; no participant follows 乃 in the gold), and
        alone in a clause the text's marks set apart (進，祝，加之如初; never the invocator's way in the
        corpus) — not in one the 斷句 cut, which can cut him off his act (祝|命佐食)."""
        if self.toks[i].text != self.voc.normalise("祝"):
            return False
        prev = self.tok(i - 1)
        if prev is not None and prev.text == self.voc.normalise("乃"):
            return True
        return self.marked and not (self.kinds(i - 1) - {PUNCT}) and not (self.kinds(i + 1) - {PUNCT})

    def _actor(self, i: int) -> int:
        if (self.toks[i].text in self.voc.verb_titles and self._title_is_act(i)) or self._blessing(i):
            self.verb_seen = True
            self.piece.other_verb = True
            self.last = None
            self.last_verb_index = -9
            return i + 1
        j = self._actor_group_end(i)
        if ZHI in self.kinds(j) and ACTOR in self.kinds(j + 1):
            k = self._actor_group_end(j + 1)
            after = self.kinds(k)
            if not after & {DIR, ZHI} and not (LOCATION in after and VERB not in after):
                j = k  # 勝者之弟子, 大夫之耦: one participant named by another (not 主人之北)
        span = (self.toks[i].start, self.toks[j - 1].end)
        self.piece.mentions.append(span)
        if ZHI in self.kinds(j) and self.kinds(j + 1) & (_PLACE_RUN | {VERB}):
            return self._possessive(i, j)
        if not self.verb_seen and self.subject is None and i > self.piece_start \
                and self.kinds(i - 1) & {FACING_KIND, DIR, ORDER} and self._predicate_follows(j):
            # 東面三耦皆進 (…之西南，東面。三耦皆進, cut after 西南 by the 斷句), 上侯氏受 (服上，侯氏受),
            # 東上工坐 (北面東上。工坐): a facing, direction or order is written after its subject, so
            # the participant opens a new act
            self._close()
            self._new_piece(span)
            return j
        if not self.verb_seen and self.subject is None and i > self.piece_start and self._thing_before(i) \
                and (self._predicate_follows(j) or all(PUNCT in self.kinds(x) for x in range(j, len(self.toks)))):
            # 王撫|玉侯氏降自西階 (王撫玉。侯氏降…, cut after 撫 by the 斷句): a thing before a
            # participant and its predicate is the last clause's, and the participant opens the act;
            # so too when the participant ends the clause (王撫|玉侯氏|降自西階: the acts follow it)
            self._close()
            self._new_piece(span)
            return j
        if not self.verb_seen and self.subject is None and self._stranger_before(i):
            self.verb_seen = True  # 遂以比三耦: after an unknown verb a participant is its object
            return j
        if (not self.verb_seen or self.subject is None) and DIR in self.kinds(j) and not self.kinds(j) & {LOCATION} \
                and self.toks[j].text in _SIDES and self._predicate_follows(j + 1) \
                and not (self.toks[j].text in _HANDS and self.tok(j + 1) is not None
                         and self.tok(j + 1).lemma in _HANDED):  # 尸左執角: 左 is the hand
            place = (self.toks[i].start, self.toks[j].end)  # 主人介右北面拜送爵: 介右 is a place
            if self.verb_seen and self.last is not None:
                self._set_location(self.last, place, "post")
            else:
                self.pre_loc, self.pre_loc_from = place, "pre"
            return j + 1
        if not self.verb_seen and self.subject is not None and self.compared:
            # 賓如主人服贊者玄端|從之 (賓如主人服，贊者玄端，從之 joined by the 斷句): a participant after
            # the subject's comparison opens his own description, and whoever follows is he
            self._close()
            self._new_piece(span)
            return j
        if not self.verb_seen:
            if self.subject is None or self._predicate_follows(j):
                if self.subject is not None and (NUM in self.kinds(i - 1) or (
                        ACTOR in self.kinds(i - 1) and self.toks[i - 1].end == self.subject[1])):
                    return j  # 主人一相, 主人 一相: an attendant named beside the subject
                self.subject = span
                self.piece.subject = span
            return j
        if self.last is not None and self.last.lemma in ("命",) and self.last.target is None:
            self.last.target = span
            self.command = True
            return j
        if self.command:
            return j
        prev = self.tok(i - 1)
        repeated = prev is not None and ACTOR in prev.kinds and prev.text == self.toks[i].text
        if not repeated and OTHERV in self.kinds(i - 1) and not (self.tok(j) is not None and self.toks[j].text == self.voc.also) \
                and self.toks[i - 1].text not in self.voc.treating_verbs:
            return j  # 賓厭眾賓升: the one bowed to, the bower goes on (勞|侯氏亦…迎: 亦 makes him the subject;
            # after 勞 / 延 / 賜 the one treated acts: 用束帛勞上介出請, as a 斷句 joins 勞。上介出請)
        if not repeated and self.last is not None and self.last_verb_index == i - 1 \
                and self.last.lemma in _GIVING and self.last.target is None:
            span, j = self._with_joined(span, j)
            self.last.target = span  # 授獲者退立于西方, 公揖卿大夫升就席: the giver goes on
            return j
        if not repeated and self.last is not None and self.last_verb_index == i - 1 and self.last.lemma in _BOW_SEND \
                and self.last.target is None and (self._back_to_place(j) or (
                    self.tok(j) is not None and self.toks[j].text in self.voc.intransitive)):
            # 拜賓反位, 送賓反位, 拜賓成踊 (奔喪): the mourner bows to the guests, sees them off, goes back, leaps
            self.last.target = span
            return j
        if not repeated and self._acted_on_next(i, j):
            # 主人為之拜賓送賓 (奔喪): the 賓 seen off is not the one who sees him off; he is bowed to
            if self.last is not None and self.last.lemma in _TARGET_LEMMAS and self.last.target is None:
                self.last.target = span
            return j
        if repeated or self._predicate_follows(j, chars=2 if self.last is None else 0):
            self._close()
            self._new_piece(span)
            return j
        if self.last is not None and self.last.lemma in _TARGET_LEMMAS and self.last.target is None:
            span, j = self._with_joined(span, j)
            self.last.target = span
        return j

    def _back_to_place(self, j: int) -> bool:
        """Is the act at ``j`` a going back to one's place (反位, 復位)?"""
        act, place = self.tok(j), self.tok(j + 1)
        return act is not None and place is not None and VERB in act.kinds and act.lemma in _BACK \
            and place.text == self.voc.normalise("位")

    def _acted_on_next(self, i: int, j: int) -> bool:
        """Is the participant at ``i`` (ending before ``j``) the one the act right after him is
        done to (拜賓送賓: the act after 賓 is done to 賓)?"""
        nxt = self.tok(j + 1)
        return VERB in self.kinds(j) and nxt is not None and ACTOR in nxt.kinds and nxt.text == self.toks[i].text

    def _companion_follows(self, i: int) -> bool:
        """Is the 與 at ``i``, after the clause's act, the start of the next act's companion? 主人揖贊者
        與賓揖 (揖贊者，與賓揖 cut so in text without marks) and 與耦入於次: the one bowed with, the
        subject goes on. Not in a command (what is bidden is no act) and not 以 (handled apart)."""
        if self.command or self.last is None or self.toks[i].text != self.voc.normalise("與"):
            return False
        return VERB in self.kinds(self._actor_group_end(i + 1))

    def _with_joined(self, span: Span, j: int) -> tuple[Span, int]:
        """The target ``span`` (ending before ``j``) with the participants 與 joins to it (獻工與笙,
        拜侑與長賓: both are the ones presented, GUIDE 3.3), unless an act follows them (主人與賓為耦,
        各與其耦讓: 與 is "with")."""
        k = j
        while self.tok(k) is not None and self.toks[k].text == self.voc.normalise("與") and ACTOR in self.kinds(k + 1):
            k = self._actor_group_end(k + 1)  # 獻兄弟與內賓與私人
        if k == j or self._predicate_follows(k):
            return span, j
        joined = (span[0], self.toks[k - 1].end)
        self.piece.mentions.append(joined)
        return joined, k

    def _plain_thing(self, i: int) -> bool:
        """Is the token at ``i`` a thing and nothing else (not also a participant or an act)?"""
        kinds = self.kinds(i)
        return OBJECT in kinds and not kinds & {ACTOR, VERB}

    def _count_object(self, span: Span) -> bool:
        """Is the thing ``span`` only a count (搢三挾一个: three arrows, then one)? The pair is one
        gesture of the archer, and what stands before it is both halves'."""
        k = self._index_at(span[0])
        return k >= 0 and self.toks[k].end == span[1] and NUM in self.kinds(k)

    def _powers_end(self, i: int) -> int:
        """Index after the powers (:attr:`Vocabulary.powers`, a stove X爨) listed from ``i``, each
        of unknown characters, joined by 、 or by nothing where the marks are lost (祭山丘陵); ``i``
        when none is."""
        j = self._power_end(i)
        while j > i:
            at = j + 1 if AND in self.kinds(j) else j  # past the 、, if one joins the next
            nxt = self._power_end(at)
            if nxt == at:
                return j
            j = nxt
        return i

    def _power_end(self, i: int) -> int:
        """Index after the one power (the longest) written from ``i``, else ``i``."""
        found, k, word = i, i, ""
        while k < len(self.toks) and self.kinds(k) == {CHAR} and len(word) < 3:
            word += self.toks[k].text
            k += 1
            if word in self.voc.powers or (len(word) > 1 and word.endswith(self.voc.stove)):
                found = k
        return found

    def _thing_before(self, i: int) -> bool:
        """Does only a thing stand before ``i`` in this piece (玉, 觶, or one named by its owner:
        大夫之觶)?"""
        k = self.piece_start
        if k + 2 < i and ACTOR in self.kinds(k) and ZHI in self.kinds(k + 1):
            k += 2  # 大夫之觶長受: the 大夫's cup, the eldest receives it
        return all(self.kinds(x) & {OBJECT} and not self.kinds(x) & {VERB, OTHERV, ACTOR} for x in range(k, i))

    def _stranger_before(self, i: int) -> bool:
        """Is there a word before ``i`` in this piece that cannot stand before a subject? What stands
        before 則 is a time or a condition (宵則庶子執燭: at night the 庶子 hold the torches)."""
        start = self.piece_start
        for j in range(start, i):
            if self.toks[j].text in self.voc.then_words:
                start = j + 1
        for j in range(start, i):
            if not self.kinds(j) & {ADV, PUNCT, AND, NEG}:
                return True
        return False

    def _possessive(self, i: int, j: int) -> int:
        """主人之席前, 賓之左, 父母之所 (內則: where they are): a place or thing named by its owner."""
        end = j + 1
        while end < len(self.toks) and self.kinds(end) & _PLACE_RUN and not self.kinds(end) & {VERB}:
            end += 1
        if end == j + 1 and VERB in self.kinds(end):  # 主人之薦東: a dish-noun with a direction
            if DIR in self.kinds(end + 1):
                end += 2
        span = (self.toks[i].start, self.toks[end - 1].end)
        place = bool(self.kinds(end - 1) & {DIR, LOCATION}) or self.toks[end - 1].text == "所"
        if self.last is not None and self.verb_seen:
            if place:
                if self.last.location is None or self.last.location_from != "post":
                    self.last.location, self.last.location_from = span, "post"
            elif self.last.object is None:
                self.last.object = span
        elif not self.verb_seen and place:
            self.pre_loc, self.pre_loc_from = span, "pre"
        return end

    def _predicate_follows(self, j: int, chars: int = 0) -> bool:
        """Does a verb follow ``j`` after only adverbs, prefixes, a place or a facing (and at most
        ``chars`` unknown characters: 主人冠端玄即位, the dress before the act)?"""
        while j < len(self.toks):
            if CHAR in self.kinds(j) and chars > 0:
                chars -= 1
                j += 1
                continue
            k = self.kinds(j)
            if k & {VERB, OTHERV}:
                return OTHERV in k or not self._dish_noun(j)
            if WITH in k and ACTOR in self.kinds(j + 1):
                j = self._actor_group_end(j + 1)
                continue
            if NUM in k and ACTOR in self.kinds(j + 1):  # 主人一相出迎: an attendant beside
                j += 2
                continue
            if k & _SKIP_BEFORE_PREDICATE or (OBJECT in k and LOCATION in k):
                j += 1
                continue
            return False
        return False

    # -- verbs --------------------------------------------------------------------------------
    def _noun_verb(self, i: int) -> bool:
        """A closed-list character used as a thing or place here (辭洗, 卒洗, 設洗, 適洗, 取祭)?"""
        t = self.toks[i]
        last = self.last
        nxt = self.tok(i + 1)
        if t.text == self.voc.normalise("洗") and nxt is not None and nxt.text in self.voc.basin_stands:
            return True  # 洗在阼階東南, 洗有篚在西 (士冠禮): the basin stands there, no washing
        if self._listed_thing(i):
            return True  # 摡豆、籩、勺、爵、觚、觶、几、洗、篚于東堂下 (少牢): the basin among the vessels
        adjacent = last is not None and self.last_verb_index == i - 1
        if adjacent:
            objs = self.voc.act_objects.get(self.voc.normalise(last.lemma), False)
            if objs is None or (objs and t.text in objs):
                return False  # handled as the act declined / finished in _verb
            if last.lemma in _GO_TO and t.text in self.voc.place_nouns:
                self._set_location(last, (t.start, t.end), "post")
                return True
            if self.voc.normalise(last.lemma) in self.voc.object_verbs and last.object is None \
                    and not self._declined_then(last, t.text):
                last.object = (t.start, t.end)
                return True
        return False

    def _name_subject(self, span: Span) -> None:
        """``span``, a participant written here, is the subject of the piece."""
        self.piece.mentions.append(span)
        self.subject = self.piece.subject = span

    def _someones_charge(self, i: int) -> bool:
        """Is the 命 at ``i`` the charge of the participant named with it, a thing, not a command:
        after 以 and him (以君命使), after him and 之 (士昏禮 申之以父母之命), or bowed for (聘義 拜君命之辱:
        the bow is for the lord's message)?"""
        if i < 2 or self.toks[i].text != self.voc.normalise("命"):
            return False
        before, owner = self.kinds(i - 1), self.kinds(i - 2)
        bowed_for = self.toks[i - 2].text == self.voc.normalise("拜")
        return (ACTOR in before and (WITH in owner or bowed_for)) or (ZHI in before and ACTOR in owner)

    def _only_things_after(self, i: int) -> bool:
        """Do only things (the lexicon's or unknown characters) follow ``i`` to the clause end (君賜車馬:
        what is given, to no one named)?"""
        j = i + 1
        while j < len(self.toks) and self.kinds(j) and self.kinds(j) <= {OBJECT, CHAR, NUM}:
            j += 1
        return j > i + 1 and (j == len(self.toks) or PUNCT in self.kinds(j))

    def _music_starts(self, i: int) -> bool:
        """Is the 作 at ``i`` "starts" with nothing bidden after it (燕禮's 記 樂作而后就物: the music
        starts, then the lord goes to his mark)? 作 before a participant or an act bids it (作上耦射,
        作射如初)."""
        nxt = self.tok(i + 1)
        return self.toks[i].text == self.voc.normalise("作") and (nxt is None or bool(nxt.kinds & {ADV, PUNCT}))

    def _assistant_acts(self, i: int) -> bool:
        """Is the 贊 at ``i`` the assistant as a participant (士昏禮 贊戶內北面答拜, 贊答拜, 贊以肝從), where
        he opens the piece or follows an act the 斷句 joined him to? A place, a facing, an answer or 以
        after him: a person stands, answers and leads; a closed-list act right after it is assisted
        (大射 贊設決: the 小射正's)."""
        nxt = self.tok(i + 1)
        return nxt is not None and VERB not in nxt.kinds and bool(nxt.kinds & {LOCATION, FACING_KIND, RESP} or (
            WITH in nxt.kinds and nxt.text == self.voc.normalise("以")))

    def _listed_thing(self, i: int) -> bool:
        """Is the closed-list thing at ``i`` an item of a list of things, 、 on both sides and a
        thing beyond each (几、洗、篚)? 洗、酌 (two acts) has no thing before it."""
        return all(AND in self.kinds(k) and PUNCT in self.kinds(k) for k in (i - 1, i + 1)) \
            and self._plain_thing(i - 2) and self._plain_thing(i + 2)

    def _declined_then(self, last: Draft, x: str) -> bool:
        """辭 then an act it never declines (小臣正辭升): two acts, the refusal and the bower's climb."""
        objs = self.voc.act_objects.get(self.voc.normalise(last.lemma), False)
        return last.lemma == "辭" and bool(objs) and x not in objs and x in self.voc.lemmas

    def _verb(self, i: int) -> int:
        t = self.toks[i]
        lemma = t.lemma or t.text
        x = t.text
        last = self.last
        adjacent = last is not None and self.last_verb_index == i - 1
        if adjacent and last.object is None:
            objs = self.voc.act_objects.get(self.voc.normalise(last.lemma), False)
            if objs is None or (objs and x in objs):
                last.object = (t.start, t.end)  # 卒洗, 辭降: the act finished or declined
                if last.lemma == "卒":
                    last.finishes = lemma
                self.last_verb_index = i
                return i + 1
            if x == self.voc.normalise("命") and self._reports_back(i - 1):
                return i + 1  # 反命: the report brought back, no act and no object (as 受命)
            if x in self.voc.nounable and self.voc.normalise(last.lemma) in self.voc.object_verbs \
                    and not self._declined_then(last, x):
                if x not in self.voc.received_not_things:
                    last.object = (t.start, t.end)  # 取祭
                return i + 1  # 受命, 受酬: the charge or the pledge received is no act, and no object
            if x in self.voc.noun_after.get(self.voc.normalise(last.lemma), ()) \
                    and not self.kinds(i + 1) & {OBJECT, ZHI, PREP}:
                last.object = (t.start, t.end)  # 祭薦, 執奠, 酌奠: the dishes, the cup set down
                self.last_verb_index = i
                return i + 1
        if self.command:
            if last is not None and self.voc.normalise(last.lemma) in self.voc.request_verbs and last.object is None:
                last.object = (t.start, t.end)  # 命取矢 (to the clause end: _command_objects); 告射于公 has none
            return i + 1
        nxt = self.tok(i + 1)
        prev = self.tok(i - 1)
        if prev is not None and prev.text in self.voc.not_acts_after and not adjacent:
            return self._named_not_done(i)  # 為加爵 (the added cup, a round), 無從 (no dish goes with it): no act
        if lemma == "進" and nxt is not None and nxt.text in self.voc.laid_forward:
            return self._named_not_done(i)  # 皆右體，進腠; 魚左首，進鬐: how the pieces lie, no one advances
        if nxt is not None and SAY in nxt.kinds and lemma == "卒":
            return i + 1  # 卒曰: "at the end he says", no act of finishing
        if nxt is not None and nxt.text == self.voc.normalise("用") and not adjacent:
            return self._named_not_done(i)  # 獻用爵: "the presentation uses a 爵", the round named, no act
        if nxt is not None and nxt.text == self.voc.ye and not adjacent and (prev is None or prev.text != self.voc.its) \
                and not self.neg:
            # 非對也, 下亦降也: a definition, no act (於其入也 is one; 曲禮 君於士，不答拜也: a bow not made, the rule)
            return self._named_not_done(i)
        if lemma == "對" and ((self.tok(i + 1) is not None and self.toks[i + 1].text in self.voc.not_reply_after)
                             or (self.tok(i - 1) is not None and self.toks[i - 1].text == self.voc.xiang)):
            self.verb_seen = True  # 筵對席, 長兄弟對之, 士昏禮 坐持几相對: "opposite", not the reply
            self.piece.other_verb = True
            self.last = None
            self.last_verb_index = -9
            return i + 1
        if x == self.voc.normalise("命") and self.tok(i - 1) is not None and self.toks[i - 1].text == self.voc.normalise("有") \
                and self.kinds(i + 1) & {VERB, OTHERV}:
            self.command = True  # 公有命徹冪: the act commanded is not done
            return i + 1
        opened_by_assistant = self.piece.assistant is not None and i - 1 == self.piece_start
        if x in self.voc.nounable and ((OTHERV in self.kinds(i - 1) and self.toks[i - 1].text not in self.voc.continuing
                                        and self.toks[i - 1].text not in self.voc.intransitive
                                        and not opened_by_assistant) or (
                WITH in self.kinds(i - 1) and self.kinds(i + 1) & {VERB, OTHERV}
                and x != self.voc.normalise("拜"))):  # 以拜賜: to bow for the gift, an act
            return i + 1  # 聽命, 致命, 以命升賓: the command as a thing (贊洗爵 opening a clause: the act)
        if self._someones_charge(i):
            return i + 1  # 以君命使, 申之以父母之命: the lord's, the parents' command, a thing
        if x in self.voc.nounable and self.tok(i - 1) is not None \
                and self.toks[i - 1].text in (self.voc.normalise("得"), self.voc.its):
            return i + 1  # 不得命: the leave not obtained; 聘禮 介攝其命: the envoy's charge, a thing
        if self.tok(i + 2) is not None and self.toks[i + 1].text == self.voc.normalise("不") \
                and self.toks[i + 2].text == self.voc.normalise("得"):
            return self._named_not_done(i)  # 辭不得命: "the refusal not granted", the refusal named, no new act
        if (x in self.voc.nounable and last is not None and self.last_verb_index == i - 2
                and CHAR in self.kinds(i - 1) and self.voc.normalise(last.lemma) in self.voc.object_verbs
                and last.object is None):
            last.object = (self.toks[i - 1].start, t.end)  # 授挼祭: the 挼祭 handed over
            return i + 1
        if i > 0 and (self.toks[i - 1].text == "所" or (
                i > 1 and self.toks[i - 2].text == "所" and self.kinds(i - 1) & {ADV, NEG})):
            return i + 1  # 所設: "what was set", a noun; 曲禮 祭所先進: "what was served first"; 喪服 傳 父之所不降
        if i > 0 and LIKE in self.kinds(i - 2) | self.kinds(i - 1) and self.toks[i - 1].text.endswith("初"):
            return i + 1  # 如初設: compared, not performed
        if x in self.voc.adverbial_verbs and self.kinds(i + 1) & {VERB, OTHERV} and not self.neg \
                and not self._reports_back(i):
            return i + 1  # 反奠之, 復見: "back", "again"
        if last is not None and (last.object is not None or last.location_from in ("post", "source")) \
                and not (last.location_from is None and last.object is not None and self._count_object(last.object)):
            self.pre_facing = None  # the verb phrase before is complete: its place and facing stay there
            self.pre_loc = None
        d = Draft(lemma=lemma, surface=(self.prefix_start if self.prefix_start is not None else t.start, t.end),
                  clause=self.clause, verb_token=(t.start, t.end))
        if x in self.voc.counted_verbs:
            d.count = self.count
        d.response = self.resp
        d.negated = self.neg
        d.subject = self.subject
        d.all_marker = self.piece.all_marker
        d.facing = self.pre_facing
        if self.pre_loc is not None:
            d.location, d.location_from = self.pre_loc, self.pre_loc_from
        if self.companion is not None:
            d.target, self.companion = self.companion, None
        elif self.with_target is not None:
            if x in self.voc.mutual_verbs and not (
                    self.subject is not None and self.with_word == self.voc.normalise("與")
                    and (self.piece.all_marker or x == self.voc.normalise("拜"))):
                d.target = self.with_target
                self.with_used = True
            elif self.with_word == self.voc.normalise("與") and self.subject is not None and not self.with_used \
                    and ZHI not in self.kinds(self._index_at(self.with_target[0])):  # 先生與之言則對: 之 is no one named
                self.subject = (self.subject[0], self.with_target[1])  # 尸與侑升: both act
                self.piece.subject = self.subject
                d.subject = self.subject
                self.with_target = None
        self.piece.acts.append(d)
        self.last = d
        self.last_verb_index = i
        self.verb_seen = True
        self._reset_prefixes()
        if x in self.voc.command_verbs and self.kinds(i + 1) & {VERB, CHAR, OTHERV} \
                and not self.kinds(i + 1) & {ACTOR}:
            self.command = True  # 命送, 命挼祭, 命取矢: what is commanded is no act of its own
        return i + 1

    def _named_not_done(self, i: int) -> int:
        """The verb at ``i`` is named, not performed (a definition, a round, an absence): no act, and
        what follows it in the clause is no object of an earlier verb."""
        self.verb_seen = True
        self.piece.other_verb = True
        return i + 1

    def _reports_back(self, i: int) -> bool:
        """反命 / 復命 at ``i`` ending its clause or before 于: the act of reporting back, 命 the report."""
        t, nxt = self.toks[i], self.tok(i + 1)
        if self.voc.normalise(t.lemma or t.text) not in self.voc.report_verbs or nxt is None \
                or nxt.text != self.voc.normalise("命"):
            return False
        after = self.tok(i + 2)
        return after is None or bool(after.kinds & {PUNCT, PREP})

    def _causee(self, i: int) -> int:
        """A new piece whose subject is the participant at ``i`` (after 使 / 遣)."""
        j = self._actor_group_end(i) if ACTOR in self.kinds(i) else i + 1
        span = (self.toks[i].start, self.toks[j - 1].end)
        self._close()
        self._new_piece(span)
        self.piece.causee = True
        self.piece.mentions.append(span)
        return j

    def _dish_noun(self, i: int) -> bool:
        """Is the closed-list character at ``i`` a dish here (就其薦, 辟薦, 徹主婦薦、俎)?"""
        t = self.tok(i)
        if t is None or t.text not in self.voc.dish_nouns:
            return False
        prev = self.tok(i - 1)
        if prev is not None and prev.text in ("其", "辟") and prev.end == t.start:
            return True
        return AND in self.kinds(i + 1) and OBJECT in self.kinds(i + 2)

    def _dish(self, i: int) -> int:
        """The dish (with its owner or 其, and the things listed after it) as the last act's thing
        or, after a verb of motion, its place."""
        start = i
        prev = self.tok(i - 1)
        if prev is not None and prev.end == self.toks[i].start and (
                prev.text == "其" or (ACTOR in prev.kinds and self.verb_seen)):
            start = i - 1
        j = i + 1
        while AND in self.kinds(j) and OBJECT in self.kinds(j + 1):
            j += 2
        span = (self.toks[start].start, self.toks[j - 1].end)
        d = self.last
        if d is not None and self.verb_seen:
            if d.lemma in _MOTION_TO_PLACE:
                self._set_location(d, span, "post")
            elif d.object is None:
                d.object = span
        return j

    def _pronoun(self, i: int) -> None:
        t = self.toks[i]
        d = self.last
        if d.lemma in _THING_FIRST and OBJECT in self.kinds(i + 1) and d.target is None:
            d.target = (t.start, t.end)  # 王受之玉: from him, the jade
        elif d.lemma in _TARGET_LEMMAS and d.lemma not in _THING_FIRST and d.target is None:
            d.target = (t.start, t.end)
            if d.lemma == "命" and self.kinds(i + 1) & {VERB, CHAR, OTHERV}:
                self.command = True  # 公命之升, 公食大夫禮 命之成拜: what he is bidden is not done here
        elif d.object is None:
            d.object = (t.start, t.end)

    # -- things, places, facings --------------------------------------------------------------
    def _object_context(self, i: int) -> bool:
        """席 / 筵 / 洗 after a verb that handles things (設席, 徹筵) is a thing, else a place."""
        d = self.last
        if d is None or not self.verb_seen:
            return False
        return d.lemma not in _MOTION_TO_PLACE and d.lemma not in ("升", "降")

    def _object_follows(self, i: int) -> bool:
        for j in (i + 1, i + 2):
            k = self.kinds(j)
            if OBJECT in k:
                return True
            if not k & {CHAR, NUM}:
                return False
        return False

    def _open_object_end(self, i: int) -> int:
        """End of a thing the lexicon does not know, right after a verb of handling (or of a place,
        after a verb of going: 適次, :data:`_OPEN_PLACE_VERBS`): one to three unknown characters
        closed by the clause end, 于 / 以 or a verb outside the closed list (受爵弁，; 執皮弁以…;
        取肝擩于鹽 where the lexicon lacks 肝); ``i`` itself when the run is no such thing (a function
        word, or running on into more text)."""
        j = i
        while j < len(self.toks) and j - i < 3 and self.kinds(j) == {CHAR} and self.toks[j].text not in self.voc.not_things:
            j += 1
        if j == i:
            return i
        after = self.kinds(j)
        if j == len(self.toks) or after & {PUNCT, PREP, WITH, OTHERV}:
            return j
        return i

    def _object(self, i: int) -> int:
        if self.toks[i].text == "其" and OBJECT in self.kinds(i + 1):
            i += 1  # 辭其贄: the object is 贄
        start = i
        j = i
        while j < len(self.toks) and self.kinds(j) & {CHAR, NUM} and not self.kinds(j) & {OBJECT}:
            j += 1
        if OBJECT not in self.kinds(j):
            return i + 1
        j += 1
        while j < len(self.toks):
            k = self.kinds(j)
            if OBJECT in k and not k & {VERB}:
                j += 1
            elif k & {AND, ZHI} and (listed := self._counted_thing_end(j + 1)) is not None:
                # 兩豆、兩籩 / 二爵、二觚、四觶: the things listed; 中之八算, 豐上之觶: the thing of a thing
                j = listed
            elif WITH in k and self.toks[j].text == self.voc.normalise("與") and self._plain_thing(j + 1):
                j += 2  # 徹豐與觶, 執薦與俎: two things, not a partner
            else:
                break
        if self._offering_pieces(start, j):
            j += 1  # 取黍稷肺祭授尸, 贊籩祭: the offering pieces, not the act 祭
        first = self.toks[start]
        # 執其薦 → 薦 (其薦 is one lexicon term; the spans leave 其 out too, pipeline.actions.spans)
        span = (first.start + (1 if first.text[:1] == "其" and len(first.text) > 1 else 0), self.toks[j - 1].end)
        d = self.last
        if self.piece.subject is not None and not self.verb_seen and not self.piece.acts:
            self.piece.holds_things = True
        if self.piece.thing_topic and not self.verb_seen and self.piece.topic is None:
            self.piece.topic = span
        if d is not None and self.verb_seen and d.object is None:
            if d.lemma in _MOTION_TO_PLACE and LOCATION in self.kinds(start):
                self._set_location(d, span, "post")
            else:
                d.object = span
                if d.lemma == "卒" and self.last_verb_index == start - 1:
                    d.finishes = "飲"  # 卒爵, 卒觶: the drinker empties the cup
        return j

    def _counted_thing_end(self, i: int) -> Optional[int]:
        """Index after a thing the lexicon knows at ``i``, with a count or unknown characters before
        it (二觚, 八算), else None."""
        j = i
        while self.kinds(j) & {CHAR, NUM} and not self.kinds(j) & {OBJECT} and j < i + 2:
            j += 1
        k = self.kinds(j)
        return j + 1 if OBJECT in k and not k & {VERB, ACTOR} else None

    def _offering_of(self, j: int) -> bool:
        """Is the 祭 at ``j``, right after a food or dish, its offering (肺祭, 籩祭, 豆祭)? Not where a
        place or a thing follows it (擩于醢，祭于豆間 with the marks lost: 祭 is the act)."""
        t = self.tok(j)
        if t is None or VERB not in t.kinds or t.lemma != "祭" or self.toks[j - 1].text[-1:] not in self.voc.offering_sources:
            return False
        return not self.kinds(j + 1) & {OBJECT, ZHI, PREP, LOCATION}

    def _offering_pieces(self, start: int, j: int) -> bool:
        """Is the 祭 at ``j`` the offering pieces of the food or dish ``toks[start:j]`` (肺祭, 籩祭)?
        Only a verb's object (取肺祭), not a place (擩于醢祭)."""
        return bool(self.kinds(start - 1) & {VERB, OTHERV}) and self._offering_of(j)

    def _offering_place(self, j: int) -> bool:
        """Is the 祭 at ``j``, closing a place after 于 that ends on a dish (同祭于豆祭), the offerings
        laid there rather than a new act?"""
        return OBJECT in self.kinds(j - 1) and self._offering_of(j)

    def _run_end(self, i: int) -> int:
        """End index of a place phrase starting at ``i`` (阼階上當楣, 篚下, 主人之北, 薦東)."""
        j = i
        seen_place = False
        if self.toks[i:i + 1] and self.toks[i].text == self.voc.the_place_where and VERB in self.kinds(i + 1) \
                and self.kinds(i + 2) & {OBJECT, LOCATION, DIR}:
            j = i + 2  # 所設中之西南: southwest of where the 中 was set
        while j < len(self.toks):
            k = self.kinds(j)
            if ACTOR in k:
                if ZHI in self.kinds(j + 1):
                    j += 2
                    seen_place = True
                    continue
                if j == i and DIR in self.kinds(j + 1) and self.toks[j + 1].text in _SIDES:
                    j += 2  # 立于賓南: south of the guest
                    seen_place = True
                    continue
                break
            if VERB in k:
                # a dish or basin named as a place: 薦東, 洗南 (當 … too)
                if (k & {OBJECT, LOCATION} or self.toks[j].text in self.voc.nounable) and (
                    DIR in self.kinds(j + 1) or not seen_place
                ) and (DIR in self.kinds(j + 1) or self.toks[j].text in self.voc.place_nouns):
                    j += 1
                    seen_place = True
                    continue
                if self.toks[j].text in self.voc.dish_nouns and not seen_place and self._plain_thing(j + 1) \
                        and self.kinds(j + 2) & {DIR, ZHI}:
                    j += 2  # 設于薦豆之北 (少牢): north of the 豆 of the offerings, no act of 薦
                    seen_place = True
                    continue
                break
            if ZHI in k and seen_place and self.kinds(j + 1) & {DIR, LOCATION, CHAR}:
                j += 1
                continue
            if k & _PLACE_RUN and not k & {FACING_KIND, ORDER}:
                if COUNT in k and VERB in self.kinds(j + 1):
                    break
                if CHAR in k and not seen_place and j - i >= 3:
                    break
                seen_place = True
                j += 1
                continue
            break
        return j

    def _prep(self, i: int) -> int:
        word = self.toks[i].text
        nxt = self.tok(i + 1)
        its_actor = nxt is not None and nxt.text == self.voc.its and ACTOR in self.kinds(i + 2)
        j = i + 1 if its_actor else self._run_end(i + 1)
        if j > i + 1 and ZHI in self.kinds(j) and self._plain_thing(j + 1):
            j += 2  # 酌于西方之尊: after 于 the vessel named by where it stands is the place
        if j > i + 1 and self._offering_place(j):
            j += 1  # 同祭于豆祭: the offerings already laid at the 豆 are the place (GUIDE: 豆祭 a noun)
        if j == i + 1:
            # 于 + participant: 酢于長賓, 授尸于筵前 … the person the act is done to; 於其長: his elder
            a = i + 2 if its_actor else i + 1
            if ACTOR in self.kinds(a):
                k = self._actor_group_end(a)
                self.piece.mentions.append((self.toks[a].start, self.toks[k - 1].end))
            if ACTOR in self.kinds(a) and self.verb_seen:  # 舉觶於其長奠觶: after any verb
                if self.last is not None and self.last.lemma in _YU_TARGET and self.last.target is None:
                    self.last.target = (self.toks[i + 1].start, self.toks[k - 1].end)
                return k
            return i + 1
        if all(self.kinds(x) <= {NUM, COUNT} for x in range(i + 1, j)):
            return j  # 於三哭，猶括髮 (奔喪): at the third wailing, a time, no place
        if self.toks[j - 1].text == self.voc.ye:
            return j  # 男先於女也 (昏義): a comparison the clause explains, no place
        span = (self.toks[i + 1].start, self.toks[j - 1].end)
        source = word == self.voc.normalise("自")
        if word != self.voc.normalise("自") and not self.verb_seen and self.subject is not None:
            self.piece.stance = True  # 上射在左, 上射於右: where he stands in the formation
        if self.verb_seen and self.last is not None:
            self._set_location(self.last, span, "source" if source else "post")
        elif not self.verb_seen:
            if self.pre_loc is None or not source:
                self.pre_loc, self.pre_loc_from = span, ("source" if source else "pre")
        return j

    def _place(self, i: int, bare: bool) -> int:
        j = self._run_end(i)
        if j == i:
            return i + 1
        span = (self.toks[i].start, self.toks[j - 1].end)
        if not any(self.kinds(x) & {LOCATION, DANG, OBJECT} for x in range(i, j)):
            return j  # directions alone (左執爵) are manner, not place
        if bare and j == i + 1 and self.toks[i].text in self.voc.hands:
            return j  # 尚左手: the hand is manner; only 實于左手 makes it a place
        d = self.last
        if self.verb_seen and d is not None and d.object is None and d.lemma not in _MOTION_TO_PLACE \
                and ZHI in self.kinds(j) and self._plain_thing(j + 1):
            end = self._object(j + 1)  # 取豐上之觶, 取俎西之觶: the cup is named by where it stands
            d.object = (self.toks[i].start, self.toks[end - 1].end)
            return end
        if self.verb_seen and self.last is not None:
            before = self.last.location
            self._set_location(self.last, span, "post")
            if before is None and j == i + 1 and self.toks[i].text == self.voc.normalise("位"):
                self.last.location_generic = True
        elif not self.verb_seen and not (self.tok(j) is not None and self.toks[j].text in self.voc.existentials):
            self.pre_loc, self.pre_loc_from = span, "pre"  # not 戶外有二屨 (曲禮): where the shoes are
        return j

    @staticmethod
    def _set_location(d: Draft, span: Span, origin: str) -> None:
        rank = {None: 0, "pre": 1, "source": 2, "post": 3}
        if d.location is None or rank[origin] > rank[d.location_from] or (
            origin == "post" and d.location_from == "post" and d.location_generic
        ):
            d.location, d.location_from = span, origin
            d.location_generic = False

    def _facing(self, i: int) -> None:
        t = self.toks[i]
        span = (t.start, t.end)
        rest = any(VERB in self.kinds(j) for j in range(i + 1, len(self.toks)))
        if self.verb_seen and self.last is not None and not self._predicate_follows(i + 1):
            if self.last.facing is None and self.last.lemma not in LAID_THINGS:
                self.last.facing = span  # not after 設 / 加 / 薦: 設公席于阼階上，西鄉 is how the mat lies
        elif self.verb_seen and self.last is not None and rest:
            self.pre_facing = span
            self.pre_loc = None
            place = self.last.location
            if place is not None and self.last.location_from == "post" and i > 0 and place[1] == self.toks[i - 1].end \
                    and PREP not in self.kinds(self._index_at(place[0]) - 1):
                # 酬賓阼階上北面坐奠觶 (酬賓，阼階上北面坐…, the comma lost): a bare place with a facing
                # opens the next act's stance
                self.last.location, self.last.location_from = None, None
                self.pre_loc, self.pre_loc_from = place, "pre"
        else:
            self.pre_facing = span

    def _index_at(self, start: int) -> int:
        """Index of the token that starts at ``start`` (-1 if none)."""
        return next((k for k, t in enumerate(self.toks) if t.start == start), -1)

    def _skip_like(self, i: int) -> int:
        """如初 / 如賓禮 / 如初儀: not expanded; the comparison is skipped."""
        for j in range(i, min(i + 6, len(self.toks))):
            t = self.toks[j]
            if PUNCT in t.kinds or (WITH in t.kinds and j > i + 1):
                return j  # 如賓服以拜辱: the comparison ends where 以 leads to the act
            if t.text.endswith(_LIKE_ENDS):
                if self.kinds(j + 1) & {CHAR} and self.toks[j + 1].text in _LIKE_ENDS:
                    return j + 2
                return j + 1
        return len(self.toks)


#: acts that lay a thing: a facing written after them is how the thing lies, not the actor's (設膳篚在其北，
#: 西面; 設賓席于戶西，南面; GUIDE 3.3) or where the one served faces (胥薦主人于洗北，西面: none of the
#: dev gold's 31 薦 has a facing); one written before them is his (東面設薦、俎)
LAID_THINGS = frozenset(("設", "加", "薦"))
#: the acts whose target a power is (祭天, 拜日)
_TO_POWERS = frozenset(("祭", "拜"))
_HANDS = set("左 右".split())
_HANDED = set("執 取 祭 加 受 授 奠".split())
_SIDES = set("左 右 东 西 南 北 東".split())
#: the vocabulary's target verbs, where a later participant of the clause can still be the target;
#: 升 takes the one brought up (擯者以命升賓, 乃升長賓), 薦 the one served (胥薦主人, 薦之), 就 the one gone
#: to (就其耦), 飲 the one made to drink (若飲公); 對 (the reply) does not
_TARGET_LEMMAS = (TARGET_VERBS - {"對"}) | {"升", "薦", "就", "飲"}
#: acts directed at a participant after which the doer goes on in the same clause, as the 斷句 joins
#: 授獲者，退立 / 酬賓，阼階上北面坐奠觶 / 公揖卿大夫，升就席 (the one given to does not act next)
_GIVING = set("授 酬 獻 揖".split())
#: what joins a manner to the act after it (服以拜, 哭而拜); the view is simplified, these are the same
_MANNER_LINKS = ("以", "而")
#: going back (反位, 復位): after 拜X or 送X, the bower's or the one's who saw X off, not X's
_BACK = set("反 復".split())
_BOW_SEND = set("拜 送".split())
#: 于 + participant is the one the act is directed at (酢于長賓, 告于主人, 受爵于主人)
_YU_TARGET = set("酢 受 授 告 獻 請 酬 拜 辭 命 揖".split())
#: for these a following 之 is the thing (執之, 奠之), not a person
_THING_FIRST = set("受 授".split())
#: motion verbs whose act goes to a place (坐, 從, 迎 take a bare place as where they happen, not where to)
_MOTION_TO_PLACE = MOTION_VERBS - {"坐", "從", "迎"}
#: a closed-list character that is also a place (洗, the basin) is that place after these: 適洗
_GO_TO = set("適 就 即 反 復".split())
#: after these, characters the lexicon does not know closed by the clause end are a place (適次, 出次)
_OPEN_PLACE_VERBS = _GO_TO | {"出"}
