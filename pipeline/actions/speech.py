"""Where a passage speaks, so that no tuple comes from what is said (SCHEMA section 4).

Quoted speech (曰：「…」) is bounded by its marks. Unpunctuated text has none: the speech after 曰
starts at the next clause of the 斷句 and runs on while the clauses speak in the first or second
person (:func:`speech_runs_on`). The clause walk (:mod:`pipeline.actions.walk`) calls these.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence

from pipeline.actions.clause import Span
from pipeline.actions.vocabulary import CLAUSE_TRIM, SAY, SAYS, SPEECH_CLOSE, SPEECH_OPEN

#: words of someone speaking (某也願見, 吾子, 敢辭, 固辭, 請終賜見); not 余 "I", which is also 餘 (the
#: remaining) in the normalised view: 坐委餘獲 is narrative
SPEECH_WORDS = set("某吾予爾敢也矣乎哉寡固請辱願")

#: what a clause of narrative opens on, and speech seldom does: the acts and links the editors
#: write after a quotation (」許諾, 」降反位, 」乃復求矢, 」若左勝則曰, 」以純數告, 」皆反位坐). A
#: clause after unquoted speech that opens on none of these, nor on a participant, is still speech
#: (曰伯父無事|歸寧乃邦, 送爵|皇尸卒爵, 孝孫某…|尚饗): of the 109 曰 of the dev passages read
#: unpunctuated, the speech ends where the edition's 」 does 103 times, 91 with the speech words alone
#: (`python bench/speech_ends.py`)
NARRATIVE_OPENERS = set("許拜再揖降升反還卒退出入先如乃遂若則命告以皆其答荅坐興進奠受取執")

#: words that end unquoted speech wherever a clause writes them: the answer (許諾), a return to
#: place (復位, 反位), another saying (在野則曰: a new speech, not this one's)
NARRATIVE_WORDS = ("許諾", "復位", "反位", *SAYS)
#: what the one spoken to does in answer (許 consents, 諾 "yes", 對 replies): unquoted speech whose
#: clauses open on participants runs on up to the clause that answers it, within so many clauses
ANSWERS = ("許", "諾", "對")
_ANSWER_REACH = 8


def speech_mask(text: str) -> list[bool]:
    """True for characters inside quotation marks (marks included). A closing mark that nothing
    opened ends speech opened before the text: a command quoted over two paragraphs (大射: …命三耦及眾射者︰
    「勝者皆袒、決、遂，執張弓。|不勝者皆襲，說決、拾…遂以執弣。」), so the text up to it is speech too."""
    mask = [False] * len(text)
    depth = 0
    said = False  # some speech before this character
    for i, ch in enumerate(text):
        if ch in SPEECH_OPEN:
            depth += 1
        if depth > 0:
            mask[i] = True
        if ch in SPEECH_CLOSE:
            if depth > 0:
                depth -= 1
            elif not said:
                mask[:i + 1] = [True] * (i + 1)
        said = said or mask[i]
    return mask


def unmasked(mask: list[bool], s: int, e: int, said_until: int) -> list[Span]:
    """The pieces of ``[s, e)`` outside the mask and past ``said_until`` (unquoted speech read so far)."""
    out: list[Span] = []
    start = None
    for i in range(s, e):
        hidden = mask[i] or i < said_until
        if not hidden and start is None:
            start = i
        elif hidden and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, e))
    return out


def quote_follows(text: str, i: int) -> bool:
    """Is the speech after 曰 quoted (曰：「…」)? Then the quote marks bound it."""
    while i < len(text) and text[i] in " \u3000：:︰，,":
        i += 1
    return i < len(text) and text[i] in SPEECH_OPEN


def ends_clause(text: str, say: int, end: int) -> bool:
    """Is the 曰 at ``say`` the last character of its clause (only marks after it)?"""
    return not text[say + 1:end].strip(CLAUSE_TRIM)


def say_position(tokens: Iterable) -> Optional[int]:
    """The offset of the first 曰 among ``tokens``, if any."""
    for t in tokens:
        if SAY in t.kinds:
            return t.start
    return None


def speech_runs_on(text: str, clauses: Sequence[Span], said_until: int, opens_unnamed: Callable[[int, int], bool],
                   speech_words: Iterable[str], openers: Iterable[str] = (), stops: Sequence[str] = (),
                   answers: Sequence[str] = ()) -> int:
    """Where unquoted speech of unpunctuated text ends: the 斷句 cuts speech like narrative, so it
    runs on over the next clauses while they speak in the first or second person (某, 吾子, 敢, 請,
    也 …; one clause without such a word is let through if the next has one) or read as no
    narrative does (opening on none of ``openers``, writing none of ``stops``: see
    :data:`NARRATIVE_OPENERS`), and stops at a clause that opens with a participant
    (公曰以我安賓|諸公卿大夫皆對曰諾) or that says 曰 again after its opening (曰某御於子|命下射曰子與某子射:
    the speaker's next command, 某 though it writes) — unless, within a few clauses and before another
    saying, a participant answers it with one of ``answers`` (許, 諾, 對: :data:`ANSWERS`): an oath or a
    rule that names participants runs on to its answer (誓之曰公射大侯|大夫射參|…|大史許諾).
    ``opens_unnamed(s, e)`` says whether the clause ``[s, e)`` opens with something other than a
    participant. The sets are in the form of ``text`` (the
    normalised view)."""
    rest = [(s, e) for s, e in clauses if s >= said_until]
    words, opening = frozenset(speech_words), frozenset(openers)

    def unnamed(k: int) -> bool:
        return k < len(rest) and opens_unnamed(*rest[k])

    def speaks(k: int) -> bool:  # of a clause that opens on no participant
        return any(ch in words for ch in text[rest[k][0]:rest[k][1]])

    def words_of(k: int) -> str:  # the clause without its marks
        return text[rest[k][0]:rest[k][1]].strip(CLAUSE_TRIM)

    def plain(k: int) -> bool:  # the same
        clause = words_of(k)
        return bool(opening and clause) and clause[0] not in opening and not any(w in clause for w in stops)

    sayings = tuple(w for w in stops if w in SAYS)  # 曰: the same in either script

    def says_again(k: int) -> bool:  # a new saying after the clause's opening: its own speaker's
        return any(w in words_of(k)[1:] for w in sayings)

    def answered_at(k: int) -> int:
        """The clause from ``k`` on, within a few, where a participant answers the speech (大史許諾,
        諸公卿大夫皆對曰諾), if no other saying comes first: the speech runs up to it."""
        for j in range(k, min(len(rest), k + _ANSWER_REACH)):
            clause = words_of(j)
            if not unnamed(j) and any(w in clause for w in answers):
                return j
            if any(w in clause for w in sayings):
                return -1
        return -1

    k = 0
    while k < len(rest) and unnamed(k):  # a clause opening on a participant ends the speech
        if says_again(k):
            break
        if speaks(k) or plain(k):
            k += 1
        elif unnamed(k + 1) and speaks(k + 1):
            k += 2
        else:
            break
    if answers and k < len(rest) and not unnamed(k):
        k = max(k, answered_at(k))  # 誓之曰公射大侯|大夫射參|…|大史許諾: the oath's own participants
    return rest[k - 1][1] if k else said_until
