"""The span post-pass of 經 passages: the general constructions of GUIDE §2 the lexicon cannot see.

The lexicon ruler marks terms one by one; the gold marks phrases and readings that depend on the
words around a term. Each rule here is one construction a reader of the 儀禮 would name:

- nothing inside quoted speech 「…」 is marked; a participant named in a comparison (如賓禮) is none;
- a number or an attribute before a thing is part of it (二勺, 一个, 一建鼓, 八算, 弛弓, 眾弓, 餘獲, 右獲);
  獲 "the tallies" is a thing only with such a determiner (釋獲 is the act); the determiner 其 stays
  outside (執其薦 → 薦);
- a thing is no OBJECT where it names the purpose of a bow (不拜既爵, 拜崇酒) or the wine honoured
  (不崇酒), the ground of declining (辭以俎), is only looked at (視矦中), counted for each (每一个),
  defined (二算為純; 以弓為畢 uses it), a capacity (容弓), mouthfuls eaten (尸三飯), a colour (爵鞸,
  爵弁: not the cup), where 決 / 遂 / 拾 are the acts of putting on the archer's gear (袒、決、遂;
  說決、拾 takes it off), 拾 is "in turn" (拾取矢), or 中 is "to hit" or "middle" (若中, 中等: the
  tally holder is the thing set out, taken or put into);
- one character nothing marks, right after a verb that handles things and ending its clause, is the
  thing (抽扃, 舉骼及獸, 辭其贄): a chapter never seen brings vessels and gifts the lexicon lacks;
- things and participants written without their noun: 搢三 (three arrows), 委其餘于 (the rest),
  使人 (the one sent), 負侯 heading a clause (the target holder; 執旌負侯 is the act);
- a thing after 于 / 諸, or after 及 / 至 "reaching" (not a counted one: 及兩鉶), is the place
  (加二勺于兩壺, 兼諸弣, 及楅揖); a participant, place or thing followed by a direction is a place
  (賓南, 阼階下之東南, 大夫之右), unless
  the direction goes with a verb (由其位南進), a measure goes with it (堂前三笴), a leading 其 or 所設
  is inside it (由其階, 立于所設中之西南), and a bare direction after 于 / 在 / 自 / 適 is one (上射於右);
- the hands are places only after 于 (實于左手; 右手取肺 is manner), 序 and 次 alone only after a
  place word (序進 is "in order"; 適次 the archers' tent), nothing is a place after 盡 (盡階);
- X之Y is one thing (豐上之觶, 中之八算), one participant (勝者之弟子, 大夫之耦) or one place (大侯之乏東北,
  反司正之位), and a verb or thing before 者 names a participant (媵爵者, 沃洗者; not after 凡, 凡奠者
  "whenever one sets down"), with the participant heading the clause before it (大夫卒受者) but not a
  name already closed by 者 (相者|二人, 射者|勝者); 相 alone is the assistant only after a number or 作
  (一相, 作相), elsewhere "mutually" or "to assist";
- a sentence with no act that only lists things is an inventory, none of them marked (膚一，離肺一: a
  count, or how a piece is cut — 折, 離, 刌 — may open an item).

Every rule works on the normalised view (simplified forms), so the traditional and the simplified
texts get the same spans; clause boundaries come from the passage's clauses, so it also holds for
unpunctuated text after 斷句. Linear in the passage length.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import Any, Callable, Iterable, Optional, Sequence

from pipeline.actions.tokens import SortedSpans, split_doubled, written_at

Span = tuple[int, int, str]


#: how things lie (東肆, 南順, 北括, 東首; the row 南陳, the drum's face 南鼓, the collar 西領, the
#: handle 南枋, lengthwise 西縮, the tip 南末, the spout 南流): a direction before them is no part of a place
_LIE = "肆順括首陳鼓領枋縮末流"
#: classes of characters (any one of them), as written in the traditional text
_CHAR_CLASSES: dict[str, str] = {
    "numerals": "一二三四五六七八九十兩",
    "handling": "執取受授撫挼贊實奠酌徹設加祭食", "handling_unknown": "執取受授奠設加徹實委薦洗酌舉奉抽分盛辭",
    "after_unknown_thing": "于於以從授及、", "persons_after_giving": "人", "verb_nouns": "奠祭舉薦筮", "verb_noun_after": "于以乃、授",
    "service": "俎豆籩薦敦", "giving": "授受獻酬酢致送", "laid": "席筵",
    "attributes": "餘賢虛弛眾重", "tally_determiners": "左右餘賢",
    "gear": "決遂拾", "gear_before": "不袒襲", "gear_list": "決遂拾、", "in_turn_before": "取發",
    "holder_before": "設退奉執取與及、", "place_prep": "于於諸", "bare_place_before": "于於在自適",
    "place_words": "于於在自當適即就升降反復出入", "directions": "東西南北左右前後外內",
    "measures": "步笴等尺丈寸", "sides": "左右", "body_parts": "手頭首肩臂巨足", "assistant_before": "一二三四作", "facing_after": "面上當" + _LIE, "lie_after": _LIE,
    "thing_slot_after": "以其", "open_quote": "「『“", "close_quote": "」』”", "stands_at": "在", "joining": "與及", "reaching": "及至", "then_holds": "而挾", "jointed": "折離刌", "dressed_in": "弁韠鞸韐",
}
#: single words
_WORDS: dict[str, str] = {
    "tally": "獲", "each": "每", "whenever": "凡", "defined": "為", "looked": "視", "bow": "拜",
    "to_the_end": "盡", "assistant": "相", "of": "之", "its": "其", "one_who": "者", "like": "如", "rite": "禮", "jar": "尊", "eldest": "長",
    "in_belt": "搢", "rest": "餘", "send": "使", "hand_over": "授受", "person": "人", "target": "侯", "bear": "負", "command": "命", "again": "又",
    "honour": "崇", "finished": "既", "where_set": "所設", "using": "以", "in_turn": "拾", "holder": "中", "holds_room_for": "容", "rice": "飯", "host_side": "阼", "cup": "爵", "raise_stopped": "作止", "offering": "祭", "declines_for": "辭以",
}
#: sets of words
_WORD_SETS: dict[str, tuple[str, ...]] = {"hands": ("左手", "右手"), "winners": ("勝者", "不勝者"), "only_after_place_words": ("序", "次"),
                                          "persons_counted": ("一人", "二人", "三人", "四人"),
                                          "extents": ("南北", "東西")}


@lru_cache(maxsize=1)
def _chars() -> dict[str, Any]:
    """The classes and words of the rules, in the normalised (simplified) form of the view."""
    from pipeline.actions.vocabulary import HANDED_PERSONS, LENGTH_AFTER, NOT_THINGS, OTHER_VERBS
    from pipeline.text.normalise import normalise_str as n

    out: dict[str, Any] = {k: frozenset(n(v)) for k, v in _CHAR_CLASSES.items()}
    out["measures_after"] = frozenset(n(LENGTH_AFTER))
    out["other_verbs"] = frozenset(n(v) for v in OTHER_VERBS if len(v) == 1)
    out["handed_persons"] = frozenset(n(v) for v in HANDED_PERSONS)  # 授老鴈: the clause analyser's, too
    # no thing heads X在: the function words of the extractor, and 凡 不 唯 惟 有 無
    out["not_things"] = frozenset(n("".join(NOT_THINGS) + "凡不唯惟有無"))
    out.update({k: n(v) for k, v in _WORDS.items()})
    out.update({k: frozenset(n(w) for w in v) for k, v in _WORD_SETS.items()})
    return out


_PUNCT = frozenset("，、。；：︰！？,.;:!?「」『』“”‘’﹗﹐﹑○")
#: marks that end a sentence, and a clause (not 、, which joins the items of a list)
_SENTENCE_ENDS = "。；！？○"
_CLAUSE_ENDS = frozenset("，。；：︰！？,.;:!?○")
#: the colon after a stand named at the head of an inventory (尸俎︰)
_HEAD_COLONS = "︰：:"


class _Passage:
    """The view text, its clause boundaries and which characters the current spans cover."""

    def __init__(self, text: str, clauses: Sequence[tuple[int, int]], sentences: Sequence[tuple[int, int]] = ()):
        self.text = text
        self.bounds = {0, len(text)}
        for s, e in clauses:
            self.bounds.update((s, e))
        #: where the 斷句 starts a sentence, for text without marks (punctuated text has its own)
        self.sentence_starts = sorted({0} | {s for s, _e in sentences})

    def boundary_before(self, i: int) -> bool:
        """A clause starts at ``i`` (punctuation or the 斷句 of unpunctuated text)."""
        return i in self.bounds or (i > 0 and self.text[i - 1] in _PUNCT)

    def boundary_at(self, i: int) -> bool:
        return i >= len(self.text) or i in self.bounds or self.text[i] in _PUNCT

    def before(self, i: int, k: int = 1) -> str:
        return self.text[max(0, i - k):i]


def _positions(text: str, chars: frozenset) -> list[int]:
    """Every index of ``text`` holding one of ``chars`` (str.find is much faster than a char loop)."""
    out: list[int] = []
    for ch in chars:
        i = text.find(ch)
        while i >= 0:
            out.append(i)
            i = text.find(ch, i + 1)
    return sorted(out)


def _covered(text: str, spans: Iterable[Span]) -> bytearray:
    cov = bytearray(len(text) + 1)
    for s, e, _ in spans:
        cov[s:e] = b"\x01" * (e - s)
    return cov


def _quoted(p: _Passage, spans: list[Span]) -> list[Span]:
    """Nothing inside quoted speech is marked (GUIDE §2); an unclosed quote runs to the end."""
    c = _chars()
    if not any(q in p.text for q in c["open_quote"]):
        return spans
    inside = bytearray(len(p.text) + 1)
    depth = 0
    for i, ch in enumerate(p.text):
        if ch in c["open_quote"]:
            depth += 1
        elif ch in c["close_quote"]:
            depth = max(0, depth - 1)
        elif depth:
            inside[i] = 1
    if not any(inside):
        return spans
    return [sp for sp in spans if not any(inside[sp[0]:sp[1]])]


def _gear_put_on(p: _Passage, s: int) -> bool:
    """Is the 決 / 遂 / 拾 at ``s`` the act of putting on the gear (袒、決、遂; 不決、遂)? The list it
    stands in is read back to its head: after a verb that handles it (說決、拾; 受決、拾) it is the thing.
    Back over the gear written together too where the 斷句 cut between (說決|拾襲, the marks of 說決、拾、襲
    lost): a cut without a mark does not end the list."""
    c, t = _chars(), p.text
    while s > 0 and t[s - 1] in c["gear_list"]:
        s -= 1
    return p.boundary_before(s) or p.before(s) in c["gear_before"]


def _dropped(p: _Passage, spans: list[Span]) -> list[Span]:
    """Spans that name no participant, thing or place in their construction."""
    c, t = _chars(), p.text
    verb_ends = {e for _s, e, label in spans if label == "VERB"}
    out: list[Span] = []
    for s, e, label in spans:
        word = t[s:e]
        if label == "ACTOR":
            if p.before(s) == c["like"] and t[e:e + 1] == c["rite"]:
                continue  # 如賓禮: the rite compared, no participant
            if word == c["assistant"] and p.before(s) not in c["assistant_before"]:
                continue  # 相左, 相揖, 右手相: "mutually", "to assist"
        elif label == "OBJECT":
            if p.before(s) in (c["bow"], c["honour"]) or (p.before(s) == c["finished"] and p.before(s - 1) == c["bow"]):
                continue  # 不拜既爵, 拜崇酒, 不崇酒: the purpose of the bow, the wine honoured
            if word in c["gear"] and _gear_put_on(p, s):
                continue  # 袒、決、遂: the acts of putting on the gear
            if word == c["in_turn"] and t[e:e + 1] in c["in_turn_before"]:
                continue  # 拾取矢, 拾發: "in turn"
            if word == c["holder"] and s not in verb_ends and p.before(s) not in c["holder_before"] \
                    and p.before(s) not in c["place_prep"]:
                continue  # 若中, 中三侯, 中等, 其中: "to hit", "middle"; the holder is set out, taken, put into
            if t[e:e + 1] == c["defined"] and p.before(s) != c["using"]:
                continue  # 二算為純: a definition, nothing handled (以弓為畢 uses the bow)
            if p.before(s, 2) == c["declines_for"]:
                continue  # 賓辭以俎: the ground of declining (the stand still before him), nothing handled
            if p.before(s) == c["holds_room_for"]:
                continue  # 容弓, 容八算: a width or a capacity
            if word == c["rice"] and p.before(s) in c["numerals"]:
                continue  # 尸三飯, 尸又三飯: so many mouthfuls eaten, the act and not the grain
            if word == c["cup"] and t[e:e + 1] in c["dressed_in"]:
                continue  # 爵鞸, 爵弁: the colour of the kneepad or cap (a sparrow's head), not the cup
            if c["each"] in p.before(s, 2):
                continue  # 每一个: for each arrow
        elif label == "LOCATION":
            if word in c["hands"] and p.before(s) not in c["place_prep"]:
                continue  # 右手取肺: manner
            if word in c["only_after_place_words"] and p.before(s) not in c["place_words"]:
                continue  # 序進 "in order", 次 "next": the wall and the archers' tent only after 于, 適, 出 …
            if p.before(s) == c["to_the_end"]:
                continue  # 盡階
        out.append((s, e, label))
    return out


def _looked_at(p: _Passage, spans: list[Span]) -> list[Span]:
    """Things and places after 視 in its clause are only looked at (視矦中, 視壺濯及豆籩)."""
    c, t = _chars(), p.text
    if c["looked"] not in t:
        return spans
    out: list[Span] = []
    for s, e, label in spans:
        if label in ("OBJECT", "LOCATION"):
            i = s - 1
            while i >= 0 and not p.boundary_at(i) and t[i] != c["looked"]:
                i -= 1
            if i >= 0 and t[i] == c["looked"]:
                continue
        out.append((s, e, label))
    return out


def _things(p: _Passage, spans: list[Span]) -> list[Span]:
    """Determiners and attributes join the thing: 其 stays out, numbers and attributes go in, 獲
    is a thing only with its determiner."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    out: list[Span] = []
    for s, e, label in spans:
        if label == "OBJECT" and t[s] == c["its"] and e - s > 1:
            s += 1  # 其{薦}
        if label == "OBJECT" and t[s:e] == c["tally"]:
            if s == 0 or cov[s - 1] or t[s - 1] not in c["tally_determiners"]:
                continue  # 釋獲: the act
            s -= 1  # 右獲, 餘獲
        if label == "OBJECT":
            while s > 0 and not cov[s - 1] and t[s - 1] in c["attributes"]:
                s -= 1  # 弛弓, 眾弓, 虛觶, 重席
        if label in ("OBJECT", "LOCATION"):
            n = s
            while n > 0 and not cov[n - 1] and t[n - 1] in c["numerals"]:
                n -= 1
            if n < s and c["each"] not in p.before(n):
                s = n  # 二勺, 兩壺, 八算, 一个, 一建鼓 (GUIDE 2: the numeral is inside)
        out.append((s, e, label))
    return out


def _compounds(p: _Passage, spans: list[Span], acts: frozenset = frozenset()) -> list[Span]:
    """Things written as one word: a verb-noun after a handling act (酌奠, 受祭, 實舉, 祭薦) or after the
    things it took (取黍稷肺祭授尸: their offering), an
    unpunctuated run of things (牲鼎, 菹醢, 籩祭, 庶羞四豆), a thing with its count after it at the
    end of a clause (魚一), the owner's service vessel after an act (徹尸俎, 徹主婦薦; not after a
    verb of giving: 授主人爵, 受尸角; not heading a clause: {賓}[俎]，脊、脅), and so the host's by his side
    of the hall (阼俎), and the cup set down undrunk (作止爵). 席 / 筵 before 于 is the act of laying the
    mat (席于房中)."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    ends = {e: (s, label) for s, e, label in spans}

    def handled_before(i: int) -> bool:
        prev = ends.get(i)
        return (prev is not None and (prev[0], i) in acts) or (i > 0 and not cov[i - 1] and t[i - 1] in c["handling"])

    def noun_end(i: int) -> bool:
        return p.boundary_at(i) or t[i] in c["verb_noun_after"]

    def after_handled_thing(i: int) -> bool:  # 贊籩祭, 取黍稷肺祭: the offering of the things handled
        prev = ends.get(i) if t[i:i + 1] == c["offering"] else None
        while prev is not None and prev[1] == "OBJECT":
            if handled_before(prev[0]):
                return True
            prev = ends.get(prev[0])  # back over the run of things (黍稷|肺)
        return False

    staged: list[Span] = []
    for s, e, label in spans:
        if label == "VERB" and (s, e) not in acts and t[s:e] in c["verb_nouns"] and noun_end(e) \
                and (handled_before(s) or after_handled_thing(s)):
            label = "OBJECT"  # 酌奠, 執祭以降, 祭薦; 贊籩祭
        elif label == "OBJECT" and t[s:e] in c["laid"] and t[e:e + 1] in c["place_prep"] and p.boundary_before(s):
            continue  # 席于房中: laying the mat
        elif label == "OBJECT" and t[s:e] in c["service"] and s > 0 and t[s - 1] == c["host_side"] and not cov[s - 1]:
            s -= 1  # 徹阼俎: the host's stand, named by his side of the hall as 尸俎 by its owner
        elif label == "OBJECT" and t[s:e] == c["cup"] and t[s - 2:s] == c["raise_stopped"] and not cov[s - 1]:
            s -= 1  # 三獻作止爵: the cup he had set down undrunk, raised again
        staged.append((s, e, label))
    for i in _positions(t, c["verb_nouns"]):  # 舉 "the raised pieces": no closed-list verb, no span yet
        if not cov[i] and (handled_before(i) or after_handled_thing(i)) and noun_end(i + 1):
            staged.append((i, i + 1, "OBJECT"))
    staged.sort()
    out: list[Span] = []
    for s, e, label in staged:
        last = out[-1] if out else None
        if last is not None and last[1] == s and label == "OBJECT" and s not in p.bounds:
            if last[2] == "OBJECT" and t[s:e] != c["tally"]:  # 以旌獲: 獲 is the act (see _things)
                out[-1] = (last[0], e, "OBJECT")  # 牲鼎, 菹醢
                continue
            if (last[2] == "ACTOR" and t[s:e] in c["service"] and not p.boundary_before(last[0])
                    and p.before(last[0]) not in c["giving"]):
                out[-1] = (last[0], e, "OBJECT")  # 徹尸俎; at the head of a clause the owner is named ({賓}[俎]，脊、脅)
                continue
        if label == "OBJECT" and e < len(t) and t[e] in c["numerals"] and p.boundary_at(e + 1) and not cov[e]:
            e += 1  # 魚一
        out.append((s, e, label))
    return out


def _lie_after_two_directions(t: str, k: int) -> bool:
    """Do two directions end at ``k`` with a lie of things after them (洗西南肆, 其東南鼓)? The second
    direction is the lie's (南肆, 南鼓), not the place's."""
    c = _chars()
    return 2 <= k < len(t) and t[k] in c["lie_after"] and t[k - 1] in c["directions"] and t[k - 2] in c["directions"]


def _places(p: _Passage, spans: list[Span]) -> list[Span]:
    """Places written around other words: X(之)+direction, a measure after a place, a thing after
    于/諸, a bare direction after 于/在/自/適."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    verb_starts = {s for s, _e, label in spans if label == "VERB"}
    thing_ends = {e for _s, e, label in spans if label == "OBJECT"}
    thing_starts = {s for s, _e, label in spans if label == "OBJECT"}

    def direction_at(i: int, linked: bool = False) -> int:
        """End of an uncovered direction (1–2 characters) at ``i`` that is no facing or order
        (北面, 東上), no lie of things (東肆, 南順, 北括, 東首: 篚在洗西南肆 is 洗西 then 南肆), no
        alignment (中庭南當洗: 南 goes with 當), no extent (南北以堂深: two opposite directions) nor,
        unless 之 links it (大夫之右拜送), the way a move goes (由其位南進: 南 goes with 進), nor 左/右
        before a part of the body or a thing (左頭, 右巨指, 右肩, 左右几)."""
        k = i
        while k < len(t) and k - i < 2 and not cov[k] and t[k] in c["directions"]:
            k += 1
        if k - i == 2 and _lie_after_two_directions(t, k):
            k -= 1
        if k == i or (k < len(t) and (t[k] in c["facing_after"] or (k in verb_starts and not linked))):
            return i
        if t[i:k] in c["extents"]:
            return i
        if all(ch in c["sides"] for ch in t[i:k]) and k < len(t) and (t[k] in c["body_parts"] or k in thing_starts):
            return i  # 結于面|左頭, 見鏃於弣|右巨指, 尸俎|右肩, 戶牖之間|左右几: a side of the body or of things
        return k

    out: list[Span] = []
    for s, e, label in spans:
        if label == "OBJECT" and p.before(s) in c["place_prep"]:
            label = "LOCATION"  # 加二勺于兩壺, 兼諸弣
        if label == "OBJECT" and p.before(s) in c["reaching"] and s - 1 not in thing_ends \
                and t[s] not in c["numerals"]:
            label = "LOCATION"  # 及楅揖, 至乏: "reaching" (弓矢及楅 joins two things; 及兩鉶 counts them)
        if label in ("ACTOR", "LOCATION", "OBJECT"):
            linked = t[e:e + 1] == c["of"] and not cov[e]
            k = direction_at(e + 1 if linked else e, linked)
            if k > e + linked and (linked or label == "LOCATION" or p.before(s) in c["place_words"]):
                cov[e:k] = b"\x01" * (k - e)
                e, label = k, "LOCATION"  # 賓南, 阼階下之東南, 大夫之右, 其位南
        if label == "LOCATION" and e - s > 2 and _lie_after_two_directions(t, e):
            e -= 1  # 其東南鼓 read whole by a model: 其東, then the drum's face 南鼓 (as direction_at reads it)
        if label == "LOCATION":
            k = e
            while k < len(t) and not cov[k] and t[k] in c["numerals"]:
                k += 1
            if k > e and k < len(t) and not cov[k] and t[k] in c["measures"]:
                cov[e:k + 1] = b"\x01" * (k + 1 - e)
                e = k + 1  # 堂前三笴, 左个之西北三步
            for lead in (c["its"], c["where_set"]):
                n = len(lead)
                if p.before(s, n) != lead:
                    continue
                if out and out[-1][1] == s and out[-1][2] == "VERB" and out[-1][0] >= s - n:
                    out.pop()  # 所設: the 設 is no act of the passage
                elif any(cov[s - n:s]):
                    continue
                s -= n  # 由其階, 立于所設中之西南
                cov[s:s + n] = b"\x01" * n
        out.append((s, e, label))
    place_at = {sp[0]: n for n, sp in enumerate(out) if sp[2] == "LOCATION"}
    for i in _positions(t, c["bare_place_before"]):
        i += 1
        if not cov[i - 1]:
            k = direction_at(i)
            if k > i and k in place_at:
                n = place_at[k]
                out[n] = (i, out[n][1], "LOCATION")  # 于西鑮之南: the direction names which one
            elif k > i and (p.boundary_at(k) or cov[k]):
                out.append((i, k, "LOCATION"))  # 上射於右, 在西
    return sorted(out)


def _phrases(p: _Passage, spans: list[Span]) -> list[Span]:
    """X之Y as one thing or one participant; a verb or thing before 者 names a participant."""
    c, t = _chars(), p.text
    out: list[Span] = []
    for s, e, label in spans:
        last = out[-1] if out else None
        if last is not None and last[1] + 1 == s and t[last[1]] == c["of"]:
            ls, _le, ll = last
            if ll == "ACTOR" and label == "ACTOR":
                out[-1] = (ls, e, "ACTOR")  # 勝者之弟子, 大夫之耦
                continue
            if ll in ("LOCATION", "OBJECT") and label == "OBJECT":
                place = p.before(ls) in c["place_words"]
                out[-1] = (ls, e, "LOCATION" if place else "OBJECT")  # 豐上之觶, 中之八算; 酌于西方之尊
                continue
            if label == "LOCATION" and (ll == "LOCATION" or (ll == "ACTOR" and p.before(ls) in c["place_words"])):
                out[-1] = (ls, e, "LOCATION")  # 尊于大侯之乏東北; 設洗于獲者之尊西北, 反司正之位
                continue
        if last is not None and last[1] == s and last[2] == "ACTOR" and label == "ACTOR" \
                and t[s - 1] != c["one_who"] \
                and (t[s:e] in c["winners"] or t[s:e] in c["persons_counted"]
                     or (e - s > 2 and t[e - 1] == c["one_who"] and p.boundary_before(last[0])
                         and not (len(out) > 1 and out[-2][1] == last[0]))):
            out[-1] = (last[0], e, "ACTOR")  # 眾賓勝者, 笙一人; 大夫卒受者 heading its clause (GUIDE 3.4);
            continue  # not after a name that ends on 者 (射者|勝者, 沃尸盥者|一人 where the text has no marks)
        if (label == "OBJECT" and e - s <= 2 and t[e:e + 1] == c["one_who"] and last is not None
                and last[2] == "VERB" and last[1] == s and last[1] - last[0] == 1):
            out[-1] = (last[0], e + 1, "ACTOR")  # 執幣者, 執玉者: the one holding, not the thing held
            continue
        if (label == "VERB" and e - s == 1 and t[e:e + 1] == c["one_who"] and s > 0
                and t[s - 1] in c["joining"] and (not last or last[1] < s)):
            out.append((s, e + 1, "ACTOR"))  # 樂正與立者: 與 joins the one standing, not a verb of his
            continue
        if (label in ("OBJECT", "VERB") and e - s == 1 and t[e:e + 1] == c["one_who"] and s > 0
                and (not last or last[1] < s) and t[s - 1] not in _PUNCT
                and t[s - 1] not in (c["of"], c["its"], c["whenever"]) and not p.boundary_before(s)):
            out.append((s - 1, e + 1, "ACTOR"))  # 媵爵者, 沃洗者 (凡奠者於左: "whenever one sets down", no one)
            continue
        out.append((s, e, label))
    return out


def _lengths(p: _Passage, spans: list[Span]) -> list[Span]:
    """長 before a measure or 如 is a length (長如笴, 杠長三仞, 長尺有握), not the eldest."""
    c, t = _chars(), p.text
    return [(s, e, label) for s, e, label in spans
            if not (label == "ACTOR" and t[s:e] == c["eldest"] and t[e:e + 1] and t[e] in c["measures_after"])]


def _jars_set_out(p: _Passage, spans: list[Span]) -> list[Span]:
    """尊 heading a clause (after 又 too) or after its setter, before 于, a count or the participant
    served, is the verb "sets out jars" (尊兩壺于房戶間, 司宮尊于東楹之西, 又尊于…, 尊士旅食于西鑮之南),
    not the jar."""
    c, t = _chars(), p.text
    actor_starts = {s for s, _e, label in spans if label == "ACTOR"}
    out: list[Span] = []
    for s, e, label in spans:
        head = s - (p.before(s) == c["again"])
        if label == "OBJECT" and t[s:e] == c["jar"] and e < len(t) \
                and (t[e] in c["place_prep"] or t[e] in c["numerals"] or e in actor_starts) \
                and (p.boundary_before(head) or (out and out[-1][1] == s and out[-1][2] == "ACTOR")):
            continue
        out.append((s, e, label))
    return out


def _placed(p: _Passage, spans: list[Span]) -> list[Span]:
    """A thing set out where it stands, written at the head of a clause before 在 (簜在建鼓之間, 罍水在東):
    an OBJECT even where the lexicon does not know it. Participants are known to the lexicon, so an
    unknown head of X在 is taken to be a thing; function words and directions are not."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    out = list(spans)
    for i in _positions(t, c["stands_at"]):
        s = i
        while s > 0 and i - s < 3 and not cov[s - 1] and not p.boundary_before(s) and t[s - 1] not in _PUNCT:
            s -= 1
        if s < i and p.boundary_before(s) and not cov[s:i].count(1) and not any(
                ch in c["not_things"] or ch in c["directions"] for ch in t[s:i]):
            out.append((s, i, "OBJECT"))
    return sorted(out)


def _unnamed(p: _Passage, spans: list[Span]) -> list[Span]:
    """Things and participants written without their noun: the count of arrows put in the belt
    (搢三而挾一个: 三 are arrows), the rest of the tallies put down (委其餘于中西: 餘, 其 outside),
    the one sent (使人受俎: 人), the one handed a thing (授人脯, 授老鴈: 人, 老), the holder of the target heading a clause or commanded (負侯許諾,
    命負侯; 執旌負侯 is the act)."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    out = list(spans)
    verb_ends = {e for _s, e, label in spans if label == "VERB"}
    for i in _positions(t, c["numerals"]):
        if i in verb_ends and t[i - 1] == c["in_belt"] and not cov[i] and (p.boundary_at(i + 1) or t[i + 1] in c["then_holds"]):
            out.append((i, i + 1, "OBJECT"))  # 搢三挾一个, 搢三而挾一个
    for i in _positions(t, c["rest"]):
        if p.before(i) == c["its"] and not cov[i] and t[i + 1:i + 2] in c["place_prep"]:
            out.append((i, i + 1, "OBJECT"))  # 委其餘于中西
    for i in _positions(t, c["send"]):
        if t[i + 1:i + 2] == c["person"] and not cov[i + 1]:
            out.append((i + 1, i + 2, "ACTOR"))  # 使人受俎
    thing_starts = {s for s, _e, label in spans if label == "OBJECT"}
    for i in _positions(t, c["hand_over"]):
        if t[i + 1:i + 2] and t[i + 1] in c["handed_persons"] and not cov[i + 1] and i + 2 in thing_starts:
            out.append((i + 1, i + 2, "ACTOR"))  # 授人脯, 授老鴈, 受老束錦: the one handed the thing, or who hands it
    targets = {s: (s, e) for s, e, label in spans if label == "OBJECT" and t[s:e] == c["target"]}
    for i in _positions(t, c["bear"]):
        if i + 1 in targets and not cov[i] and (p.boundary_before(i) or p.before(i) == c["command"]):
            out.remove((*targets[i + 1], "OBJECT"))
            out.append((i, targets[i + 1][1], "ACTOR"))  # 負侯許諾
    return sorted(out)


def _listed(p: _Passage, spans: list[Span]) -> list[Span]:
    """What an edition lists with 、 is one kind of thing. An item of one to three Han characters
    nothing marks, joined by 、 to an item that ends on a thing, is a thing (巾、柶、鬊、蚤: 柶; 徹尸薦、
    俎、敦); one or two such characters before a listed thing are its kind (葵菹、蝸醢, 龍旂、弧韣). Not
    an item opening on a verb outside the closed list (釋弓、視算), nor a kind after an item that is an
    act and its thing (授弓、拂弓: 拂弓 is an act too)."""
    from pipeline.layers.features import is_han

    c, t = _chars(), p.text
    if "、" not in t:
        return spans
    cov = _covered(t, spans)
    by_end = {e: s for s, e, label in spans if label == "OBJECT"}
    verb_ends = {e for _s, e, label in spans if label == "VERB"}

    def free(s: int, e: int) -> bool:
        """Nothing marks t[s:e], all Han, no particle and no verb opening it."""
        return (not any(cov[s:e]) and all(is_han(ch) and ch not in c["not_things"] for ch in t[s:e])
                and t[s] not in c["other_verbs"])

    items: list[tuple[int, int]] = []
    lo = 0
    for i, ch in enumerate(t):
        if ch == "、" or ch in _CLAUSE_ENDS:
            items.append((lo, i))
            lo = i + 1
    items.append((lo, len(t)))
    added: list[Span] = []
    grown: dict[tuple[int, int], int] = {}
    for k, (s, e) in enumerate(items):
        listed_after_thing = k > 0 and t[s - 1] == "、" and items[k - 1][1] in by_end
        head = by_end.get(e)
        if listed_after_thing and head is not None and 0 < head - s <= 2 and free(s, head) \
                and by_end[items[k - 1][1]] not in verb_ends:
            grown[(head, e)] = s  # 葵菹、蝸醢
        elif 0 < e - s <= 3 and free(s, e) and (listed_after_thing or (
                k + 1 < len(items) and t[e:e + 1] == "、" and items[k + 1][1] in by_end)):
            added.append((s, e, "OBJECT"))  # 巾、柶
    return sorted([(grown.get((s, e), s), e, label) for s, e, label in spans] + added)


def _handled_unknown(p: _Passage, spans: list[Span]) -> list[Span]:
    """One character nothing marks, right after a verb that handles things and ending its clause
    (or before 于 / 以 / 從 / 授 / 及 / 、), is the thing handled (抽扃，委于鼎北; 舉骼及獸; 分簋、鉶;
    辭其贄): a chapter's own vessels, foods and gifts the lexicon lacks. 其 before it stays out; not
    a person (授人) nor a direction. Not after 祭, which also names whom the offering is to (祭天, 祭山,
    10 p131)."""
    c, t = _chars(), p.text
    cov = _covered(t, spans)
    verbs = {s for s, e, label in spans if label == "VERB" and e - s == 1}
    out = list(spans)
    for i in _positions(t, c["handling_unknown"]):
        if (cov[i] and i not in verbs) or p.before(i) == c["like"]:
            continue  # 執爵者, 奠觶: inside a name or a thing; 如執雉: what is compared
        j = i + 2 if t[i + 1:i + 2] == c["its"] else i + 1
        if j >= len(t) or cov[j] or not t[j].isalpha() or t[j] in _PUNCT or t[j] in c["not_things"] \
                or t[j] in c["handling_unknown"] or t[j] in c["other_verbs"] or t[j] in c["persons_after_giving"] \
                or t[j] in c["directions"]:
            continue
        if p.boundary_before(j) or not (p.boundary_at(j + 1) or t[j + 1] in c["after_unknown_thing"]):
            continue
        out.append((j, j + 1, "OBJECT"))
    return out


#: the rules in the order they run: the things no span marks first (the removals see them too), then
#: removals, then the spans grown, added or relabelled, and quoted speech last (a place added after 于
#: inside a quote is no span either)
RULES: tuple[Callable[[_Passage, list[Span]], list[Span]], ...] = (
    _handled_unknown, _dropped, _lengths, _jars_set_out, _looked_at, _listed, _things, _placed, _unnamed, _places, _phrases, _quoted)


def _things_before_directions(t: str, spans: list[Span], things: Sequence[tuple[int, int]]) -> list[Span]:
    """A place that is a tuple's thing and directions after it (設洗南北以堂深, 設乏西十, 設中南當楅, read
    without marks: 洗南 is a place of the lexicon, 乏西 one of the model) is the thing: the extractor read
    the thing set out, and the directions open what the edition writes after a comma (設洗，南北以堂深)."""
    if not things:
        return spans
    directions = _chars()["directions"]
    ends = {s: e for s, e in things}
    out: list[Span] = []
    for s, e, label in spans:
        k = ends.get(s)
        if label == "LOCATION" and k is not None and s < k < e and all(ch in directions for ch in t[k:e]):
            e, label = k, "OBJECT"
        out.append((s, e, label))
    return out


def _from_tuples(spans: list[Span], ranges: Iterable[tuple[int, int]], label: str) -> list[Span]:
    """What the extractor read as a tuple's thing or place is a span of that label where nothing else
    is marked (受爵弁; 立于西坫南); a span of the label inside it grows to it (羹 → 葵羹, 坫南 → 西坫南).
    The spans do not overlap, so the ones a range meets are found by bisection: linear in the passage."""
    base = sorted(spans)
    starts = [sp[0] for sp in base]
    dropped: set[int] = set()
    added: list[Span] = []
    for s, e in sorted(set(ranges)):
        inside = []
        j = bisect.bisect_left(starts, e) - 1
        while j >= 0 and base[j][1] > s:
            if j not in dropped:
                inside.append(j)
            j -= 1
        tail: list[Span] = []
        while added and added[-1][0] < e and s < added[-1][1]:
            tail.append(added.pop())
        if all(base[k][2] == label and s <= base[k][0] and base[k][1] <= e for k in inside) \
                and all(a[2] == label and s <= a[0] and a[1] <= e for a in tail):
            dropped.update(inside)
            added.append((s, e, label))
        else:
            added.extend(reversed(tail))
    return sorted([sp for k, sp in enumerate(base) if k not in dropped] + added)


def refine(text: str, spans: Iterable[Span], clauses: Sequence[tuple[int, int]] = (),
           acts: Iterable[tuple[int, int]] = (), things: Iterable[tuple[int, int]] = (),
           places: Iterable[tuple[int, int]] = (), speech: Iterable[tuple[int, int]] = (),
           sentences: Sequence[tuple[int, int]] = ()) -> list[Span]:
    """The spans of one 經 passage (normalised view coordinates) after every rule of this module;
    ``acts`` are the view offsets of the tuples' verbs (a verb-noun is a thing only where no act is),
    ``things`` and ``places`` those of the things the tuples handle and of their places, ``speech``
    the ranges the extractor read as speech without quotation marks (unmarked, as 「…」 is),
    ``sentences`` the passage's sentences (what the 斷句 found where the text has no marks)."""
    p = _Passage(text, clauses, sentences)
    things = sorted(set(things))
    out = _things_before_directions(text, sorted(split_doubled(text, list(spans))), things)
    out = _from_tuples(_from_tuples(out, things, "OBJECT"), places, "LOCATION")
    out = _compounds(p, out, frozenset(acts))
    for rule in RULES:
        out = rule(p, sorted(out))
    return _unspoken(_inventories(p, sorted(out), sorted(acts)), speech)


def _unspoken(spans: list[Span], speech: Iterable[tuple[int, int]]) -> list[Span]:
    """Nothing is marked in speech the quotation marks do not bound (主人曰請射于賓|賓許 read
    unpunctuated: the first 賓 is spoken of, GUIDE §2); ``speech`` from the extractor's reading."""
    ranges: list[tuple[int, int]] = []
    for s, e in sorted(speech):  # merged, so that the one range a span may meet is found by bisection
        if ranges and s <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], e))
        else:
            ranges.append((s, e))
    if not ranges:
        return spans
    starts = [s for s, _e in ranges]

    def spoken(s: int, e: int) -> bool:
        i = bisect.bisect_right(starts, e - 1) - 1
        return i >= 0 and ranges[i][1] > s and ranges[i][0] < e

    return [sp for sp in spans if not spoken(sp[0], sp[1])]


def _inventories(p: _Passage, spans: list[Span], acts: Sequence[tuple[int, int]]) -> list[Span]:
    """A clause that only lists things (脊、脅、肩、肺; 膚三), in a sentence with no act, is an
    inventory: its things are not marked (GUIDE §2: the contents of a 俎 are not annotated). In a
    sentence with an act the list is what is handled (薦兩豆，葵菹、蝸醢). Linear in the passage."""
    c, t = _chars(), p.text
    marked = any(ch in _CLAUSE_ENDS for ch in t)
    if marked:  # a clause ends at its mark
        sentence_starts = [0] + [i + 1 for i, ch in enumerate(t) if ch in _SENTENCE_ENDS]
        starts = [0] + [i + 1 for i, ch in enumerate(t) if ch in _CLAUSE_ENDS]
        ends = [s - 1 for s in starts[1:]] + [len(t)]
    else:  # the 斷句's clauses and sentences: a clause ends where the next starts
        sentence_starts = p.sentence_starts
        starts = sorted(p.bounds - {len(t)})
        ends = starts[1:] + [len(t)]

    def sentence_of(i: int) -> int:
        return sentence_starts[bisect.bisect_right(sentence_starts, i) - 1]

    acted_sentences = {sentence_of(s) for s, _e in acts}
    by_clause: dict[int, list[Span]] = {}
    k = 0
    for sp in spans:
        while ends[k] <= sp[0]:
            k += 1
        if sp[1] <= ends[k]:
            by_clause.setdefault(k, []).append(sp)
    listed = {k: _only_listed(t, starts[k], ends[k], inside, c) for k, inside in by_clause.items()}
    if not marked:
        # the 斷句 cuts a list whose 、 is lost item by item (脊|脅|肩|肺): three or more clauses of
        # nothing but things in a row, in one sentence, are the items of a list (two are often
        # what the sentence sets out: 尊|綌冪, 兩壺|斯禁); a clause of one or two unmarked characters
        # among them is an item the lexicon lacks (肩, 臑)
        alone = {k for k, inside in by_clause.items() if _only_things(t, starts[k], ends[k], inside, c)}
        items = alone | {k for k in range(len(starts)) if k not in by_clause and 0 < ends[k] - starts[k] <= 2}
        run: list[int] = []
        for k in sorted(items) + [-2]:
            if run and (k != run[-1] + 1 or sentence_of(starts[k]) != sentence_of(starts[run[0]])):
                if len(run) >= 3 and len(alone.intersection(run)) >= 2:
                    listed.update(dict.fromkeys(alone.intersection(run), True))
                run = []
            run.append(k)
    headed = _headed_inventories(t, spans) if marked else _cut_headed_inventories(
        t, spans, starts, ends, sentence_starts, acted_sentences)
    out: list[Span] = []
    k = 0
    for s, e, label in spans:
        while ends[k] <= s:
            k += 1
        if label == "OBJECT" and sentence_of(s) not in acted_sentences and (
                listed.get(k) or any(lo <= s < hi for lo, hi in headed)):
            continue
        out.append((s, e, label))
    return out


def _headed_inventories(t: str, spans: list[Span]) -> list[tuple[int, int]]:
    """The stretches after a stand named at the head with a colon (尸俎︰右肩、臂…，正脊二骨，橫脊) to the
    sentence end: the stand's contents, however each is written (GUIDE §2: only the head is marked)."""
    out = []
    for s, e, label in spans:
        if label == "OBJECT" and t[e - 1:e] == "俎" and t[e:e + 1] in _HEAD_COLONS:
            start = s
            while start > 0 and t[start - 1] not in _CLAUSE_ENDS:
                start -= 1  # the owner before the stand (尸俎︰, 主婦俎︰), and nothing but him
            if start > 0 and t[start - 1] not in _SENTENCE_ENDS:
                continue
            end = next((i for i in range(e + 1, len(t)) if t[i] in _SENTENCE_ENDS), len(t))
            out.append((e + 1, end))
    return out


def _cut_headed_inventories(t: str, spans: list[Span], starts: list[int], ends: list[int],
                            sentence_starts: list[int], acted: set[int]) -> list[tuple[int, int]]:
    """The same without marks: a clause of the 斷句 that is only a stand and its owner (尸俎|右肩|臂…)
    opening a sentence heads what follows, up to the next sentence with an act (the 斷句's sentence
    ends inside the list are not the editors')."""
    out = []
    stands = {e: s for s, e, label in spans if label == "OBJECT" and t[e - 1:e] == "俎"}
    if not stands:
        return []
    opening = set(sentence_starts)
    for lo, hi in zip(starts, ends):
        head = stands.get(hi)
        if head is None or head < lo or hi - lo > 4 or lo not in opening \
                or any(label not in ("ACTOR", "OBJECT") for s, e, label in spans if lo <= s < hi):
            continue  # 尸俎, 阼俎, 主婦俎: a stand (and its owner) alone in the clause
        end = next((x for x in sentence_starts if x > lo and x in acted), len(t))
        out.append((lo, hi, end))
    # each list runs to the next stand (賓俎|脊|脅…主人俎|脊…)
    return [(hi, min([end] + [lo2 for lo2, _h, _e in out if lo2 > lo])) for lo, hi, end in out]


def _only_things(t: str, lo: int, hi: int, inside: list[Span], c: dict[str, Any]) -> bool:
    """Is ``t[lo:hi]`` nothing but things (a count, or how a piece is cut — 折 jointed, 離 and 刌 of the
    lung — may open it)?"""
    if not inside or any(label != "OBJECT" for _s, _e, label in inside):
        return False
    covered = bytearray(hi - lo)
    for s, e, _label in inside:
        covered[s - lo:e - lo] = b"\x01" * (e - s)
    return all(covered[i] or (i == 0 and (t[lo] in c["jointed"] or t[lo] in c["numerals"])) for i in range(hi - lo))


def _only_listed(t: str, lo: int, hi: int, inside: list[Span], c: dict[str, Any]) -> bool:
    """Is ``t[lo:hi]`` a short list of things (items joined by 、, or a thing with its count), with no
    participant, place or verb marked in it? A few unmarked characters may be items the lexicon lacks."""
    if not inside or any(label != "OBJECT" for _s, _e, label in inside):
        return False
    covered = bytearray(hi - lo)
    for s, e, _label in inside:
        covered[s - lo:e - lo] = b"\x01" * (e - s)
    rest = [ch for i, ch in enumerate(t[lo:hi]) if not covered[i] and not ch.isspace()]
    listed = "、" in rest or t[hi - 1:hi] in c["numerals"]  # 脊、脅、肩、肺; 膚三
    if not (covered[:1] == b"\x01" or t[lo:lo + 1] in c["numerals"]
            or (t[lo:lo + 1] in c["jointed"] and covered[1:2] == b"\x01")):
        return False  # 說決、拾; 儐之束帛、乘馬: a verb opens the clause, its things are handled (折脊、脅 is a list)
    return listed and hi - lo <= 12 and sum(ch != "、" and ch not in c["numerals"] for ch in rest) <= 3


def _acts_in_view(view: Any, verbs_at: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """The ranges of ``verbs_at`` (sorted raw offsets) inside ``[lo, hi)`` that are whole characters
    of the view, in view offsets."""
    out: list[tuple[int, int]] = []
    for k in range(bisect.bisect_left(verbs_at, (lo, lo)), len(verbs_at)):
        rs, re_ = verbs_at[k]
        if rs >= hi:
            break
        i = bisect.bisect_left(view.starts, rs)
        j = bisect.bisect_left(view.ends, re_)
        if i < len(view.text) and j < len(view.text) and view.starts[i] == rs and view.ends[j] == re_:
            out.append((i, j + 1))
    return out


def _open_things(actions: Iterable[Any]) -> list[tuple[int, int]]:
    """Raw offsets of the things handled by the tuples' verbs of handling, and by the bows that
    receive or send them (拜受角; not 之, not a list)."""
    from pipeline.actions.vocabulary import NOT_THINGS, OPEN_OBJECT_VERBS

    return sorted({a.object_at for a in actions if a.object_at is not None and a.object
                   and (a.verb in OPEN_OBJECT_VERBS or (a.verb == "拜" and a.purpose in _EXCHANGED)) and not set(a.object) <= NOT_THINGS
                   and a.object.isalpha() and not set(a.object) & _JOINING})  # a list (設薦、俎, 徹豐與觶) keeps a span per thing


def _handled_words(passages: Sequence[Any], things: dict[int, list[tuple[int, int]]]) -> frozenset[str]:
    """The words (normalised) of the things the document's tuples handle (``things``: passage number →
    view ranges) where the lexicon tagged nothing: things it lacks (the 角 of 執角 in a chapter that
    brings its own cups)."""
    words: set[str] = set()
    for n, ranges in things.items():
        known = SortedSpans(passages[n].spans)
        words.update(passages[n].view.text[s:e] for s, e in ranges if known.around(s, e) == ([], False))
    return frozenset(words)


def _handled_again(text: str, spans: Sequence[Span], words: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``text`` writes one of the document's handled ``words`` (:func:`_handled_words`) where
    a thing is written: right after an act (卒角, where 卒 takes no unknown thing of its own: 卒事) or
    after 以 / 其 (以肝從, 執其角). Not anywhere: a single character handled once is often something
    else elsewhere (釋服 takes off the robes, 賓服鄉服 wears them; 執畢 holds the fork, 告事畢 "it is
    finished")."""
    found = written_at(text, words)
    if not found:
        return []
    after_act = {e for _s, e, label in spans if label == "VERB"}
    marks = _chars()["thing_slot_after"]
    return [(s, e) for s, e in found if s in after_act or (s and text[s - 1] in marks)]


#: the purposes of a bow that hands a thing over: received (拜受), sent (拜送)
_EXCHANGED = frozenset("受送")
#: the word that joins two things into one object role (徹豐與觶), each its own span
_JOINING = frozenset("與与")


def _with_names(spans: Sequence[Span], names: Iterable[tuple[int, int]],
                subjects: Iterable[tuple[int, int]] = (), text: str = "") -> list[Span]:
    """``spans`` and an ACTOR span for each name range that crosses none of them; a span inside a
    name gives way to it (婦 of 宗婦, the 侯 of archery in 侯氏). Then one for each written subject
    of a tuple (view range) where no span lies: a name the extractor read that neither the lexicon
    nor the span model marked (使者 of a chapter whose participants the lexicon lacks); a span inside
    a subject stays as the spans have it (主婦 where 婦 is marked). A subject the extractor read at
    the head of a place of one side (賓右取脯: the guest's right hand, not the place 賓右) takes that
    place's span, the hand left unmarked as in 尸左執觶; a subject that is a group with its count
    (二佐食) takes the span of the name inside it."""
    out = SortedSpans(spans)
    for s, e in names:
        inside, crossing = out.around(s, e)
        if (s, e, "ACTOR") not in inside and not crossing:
            out.replace(inside, (s, e, "ACTOR"))
    for s, e in subjects:
        if out.around(s, e) == ([], False):
            out.replace([], (s, e, "ACTOR"))
        elif text[e:e + 1] in _chars()["sides"] and out.around(s, e + 1) == ([(s, e + 1, "LOCATION")], False):
            out.replace([(s, e + 1, "LOCATION")], (s, e, "ACTOR"))
        elif text[s:s + 1] in _chars()["numerals"] and out.around(s, e) == ([(s + 1, e, "ACTOR")], False):
            out.replace([(s + 1, e, "ACTOR")], (s, e, "ACTOR"))  # 二佐食: the pair, counted, as the dev gold's 二大夫
    return out.items


def _one_name(written: str) -> bool:
    """Is a written subject one name, not a list (賓、介, 大夫及眾賓: each its own span)?"""
    return written.isalpha() and not set(written) & _chars()["joining"]


def refine_passages(raw: str, spans: list[dict[str, Any]], passages: Sequence[Any], tagged: Sequence[bool],
                    actions: Iterable[Any] = (), acted_verbs_only: bool = True,
                    speech: Optional[Sequence[Iterable[tuple[int, int]]]] = None,
                    names: Optional[Sequence[Iterable[tuple[int, int]]]] = None) -> list[dict[str, Any]]:
    """``spans`` (raw offsets) with those of every tagged passage replaced by its refined spans;
    ``speech``: per passage, the view ranges of unquoted speech, ``names`` those of the participants
    the extractor read as names the lexicon lacks (:class:`~pipeline.actions.passage.Reading`):
    ACTORs, as a chapter's 尸 is wherever the document makes it one.

    With ``acted_verbs_only`` a VERB span of a passage is kept only where a tuple's verb is. The
    lexicon marks every closed-list verb character; SCHEMA's VERB is the act performed, one span per
    tuple: 司射's 射, the 洗 of 辭洗 (辭 is the act), a verb only commanded (命佐食祭) or compared (如初)
    are not VERBs. The extractor has decided which characters are acts.
    """
    actions = list(actions)
    verbs_at = sorted({a.verb_at for a in actions if a.verb_at is not None})
    from pipeline.actions.vocabulary import NOT_THINGS

    things_at = _open_things(actions)
    places_at = sorted({a.location_at for a in actions if a.location_at is not None and a.location
                        and a.location.isalpha() and not set(a.location) <= NOT_THINGS})
    acted = set(verbs_at)
    actors_at = sorted({a.actor_at for a in actions if a.actor_at is not None})
    ranges: list[tuple[int, int]] = []
    fresh: list[dict[str, Any]] = []
    read = [n for n, (passage, is_tagged) in enumerate(zip(passages, tagged)) if is_tagged and passage.view.text]
    bounds = {n: passages[n].view.to_raw(0, len(passages[n].view.text)) for n in read}
    things_in = {n: _acts_in_view(passages[n].view, things_at, *bounds[n]) for n in read}
    handled = _handled_words(passages, things_in)
    for n in read:
        passage, (lo, hi) = passages[n], bounds[n]
        view = passage.view
        ranges.append((lo, hi))
        acts = _acts_in_view(view, verbs_at, lo, hi)
        things = things_in[n] + _handled_again(view.text, passage.spans, handled)
        places = _acts_in_view(view, places_at, lo, hi)
        spoken = speech[n] if speech is not None else ()
        subjects = [(a, b) for a, b in _acts_in_view(view, actors_at, lo, hi) if _one_name(view.text[a:b])]
        tagged_spans = _with_names(passage.spans, names[n] if names is not None else (), subjects, view.text)
        for s, e, label in refine(view.text, tagged_spans, passage.clauses, acts, things, places, spoken,
                                  passage.sentences):
            rs, re_ = view.to_raw(s, e)
            if label == "VERB" and acted_verbs_only and (rs, re_) not in acted:
                continue
            fresh.append({"start": rs, "end": re_, "label": label, "text": raw[rs:re_]})
    if not ranges:
        return spans
    ranges.sort()
    starts = [r[0] for r in ranges]

    def in_passage(sp: dict[str, Any]) -> bool:
        i = bisect.bisect_right(starts, sp["start"]) - 1
        return i >= 0 and sp["end"] <= ranges[i][1]

    kept = [sp for sp in spans if not in_passage(sp)]
    return sorted(kept + fresh, key=lambda sp: (sp["start"], sp["end"]))
