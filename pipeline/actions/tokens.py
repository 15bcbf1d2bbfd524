"""Greedy longest-match tokens of a normalised clause, each with every kind its word can have.

Ambiguity (洗 the act or the basin, 席 the mat or the place) is kept in the token's kinds and
settled by the clause analyser from the neighbours. Two repairs happen here because only the
characters can tell: a place that would eat the first character of a facing gives it back
(適洗南面 → 洗 + 南面, not 洗南 + 面), VERB…者 is a name (舉觶者, 釋獲者, 拜受者), never an act,
and 眾 alone before 皆 is a participant (眾皆繼射: the many).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence

from pipeline.actions.vocabulary import (
    AND, CHAR, FACING_KIND, NUM, ORDER, PREP, PUNCT, SAY, WITH, ZHI, OTHERV, Vocabulary,
)
from pipeline.actions.vocabulary import CLAUSE_MARKS


@dataclass
class Token:
    start: int  # view coordinates
    end: int
    text: str  # normalised
    kinds: frozenset[str]
    lemma: Optional[str] = None  # closed-list lemma (traditional) when VERB is a kind

    def is_(self, *kinds: str) -> bool:
        return any(k in self.kinds for k in kinds)


_NAME_BREAKERS = {PREP, WITH, ZHI, SAY, PUNCT, AND}
_FROM = "于於"


def longest_match(text: str, i: int, end: int, voc: Vocabulary) -> int:
    """Length of the longest vocabulary word at ``i`` (0 if none): read on while what is read
    begins some word (most positions stop after one or two characters, not ``max_len``)."""
    kinds, prefixes = voc.kinds, voc.prefix_set()
    best = 0
    for length in range(1, min(voc.max_len, end - i) + 1):
        piece = text[i : i + length]
        if piece not in prefixes:
            break
        if piece in kinds:
            best = length
    return best


def tokenize(text: str, start: int, end: int, voc: Vocabulary, names: Optional[dict[int, int]] = None) -> list[Token]:
    """Tokens of ``text[start:end]`` (a normalised view), offsets in the view's coordinates.
    ``names``: start → end of participants the lexicon lacks, read by the span model."""
    return list(iter_tokens(text, start, end, voc, names))


def iter_tokens(text: str, start: int, end: int, voc: Vocabulary, names: Optional[dict[int, int]] = None) -> Iterator[Token]:
    """:func:`tokenize` one token at a time: each token is read from where the last ended, so a
    reader that needs only a clause's first words (who opens it, and his act) stops there."""
    i = start
    while i < end:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if names and i in names and names[i] <= end:
            yield Token(i, names[i], text[i:names[i]], frozenset({"ACTOR"}))
            i = names[i]
            continue
        if ch == "、":
            yield Token(i, i + 1, ch, frozenset({AND, PUNCT}))
            i += 1
            continue
        if ch in CLAUSE_MARKS or not (ch.isalnum() or ord(ch) > 0x2E7F):
            yield Token(i, i + 1, ch, frozenset({PUNCT}))
            i += 1
            continue
        if _attendant(text, i, start, end, voc):
            yield Token(i, i + 1, ch, frozenset({"ACTOR"}))  # 媵受: the bride's woman, not 媵爵
            i += 1
            continue
        counted = _counted_group(text, i, start, end, voc)
        if counted:
            yield Token(i, i + counted, text[i:i + counted], frozenset({"ACTOR"}))  # 二佐食: the pair
            i += counted
            continue
        length = longest_match(text, i, end, voc)
        if length > 1:
            word = text[i : i + length]
            kinds = voc.kinds[word]
            # give back a last direction char that opens a facing or an ordering (洗南|面)
            if kinds & {"LOCATION", "OBJECT"} and not kinds & {FACING_KIND}:
                tail = text[i + length - 1 : i + length + 1]
                if tail in voc.kinds and voc.kinds[tail] & {FACING_KIND, ORDER}:
                    shorter = longest_match(text, i, i + length - 1, voc)
                    length = shorter if shorter else length - 1
        if length > 1 and "LOCATION" in voc.kinds.get(text[i : i + length], ()):
            # 賓席末 is 賓 + 席末, not 賓席 + 末: an actor first when the rest reads as a longer place
            for cut in range(1, length):
                if "ACTOR" in voc.kinds.get(text[i : i + cut], ()) and longest_match(text, i + cut, end, voc) > length - cut:
                    length = cut
                    break
        name = _name_length(text, i, end, voc)
        if name > max(length, 1):
            word = text[i : i + name]
            # 凡X者 is a class the 記 gives a rule for (凡畫者，丹質: whatever is painted; 凡奠者於左:
            # whatever is set down), no participant who acts and goes on acting: one word, no act in it
            yield Token(i, i + name, word, frozenset({CHAR if ch in voc.generals else "ACTOR"}))
            i += name
            continue
        if length <= 1 and ch == voc.crowd and text[i + 1 : i + 2] == voc.all_word:
            yield Token(i, i + 1, ch, frozenset({"ACTOR"}))  # 眾皆繼射: the many, as one group
            i += 1
            continue
        if length == 0:
            yield Token(i, i + 1, ch, frozenset({CHAR}))
            i += 1
            continue
        word = text[i : i + length]
        kinds = voc.kinds.get(word)
        if kinds is None:  # shortened to a non-word
            kinds = {CHAR}
        elif word in voc.measured and i + length < end and text[i + length] in voc.measures:
            kinds = {CHAR}  # 長如笴, 杠長三仞: a length, not the eldest
        elif word == voc.urge and i > start and text[i - 1] == voc.prayer:
            kinds = {OTHERV}  # 祝侑 (特牲, 少牢): the 祝 urges the 尸 to eat, no 侑 (有司徹's guest) beside him
        yield Token(i, i + length, word, frozenset(kinds), voc.lemmas.get(word) if "VERB" in kinds else None)
        i += length


def written_at(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """(start, end) of every place ``text`` writes one of ``words``, in reading order (the longer
    first where two start together), whatever order ``words`` come in."""
    out: set[tuple[int, int]] = set()
    for word in words:
        at = text.find(word) if word else -1
        while at >= 0:
            out.add((at, at + len(word)))
            at = text.find(word, at + 1)
    return sorted(out, key=lambda r: (r[0], -r[1]))


class TokenStream:
    """The tokens of a range read as far as they are asked for (:func:`iter_tokens`): ``get(n)``
    is the n-th token, None past the last."""

    def __init__(self, text: str, start: int, end: int, voc: Vocabulary, names: Optional[dict[int, int]] = None):
        self._stream = iter_tokens(text, start, end, voc, names)
        self.read: list[Token] = []

    def get(self, n: int) -> Optional[Token]:
        while len(self.read) <= n:
            token = next(self._stream, None)
            if token is None:
                return None
            self.read.append(token)
        return self.read[n]


#: what may stand right before a counted group (besides the clause start): the marks and words that join names
_GROUP_JOINS = "、與与及"


def _counted_group(text: str, i: int, start: int, end: int, voc: Vocabulary) -> int:
    """Length of a count of two or more and the participant written after it (二佐食), where the
    count opens the clause or follows a joining word (祝與二佐食) and a closed-list act follows the
    name (after 皆 / 各), else 0."""
    if text[i] not in voc.group_counts or i + 1 >= end:
        return 0
    if not _opens_or_joined(text, start, i, _GROUP_JOINS):
        return 0
    if "ACTOR" in voc.kinds.get(text[i:i + longest_match(text, i, end, voc)], ()):
        return 0  # 二人, 三耦: the lexicon's own word
    name = longest_match(text, i + 1, end, voc)
    kinds = voc.kinds.get(text[i + 1:i + 1 + name], ())
    if not name or "ACTOR" not in kinds or "OBJECT" in kinds:
        return 0
    # only where the group acts at once (二佐食各取黍); 二大夫媵爵如初, 三笙一和而成聲 name no act here
    return 1 + name if "VERB" in _next_word_kinds(text, i + 1 + name, end, voc) else 0


def _opens_or_joined(text: str, start: int, i: int, joins: str) -> bool:
    """Does ``text[i]`` open ``text[start:]`` or follow one of ``joins`` (spaces aside)?"""
    before = text[start:i].rstrip()
    return not before or before[-1] in joins


def _next_word_kinds(text: str, after: int, end: int, voc: Vocabulary) -> set[str]:
    """Kinds of the word at ``after``, past the adverbs a group may have before its act (皆, 各)."""
    while after < end and text[after] in voc.group_adverbs:
        after += 1
    act = longest_match(text, after, end, voc)
    return voc.kinds.get(text[after:after + act], set()) if act else set()


#: what, written right before one of them, makes a word ending in it: 二三子 "you gentlemen", 吾子,
#: 夫子, 某子, 孝子, 公子, 冢子, 之子 (the view is simplified; these are the same in both scripts)
_ENDS_IN_ATTENDANT = {"子": "二三吾夫某孝公冢之"}


def _attendant(text: str, i: int, start: int, end: int, voc: Vocabulary) -> bool:
    """Is ``text[i]`` one of 士昏禮's attendants (媵, 御) as a participant: opening the clause or
    joined to a name, and followed at once by an act (媵受, 御布對席) or by another of them joined
    with 、 (媵、御沃盥交)?"""
    if text[i] not in voc.attendants:
        return False
    if i > 0 and text[i - 1] in _ENDS_IN_ATTENDANT.get(text[i], ""):
        return False  # 二三子, 吾子, 夫子 (a 斷句 cut 為二三|子許諾): no heir
    if not _opens_or_joined(text, start, i, _GROUP_JOINS + CLAUSE_MARKS):
        return False
    if text[i + 1:i + 2] == "、" and text[i + 2:i + 3] in voc.attendants:
        return True
    return bool(_next_word_kinds(text, i + 1, end, voc) & {"VERB", OTHERV})


#: characters no participant's name opens on: 蓋 "it seems" (射義 蓋觀者如堵牆, 蓋去者半: a guess at how
#: many, no one named; the lid or the covering act, 蓋冪, is no name either), 古 昔 今 of a time (郊特牲 古者尸無事則立:
#: "in old times", the 尸 stands)
NAME_NEVER_OPENS = frozenset("蓋盖古昔今")
#: particles a name the span model reads may open on, which are not the name (少儀 尊者以酌者之左為上尊: 酌者)
PARTICLES_BEFORE_NAMES = frozenset("以于於而則则乃")


def _name_length(text: str, i: int, end: int, voc: Vocabulary) -> int:
    """Length of a VERB…者 name starting at ``i`` (執冪者, 卒爵者, 射者), else 0; a posture or a
    negator before such a name is part of it (坐卒爵者, 立卒爵者, 不洗者: the 記's classes of drinkers)."""
    if voc.zhe not in text[i + 1 : i + 5]:
        return 0  # the 者 ends a name within four characters (with an opener before it)
    if text[i] in voc.name_openers and i + 1 < end:
        inner = _plain_name_length(text, i + 1, end, voc)
        if inner:
            return inner + 1
    return _plain_name_length(text, i, end, voc)


def _plain_name_length(text: str, i: int, end: int, voc: Vocabulary) -> int:
    first = voc.kinds.get(text[i], set())
    if first and not first & {"VERB", OTHERV, CHAR}:
        return 0
    if text[i] == voc.zhe or text[i] in CLAUSE_MARKS or text[i] in voc.existentials or text[i] in NAME_NEVER_OPENS:
        return 0
    if text[i] in voc.request_verbs:
        return 0  # 命弦者曰 (投壺), 請致者: the one bidden or asked for follows the verb; no name opens on it
    if i + 1 < end and text[i + 1] == text[i]:
        return 0  # 長受酬酬者不拜 without its marks: the name is 酬者, the first 酬 is the act before it
    inner = longest_match(text, i + 1, end, voc)
    if inner and "ACTOR" in voc.kinds.get(text[i + 1 : i + 1 + inner], ()):
        return 0  # 命獲者: the verb's object is a named participant
    if OTHERV in first and text[i] not in voc.assist_words and _plain_name_length(text, i + 1, end, voc):
        # 舅饗送者, 公所賜受者: the one feasted or given to is a name (送者, 受者); the feasting, the
        # giving is an act. Not 宗婦贊薦者: who helps with the dishes
        return 0
    for j in range(i + 1, min(i + 4, end)):
        ch = text[j]
        if ch == voc.zhe:
            if j - i == 3 and not (first & {"VERB"} and not any(
                    "VERB" in voc.kinds.get(text[k], ()) for k in range(i + 1, j))):
                return 0  # four characters only for VERB + thing + 者 (執膳爵者), not 升拜受者, 常為臣者
            if counted_times(text, i, j, end, voc):
                return 0
            return j + 1 - i  # 射者, 執冪者, 執膳爵者
        from_whom = j == i + 1 and ch in _FROM and "VERB" in first and "ACTOR" in voc.kinds.get(text[j + 1:j + 2], ())
        if ch in CLAUSE_MARKS or (voc.kinds.get(ch, set()) & _NAME_BREAKERS and not from_whom):
            return 0  # a 于 is kept only in V于X者 (受于公者: the one who received from the lord)
    return 0


def counted_times(text: str, i: int, zhe: int, end: int, voc: Vocabulary) -> bool:
    """Is the 者 at ``zhe`` that of a count of times, X三者三 "X three times, thrice" (曾子問 哭踊三者三),
    a number inside and one after it? Not a count of people (拜受者三人)."""
    nums = [k for k in range(i + 1, zhe) if NUM in voc.kinds.get(text[k], ())]
    after = text[zhe + 1:zhe + 2]
    return bool(nums) and zhe + 1 < end and NUM in voc.kinds.get(after, ()) and text[zhe + 2:zhe + 3] != "人"


class SortedSpans:
    """Spans kept sorted, so that a range meets only those near it (a paragraph read as one passage
    has thousands): what a name range holds and whether it crosses another, for the names that
    take the place of the spans inside them (婦 of 主婦)."""

    def __init__(self, spans: Iterable[tuple[int, int, str]]):
        self.items = sorted(spans)
        self.reach = max((e - s for s, e, _l in self.items), default=0)  # the longest span

    def _near(self, s: int, e: int) -> tuple[int, int]:
        """The slice holding every span inside ``[s, e]`` or crossing it: those starting from
        ``s - reach`` to ``e``."""
        return bisect_left(self.items, (s - self.reach,)), bisect_left(self.items, (e + 1,))

    def around(self, s: int, e: int) -> tuple[list[tuple[int, int, str]], bool]:
        """The spans inside ``[s, e]``, and whether another crosses it."""
        lo, hi = self._near(s, e)
        nearby = self.items[lo:hi]
        inside = [x for x in nearby if s <= x[0] and x[1] <= e]
        return inside, any(a < e and s < b for a, b, _l in nearby if (a, b, _l) not in inside)

    def replace(self, inside: Sequence[tuple[int, int, str]], span: tuple[int, int, str]) -> None:
        """``span`` in place of ``inside`` (every copy of each)."""
        if inside:
            lo, hi = self._near(span[0], span[1])
            self.items[lo:hi] = [x for x in self.items[lo:hi] if x not in inside]
        insort(self.items, span)
        self.reach = max(self.reach, span[1] - span[0])


def split_doubled(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """ACTOR spans written as one name twice (授尸尸受 without its marks: the one given to, then the
    one receiving) as two spans; no name of the 經 is a name doubled."""
    out = []
    for s, e, label in spans:
        half = (e - s) // 2
        if label == "ACTOR" and half and e - s == 2 * half and text[s:s + half] == text[s + half:e]:
            out += [(s, s + half, label), (s + half, e, label)]
        else:
            out.append((s, e, label))
    return out
