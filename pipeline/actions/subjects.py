"""Participants the lexicon lacks, read from where a chapter writes them: as the subject of acts.

A chapter the lexicon was not written from brings its own participants (尸 and 祝 of 特牲, 卿 of
大射), and the span model misses the single characters among them. The text itself says who they
are: a word nobody knows that opens clause after clause right before an act of the closed list
(尸入, 尸即席坐, 尸答拜, 祝洗, 祝命挼祭) is someone who acts. Things opening a clause (肝從, 燔亦如之)
do few different acts and seldom; words of speech (敢固辭) open few kinds of act; hence the two
thresholds, chosen on the dev chapters with each chapter's own terms taken out of the lexicon.
An office named as offices are named, a rank or head with a participant the lexicon knows (小樂正,
僕人師, 宰胥), needs one clause opening on it before its predicate, in a document or in a passage read
alone (:func:`title_openings`). So, within its own passage, does a word nobody knows that opens a
sentence before an act only a person does (侯氏再拜稽首, read alone) or goes on to one (侯氏入門右，坐奠圭),
or any clause bowing to another (主人拜，尸答拜; 主人拜受角，尸拜送): a passage read alone has one or two
sentences to go on, not three (:func:`passage_subjects`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Iterable, Sequence

from pipeline.actions.tokens import TokenStream, tokenize
from pipeline.actions.vocabulary import (
    ACTOR, ADV, AND, ANDS, CHAR, CLAUSE_TRIM, COUNT, FACING_KIND, LOCATION, NEG, NUM, OBJECT, OTHERV, PUNCT, RESP, RESPONSES,
    SENTENCE_MARKS, VERB, WITH, Vocabulary,
)

#: how often, and before how many different acts, an unknown word opens a clause to be a participant
MIN_OPENINGS = 3
MIN_ACTS = 3
#: at most this many characters: names longer than that the span model reads well
MAX_LENGTH = 3
#: the ranks and heads of an office (小臣 → 小臣師, 小臣正; 樂正 → 小樂正; 宰 → 宰胥; 司馬正 written
#: 司馬政 in 大射): a participant the lexicon knows with one of them before or after it, opening a
#: clause before an act, is an office of its own from its first such clause on, in its document
#: and in a passage read alone
TITLE_PREFIXES = "小少大"
TITLE_SUFFIXES = "正政師胥"
#: the same for the women of a household (主婦 the host's wife, 宗婦 the wives of his clan, on 婦):
#: not ranks (:func:`listed_names` reads ranks written together, 諸公卿大夫; these are not)
HOUSEHOLD_PREFIXES = "主宗"
#: between the subject and its act: 尸又三飯, 祝先入, 尸不拜, 尸答拜
_BETWEEN = frozenset({ADV, NEG, COUNT, RESP})
#: what opens a predicate after a title: these, an act, a verb outside the closed list, 以
_PREDICATE = _BETWEEN | {VERB, OTHERV, WITH}
#: what a name the lexicon lacks is written with: characters nothing knows, a number (兩𦿉: a name
#: the span model reads that opens on one is no name of the document, 三獻, but one that opens
#: clause after clause is), and words (侯氏 is 侯, the target of archery, and 氏; 宗婦 is 宗 and 婦)
_NOUNISH = frozenset({CHAR, OBJECT, LOCATION, ACTOR, NUM})
#: the pronouns and particles that start or make no thing (vocabulary.NOT_THINGS) hold no name
#: either: 其 opens 其受豕脀, 其獻, 其酌 ("he", the one of the passage; 有司徹) and follows its subject
#: (主人其祭糗脩) as often as a participant opens clauses. Of that list these stay: 者 and 諸 make
#: names (獲者, 諸公), 人 and 旅 are parts of them (宗人, 旅食), 命 is an act
IN_NAMES = "者諸人旅命"
#: acts only a person does: a word nobody knows opening a sentence before one of them is someone in
#: that passage (即: goes to his mat or place, 尸即席坐). Not 射 (大射, 誘射: the rite, the
#: demonstration), nor the acts things do in this text (肝從, 俎入設, 心立, 鼎升), nor 洗 (the basin)
PERSONAL_ACTS = frozenset("揖 拜 稽首 辭 讓 盥 坐 興 受 飲 啐 嚌 袒 襲 酌 獻 酢 酬 授 取 執 奠 迎 送 命 告 請 對 許 搢 挾 即".split())
#: acts that open a sentence on a thing as often as on a person (肝從, 燔從: the liver follows; 射 of
#: 小射正 read as an act): a word nobody knows before one of them is a person only where the act is
#: one of :data:`PERSONAL_ACTS`
THINGS_DO = frozenset(("從", "射"))
#: the bow of one who answers (答拜), sends off (拜送) or receives (拜受): a person's, at the head of any clause
_BOW = "拜"
_EXCHANGE = "送受"
#: the same as text: 答 (荅), 拜送, 拜受
_BOWING = (*RESPONSES, *(_BOW + x for x in _EXCHANGE))
#: adverbs that open a clause before its act as a subject would (始 first, 終 to the end, 辯 all round,
#: 備 fully, 夙 early, 亞 next, 敢 dare, 固 firmly, 未 not yet, 每 each, 故 so: 敢固辭, 大夫辯受酬, 主人備答拜;
#: 故起東面坐 of a 注 the 四庫 runs into its 經): a word holding one is no name of the passage
PASSAGE_ADVERBS = "始終辯備夙亞敢固未每故"
#: what stands between a clause and the mark that ends the one before it, sentence marks aside
_INSIDE_TRIM = "".join(c for c in CLAUSE_TRIM if c not in SENTENCE_MARKS)


def _particles(voc: Vocabulary, adverbs: str = "") -> set[str]:
    """The characters no name holds (:data:`IN_NAMES` aside), and ``adverbs``. Nor 凡 (whenever, all:
    ``voc.generals``), which opens the rules of a 記 (凡適堂西，皆出入于司馬之南; 凡挾矢; 凡旅，不洗): the acts
    after it are anyone's, so it opens no name however often it opens a clause."""
    return (voc.not_things - set(voc.normalise(IN_NAMES))) | voc.generals | set(voc.normalise(adverbs))


def _new_name(word: str, voc: Vocabulary) -> bool:
    """Could ``word`` be a participant the vocabulary lacks? Not where a number opens it (三獻, 一人:
    who that is depends on where it is written) nor where a known participant or act is in it
    (士旅酌: a known participant and more; 反面揖: he turns and bows)."""
    return NUM not in voc.kinds.get(word[0], ()) and not any(
        voc.kinds.get(word[i:j], set()) & {ACTOR, VERB} for i in range(len(word)) for j in range(i + 1, len(word) + 1))


def clause_subjects(text: str, clauses: Iterable[tuple[int, int]], voc: Vocabulary,
                    adverbs: str = "") -> Iterable[tuple[str, str]]:
    """(word, act) for each clause of ``text`` that opens with a word of at most :data:`MAX_LENGTH`
    characters, one of them at least unknown to the vocabulary, then (adverbs, negation, count,
    response and) an act of the closed list; no word holding one of ``adverbs``."""
    for _clause, word, act, _bows in _clause_openings(text, clauses, voc, adverbs):
        yield word, act


def _clause_openings(text: str, clauses: Iterable[tuple[int, int]], voc: Vocabulary,
                     adverbs: str = "") -> Iterable[tuple[tuple[int, int], str, str, bool]]:
    """:func:`clause_subjects`, each with its clause and whether the word bows to another: answers a
    bow (答 right after it: 尸答拜) or bows to send off or to receive (尸拜送, 尸拜受)."""
    particles = _particles(voc, adverbs)
    exchange = set(voc.normalise(_EXCHANGE))
    for clause in clauses:
        s, e = _opening(text, *clause), clause[1]
        tokens = TokenStream(text, s, e, voc)  # only the opening words are read
        k = 0
        while ((t := tokens.get(k)) is not None and t.kinds <= _NOUNISH and t.end - s <= MAX_LENGTH
               and not particles & set(t.text)):
            k += 1
        # one character at least that nothing knows (a known word alone is what it is: 肝從, 賓入)
        if not any(CHAR in t.kinds for t in tokens.read[:k]):
            continue
        j = _to_act(tokens, k, voc)
        if (t := tokens.get(j)) is not None and VERB in t.kinds:
            act = t.lemma or t.text
            after = tokens.get(j + 1)
            bows = act == _BOW and ((j > k and RESP in tokens.read[k].kinds)
                                    or (after is not None and text[after.start] in exchange))
            yield clause, text[s:tokens.read[k - 1].end], act, bows


def _opening(text: str, start: int, end: int) -> int:
    """Where the words of the clause ``text[start:end]`` begin: past its marks and spaces."""
    while start < end and text[start] in CLAUSE_TRIM:
        start += 1
    return start


def _to_act(tokens: TokenStream, k: int, voc: Vocabulary) -> int:
    """The index of the first token from ``k`` on past what stands between a subject and its act:
    adverbs, a negation, a count, a response (尸又三飯, 尸不拜, 尸答拜), the facing he takes (祝東面告)
    or the hand he acts with (祝左執角, 尸右取肝)."""
    while ((t := tokens.get(k)) is not None and VERB not in t.kinds
           and (t.kinds & _BETWEEN or t.kinds == {FACING_KIND} or t.text in voc.hand_sides)):
        k += 1
    return k


def discover_subjects(views: Sequence[tuple[str, Sequence[tuple[int, int]]]], voc: Vocabulary,
                      min_openings: int = MIN_OPENINGS, min_acts: int = MIN_ACTS) -> frozenset[str]:
    """The words that open at least ``min_openings`` clauses of a document's passages (``(text,
    clauses)`` pairs) before at least ``min_acts`` different acts, and the office titles (a rank or
    head around a participant the vocabulary knows) that open one."""
    openings: Counter[str] = Counter()
    acts: dict[str, set[str]] = defaultdict(set)
    titles: set[str] = set()
    # each distinct passage read once, its openings counted as often as it is written
    for (text, clauses), times in Counter((text, tuple(clauses)) for text, clauses in views).items():
        for word, act in clause_subjects(text, clauses, voc):
            openings[word] += times
            acts[word].add(act)
        titles.update(title_openings(text, clauses, voc))
    return frozenset(w for w, n in openings.items() if n >= min_openings and len(acts[w]) >= min_acts) | titles


def title_openings(text: str, clauses: Iterable[tuple[int, int]], voc: Vocabulary) -> Iterable[str]:
    """The office titles built on a participant the vocabulary knows (小臣師, 司馬政, 小樂正; 主婦) that
    open a clause of ``text``, after its adverbs (則司馬師命負侯), before its predicate: an act, a
    verb outside the closed list (僕人師繼酌), 以 (小臣師以巾退), an adverb, a negation, a count."""
    prefixes, suffixes = voc.normalise(TITLE_PREFIXES + HOUSEHOLD_PREFIXES), voc.normalise(TITLE_SUFFIXES)
    for s, e in clauses:
        s = _opening(text, s, e)
        if not any(ch in prefixes or ch in suffixes for ch in text[s:s + voc.max_len + 4]):
            continue  # most clauses hold no rank or head near their opening: not tokenized
        tokens = TokenStream(text, s, e, voc)
        k = 0
        while (t := tokens.get(k)) is not None and t.kinds == {ADV}:
            k += 1
        first, second, after = tokens.get(k), tokens.get(k + 1), tokens.get(k + 2)
        if first is None or second is None or after is None or not after.kinds & _PREDICATE:
            continue
        if ACTOR in first.kinds and second.kinds == {CHAR} and second.text in suffixes:
            yield first.text + second.text
        elif first.kinds == {CHAR} and first.text in prefixes and ACTOR in second.kinds:
            yield first.text + second.text


def passage_subjects(text: str, clauses: Sequence[tuple[int, int]], voc: Vocabulary,
                     sentence_starts: Iterable[int] = ()) -> frozenset[str]:
    """The words nobody knows that open one passage or a sentence of it before an act of
    :data:`PERSONAL_ACTS` (侯氏 of 侯氏再拜稽首 read alone, of 使者出。侯氏送，再拜), or before another act
    where the sentence goes on, with no word of its own, to one of them (侯氏入門右，坐奠圭). Not a word holding
    a participant the vocabulary knows (士旅酌, 眾弓矢挾: a known participant and more), an act's
    character (反面揖: he turns and bows), an adverb of :data:`PASSAGE_ADVERBS` or a number (三獻,
    一人: who that is depends on where it is written), nor one written before 而 (順羽而興: an act of
    its own, he strokes the feathers and rises). Later clauses of a sentence go on with its subject:
    a word opening one is how or where he acts more often than someone new, but for one who bows to
    another, answering (主人拜，尸答拜) or sending off or receiving (主人拜受角，尸拜送): things do not.
    A clause opens a sentence after a sentence mark, or at one of ``sentence_starts`` (the sentences
    the 斷句 gives text without marks: 使者出|侯氏送再拜)."""
    then = voc.normalise("而")

    starts = set(sentence_starts)

    def opens_sentence(start: int) -> bool:
        if start in starts:
            return True  # where the 斷句 ended a sentence in text without marks
        k = start  # back over what stands between this clause and the mark before it (no copy of the text before)
        while k and text[k - 1] in _INSIDE_TRIM:
            k -= 1
        return not k or text[k - 1] in SENTENCE_MARKS

    firsts = {c for k, c in enumerate(clauses) if k == 0 or opens_sentence(c[0])}
    # the sentence a first clause opens: its later clauses, up to the next sentence's first
    goes_on: dict[tuple[int, int], list[tuple[int, int]]] = {}
    head = None
    for c in clauses:
        if c in firsts:
            head = c
            goes_on[c] = []
        elif head is not None:
            goes_on[head].append(c)

    def person(clause: tuple[int, int], act: str, word: str) -> bool:
        """Is the sentence ``clause`` opens one a person acts in? Its act is one only a person does,
        or a later clause of it, with no word of its own, opens on one (侯氏入門右，坐奠圭): then the
        opening act was his too. Not after an act of :data:`THINGS_DO`, nor for a time (明日卒奠，…
        即位而徹之)."""
        if act in PERSONAL_ACTS:
            return True
        return (act not in THINGS_DO and not any(d in word for d in voc.new_day)
                and any(_opens_on_personal_act(text, c, voc) for c in goes_on.get(clause, ())))

    # a later clause is read only if it writes a bow to another (most do not): what _clause_openings'
    # bows needs, as text
    bowing = [voc.normalise(w) for w in _BOWING]
    read = [c for c in clauses if c in firsts or any(w in text[c[0]:c[1]] for w in bowing)]
    # and an office's title opening any clause (僕人師繼酌射爵, 小臣師以巾退), as in a document
    return frozenset(word for clause, word, act, bows in _clause_openings(text, read, voc, PASSAGE_ADVERBS)
                     if (bows or clause in firsts and person(clause, act, word)) and _new_name(word, voc)
                     and word + then not in text) | frozenset(title_openings(text, clauses, voc))


def _opens_on_personal_act(text: str, clause: tuple[int, int], voc: Vocabulary) -> bool:
    """Does ``clause`` open, with no word of its own, on an act of :data:`PERSONAL_ACTS` (坐奠圭 after
    侯氏入門右; 東面授宰幣 after 侯氏降自西階; 左執爵), what stands between a subject and its act aside?"""
    tokens = TokenStream(text, _opening(text, *clause), clause[1], voc)
    t = tokens.get(_to_act(tokens, 0, voc))
    return t is not None and VERB in t.kinds and (t.lemma or t.text) in PERSONAL_ACTS


#: acts done to a person (the one handed, presented, led, bidden): a word nobody knows after one of
#: them, opening a later clause before an act of its own, is that person (授祝，祝授尸)
HANDED_TO = "授獻酬酢酳延迎命使詔揖"


def handed_names(text: str, clauses: Sequence[tuple[int, int]], voc: Vocabulary) -> frozenset[str]:
    """The words nobody knows that an act is done to (:data:`HANDED_TO`, right after it or after
    于: 佐食摶黍授祝, 獻于尸) and that then open a later clause of the passage before an act: the one
    handed to, then the same one acting (祝授尸。尸受以菹豆; 命佐食啟會。佐食啟會; 祝延尸。尸升) —
    the way the classic passes a cup or a charge on, wherever its clauses stand in their sentences."""
    verbs = set(voc.normalise(HANDED_TO))
    at = voc.normalise("于")
    # where one handed to could be written: right after such an act, or after its 于; only the
    # clauses opening on a word written there are read
    after = [k + 1 for k, ch in enumerate(text) if ch in verbs or (ch == at and k and text[k - 1] in verbs)]
    if not after:
        return frozenset()
    handed = {text[k:k + n] for k in after for n in range(1, MAX_LENGTH + 1) if k + n <= len(text)}
    read = [c for c in clauses if text[(o := _opening(text, *c)):o + MAX_LENGTH].startswith(tuple(handed))]
    return frozenset(word for clause, word, _act, _bows in _clause_openings(text, read, voc, PASSAGE_ADVERBS)
                     if _new_name(word, voc) and any(k < clause[0] and text.startswith(word, k) for k in after))


def listed_names(text: str, voc: Vocabulary) -> frozenset[str]:
    """The words nobody knows listed with a participant the vocabulary knows at the head of a
    clause, before its act (諸公、卿、大夫皆降 where 卿 is new; 大師及少師、上工皆降): a list of
    participants is one of participants. Each such word is at most :data:`MAX_LENGTH` characters
    nothing knows standing alone between the list marks (、 及); not one holding a known participant
    or act, a number, a particle or an adverb of :data:`PASSAGE_ADVERBS`. Lists that are no subject
    (為母、妻、昆弟: those mourned for) are left alone."""
    if "、" not in text and not any(voc.normalise(w) in text for w in ANDS):
        return frozenset()  # no list mark, no list: most passages, read without tokenizing them
    tokens = tokenize(text, 0, len(text), voc)
    n = len(tokens)
    particles = _particles(voc, PASSAGE_ADVERBS)

    ranks = set(voc.normalise(TITLE_PREFIXES))
    out: set[str] = set()
    for k in range(n):
        if k > 0 and (PUNCT not in tokens[k - 1].kinds or AND in tokens[k - 1].kinds):
            continue  # a list at the head of a clause (、 is a mark, but inside the list)
        items: list[tuple[int, int, bool]] = []
        j = k
        while j < n:
            e = j
            kind = ACTOR in tokens[j].kinds
            while e < n and (ACTOR in tokens[e].kinds if kind else tokens[e].kinds == {CHAR} or tokens[e].text in ranks):
                e += 1  # 諸公卿大夫: ranks written together; characters nothing knows (少師: 少 is "a little" too)
            if e == j:
                break
            items.append((j, e, kind))
            if e < n and AND in tokens[e].kinds:
                j = e + 1
                continue
            j = e
            break
        if len(items) < 2 or not any(known for _s, _e, known in items) or j >= n \
                or not tokens[j].kinds & {ADV, NEG, VERB, COUNT, RESP} or AND in tokens[j - 1].kinds:
            continue
        for lo, hi, known in items:
            word = text[tokens[lo].start:tokens[hi - 1].end]
            if not known and len(word) <= MAX_LENGTH and not particles & set(word) and _new_name(word, voc):
                out.add(word)
    return frozenset(out)
