"""The clause walk: each clause of the 經 passages read in order, who acts in it and with what roles.

:class:`~pipeline.actions.extractor.ActionExtractor` reads a document's passages with one
:class:`_Run`, the state carried from clause to clause (the actor carried over, the place waiting
for its act, the opening acts waiting for their doer, the giver of the last 拜送 …); the rules it
follows, in the order it tries them:

Who acts (``actor``, ``actor_inferred``)
-----------------------------------------
* Written: the subject of the act's own clause, or of a clause before it in the same sentence that
  held only the subject and a place or facing (主人東楹東，北面拜至 → 主人, not inferred).
* Otherwise inferred (``actor_inferred: true``), in this order:
  1. 卒X (卒洗, 卒盥) belongs to whoever did X last since the last reset (卒洗 after 賓不辭洗 is the
     washer's); 卒爵 / 卒觶 to the last drinker (飲), unless the carried actor has taken the cup in
     hand since (不勝者…取豐上之觶…立卒觶; 賓坐祭，卒爵 after others drank). 卒拜 ("when the other's bow is over") does
     not change the carried actor. With no washer yet, 卒洗 right after X辭洗 / X不辭洗 is not X's
     (the other party named in the passage, else None), nor of one who washes his hands next
     (卒洗，主人盥); 釋獲 is the scorer's (釋獲者), never the carried shooter's;
  1b. 受 after the carried actor emptied the cup (卒爵) and another answered his bow, with no new
     cup in his hand since, is the answerer's: he takes the empty cup (公…卒爵…拜。主人答拜。樂闋。升受爵);
  2. a response (荅拜) without a subject is not the bower's: it is the target of the last 拜, or the
     last participant named in the sentence other than the bower; None if there is none;
  3. a 拜 right after a response is the first bower's (再拜賓，賓答拜，拜介 → 主人);
  4. 送 right after X退 / X出 is the host's: the last participant named other than X (賓退，送);
  5. 皆 without a subject in a sentence that names one group (諸侯前朝，皆受舍于朝) is that group's;
     right after an act directed at a group (揖眾賓，皆…) or a command to
     someone (命負侯，皆執其旌…而俟), is theirs, to the end of the clause; right after an act of a
     subject written with 皆 it is that subject's (長皆奠觶于其所，皆揖其弟子);
  5b. 薦 / 設 without a subject, when the carried actor is not the giver of the passage's last
     拜送, have no agent: the dishes are for the one who just received the cup (主人拜送爵，賓少退。
     薦脯醢), unless he who received has since opened a sentence of his own (司馬拜送爵。獲者執爵，…
     設薦俎: his); after the giver's own 拜送 they are his (賓拜送爵，薦脯醢), until another is the
     written subject; nor are they the carried
     actor's right after he went to his mat (大夫升席。設折俎: he is seated to be served);
  6. else the actor of the last act (carry-over). After "Y荅拜。" the next sentence goes back to
     the actor before the response (the drinker goes on, not the one who answered),
     except in unpunctuated text where it opens with 揖 (答拜|揖復位: the 斷句's sentence end).
  7. ``None`` when nobody has been named yet (nor at a sentence opening a new day inside a passage:
     夙興, 厥明, 質明, 明日 start a new scene, :data:`~pipeline.actions.vocabulary.NEW_DAY`; nor at a sentence opening on a
     condition with no subject whose 則 clause names a participant: 若飲公，則侍射者降); such opening acts take the first written,
     non-responding subject named later in the same sentence (卒洗，主人壹揖 → 主人; in unpunctuated
     text one that opens a clause of the 斷句, not one found after an act inside it: 揖|退耦反位), or later in
     the passage when their bow was answered by Y or they end before Y疑立: then the next subject
     other than Y (坐祭…遂拜。賓答拜。主人降洗; 卒洗，揖讓升。賓西階上疑立。主人實觶 → 主人); never
     the one who then receives (升實散，大夫拜受: the giver stays unnamed), nor the one an opening act
     was done to (乃命執冪者|執冪者升 as a 斷句 model may leave it in one sentence: bidden, not bidding).
  8. X疑立 (standing waiting) gives the carried acts of the sentence before it to the other party
     (not a dish served with no one named: 賓升席。乃設折俎。主人阼階東疑立 — the 賓 is served);
     a clause X在/於 place alone (上射在左, 卦者在左) is a formation and does not take over; after
     X賜Y Y acts next; after a request (請 / 告) answered by 許 the asker goes on; a passage opening
     with Y答拜 goes on with Y; a 若 clause ends a waiting subject.
* A written subject is the participant before the verbs, not one after 以/與 (the partner), 于/自
  (a place or a person acted on) or a possessive 之 (主人之北 is a place); a participant beside
  the subject (主人一相) does not replace it, and one right after a verb outside the closed list
  is that verb's object (賓厭眾賓升 → 升 is the 賓's), as is one right after 授 酬 獻 揖 (授獲者退立, 公揖卿大夫升). A participant after a side word followed by
  a predicate is a place (主人介右北面拜送爵: 介右), except the hands (尸左執角: 左執).
* A clause whose subject only assists (宗人贊祭, 庶子贊授肺) does not take over the carried
  actor: the principal's sequence goes on after it. The same for a subject that only treats the
  carried actor (擯者延之曰：「升。」升成拜, 王勞之。再拜稽首 → the one bidden or greeted acts). 及X
  opening a clause (主人降，及賓盥) names the partner; the subject carries on. A thing as topic of 從 入 出 設 加 (肝從, 俎入設, 薦俎設于其位)
  has no agent (None), and for 設 / 加 it is the object.
* 皆 after a written subject keeps that subject as written (眾賓皆入 → 眾賓; X及Y皆 also where a
  sentence before named another party); 皆 never splits a plural actor. A plural written as X及Y / X、Y / X與Y (with a verb that is not 揖 讓 拜) is one actor.

Roles
-----
* ``target``: a participant right after a verb that takes one (獻賓, 酢主人, 拜賓, 迎賓), after 于
  with such a verb (酢于長賓), or after 以/與 before 揖 讓 拜 (主人以賓三揖 → target 賓).
* ``object``: the thing after the verb (爵, 二勺, 脯醢, 之); for 卒 and 辭 the act finished or
  declined (卒洗, 辭降), for 拜 the thing of its purpose (拜送爵); for 命 the act commanded, which
  gives no tuple of its own (命弟子納射器). 以 + thing is an instrument, not the object.
* Closed-list characters that are not acts here: names (司射, 釋獲者, 舉觶者 and any VERB…者), places
  (洗南, 薦西, 適洗), things (射器, 取祭, 受命, 聽命, 所設, 祭薦, 執奠, 酌奠, and X祭 after a food or
  dish that is a verb's object: 取黍稷肺祭, 贊籩祭), what 命 commands (命送, 命挼祭), titles made of
  a verb and a thing except right after a subject (舉奠洗 vs 嗣舉奠), 相 "each other" (相左, 相揖), adverbs (反 / 復 / 即 / 就 right before
  another verb: 反奠之, 復見), and anything after 如初.
* ``location``: after 于/於/在 or 自 (the source, used when no destination is written), a bare place
  after a verb of motion (即位, 降席, 入門左), or a place written before the verbs of the clause,
  which goes to each of them (主人阼階上當楣北面再拜). 當 stays inside the place (當西序).
* ``facing``: before the verbs → each of them; after the last verb → that verb. A clause that holds
  only a place or a facing (賓進，東北面，辭洗) gives it to the next act of the same actor in the
  same sentence, else to the empty slots of the last act of that actor before it. Never after 設 /
  加 / 薦: there it is how the thing lies or where the one served faces (設席于東序，西面).
* ``count`` only where 再 三 壹 一 stands before 拜 揖 讓 辭; ``response`` where 荅/答 does.
* ``start``/``end``: the clause stating the act, without its surrounding punctuation, in raw
  coordinates; ``surface`` and every role are the characters as written (``view.written``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional

from pipeline.actions.clause import LAID_THINGS, Draft, Piece, Span
from pipeline.actions.passage import Passage, split_marks
from pipeline.actions.speech import (
    ends_clause, quote_follows, say_position, speech_mask, speech_runs_on, unmasked,
)
from pipeline.actions.tokens import Token, iter_tokens, tokenize
from pipeline.actions.vocabulary import (
    ACTOR, ADV, AND, CHAR, CLAUSE_MARKS, CLAUSE_TRIM, LIKE, LOCATION, NEG, OBJECT, OTHERV, SAY, SENTENCE_MARKS, SPEECH_CLOSE,
    SPEECH_OPEN, VERB,
)
from pipeline.records import Action
from pipeline.text.view import TextView

if TYPE_CHECKING:
    from pipeline.actions.extractor import ActionExtractor


_TITLE = re.compile(r"(第[一二三四五六七八九十]+|[礼仪儀禮]第?[一二三四五六七八九十]+)\s*$")
_JI = re.compile(r"^\s*[记記]\s*[。．.：:︰]?\s*")
#: a passage opening a rite with its name (鄉射之禮。, 大射之儀。): the carried actor is reset, and
#: the name states no act (射 of 鄉射 is the rite's name); a comparison 如X之禮 is not one
_RITE_OPEN = re.compile(r"^\s*(?![如若])\S{1,4}之[礼禮仪儀]")
_TRIM = CLAUSE_TRIM
#: the same less the quotation marks (where a quotation closes)
_TRIM_NOT_QUOTES = "".join(c for c in CLAUSE_TRIM if c not in SPEECH_OPEN + SPEECH_CLOSE)
#: a clause that ends naming a rite (賓酬之禮, 獻眾兄弟之儀): its verbs name acts, none is done
_RITE_NAMED = re.compile(r"之[礼禮仪儀义義]也?$")  # and its meaning (燕義 莫敢適之義也: no one matches him)


@dataclass
class _Emitted:
    action: Action
    actor_key: Optional[str]
    target_key: Optional[str]
    lemma: str
    sentence: tuple[int, int]  # (passage number, sentence number)
    clause: Span  # the act's clause in the passage's view (the action's start/end are raw)


@dataclass
class _Pending:
    """A place/facing-only clause waiting for the next act of its actor."""

    actor_key: Optional[str]
    actor: Optional[str]
    written: bool
    place: Optional[str]
    facing: Optional[str]
    sentence: tuple[int, int]
    after: int  # index in the emitted list where it was seen


class _Run:
    """The reading state of one document."""

    def __init__(self, extractor: "ActionExtractor"):
        self.x = extractor
        self.voc = extractor.vocabulary
        self.emitted: list[_Emitted] = []
        self.current: Optional[str] = None  # written form of the carried actor
        self.pending: Optional[_Pending] = None
        self.named: list[tuple[str, tuple[int, int]]] = []  # participants named, with their sentence
        #: the carried actor before the last response (荅拜): the next sentence goes back to it
        self.before_response: Optional[str] = None
        self.reverting = False
        #: the giver whose 拜送 ended the last sentence: dishes served next are still his (主人拜送。設菹醢)
        self.sender: Optional[str] = None
        #: (number of acts emitted, actor): the last act was a written group's with 皆 (長皆奠觶)
        self.all_written: Optional[tuple[int, str]] = None
        #: ((sentence, clause), actor, inferred): the group a 皆 clause's first act went to, for its later acts
        self.all_group: Optional[tuple[tuple, str, bool]] = None
        #: acts of the opening, before anyone was named: the first named non-responding actor of the
        #: passage takes them (卒洗，主人壹揖 …)
        self.unresolved: list[_Emitted] = []
        #: the opening acts were answered by (or end before the waiting of) this participant: the
        #: next other participant written as a subject anywhere in the passage takes them
        self.unresolved_not: Optional[str] = None
        #: the acts given to no one since the last act someone was given (卒洗，揖讓升，酌，獻賓 after 賓辭洗)
        self.no_actor: list[_Emitted] = []
        #: such acts that present a cup to someone (獻賓) whose receipt came next: the one who then
        #: sends it off or answers his bow (主人拜送爵, 主人答拜) presented it
        self.presented: list[_Emitted] = []
        #: the answer (荅拜) opened the passage: no earlier act of it to go back to
        self.response_opens = False
        self.passage_number = -1
        #: the sentence in which 命X皆… bade a group: its clauses that name no one say what was bidden
        self.bidding: Optional[tuple[int, int]] = None
        #: the carried actor is the unnamed one treated just before (若君賜之爵，則下席): acts are
        #: nobody's named act (actor None) until a participant is written as a subject again
        self.unnamed = False
        #: (carried actor, unnamed) before the last written subject took over: 然後 goes back to it
        self.before_subject: Optional[tuple[Optional[str], bool]] = None
        #: 卒X looks back for X only after the last reset (a new chapter is a new rite)
        self.history_start = 0
        #: start → end of the passage's participants that only the span model reads (model_names)
        self.names: Optional[dict[int, int]] = None

    def key(self, written: Optional[str]) -> Optional[str]:
        return None if written is None else self.x.normalise(written)

    def reset(self) -> None:
        self.current = None
        self.pending = None
        self.named.clear()
        self.before_response = None
        self.reverting = False
        self.forget_opening()
        self.unnamed = False
        self.before_subject = None
        self.history_start = len(self.emitted)

    def forget_opening(self) -> None:
        """Nothing waits any more for who did the opening acts (a new passage, scene or rite)."""
        self.unresolved.clear()
        self.unresolved_not = None
        self.presented, self.no_actor = [], []

    def new_scene(self) -> None:
        """Nobody is carried into what follows: its opening acts wait for the one it names."""
        self.flush_pending()
        self.current, self.unnamed = None, False
        self.forget_opening()

    def new_sentence(self, revert: bool = True) -> None:
        self.flush_pending()
        self.sender = None
        if self.reverting and self.emitted and _answers(self.emitted[-1].action):
            if not self.emitted[-1].action.response:
                self.sender = self.current
            if not self.response_opens and revert and not self._left_before_answer():
                self.current = self.before_response  # after 賓答拜。 the drinker goes on, not the answerer
        self.before_response = None
        self.reverting = False

    def _left_before_answer(self) -> bool:
        """Did the one whose sequence the last answer interrupted go out or withdraw right before it
        (賓出，主人拜送。有賓後至者，則拜之 — 奔喪)? He is gone: the next act is not his."""
        key = self.key(self.before_response)
        gone = next((e for e in reversed(self.emitted[:-1]) if e.actor_key == key), None)
        return gone is not None and gone.lemma in _LEAVING and not gone.action.negated

    # -- one passage --------------------------------------------------------------------------
    def passage(self, number: int, p: Passage, known: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
        """Read one passage; the view ranges of its speech written without quotation marks."""
        view = p.view
        text = view.text
        self.names = None
        if not text.strip():
            return []
        rite = _rite_name(text, p.sentences)
        if _TITLE.search(text.strip(_TRIM)) or _JI.match(text) or rite:
            self.reset()
        self.forget_opening()  # the opening of a passage looks ahead only inside the passage
        self.passage_number = number
        self.names = self.x._names_in(text, p.spans, known) if self.x.model_names else None
        speech = speech_mask(text)
        for qs, qe in p.quoted:  # quoted in a witness: bounded as 「…」 is
            speech[qs:qe] = [True] * (qe - qs)
        sentences = sorted(p.sentences) or split_marks(text, 0, len(text), SENTENCE_MARKS)
        clauses: list[tuple[int, int]] = []
        for s, e in sorted(p.clauses) or [(0, len(text))]:
            clauses.extend(split_marks(text, s, e, CLAUSE_MARKS))
        punctuated = any(ch in CLAUSE_MARKS for ch in text)
        if not punctuated:
            clauses, sentences = self._names_kept_whole(text, clauses, sentences)
            clauses, sentences = self._things_kept_whole(text, clauses), self._things_kept_whole(text, sentences)
            clauses = _cut_clauses(text, _cut_clauses(text, clauses, self._refused_bow_cuts), self._doubled_name_cuts)
            clauses = _cut_clauses(text, clauses, self._consent_cuts)
            clauses = _cut_clauses(text, clauses, self._as_before_cuts)
            clauses = self._join_listed(text, clauses, sentences)
            clauses, sentences = self._subjects_cut_off(text, clauses, sentences)
            clauses = self._targets_cut_off(text, clauses, sentences)
            clauses = self._bidden_cut_off(text, clauses)
        current_sentence: Optional[tuple[int, int]] = None
        said_until = -1  # speech after 曰 without quotes
        spoken: list[tuple[int, int]] = []
        for at, (cs, ce) in enumerate(clauses):
            if cs < rite:
                continue  # the rite's name (鄉射之禮。): no act
            sent_index = _containing(sentences, cs)
            sentence = (number, sent_index)
            opens_sentence = sentence != current_sentence
            if opens_sentence:
                # 賓北面答拜|揖復位 with a sentence end the 斷句 put after 答拜: the one who answered
                # bows and goes back (the editors never end the sentence there), not the drinker
                bows_on = not punctuated and text[cs:ce].strip(_TRIM)[:1] == self.x.normalise("揖")
                self.new_sentence(revert=not bows_on)
                current_sentence = sentence
            elif not punctuated and self._refused_answer(text, cs):
                self.new_sentence()  # 再拜賓不答拜|揖入 (士昏禮 without marks): the bower goes on, as after 。
            elif not punctuated and self._drinks_after_send_off(text, cs, ce):
                self.new_sentence()  # 婦拜受|姑拜送|坐祭 (士昏禮 without marks): the one who received drinks
            trimmed = _trim(text, cs, ce)
            if trimmed is None:
                continue
            if opens_sentence and text[trimmed[0]] in self.voc.generals:
                # 凡適堂西，皆出入于司馬之南: a rule of the 記 for whoever does it, where its rules run
                # together (a web copy): no one of the rule before is carried into it, nor out of it
                self.current, self.unnamed = None, True
            if opens_sentence and at > 0 and (text.startswith(self.voc.new_day, trimmed[0])
                                               or self._condition_names_doer(text, clauses, at, trimmed)):
                # 請期，曰「羹飪」。夙興，主人服如初: a new day opens a new scene; 反就席。若飲公，則侍射者降:
                # the doer of the condition is the one its 則 clause names — in both, as at a passage's
                # opening (rule 7), not the one carried on
                self.new_scene()
            if text[trimmed[0]] in _CONDITION:
                self.flush_pending()  # 下射於左，若有餘算，則反委之: a condition opens a new frame
            if text[trimmed[0]] in _THEN and at > 0:
                ps_, pe_ = clauses[at - 1]
                if _containing(sentences, ps_) == sent_index and _TREATS_UNNAMED.search(text, ps_, pe_):
                    self.current, self.unnamed = None, True  # 若君賜之爵，則下席: the one treated acts
            if self._topic_only(text, trimmed, clauses, at):
                self.named.append((text[trimmed[0]:trimmed[1]], sentence))
                continue  # 大師，則為之洗: the one the 則 clause is about, not its agent
            for ps, pe in unmasked(speech, cs, ce, said_until):
                tokens = tokenize(text, ps, pe, self.voc, self.names)
                cut = not punctuated and self._subject_maybe_cut(text, clauses, at, ps)
                pieces = self.x.analyser.analyse(tokens, trimmed, marked=punctuated, subject_cut=cut)
                for piece in pieces:
                    self._drop_rite_named(text, piece, ps, pe)
                    if self._commanded_alongside(view.text, piece, sentence):
                        piece.acts = []  # 命勝者執張弓，不勝者執弛弓: the second order is the same 命's; the 不勝者 is named
                    self._follow_order(text, piece, trimmed, sentence)
                    self.resolve(view, piece, sentence, names_opening=punctuated or piece is pieces[0])
                say = say_position(tokens)
                if say is not None and not quote_follows(text, say + 1) and not (say + 1 < len(text) and speech[say + 1]):
                    if punctuated or ends_clause(text, say, ce):
                        # unpunctuated 告于賓曰|三耦卒射|反: the 斷句 cut after 曰, the speech is the
                        # next clause, not the rest of the model's sentence (its sentence ends are
                        # unreliable: 擯者延之曰|升|升成拜|乃出 lost 升成拜 and 出, and 告于公曰。三耦卒射
                        # had no speech at all); it runs on below while it speaks in the first or
                        # second person
                        sent = sentences[sent_index] if sent_index < len(sentences) else (cs, ce)
                        if not punctuated:
                            sent = (cs, next((e for s_, e in clauses if s_ >= ce), ce))
                        said_until = max(said_until, sent[1])
                    said_until = max(said_until, ce)
                    if not punctuated:
                        said_until = self._speech_goes_on(text, clauses, said_until)
                    if say + 1 < said_until:
                        spoken.append((say + 1, said_until))
        self.flush_pending()
        return spoken + list(p.quoted)

    def _drop_rite_named(self, text: str, piece: Piece, ps: int, pe: int) -> None:
        """Acts that name the rite compared are none done (受者如初受酬之禮), also where the 斷句 cut
        off the 如 (大夫辯受酬如受|賓酬之禮: nor is 賓 the actor of anything); an act before the 如 stays,
        and so does who gives the rite named after 以 (士昏禮 舅饗送者以一獻之禮，酬以束錦: the father-in-law)."""
        if not _RITE_NAMED.search(text[ps:pe].rstrip(_TRIM)):
            return
        like = text.rfind(self.x.normalise("如"), ps, pe)
        like = max(like if like >= 0 else text.rfind(self.x.normalise("以"), ps, pe), ps)
        piece.acts = [d for d in piece.acts if d.verb_token[0] < like]
        if piece.subject is not None and piece.subject[0] >= like:
            first = self._first_word(text, piece.subject[1], pe)
            if like == ps and first is not None and first.kinds & {OTHERV, CHAR}:
                return  # 主人具殷奠之禮 (喪大記): the host prepares the rite, he is the one who goes on
            piece.subject = None

    def _follow_order(self, text: str, piece: Piece, trimmed: Span, sentence: tuple[int, int]) -> None:
        """After 命X皆… in one clause the clauses of its sentence that name no one say what all are
        bidden (命三耦皆袒、決、遂，執弓，序出取矢): they lose their acts. A written subject or a 則
        clause (若命皆致，則序進: what is done once bidden) ends the order."""
        if piece.subject is not None or text[trimmed[0]] in _THEN:
            self.bidding = None
        elif self.bidding == sentence:
            piece.acts = []
        if any(d.lemma in _COMMANDS and d.object and text[d.object[0]] == self.voc.all_word for d in piece.acts):
            self.bidding = sentence

    def _speech_goes_on(self, text: str, clauses: list[tuple[int, int]], said_until: int) -> int:
        """Where unquoted speech of unpunctuated text ends (:func:`~pipeline.actions.speech.speech_runs_on`)."""

        def opens_unnamed(s: int, e: int) -> bool:
            tokens = tokenize(text, s, e, self.voc, self.names)
            return bool(tokens) and ACTOR not in tokens[0].kinds

        return speech_runs_on(text, clauses, said_until, opens_unnamed, self.x.speech_words,
                              self.x.narrative_openers, self.x.narrative_words, self.x.answer_words)

    def _subject_maybe_cut(self, text: str, clauses: list[Span], at: int, start: int) -> bool:
        """Might the 斷句 have cut the subject of the clause ``at`` (read from ``start``) off into the
        clause before, which ends on a participant's name (主人|賓右奠觚, 07 p105)? Asked only where
        a place of one side may open the clause (左 / 右 near its start: the one rule that needs it,
        the hand of 賓右取脯), so that no other clause tokenises the one before again."""
        if at == 0 or not any(ch in "左右" for ch in text[start + 1:start + self.voc.max_len + 1]):
            return False
        tail = self._last_words(text, *clauses[at - 1])
        return bool(tail) and ACTOR in tail[-1].kinds

    def _refused_answer(self, text: str, cs: int) -> bool:
        """Is the clause at ``cs`` the first after a refused answer (賓不答拜) in text without marks?
        The editors end the sentence there (主人…再拜，賓不答拜。揖入: the host bows in), and the 斷句
        need not; not before 遂, which goes on with the one who did not answer (使者不答拜，遂執玉)."""
        last = self.emitted[-1].action if self.emitted else None
        return last is not None and last.response and last.negated and not text.startswith(self.x.normalise("遂"), cs)

    def _drinks_after_send_off(self, text: str, cs: int, ce: int) -> bool:
        """Does the clause at ``cs`` open on a drinking act (坐 祭 啐 嚌 飲 卒) with no one named, right
        after another's 拜送 in text without marks? The editors end the sentence at the send-off
        (姑拜送。坐祭，卒爵): the one who received the cup drinks, not the giver."""
        last = self.emitted[-1].action if self.emitted else None
        if last is None or last.response or not _answers(last) or last.actor_inferred:
            return False
        first = self._first_word(text, cs, ce)
        return first is not None and first.lemma in _DRINKING

    def _names_kept_whole(self, text: str, clauses: list[Span], sentences: list[Span]) -> tuple[list[Span], list[Span]]:
        """The 斷句's cuts inside a participant's name written twice in a row are none: 小臣師納卿|大夫|卿|
        大夫皆入門右 (燕禮's 納卿大夫，卿大夫皆入: the one brought in, then the same one acts) is 納卿大夫|
        卿大夫皆入, as :meth:`_doubled_name_cuts` then cuts it. Only a doubled name: 告于上|大夫則降 (07
        p434) is a true cut through what reads as the name 上大夫. Returns the clauses and the sentences,
        rejoined alike."""
        out: list[Span] = []
        joined: set[int] = set()
        for cs, ce in clauses:
            if out and out[-1][1] == cs and self._inside_name(text, cs):
                out[-1] = (out[-1][0], ce)
                joined.add(cs)
            else:
                out.append((cs, ce))
        if not joined:
            return out, sentences
        sents: list[Span] = []
        for ss, se in sorted(sentences):
            if sents and ss in joined and sents[-1][1] == ss:
                sents[-1] = (sents[-1][0], se)
            else:
                sents.append((ss, se))
        return out, sents

    def _things_kept_whole(self, text: str, spans: list[Span]) -> list[Span]:
        """The 斷句's cuts inside a thing's name move to its start: 祭醴三庭|實設降筵 (聘禮, where the 斷句
        split 庭實, the gifts displayed) is 祭醴三|庭實設降筵. ``spans`` are contiguous (clauses or
        sentences of text without marks)."""
        out = list(spans)
        for k in range(1, len(out)):
            (ps, pe), (cs, ce) = out[k - 1], out[k]
            if pe != cs:
                continue
            start = self._thing_across(text, cs)
            if start is not None and start > ps:
                out[k - 1], out[k] = (ps, start), (start, ce)
        return out

    def _words_across(self, text: str, i: int) -> Iterator[Span]:
        """(start, end) of every stretch of ``text`` of two characters up to the vocabulary's longest word
        that runs across ``i``, the nearest start first and, for each, the longest first."""
        for k in range(1, self.voc.max_len):
            for length in range(self.voc.max_len, k, -1):
                a, e = i - k, i - k + length
                if a >= 0 and e <= len(text):
                    yield a, e

    def _thing_across(self, text: str, i: int) -> Optional[int]:
        """Start of a listed thing's name of two characters or more that runs across ``i``, or of a word
        that is no act (私獻, 酬幣: :data:`~pipeline.actions.vocabulary.NOUN_WORDS`), if any."""
        return next((a for a, e in self._words_across(text, i)
                     if self.voc.kinds.get(text[a:e], set()) & {OBJECT, CHAR}), None)

    def _inside_name(self, text: str, i: int) -> bool:
        """Does a listed participant's name of two characters or more, written twice in a row, run
        across ``i``?"""
        for a, e in self._words_across(text, i):
            name, length = text[a:e], e - a
            if ACTOR in self.voc.kinds.get(name, ()) \
                    and (text[e:e + length] == name or text[max(0, a - length):a] == name):
                return True
        return False

    def _join_listed(self, text: str, clauses: list[Span], sentences: list[Span]) -> list[Span]:
        """Clauses of unpunctuated text rejoined where the 斷句 cut a list of participants whose 、
        is lost (賓|主人與大夫皆未降, 大師及少師|上工皆降): two different names side by side are one
        group. Not across a sentence end (公曰以我安賓。諸公卿大夫皆對: the one spoken of, then who answers).
        Also rejoined: 拜|受 (:meth:`_bow_then_receipt`), a command cut from what it commands
        (:meth:`_command_cut`), a thing cut from the act handling it (:meth:`_thing_cut`) and 厭 cut
        from the one led (:meth:`_led_cut`)."""
        starts = {s for s, _ in sentences}
        out: list[tuple[int, int]] = []
        for k, (cs, ce) in enumerate(clauses):
            if out and k + 1 < len(clauses) and self._named_again(text, (cs, ce), clauses[k + 1][0]):
                out[-1] = (out[-1][0], ce)  # 再拜|賓|賓答拜: the one bowed to, then the same one acts
                continue
            if out and self._bow_then_receipt(text, out[-1], cs, ce, starts):
                out[-1] = (out[-1][0], ce)  # 祝拜|受角: one act, 拜受 (the editors write 拜受 4 times in 5)
                continue
            if out and cs not in starts and self._command_cut(text, out[-1], cs, ce):
                out[-1] = (out[-1][0], ce)  # 遂命三耦|各與其耦拾取矢: what is commanded, not done
                continue
            if out and cs not in starts and self._thing_cut(text, out[-1], cs, ce):
                out[-1] = (out[-1][0], ce)  # 升酌|散以降, 降洗|角觶: the thing handled, cut from its act
                continue
            if out and self._led_cut(text, out[-1], cs, ce):
                out[-1] = (out[-1][0], ce)  # 賓厭|介入門左: 厭 (bowing one in) always takes the one led
                continue
            if out and self._names_meet(text, cs):
                ps, pe = out[-1]
                before = self._last_words(text, ps, pe)  # the two tokens either side of the cut are all that matter
                after = self._first_word(text, cs, ce)
                named_both = bool(before) and after is not None and ACTOR in before[-1].kinds and ACTOR in after.kinds
                if named_both and pe == cs and cs not in starts and before[-1].text != after.text \
                        and (len(before) == 1 or not before[-2].kinds & {VERB, OTHERV, CHAR}):  # not 獻眾賓|眾賓之長升, 請旅諸臣|擯者告
                    out[-1] = (ps, ce)
                    continue
            out.append((cs, ce))
        return out

    def _subjects_cut_off(self, text: str, clauses: list[Span], sentences: list[Span]) -> tuple[list[Span], list[Span]]:
        """Clauses of unpunctuated text whose cut the 斷句 put after the subject of the next one
        instead of before it (執冪者蓋冪酌者|加勺: 蓋冪，酌者加勺): a clause that ends on a participant
        right after a thing or a place of its own act, the next opening on an act with no one named,
        gives the participant to the next (a 斷句 that never saw the chapter cuts after names in 者
        as the commentary's 「X者，Y也」 are cut) — not across a sentence end; and one that ends on a
        participant before 若 gives it to the condition, across a sentence end too, which moves with
        it (臣不敢辭君。若降送之 → 臣不敢辭。君若降送之: the one a condition is about is written
        before its 若). Returns the clauses and the sentences."""
        starts = {s for s, _ in sentences}
        out, sents = list(clauses), list(sentences)
        for k in range(len(out) - 1):
            (ps, pe), (cs, ce) = out[k], out[k + 1]
            if pe != cs or (cs in starts and text[cs] not in _CONDITION):
                continue
            last = self._last_words(text, ps, pe, reach=3)
            if len(last) < 3 or ACTOR not in last[-1].kinds or last[-1].end != pe:
                continue
            nxt = self._first_word(text, cs, ce, reach=3)
            if nxt is None or not nxt.kinds & {VERB, ADV, NEG} or nxt.kinds & {ACTOR, OBJECT}:
                continue
            before = last[-2].kinds
            if text[cs] not in _CONDITION and (not before & {OBJECT, LOCATION} or before & {VERB, ACTOR, OTHERV}
                                               or not any(t.kinds & {VERB, OTHERV, CHAR} for t in last[:-2])):
                continue  # 授執爵者|反就席: the one handed to; 獻賓|拜: the one presented
            name = last[-1].start
            out[k], out[k + 1] = (ps, name), (name, ce)
            if cs in starts:
                sents = [(s_, name) if e_ == cs else (name, e_) if s_ == cs else (s_, e_) for s_, e_ in sents]
        return out, sents

    def _targets_cut_off(self, text: str, clauses: list[Span], sentences: list[Span]) -> list[Span]:
        """Clauses of unpunctuated text cut after an act that takes a participant and before that
        participant, where another opens the next act at once (聘禮 送|賓公皆再拜: 送賓，公皆再拜): the
        first name goes back to the act; the two are no group. Only after the acts that take someone
        (``Vocabulary.take_someone``: 答拜|賓介皆揖 is a bow without one, then the group), not where a
        mark joins the names (賓、介), nor across a sentence end."""
        starts = {s for s, _ in sentences}
        out = list(clauses)
        for k in range(len(out) - 1):
            (ps, pe), (cs, ce) = out[k], out[k + 1]
            if pe != cs or cs in starts:
                continue
            last = self._last_words(text, ps, pe)
            if not last or last[-1].end != pe or not last[-1].kinds & {VERB, OTHERV} \
                    or self.voc.normalise(last[-1].lemma or last[-1].text) not in self.voc.take_someone:
                continue
            words = tokenize(text, cs, min(ce, cs + 3 * self.voc.max_len), self.voc, self.names)
            if len(words) < 3 or not all(ACTOR in w.kinds and not w.kinds & {OBJECT} for w in words[:2]) \
                    or words[0].text == words[1].text or not words[2].kinds & {VERB, ADV, NEG} \
                    or {words[0].text, words[1].text} <= self.voc.ranks:  # 諸公卿皆未降: one group
                continue
            out[k], out[k + 1] = (ps, words[1].start), (words[1].start, ce)
        return out

    def _bidden_cut_off(self, text: str, clauses: list[Span]) -> list[Span]:
        """Clauses of unpunctuated text cut after 作 or 戒 that bid someone, before the one bidden (大射
        擯者作|大夫長升受旅, 射人戒|諸公卿大夫射): joined again, so that what is bidden is no act of his. The
        editors never end a clause on a bidding 作 or 戒 (only 樂作, 陔作, 不宿戒, with no one after)."""
        out: list[Span] = []
        for cs, ce in clauses:
            if out and out[-1][1] == cs and text[cs - 1] in _BIDDING and self._opens_on_name(text, cs, ce) \
                    and not (cs - 2 >= out[-1][0] and text[cs - 2] in _MUSIC):
                out[-1] = (out[-1][0], ce)
            else:
                out.append((cs, ce))
        return out

    def _bow_for(self, text: str, d: Draft, purpose: str) -> bool:
        """Is ``d`` a bow with this purpose (拜受, 拜送)?"""
        return d.lemma == "拜" and d.purpose is not None and text[d.purpose[0]:d.purpose[1]] == self.x.normalise(purpose)

    def _sends_off(self, text: str, d: Draft) -> bool:
        """Is ``d`` the presenter's answer to a receipt: a bow answering (答拜) or sending off (拜送)?"""
        return d.lemma == "拜" and (bool(d.response) or self._bow_for(text, d, "送"))

    def _refused_bow_cuts(self, text: str, cs: int, ce: int) -> list[int]:
        """Where a clause of unpunctuated text is cut after 不拜 because 受 follows (眾工不拜受爵 →
        眾工不拜|受爵): without the bow the receipt is an act of its own, not the bow's purpose as in
        拜受 — the editors write 不拜，受爵 8 times in the 11 of the dev 經."""
        return [after - 1 for after in _each_after(text, self.x.normalise("不拜受"), cs, ce)]

    def _consent_cuts(self, text: str, cs: int, ce: int) -> list[int]:
        """Where a clause of unpunctuated text is cut after 許 "consents" that an act or a participant
        follows (賓許降 → 賓許|降; 公許適西階東 → 公許|適西階東): the consent ends its clause, and what
        follows is often the asker's (the editors break after 許 17 times in the 18 of the corpus's
        經 where no 諾 follows it)."""
        return [after for after in _each_after(text, self.x.normalise("許"), cs, ce)
                if (nxt := self._first_word(text, after, ce, reach=None)) is not None and nxt.kinds & {VERB, ADV, ACTOR}]

    def _as_before_cuts(self, text: str, cs: int, ce: int) -> list[int]:
        """Where a clause of unpunctuated text is cut after 如初 "as before" that an act follows
        (主人拜賓如初揖入 → 如初|揖入; 拜賓如初洗 → 如初|洗): 如初 closes the act it compares, and
        the next act is done — the editors break after 如初 87 times in the 98 of the dev 經. Of
        the 11 others 3 are acts, compared: a going (如初入, 如初去侯) or a rite (如初受酬之禮)."""
        rite = self.x.normalise("之禮")
        cuts = []
        for after in _each_after(text, self.x.normalise("如初"), cs, ce):
            nxt = self._first_word(text, after, ce)
            lemma = self.voc.normalise(nxt.lemma or nxt.text) if nxt is not None else ""
            if nxt is not None and VERB in nxt.kinds and ACTOR not in nxt.kinds and lemma not in self.voc.motion_verbs \
                    and lemma not in _GOING and rite not in text[after:min(ce, after + 6)]:
                cuts.append(after)
        return cuts

    def _doubled_name_cuts(self, text: str, cs: int, ce: int) -> list[int]:
        """Where a clause of unpunctuated text is cut between a participant's name and the same
        name written again (擯者告于公公許 → 告于公|公許; 釋獲者命小史小史命獲者): the one spoken to,
        given to or bidden, then the same one acting — the editors put a comma there; a 斷句 model
        that never saw the chapter often does not."""
        if not _DOUBLED.search(text, cs, ce):
            return []
        tokens = tokenize(text, cs, ce, self.voc, self.names)
        return [b.start for a, b in zip(tokens, tokens[1:])
                if a.text == b.text and a.end == b.start and ACTOR in a.kinds and ACTOR in b.kinds]

    def _named_again(self, text: str, clause: Span, nxt: int) -> bool:
        """Is ``clause`` a participant's name alone that the next clause opens with again? Then it
        ends the act before it (再拜賓，賓答拜 cut 再拜|賓|賓答拜)."""
        name = text[clause[0]:clause[1]].strip()
        return bool(name) and ACTOR in self.voc.kinds.get(name, ()) and text.startswith(name, nxt)

    def _bow_then_receipt(self, text: str, before: Span, at: int, end: int, starts: set[int]) -> bool:
        """Did the 斷句 cut 拜受 (the bow of receiving: one tuple, 拜 with purpose 受) after 拜? Not
        after 不拜 (不拜，受爵: the editors write the comma there 8 times in 11) or 答拜, not across a
        sentence, and not where the receipt has its own place (拜，受爵于筵前: a second act). 荅 is
        答 in the normalised view."""
        n = self.x.normalise
        bow = text[before[0]:before[1]].rstrip()
        receipt = text[at:end]
        return at not in starts and bow.endswith(n("拜")) and not bow.endswith(n("不拜")) \
            and not bow.endswith(n("答拜")) and receipt[:1] == n("受") \
            and not any(p in receipt for p in (n("于"), n("於")))

    def _command_cut(self, text: str, before: Span, at: int, end: int) -> bool:
        """Did the 斷句 cut a command (命X) from what it commands? A clause ending in 命 and the one
        bidden is followed by what they are to do, unless by speech (命樂正，曰), by the bidden
        named again as they act (乃命執冪者。執冪者升) or by a comparison (命眾耦，如命三耦之辭)."""
        edge = 2 * self.voc.max_len
        reach = max(before[0], before[1] - 3 * edge)  # 命, the ones bidden (a group: 命三耦及眾賓勝者)
        if self.x.normalise("命") not in text[reach:before[1]]:
            return False  # the usual case, without tokenising: no 命 near the cut
        last = tokenize(text, reach, before[1], self.voc, self.names)
        k = len(last) - 1
        while k >= 1 and ACTOR in last[k].kinds:
            if k >= 2 and AND in last[k - 1].kinds and ACTOR in last[k - 2].kinds:
                k -= 2  # 命三耦及眾賓|皆袒決遂: the ones bidden are a group
            elif ACTOR in last[k - 1].kinds and last[k - 1].text != last[k].text:
                k -= 1  # 命三耦及眾賓勝者 (眾賓 勝者: the winners among them); not 命賓賓 (the same one, acting)
            else:
                break
        if k < 1 or last[k - 1].lemma != "命" or ACTOR not in last[k].kinds:
            return False
        nxt = self._first_word(text, at, end)
        return nxt is not None and not nxt.kinds & {SAY, LIKE} and nxt.text not in {t.text for t in last[k:]}

    def _thing_cut(self, text: str, before: Span, at: int, end: int) -> bool:
        """Did the 斷句 cut a thing from the act that handles it (升酌|散以降, 降洗|角觶, 升酌|膳東北面)?
        A clause ending in a verb that takes a thing, the next opening on a thing the lexicon knows
        (not also an act or a participant)."""
        if text[before[0]:before[1]].rstrip()[-1:] not in self.voc.handling_verbs:
            return False  # the usual case, without tokenising: no such verb ends the clause
        last = self._last_words(text, *before)
        lemma = self.voc.normalise(last[-1].lemma or last[-1].text) if last else ""
        if not last or VERB not in last[-1].kinds or lemma not in self.voc.handling_verbs:
            return False
        nxt = self._first_word(text, at, end)
        return nxt is not None and OBJECT in nxt.kinds and not nxt.kinds & {VERB, ACTOR, OTHERV}

    def _condition_names_doer(self, text: str, clauses: list[Span], at: int, trimmed: Span) -> bool:
        """Does clause ``at`` open a condition (若…) with no subject and no command, right before a
        則 clause that opens on a participant (若飲公，則侍射者降)? Not 若命長致，則媵爵者奠觶于篚: those
        bidden do not bid."""
        if text[trimmed[0]] not in _CONDITION or at + 1 >= len(clauses):
            return False
        after = _trim(text, *clauses[at + 1])
        if after is None or text[after[0]] not in _THEN:
            return False
        if self._opens_on_name(text, trimmed[0] + 1, trimmed[1]) or text.startswith(_COMMANDS, trimmed[0] + 1):
            return False
        return self._opens_on_name(text, after[0] + 1, after[1])

    def _opens_on_name(self, text: str, start: int, end: int) -> bool:
        """Is the first word of ``text[start:end]`` a participant?"""
        first = self._first_word(text, start, end)
        return first is not None and ACTOR in first.kinds

    def _first_word(self, text: str, start: int, end: int, reach: Optional[int] = 2) -> Optional[Token]:
        """The first word of ``text[start:end]``, read no further than ``reach`` times the longest
        word of the vocabulary (None: to ``end``) and tokenising nothing after it."""
        stop = end if reach is None else min(end, start + reach * self.voc.max_len)
        return next(iter_tokens(text, start, stop, self.voc, self.names), None)

    def _last_words(self, text: str, start: int, end: int, reach: int = 2) -> list[Token]:
        """The tokens of the last ``reach`` times the longest word of ``text[start:end]``: enough to
        read the word that ends it, and the one before (the cut repairs look at no more)."""
        return tokenize(text, max(start, end - reach * self.voc.max_len), end, self.voc, self.names)

    def _led_cut(self, text: str, before: Span, at: int, end: int) -> bool:
        """Did the 斷句 cut 厭 from the one led in? In the dev 經 厭 is followed by that participant
        every time (賓厭介，入門左; 介厭眾賓，入)."""
        if not text[before[0]:before[1]].rstrip().endswith(self.x.normalise("厭")):
            return False
        return self._opens_on_name(text, at, end)

    def _names_meet(self, text: str, at: int) -> bool:
        """Could a participant's name end at ``at`` and another begin there (a lexicon name, a
        者-name: 先生|異爵者, or a name the lexicon lacks read in the document: 諸公|卿|大夫)? A cheap
        test before tokenising the two clauses around a cut."""
        kinds, longest, zhe = self.voc.kinds, self.voc.max_len, self.voc.zhe
        names = self.names or {}
        ends = text[at - 1:at] == zhe or at in names.values() or any(
            ACTOR in kinds.get(text[at - n:at], ()) for n in range(1, min(longest, at) + 1))
        return ends and (zhe in text[at:at + 5] or at in names or any(
            ACTOR in kinds.get(text[at:at + n], ()) for n in range(1, longest + 1)))

    def _two_parties(self, sentence: tuple[int, int]) -> bool:
        """Were two parties acting separately in this sentence, or in the one before in this
        passage (主人堂東袒…。賓於堂西亦如之。皆由其階)?"""
        passage, number = sentence
        keys = {e.actor_key for e in self.emitted[-8:] if e.sentence == sentence and e.actor_key}
        if len(keys) > 1:
            return True
        if keys:
            return False
        here = {self.key(n): n for n, s in self.named if s == sentence}
        if len(here) > 1:
            return True  # 主人堂東，賓堂西，皆袒: two named here, whoever acted before
        if len(here) == 1 and _is_group(next(iter(here.values())), self.x.normalise):
            return False  # 侯氏再拜稽首。諸侯前朝，皆受舍于朝: the group this sentence names is who 皆 covers
        before = [e for e in self.emitted[-12:] if e.sentence == (passage, number - 1) and e.actor_key]
        named = {self.key(n) for n, s in self.named if s in ((passage, number - 1), sentence)}
        return len({e.actor_key for e in before} | named) > 1 and not any(
            _is_group(e.action.actor, self.x.normalise) for e in before if e.action.actor)

    def _told_again(self, text: str, d: Draft, passage: int) -> bool:
        """Is ``d`` a 既V whose act V this passage has already stated?"""
        at = d.verb_token[0]
        if at == 0 or text[at - 1] not in _ONCE or d.negated:
            return False
        return any(e.lemma == d.lemma and e.sentence[0] == passage for e in self.emitted[-20:])

    def _topic_only(self, text: str, trimmed: Span, clauses: list[tuple[int, int]], at: int) -> bool:
        """Is clause ``at`` a participant alone, with a 則 clause after it that acts on them (大師，
        則為之洗)? Without the 之 the participant is the agent, cut off by the 斷句 (眾工|則不拜受爵).
        So too a clause saying there are some who… and one after it, 則 or not, that acts on them."""
        those = _THOSE_WHO.match(text, *trimmed)  # 賓有後至者，拜之 (奔喪): those among the guests who came late
        if not those and "ACTOR" not in self.voc.kinds.get(text[trimmed[0]:trimmed[1]], ()):
            return False
        after = _trim(text, *clauses[at + 1]) if at + 1 < len(clauses) else None
        return after is not None and (bool(those) or text[after[0]] in _THEN) \
            and _TREATS_UNNAMED.search(text, *after) is not None

    # -- one piece ----------------------------------------------------------------------------
    def resolve(self, view: TextView, piece: Piece, sentence: tuple[int, int], names_opening: bool = True) -> None:
        """The acts of ``piece``, each with its actor. ``names_opening``: its subject may take the
        passage's opening acts as one named later in their sentence — it opens a clause, or the text
        is punctuated (in unpunctuated text a subject the clause analyser finds after an act,
        揖|退耦反位, often stands after a sentence end the 斷句 missed: 揖，退。耦反位)."""
        w = view.written
        subject = w(*piece.subject) if piece.subject else None
        if subject is None and piece.assistant is not None and self.current is None:
            # 贊洗爵，酌酳主人 opening the passage (士昏禮): no one to assist, the 贊 acts
            piece.subject, piece.assist = piece.assistant, False
            for d in piece.acts:
                d.subject = d.subject or piece.assistant
            subject = w(*piece.assistant)
            self.named.append((subject, sentence))
        for span in piece.mentions:
            self.named.append((w(*span), sentence))
        if piece.by_other:
            self.flush_pending()
            self.current, self.unnamed = None, True  # 先生與之言則對: the one spoken with answers
        principal = self.current
        if subject is None and self._resumes(view.text, piece):
            # 受賜爵者以爵就席坐，公卒爵，然後飲: after the other's act the one who waited goes on
            principal = self.current = self.before_subject[0]
            self.unnamed = self.before_subject[1]
        elif subject is None and (messenger := self._messenger_back_in(piece)) is not None:
            principal = self.current = messenger  # 擯者出請，賓告事畢。入告 (士昏禮): the usher takes it in
        elif subject is None and self.current is not None and self._replies_to_speech(view.text, piece):
            # 使者曰：「…」曰：「某日。」對曰 (士昏禮 請期): the one spoken to replies, not the speaker
            principal = self.current = next(
                (name for name, _ in reversed(self.named) if self.key(name) != self.key(self.current)), None)
            self.unnamed = principal is None
        if subject and self.key(subject) != self.key(principal):
            self.before_subject = (principal, self.unnamed)
        if subject:
            self.unnamed = False
            if self.sender is not None and self.key(subject) != self.key(self.sender):
                self.sender = None  # 司馬拜送爵。獲者執爵…設薦俎: another acts now, the dishes are his
        if not piece.acts and subject and piece.holds_things and not piece.other_verb \
                and not (piece.place or piece.facing) and self._object_missing(sentence):
            return  # 宗婦徹|祝豆籩|入于房: the 祝's dishes are what 宗婦 clears, 祝 does nothing
        if not piece.acts:
            if piece.all_marker and subject is None and self._two_parties(sentence):
                self.current, self.unnamed = None, True  # 皆由其階，階下揖: both, no one name
            if piece.treated is not None:
                self.current = w(*piece.treated)  # 天子賜侯氏以車服。迎於外門外: the one given acts
                self.flush_pending()
                return
            if subject and self._defines(view.text, piece):
                return  # 公食大夫禮 記 上贊，下大夫也: the one named says who another is, he does nothing
            if subject and piece.treats_unnamed:
                self.flush_pending()
                self.current, self.unnamed = None, True  # 君賜，稽首 (玉藻): the one given to bows, not the lord
                return
            if subject and not ((piece.assist or piece.treats_other) and principal is not None) \
                    and not (piece.stance and principal is not None):
                self.current = subject  # 上射在左 / 卦者在左 only say where one stands
            if piece.place or piece.facing or subject:
                actor = subject or self.current
                if self.pending is not None and self.pending.actor_key != self.key(actor):
                    self.flush_pending()  # 升自西階，東面，大史是右: 東面 is still the climber's
                self.pending = _Pending(
                    self.key(actor), actor, subject is not None and not piece.other_verb,
                    w(*piece.place) if piece.place else None,
                    w(*piece.facing) if piece.facing else None,
                    sentence, len(self.emitted),
                )
            return
        pending = self.pending if self.pending and self.pending.sentence == sentence else None
        first = piece.acts[0] if piece.acts else None
        stands = bool(piece.place or piece.facing or (first and (first.location_from == "pre" or first.facing)))
        both = (pending is not None and subject is not None and piece.all_marker and stands
                and pending.written and bool(pending.place or pending.facing)
                and self.key(subject) != pending.actor_key and not _is_group(subject, self.x.normalise))
        if both:
            # 賓堂西|主人堂東皆釋弓矢, as the 斷句 joins it: each stood in his place and 皆 is both of
            # them, as in 賓堂西，主人堂東，皆釋弓矢; what they do next stays theirs
            self.current, self.unnamed = None, True
        if pending is not None and subject and self.key(subject) != pending.actor_key:
            pending = self.pending = None  # another participant acts: the waiting place lapses
        used_pending = False
        declined_for: Optional[str] = None  # the bower whose bow the subject just declined
        carried_out = subject is None and self._carries_out_command(view.text, piece, sentence)
        for d in piece.acts:
            if self._told_again(view.text, d, sentence[0]):
                continue  # 獻工與笙…既獻，奠于下篚: "once presented" looks back at the act, no new one
            served = _served_to(view.text, d, piece.subject, self.x.normalise)
            if piece.thing_topic and subject is None and d.lemma in _THING_SUBJECT_VERBS:
                actor, inferred = None, True  # 肝從, 俎入設, 薦俎從設: a thing as topic, no agent
            elif served or carried_out:
                actor, inferred = None, True  # 司正既舉觶而薦諸其位: 司正 is served, by someone unnamed
            elif both:
                actor, inferred = None, True
            elif declined_for is not None:
                actor, inferred = declined_for, True  # 下拜|小臣正辭升: the bower climbs
            else:
                actor, inferred = self.actor_of(d, subject, pending, sentence)
            if inferred and actor and d.lemma == "命" and d.target \
                    and view.text[d.target[0]:d.target[1]] == self.x.normalise("之"):
                actor = None  # 賓栗階升，不拜，命之成拜 (公食大夫禮): the one carried on is the one bidden
            if inferred and actor and _scores(view.text, d, self.x.normalise) \
                    and self.x.normalise(_SCORER) not in self.key(actor):
                actor = None  # 眾賓繼射，釋獲皆如初: the scorer counts the hits, not the shooters
            target_key = self.key(view.written(*d.target)) if inferred and actor and d.target else None
            if target_key and _same_party(self.key(actor), target_key):
                # 主人答拜。|乃請賓: no one asks himself; the other party named does, or one unnamed
                # (大夫雖眾，皆與士為耦。以耦告于大夫: the 司射 of the passage before tells them); nor
                # serves those he is one of (士既獻者立于東方。乃薦士; 賓、主人、大夫…則遂告于賓)
                actor = self.other_named(sentence[0], self.key(actor))
                if actor and _same_party(self.key(actor), target_key):
                    actor = None
            act = self.action(view, d, actor, inferred)
            if piece.thing_topic and subject is None and piece.topic and act.object is None \
                    and d.lemma in _PLACING_VERBS:
                act.object = view.written(*piece.topic)  # 薦俎設于其位: the thing set is the topic
            if pending is not None and self.key(actor) == pending.actor_key:
                if act.location is None and pending.place:
                    act.location = pending.place
                if act.facing is None and pending.facing:
                    act.facing = pending.facing
                used_pending = True
            target = act.target
            emitted = _Emitted(act, self.key(actor), self.key(target), d.lemma, sentence, d.clause)
            self.emitted.append(emitted)
            if d.lemma == "辭" and d.object is None and subject and principal is not None \
                    and self.key(subject) != self.key(principal) and self.bowed_before(principal, 1):
                declined_for = principal  # the acts after the 辭 in this clause are the bower's
            if subject and not inferred and d.all_marker:
                self.all_written = (len(self.emitted), actor)  # 長皆奠觶于其所，皆揖其弟子
            if actor is not None and not inferred and d.lemma in _RECEIPT and any(
                    e.lemma == _PRESENT and e.target_key == self.key(actor) for e in self.no_actor):
                self.presented = list(self.no_actor)  # 筵前獻賓。賓西階上拜，受爵: who presented comes next
            if actor is not None:
                self.no_actor = []  # (a copy of the run is what ``presented`` keeps)
            else:
                self.no_actor.append(emitted)
            if actor is None and self.current is None and not d.response and not self.unnamed and not served \
                    and not carried_out:
                if not _marks_time(act, self.voc.kinds.get(self.x.normalise(act.object or ""), ())):
                    self.unresolved.append(emitted)
            elif actor is not None and not inferred and d.lemma == "盥" and self.unresolved \
                    and all(e.lemma == "卒" for e in self.unresolved):
                self.unresolved_not = self.key(actor)  # 卒洗，主人盥: the one who washes his hands next is not the washer
            elif actor is not None and not inferred and self.unresolved and self._bow_for(view.text, d, "受"):
                self.unresolved.clear()  # …降更觶，洗，升實散，大夫拜受: who receives did not pour; the giver is unnamed
                self.unresolved_not = None
            elif (actor is not None and not inferred and not d.response and self.unresolved
                  and not self._acted_on(self.key(actor))
                  and ((self.unresolved[0].sentence == sentence and names_opening and self._opens_for(view.text, piece)) or (
                      self.unresolved_not is not None and self.key(actor) != self.unresolved_not))):
                for e in self.unresolved:
                    e.action.actor, e.actor_key = actor, self.key(actor)
                self.unresolved.clear()
                self.unresolved_not = None
            if actor is not None and not inferred and self._sends_off(view.text, d):
                chain = [e for e in self.presented if e.action.actor is None]
                if any(e.lemma == _PRESENT and e.target_key != self.key(actor) for e in chain):
                    for e in chain:  # 筵前獻賓。賓西階上拜…。主人賓右拜送爵: the host presented
                        e.action.actor, e.actor_key = actor, self.key(actor)
                    self.unresolved.clear()
                    self.unresolved_not = None
                self.presented = []
            if d.response and not inferred and actor is not None:
                self._not_own_bow(sentence, self.key(actor))
            if d.response and not inferred and self.unresolved and any(
                    e.lemma == "拜" and not e.action.response for e in self.unresolved):
                self.unresolved_not = self.key(actor)  # 坐祭…遂拜。賓答拜。主人降洗: the bower is named next
            if d.lemma == "立" and not inferred and _waiting(view.text, d.verb_token[0]):
                self.waiting(emitted)
            if _answers(act) and not inferred and self.key(actor) != self.key(self.current):
                self.before_response = self.current
                self.reverting = True
                self.response_opens = len(self.emitted) < 2 or self.emitted[-2].sentence[0] != sentence[0]
            elif not _answers(act):
                self.before_response = None
                self.reverting = False
            returned = d.lemma == "酢" and inferred  # 獻于尸，酢，及祝…降: the giver goes on after the return
            if actor is not None and not returned and not (d.finishes == "拜" and self.current is not None):
                self.current = actor
            elif returned and self._drank_up_before(emitted):
                self.current, self.unnamed = None, True  # 尸卒爵，酢。酌獻祝…: the giver, whom the passage does not name
            if target is not None and target != _HIM:
                # 之 names no one: 則拜之，送賓 is not 之 seeing the guest off (奔喪)
                self.named.append((target, sentence))
        if used_pending:
            self.pending = None
        if (piece.assist or (piece.causee and not piece.dispatched)) and principal is not None:
            self.current = principal  # 宗人贊祭, 使人執俎從之: the principal's sequence goes on
        if subject and principal is not None and self.key(subject) != self.key(principal) \
                and any(d.lemma == "許" for d in piece.acts) and self.requested_by(principal, len(piece.acts)):
            self.current = principal  # 請射于公。公許。遂適西階上: the one who asked goes on
        elif subject and principal is None and self._grants(view.text, piece):
            self.current, self.unnamed = None, True  # 公許。反，搢扑: an asker this passage does not name goes on
        if subject and principal is not None and self.key(subject) != self.key(principal) \
                and [d.lemma for d in piece.acts] == ["辭"] and piece.acts[0].object is None \
                and self.bowed_before(principal, 1):
            self.current = principal  # 下拜，小臣正辭，升，再拜稽首: the bow declined, the bower goes on
        elif subject and principal is not None and self.key(subject) != self.key(principal) \
                and [d.lemma for d in piece.acts] == ["降", "辭"] and piece.acts[1].object is None \
                and self.came_down_before(principal, 2, subject):
            self.current = principal  # 賓降辭幣，公降一等辭。栗階升 (聘禮): the lord's refusal of his coming down; the guest goes on

    def _opens_for(self, text: str, piece: Piece) -> bool:
        """Whether the subject of ``piece`` did the passage's unnamed opening: one clause right
        before him (卒洗，主人壹揖; 若飲公，則侍射者降). After a longer opening, or one he does not follow at
        once, he is another than its doer, whom the passage does not name (逆降，洗，升實觶，皆立于西階上，
        賓、介皆拜: the two of the passage before; 徹俎，賓、介、遵者之俎，受者以降). A report is an officer's
        to the ones who then act, never theirs (告事畢，賓出: the 宗人 reports, the guest leaves)."""
        if len({e.clause for e in self.unresolved}) > 1:
            return False
        if any(e.lemma == _REPORT for e in self.unresolved):
            return False
        if piece.subject is None:
            return True
        return not text[self.unresolved[-1].clause[1]:piece.subject[0]].strip(_TRIM + _THEN)

    def _object_missing(self, sentence: tuple[int, int]) -> bool:
        """Was the last act, in this sentence, one that handles a thing, with none written (徹)?"""
        last = self.back()
        return last is not None and last.sentence == sentence and last.action.object is None \
            and self.x.normalise(last.lemma) in self.voc.object_verbs

    def _resumes(self, text: str, piece: Piece) -> bool:
        """Does ``piece`` open with 然後 right after an act of another, written subject (公卒爵，然後飲)?"""
        last = self.back()
        if self.before_subject is None or last is None:
            return False
        start = piece.clause[0]
        if text[start:start + 2] not in (self.x.normalise("然後"), self.x.normalise("然后")):
            return False
        waiting = self.key(self.before_subject[0])
        if waiting is None and not self.before_subject[1]:
            return False  # 主人請入，然後出迎客: no one acted before the host, he goes on
        if any(d.target and self.key(text[d.target[0]:d.target[1]]) == waiting for d in piece.acts):
            return False  # 客至…，則主人請入為席，然後出迎客 (曲禮): the one met is not the one who goes out
        return not last.action.actor_inferred

    def _carries_out_command(self, text: str, piece: Piece, sentence: tuple[int, int]) -> bool:
        """Does ``piece`` (no subject) do what the 命 just before it in the sentence bade, to no one
        named (司射命設豐，設豐、實觶如初)? Then the unnamed bidden do it, not the one who bade; he
        goes on after it (遂命勝者…)."""
        last = self.back()
        if not piece.acts or last is None:
            return False
        if last.lemma != "命" or last.sentence != sentence or not last.action.object or last.action.target:
            return False
        first = piece.acts[0]
        return self.x.normalise(last.action.object).startswith(text[first.verb_token[0]:first.verb_token[1]])

    def _drank_up_before(self, returned: _Emitted) -> bool:
        """Was the act before this subjectless 酢 its actor's 卒爵 (尸卒爵，酢), with no giver named
        in the passage (獻于尸 would name him)? The one who drank returns the cup; the giver goes on."""
        drank = self.back(1)
        return drank is not None and drank.lemma == "卒" and drank.actor_key == returned.actor_key \
            and self.last_presented(returned.sentence[0]) is None

    def back(self, skip: int = 0) -> Optional[_Emitted]:
        """The act before the last ``skip`` ones, if it is after the last reset."""
        at = len(self.emitted) - skip - 1
        return self.emitted[at] if at >= self.history_start else None

    def _not_own_bow(self, sentence: tuple[int, int], answerer: Optional[str]) -> None:
        """No one answers his own bow: the bows right before a written 答拜 of ``answerer`` in its
        sentence that were carried to him are someone else's, whom the passage does not name (聘禮
        君勞之。再拜稽首，君答再拜: the envoy greeted bows)."""
        for e in reversed(self.emitted[self.history_start:-1]):
            if e.sentence != sentence or e.lemma not in _BOWS or e.action.response:
                return
            if e.action.actor_inferred and e.actor_key == answerer:
                e.action.actor, e.actor_key = None, None

    def _defines(self, text: str, piece: Piece) -> bool:
        """Is ``piece`` a name and 也 alone, after a comma (上贊，下大夫也: "the upper assistant is a
        下大夫")? It names who someone is; nobody acts."""
        assert piece.subject is not None
        start, end = piece.subject
        rest = text[end:piece.clause[1]].rstrip(_TRIM)
        return rest == self.voc.ye and text[:start].rstrip(" \u3000")[-1:] in ("，", ",")

    def _replies_to_speech(self, text: str, piece: Piece) -> bool:
        """Does ``piece`` open with 對 right after a quotation closes (…。」對曰)? The reply is the other
        party's: whoever was carried on spoke the words quoted."""
        if not piece.acts or piece.acts[0].lemma != "對" or piece.acts[0].subject is not None:
            return False
        before = text[:piece.acts[0].verb_token[0]].rstrip(_TRIM_NOT_QUOTES)
        return before.endswith(tuple(SPEECH_CLOSE))

    def _messenger_back_in(self, piece: Piece) -> Optional[str]:
        """The one who went out to ask (出請), where ``piece`` opens with 入告 right after the one asked
        answered with his 告 (擯者出請，賓告事畢。入告，出請醴賓: the usher goes in to report, not the
        guest, who stays outside); None elsewhere."""
        lemmas = [d.lemma for d in piece.acts[:2]]
        last = self.back()
        if lemmas != ["入", "告"] or piece.acts[0].subject is not None or last is None or last.lemma != "告" \
                or last.actor_key != self.key(self.current):
            return None
        for k in range(len(self.emitted) - 2, self.history_start, -1):
            e = self.emitted[k]
            if e.actor_key == last.actor_key:
                continue
            went = self.emitted[k - 1]
            if e.lemma == "請" and went.lemma == "出" and went.actor_key == e.actor_key and e.sentence[0] == last.sentence[0]:
                return e.action.actor
            return None
        return None

    def bowed_before(self, principal: str, skip: int) -> bool:
        """Was the act before the last ``skip`` ones a bow of ``principal`` (拜, or the 稽首 that
        ends 再拜稽首: 下，再拜稽首。小臣正辭，升成拜)?"""
        return self._acted_before(principal, skip, _BOWS)

    def came_down_before(self, principal: str, skip: int, decliner: str) -> bool:
        """Was the act before the last ``skip`` ones (and before any earlier refusal of ``decliner``:
        賓降階東拜送，君辭。拜也，君降一等辭) ``principal``'s coming down, or his refusal or bow made below
        (賓降辭幣; 賓降，再拜稽首)?"""
        while (act := self.back(skip)) is not None and act.actor_key == self.key(decliner) and act.lemma == "辭":
            skip += 1
        return self._acted_before(principal, skip, _BOWS + ("降", "辭"))

    def _acted_before(self, principal: str, skip: int, lemmas: tuple[str, ...]) -> bool:
        """Was the act before the last ``skip`` ones one of ``lemmas``, done by ``principal``?"""
        act = self.back(skip)
        return act is not None and act.lemma in lemmas and act.actor_key == self.key(principal)

    def _commanded_alongside(self, text: str, piece: Piece, sentence: tuple[int, int]) -> bool:
        """Is ``piece`` a second order of the command just given, in parallel with the first
        (遂命勝者執張弓，不勝者執弛弓: X V…，Y V… with the same verb V)? Then it is what the 命
        orders, not an act of Y: no tuple of its own."""
        if not piece.subject or not piece.acts or not self.emitted:
            return False
        last = self.emitted[-1]
        order = last.action.object
        if last.lemma != "命" or last.sentence != sentence or last.action.target is None or not order:
            return False
        first = piece.acts[0]
        at = first.verb_token[0]
        return at == piece.subject[1] and text[at:first.verb_token[1]] == self.x.normalise(order[:first.verb_token[1] - at])

    def _grants(self, text: str, piece: Piece) -> bool:
        """Is ``piece`` a bare grant, X許 (公許。反，搢扑)? A request was granted, so the one who
        asked acts next, not X. Not 許諾, the assent of one bidden, who then does it (筮者許諾，還)."""
        if [d.lemma for d in piece.acts] != ["許"]:
            return False
        end = piece.acts[0].verb_token[1]
        return text[end:end + 1] != self.x.normalise("諾")

    def requested_by(self, principal: str, skip: int) -> bool:
        """Was the act before the last ``skip`` ones a request (請 / 告) of ``principal``?"""
        at = len(self.emitted) - skip - 1
        if at < self.history_start:
            return False
        asked = self.emitted[at]
        return asked.lemma in ("請", "告") and asked.actor_key == self.key(principal)

    def waiting(self, stand: _Emitted) -> None:
        """X疑立 (X stands waiting): the subjectless acts of the sentence just before, credited to X
        by carry-over, were the other party's (卒盥，揖讓升。賓西階上疑立 → the host's)."""
        passage, number = stand.sentence
        before = []
        for e in reversed(self.emitted[-40:]):
            if e.sentence < (passage, number - 1):
                break
            if e.sentence == (passage, number - 1):
                before.append(e)
        before.reverse()

        def carried(acts: list[_Emitted]) -> bool:  # all inferred, none another's
            return bool(acts) and all(e.action.actor_inferred and e.actor_key in (None, stand.actor_key) for e in acts)

        if not carried(before):
            before = self._finished_before(stand)
            if not carried(before):
                return
        if {id(e) for e in before} <= {id(e) for e in self.unresolved}:
            self.unresolved_not = stand.actor_key  # 卒洗，揖讓升。賓西階上疑立。主人實觶
            return
        name = self.other_named(passage, stand.actor_key)
        if name is not None:
            for e in before:
                if e.lemma in _SERVING_VERBS and e.action.actor is None:
                    continue  # 賓升席。乃設折俎。主人阼階東疑立: the 賓 is served, by someone unnamed
                e.action.actor, e.actor_key = name, self.key(name)

    def _finished_before(self, stand: _Emitted) -> list[_Emitted]:
        """The acts before the stand, in its sentence or the one before, from the last 卒 on (復位，
        當西序，卒盥，揖讓升。賓西階上疑立: the 斷句 left no sentence end before the 卒)."""
        passage, number = stand.sentence
        run: list[_Emitted] = []
        for e in reversed(self.emitted[self.history_start:-1]):
            if e.sentence not in (stand.sentence, (passage, number - 1)):
                return []
            run.append(e)
            if e.lemma == "卒":
                return run[::-1]
        return []

    def actor_of(self, d: Draft, subject: Optional[str], pending: Optional[_Pending], sentence) -> tuple[Optional[str], bool]:
        if subject:
            return subject, False
        if d.all_marker and self.all_group is not None and self.all_group[0] == (sentence, d.clause):
            return self.all_group[1], self.all_group[2]  # 命負侯，皆執其旌…而俟: the same group, to the clause end
        if pending is not None and pending.written and pending.actor:
            joined = not (pending.place or pending.facing) and _is_joined(pending.actor, self.x.normalise)
            if d.all_marker and not joined and self._two_parties(sentence):
                # 賓堂西，主人堂東，皆釋弓矢，襲: both, where each stood; what they do next stays theirs
                # (X及Y named alone before 皆 are who act: 司射反位。三耦及諸公卿大夫眾射者皆袒)
                self.current, self.pending, self.unnamed = None, None, True
                return None, True
            if d.all_marker:
                self.all_group = ((sentence, d.clause), pending.actor, False)
            return pending.actor, False
        if d.finishes:
            holder = self.key(self.current) if d.finishes == "飲" and self.current else None
            for e in reversed(self.emitted[self.history_start:]):
                if e.lemma == d.finishes and not e.action.negated and e.action.actor:
                    return e.action.actor, True
                if holder is not None and e.actor_key == holder and _holds_cup(e):
                    return self.current, True
            decliner = self.declined_before(sentence[0])
            if d.finishes == "洗" and decliner is not None:
                # 賓辭洗。卒洗 / 工不辭洗。卒洗: the one who (did not) decline does not wash
                name = self.other_named(sentence[0], decliner)
                if name is not None:
                    self.current = name
                    return name, True
                self.current, self.unnamed = None, True
                return None, True
        if d.lemma == "受":
            answerer = self._answered_emptier(sentence[0])
            if answerer is not None:
                return answerer, True  # 公…立卒爵…拜。主人答拜。樂闋。升受爵: who emptied it does not take it back
        if d.lemma == "酢":
            presented = self.last_presented(sentence[0])
            if presented is not None:
                return presented, True  # 利洗散，獻于尸，酢: the one presented returns the cup
        if d.lemma == _PRESENT:
            giver = self._presenter_before_drinking(sentence[0])
            if giver is not None:
                return giver, True  # 尸飲七，以瑤爵獻大夫 (祭統): the one who drank presents to no one; the lord does
        if d.response:
            bower = self.last_bow()
            if bower is not None:
                if bower.action.target:
                    return bower.action.target, True
                for name, sent in reversed(self.named):
                    if sent == sentence and self.key(name) != bower.actor_key:
                        return name, True
                return None, True
        last = self.emitted[-1] if self.emitted else None
        if d.lemma == "拜" and last is not None and last.action.response and self.before_response:
            return self.before_response, True  # 再拜賓，賓答拜，拜介: the bower bows on
        if (d.lemma == "送" and last is not None and last.lemma in _LEAVING and last.actor_key
                and not last.action.actor_inferred):
            for name, _ in reversed(self.named):  # 賓退，送: the host sees the guest off
                if self.key(name) != last.actor_key:
                    return name, True
        if d.all_marker and self.emitted:
            last = self.emitted[-1]
            if last.action.target and (_is_group(last.action.target, self.x.normalise) or last.lemma in _COMMANDS):
                self.all_group = ((sentence, d.clause), last.action.target, True)
                return last.action.target, True  # 揖眾賓，皆…; 命負侯，皆執其旌: the ones bidden
        if d.all_marker and self.all_written is not None and self.all_written[0] == len(self.emitted):
            return self.all_written[1], True  # 長皆奠觶于其所，皆揖其弟子: the group written with 皆 goes on
        if d.all_marker and self._two_parties(sentence):
            self.unnamed = True  # what both go on to do stays theirs: 皆由其階，階下揖，升堂揖
            return None, True  # 主人再拜，賓答再拜，皆揖就席: both, whom no one name covers
        if self.sender is not None and d.lemma in _SERVING_VERBS:
            return self.sender, True  # 主人拜送。設菹醢、俎: the giver serves the dishes
        if d.lemma in _SERVING_VERBS and self.current is not None:
            giver = self.last_giver(sentence[0], self.key(self.current))
            if giver is not None and giver != self.key(self.current):
                return None, True  # 主人拜送爵，賓少退。薦脯醢: the carried 賓 is the one served
            if self.seated(sentence[0], self.key(self.current)):
                return None, True  # 大夫升席。設折俎: who has just taken his mat is served, by someone unnamed
        return self.current, True

    def _acted_on(self, key: Optional[str]) -> bool:
        """Is ``key`` (or one named from it: 士既獻者 of 士) the one an opening act was done to? He did
        not do it: 乃命執冪者。執冪者升 (bidden), 辯獻士。士既獻者立于東方 (presented)."""
        return key is not None and any(e.target_key and key.startswith(e.target_key) for e in self.unresolved)

    def _last_of(self, passage: int) -> Optional[_Emitted]:
        """The last act emitted, if it is this passage's (and of the history the run reads)."""
        if len(self.emitted) <= self.history_start or self.emitted[-1].sentence[0] != passage:
            return None
        return self.emitted[-1]

    def declined_before(self, passage: int) -> Optional[str]:
        """The actor of this passage's last act if it was a 辭 (辭洗, 降辭, 不辭洗), else None. Not 辭降:
        who declines the other's coming down with him is the one washing (賓降，主人辭降…主人卒洗; 士冠禮
        賓降取爵于篚，辭降如初；卒洗: the guest's)."""
        last = self._last_of(passage)
        if last is None or last.lemma != "辭" or (last.action.object or "") == "降":
            return None
        return last.actor_key

    def _answered_emptier(self, passage: int) -> Optional[str]:
        """The one who answered the bow of the carried actor after he emptied the cup (卒爵, 卒觶)
        and took no other since: he, not the drinker, receives the empty cup (公…立卒爵，坐奠爵，拜，
        執爵興。主人答拜。樂闋。升受爵 → 主人; the dev gold's every subjectless 受 after a 卒 of the cup
        is another's). The drinker is the one carried on, or, before anyone is named, the unnamed one
        of the opening acts (坐祭，卒爵，拜，執爵興。賓答拜。受爵 → 賓); None where nobody answered him."""
        drinker = self.key(self.current)
        answerer: Optional[_Emitted] = None
        for e in reversed(self.emitted[self.history_start:]):
            if e.sentence[0] != passage:
                return None
            if e.action.response and e.actor_key not in (None, drinker):
                answerer = answerer or e
            elif e.actor_key == drinker and e.lemma in _TAKES_CUP:
                return None  # he has another cup in hand
            elif e.actor_key == drinker and e.lemma == "卒" and e.action.object \
                    and e.action.object[:1] in _CUPS:
                return answerer.action.actor if answerer is not None else None
        return None

    def last_giver(self, passage: int, receiver: Optional[str] = None) -> Optional[str]:
        """The actor of the last 拜送 of this passage (the giver of the cup just received). None
        where ``receiver``, who received the cup, has since opened a sentence of his own, written (司馬西面
        拜送爵。獲者執爵，…適右个，設薦俎: he carries his dishes to the target and sets them; not 主人拜送爵，
        賓少退。薦脯醢)."""
        later: list[_Emitted] = []
        for e in reversed(self.emitted[-8:]):
            if e.sentence[0] != passage:
                return None
            if e.lemma == "拜" and (e.action.purpose or "") == "送":
                if receiver is not None and self._received(passage, receiver) and any(
                        x.actor_key == receiver and not x.action.actor_inferred and x.sentence > e.sentence
                        for x in later):
                    return None
                return e.actor_key
            later.append(e)
        return None

    def _received(self, passage: int, key: str) -> bool:
        """Did ``key`` receive the cup in this passage (受, 拜受)? Not a third party carried on
        (卿辭重席，司宮徹之。乃薦脯醢: the 卿 is served, by someone unnamed)."""
        return any(e.sentence[0] == passage and e.actor_key == key and (
            e.lemma == "受" or (e.lemma == "拜" and (e.action.purpose or "") == "受")) for e in self.emitted[-12:])

    def seated(self, passage: int, key: Optional[str]) -> bool:
        """Was this passage's last act ``key``'s going to his mat (升席, 即席, 就筵)?"""
        last = self._last_of(passage)
        return (last is not None and last.actor_key == key and last.lemma in _TO_THE_MAT
                and bool(last.action.location) and self.x.normalise(last.action.location) in _MATS)

    def other_named(self, passage: int, key: Optional[str]) -> Optional[str]:
        """The last participant this passage named who is not ``key``."""
        for name, sent in reversed(self.named):
            if sent[0] == passage and self.key(name) != key:
                return name
        return None

    def last_presented(self, passage: int) -> Optional[str]:
        """The one (not several) this passage's last 獻 presented a cup to, unless a 酢 answered it."""
        for e in reversed(self.emitted[self.history_start:]):
            if e.sentence[0] != passage or e.lemma == "酢":
                return None
            if e.lemma == "獻":
                target = e.action.target
                return target if target and not _is_joined(target, self.x.normalise) and not e.action.negated else None
        return None

    def _presenter_before_drinking(self, passage: int) -> Optional[str]:
        """The one who presented a cup earlier in this passage, where the carried actor has just drunk
        (飲, 卒爵) and so presents to no one himself; None where no other presented."""
        last = self.emitted[-1] if self.emitted else None
        if last is None or last.lemma not in _DRINKING or last.action.negated or last.sentence[0] != passage \
                or last.actor_key != self.key(self.current):
            return None
        for e in reversed(self.emitted[self.history_start:]):
            if e.sentence[0] != passage:
                return None
            if e.lemma == _PRESENT and not e.action.negated and e.action.actor and e.actor_key != last.actor_key:
                return e.action.actor
        return None

    def last_bow(self) -> Optional[_Emitted]:
        for e in reversed(self.emitted[-6:]):
            if e.lemma == "拜":
                return e
        return None

    def action(self, view: TextView, d: Draft, actor: Optional[str], inferred: bool) -> Action:
        w = view.written
        start, end = view.to_raw(*d.clause)
        return Action(
            verb=d.lemma,
            surface=w(*d.surface),
            start=start,
            end=end,
            actor=actor,
            actor_inferred=inferred,
            count=d.count,
            response=d.response,
            negated=d.negated,
            purpose=w(*d.purpose) if d.purpose else None,
            object=w(*d.object) if d.object else None,
            target=w(*d.target) if d.target else None,
            location=w(*d.location) if d.location else None,
            facing=w(*d.facing) if d.facing else None,
            verb_at=view.to_raw(*d.verb_token),
            object_at=view.to_raw(*d.object) if d.object else None,
            location_at=view.to_raw(*d.location) if d.location else None,
            actor_at=view.to_raw(*d.subject) if d.subject and not inferred else None,
        )

    def flush_pending(self) -> None:
        """At a sentence end, an unused place/facing fills the last act of its actor before it."""
        p = self.pending
        self.pending = None
        if p is None or not (p.place or p.facing):
            return
        for e in reversed(self.emitted[: p.after]):
            if e.sentence != p.sentence:
                break
            if e.actor_key == p.actor_key:
                if e.action.location is None and p.place:
                    e.action.location = p.place
                if e.action.facing is None and p.facing and e.lemma not in LAID_THINGS:
                    e.action.facing = p.facing  # not 設 / 加 / 薦's: how the thing lies (clause.LAID_THINGS)
                break


# -- helpers ----------------------------------------------------------------------------------
#: verbs whose written topic may be the thing itself, with no agent (肝從, 席從, 俎入設,
#: 泰羹湇自門入, 匕皆加于鼎, 少牢 勺、爵、觚、觶實于篚); with other verbs a thing first is only the matter (每一个釋一算)
_THING_SUBJECT_VERBS = set("從 入 出 設 加 實".split())
#: the pronoun of one just spoken of, as a target (拜之): no participant another act can go to
_HIM = "之"
#: going out or withdrawing: one who did so acts no more in the scene he left
_LEAVING = ("出", "退")
#: drinking (飲) or finishing (卒, in the rites most often 卒爵): who just did presents no cup with no
#: subject written
_DRINKING = ("飲", "卒")
#: the acts that bid someone, and the music that 作 "starts" instead (樂作, 陔作), in both scripts
_BIDDING = "作戒"
_MUSIC = "樂乐陔"
#: a clause opening a condition (若…則…): a waiting place or subject does not reach into it
_CONDITION = "若"
_THEN = "则則"
#: the acts of a bow another may decline (小臣正辭): 拜, and 稽首 closing 再拜稽首
_BOWS = ("拜", "稽首")

_ONCE = "既"
#: a clause in which someone treats an unnamed person (之): 賜之爵, 降送之, 請見之, 為之興. A 則 clause
#: right after it is that person's answer, whose actor the passage does not name (士相見禮)
_TREATS_UNNAMED = re.compile(r"[赐賜送见見迎拜揖命为為兴興]之")
#: a clause saying there are some who… (有賓後至者, 賓有後至者): those spoken of, no doer
_THOSE_WHO = re.compile(r"[^有，。]{0,4}有[^，。；]{1,6}者$")

_PLACING_VERBS = set("設 加".split())
#: verbs of serving dishes, which stay with the giver after his 拜送 (GUIDE 3.2)
_SERVING_VERBS = set("設 薦".split())
#: going to one's mat (升席, 即席, 就筵): the one seated there is served next, and serves no one
_TO_THE_MAT = set("升 即 就".split())
_MATS = {"席", "筵"}
#: 釋獲 (laying down a counter for a hit) is the scorer's (釋獲者) act; written without a subject
#: it is never the carried shooter's
_SCORER = "釋獲"
#: after X命Y, a 皆 without a subject speaks of the Ys bidden (司馬師命負侯，皆執其旌)
_COMMANDS = ("命",)
#: a report (告事畢): made by an officer to those who act next
_REPORT = "告"
#: the act of presenting a cup to someone (獻賓): his receipt, then the presenter's answer, follow
_PRESENT = "獻"
#: the acts of the one presented to (拜, 受) that make the next answer the presenter's
_RECEIPT = ("拜", "受")


def _each_after(text: str, mark: str, start: int, end: int) -> Iterator[int]:
    """The offset right after each place ``text[start:end]`` writes ``mark``, in order."""
    at = text.find(mark, start, end)
    while at >= 0:
        yield at + len(mark)
        at = text.find(mark, at + len(mark), end)


#: 去 "leaves", compared like the motion verbs (如初去侯: leaves the target as at first)
_GOING = frozenset("去")
#: a string of one to four characters written twice in a row (a cheap test before tokenising)
_DOUBLED = re.compile(r"(\w{1,4})\1")


def _cut_clauses(text: str, clauses: list[Span], cuts: Callable[[str, int, int], list[int]]) -> list[Span]:
    """``clauses`` with each one cut where ``cuts(text, start, end)`` says (offsets inside it, in order)."""
    out: list[Span] = []
    for cs, ce in clauses:
        for at in cuts(text, cs, ce):
            out.append((cs, at))
            cs = at
        out.append((cs, ce))
    return out


def _scores(text: str, d: Draft, normalise: Callable[[str], str]) -> bool:
    """Is the act 釋獲, the scorer's counting of a hit? (``text`` is the normalised view)"""
    return d.lemma == "釋" and d.object is not None and text[d.object[0]:d.object[1]] == normalise("獲")


def _rite_name(text: str, sentences) -> int:
    """End of the rite's name opening the passage (鄉射之禮。 → 4), 0 if there is none: the name
    must be a sentence of its own (a mark or a given sentence end follows it)."""
    m = _RITE_OPEN.match(text)
    if m is None:
        return 0
    end = m.end()
    if (end < len(text) and text[end] in "。．.") or any(e == end for _, e in sentences):
        return end
    return 0


def _served_to(text: str, d: Draft, subject: Optional[Span], normalise: Callable[[str], str]) -> bool:
    """Is the act 薦之 / 薦諸其位, dishes set before the one the clause speaks of (祝史、小臣師亦就其位
    而薦之, 遂薦之)? The server is unnamed; only a subject written right before 薦 (X薦之) serves."""
    if d.lemma != "薦":
        return False
    end = d.verb_token[1]
    if end >= len(text) or text[end] not in (normalise("之"), normalise("諸")):
        return False
    return subject is None or subject[1] != d.verb_token[0]


def _waiting(text: str, verb_at: int) -> bool:
    """Is the 立 at ``verb_at`` 疑立, standing still while the other acts?"""
    return verb_at > 0 and text[verb_at - 1] == "疑"


def _marks_time(action: Action, object_kinds: Iterable[str] = ()) -> bool:
    """Is this subjectless 卒 an event that ended (卒射，釋獲者…, 卒歌, 卒祝，主人再拜, 卒食，主人降),
    whose doers are not the one named next, rather than one's own handling finished (卒洗，主人壹揖,
    卒觶)? ``object_kinds``: the lexicon's kinds of what was finished (an act or a thing it knows
    is one's own handling; 食, 錯, 畫 it does not know are events)."""
    if action.verb != "卒":
        return False
    return action.object in (None, "射") or not {VERB, OBJECT} & set(object_kinds)


#: acts of one who has the cup in hand: after one of them, his carried 卒爵 / 卒觶 is his own, not
#: that of someone who drank earlier in a long passage (不勝者進，坐取豐上之觶…立卒觶; 賓坐祭，卒爵;
#: 主人更爵，酌，醋，卒爵). 酢 with a target returns the cup to another, who drinks
_HOLDING_CUP = set("受 取 酌 酢 祭 啐 執".split())
#: acts that put a new cup in one's hand (執 and 奠 of the emptied one do not)
_TAKES_CUP = set("受 取 酌".split())
#: the acts of one who drinks the cup he received (坐祭，啐酒，卒爵)
_DRINKING = frozenset("坐 祭 啐 嚌 飲 卒".split())
#: the drinking vessels a 卒 empties (卒爵, 卒觶, 卒角, 卒散, 卒觚)
_CUPS = "爵觶角散觚"


def _holds_cup(e: "_Emitted") -> bool:
    """Has the actor of ``e`` the cup in hand after it?"""
    return e.lemma in _HOLDING_CUP and not e.action.negated and not (e.lemma == "酢" and e.action.target)


def _answers(action: Action) -> bool:
    """An act of the other party inside someone's sequence: a response (荅拜) or the giver's 拜送
    (一人…受爵，主人拜送爵。階前坐祭 → the drinker goes on in the next sentence)."""
    return action.response or (action.verb == "拜" and (action.purpose or "") == "送")


def _is_group(name: str, normalise: Callable[[str], str]) -> bool:
    n = normalise(name)
    return n.startswith(("众", "诸", "群", "羣")) or _is_joined(name, normalise) or n.endswith("耦")


#: what opens the "who have / have not …" of a name made from a group's (士既獻者, 眾賓不與射者, 賓未拜者)
_STATE_WORDS = set("既未不將已")


def _same_party(actor_key: str, target_key: str) -> bool:
    """Is the one an act is done to its doer, or one of its doers: the same name, those of it who
    have or have not done something (士既獻者, 眾賓不與射者 of 士, 眾賓; not 大夫長, the eldest, nor
    主婦贊薦者, her helper, who act on the others), or one of several joined (賓、主人、大夫 and 賓)?
    Keys are normalised names."""
    if actor_key == target_key:
        return True
    rest = actor_key[len(target_key):] if actor_key.startswith(target_key) else ""
    if len(rest) > 1 and rest[0] in _STATE_WORDS and rest.endswith("者"):
        return True
    return target_key in re.split(f"[{_JOINS}]", actor_key)


#: what joins participants in writing (X、Y, X及Y, X與Y), as the normalised view writes it
_JOINS = "、及与"


def _is_joined(name: str, normalise: Callable[[str], str]) -> bool:
    """Is ``name`` several participants joined in writing (X、Y, X及Y, X與Y)?"""
    return any(c in normalise(name) for c in _JOINS)


def _containing(ranges: list[tuple[int, int]], pos: int) -> int:
    """Index of the range of ``ranges`` (sorted, not overlapping) holding ``pos``, else len(ranges)."""
    i = bisect.bisect_right(ranges, (pos, float("inf"))) - 1
    if 0 <= i < len(ranges) and ranges[i][0] <= pos < ranges[i][1]:
        return i
    return len(ranges)


def _trim(text: str, s: int, e: int) -> Optional[Span]:
    while s < e and text[s] in _TRIM:
        s += 1
    while e > s and text[e - 1] in _TRIM:
        e -= 1
    return (s, e) if s < e else None
