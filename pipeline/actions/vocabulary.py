"""What the clause analyser knows about words: the ritual lexicon plus the function words of
the 經 (negators, counts, prepositions, adverbs …) and the verb classes that decide roles.

Everything is written here in traditional characters, as in the editions, and normalised once
with the same function as the text view, so matching works on any edition's forms (seed 000 is
simplified, the XHTML traditional, the Siku edition has its own variants).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from pipeline.labels import VERBS
from pipeline.nlp.lexicon import Lexicon

# -- token kinds: the span labels, and the function words -----------------------------------------
ACTOR, VERB, OBJECT, LOCATION, FACING_KIND = "ACTOR", "VERB", "OBJECT", "LOCATION", "FACING"
NEG = "NEG"  # 不 弗 毋 勿
COUNT = "COUNT"  # 再 三 壹 一 before 拜 揖 讓 辭
RESP = "RESP"  # 荅 / 答
PREP = "PREP"  # 于 於 自 在: a place (or, after some verbs, a person) follows
WITH = "WITH"  # 以 與: "with / leading" before a person
AND = "AND"  # 及 、 between participants
ADV = "ADV"  # 乃 遂 皆 亦 …: skipped, 皆 is remembered
LIKE = "LIKE"  # 如 (如初, 如賓禮): not expanded
SAY = "SAY"  # 曰: speech follows
ZHI = "ZHI"  # 之
PREFIX = "PREFIX"  # 禮 (禮辭), 振 絕 (振祭 絕祭): part of the surface
ORDER = "ORDER"  # 東上 北上 …: ordering in a row, not a facing
DIR = "DIR"  # 東 西 南 北 上 下 …: extends a place phrase
NUM = "NUM"
OTHERV = "OTHERV"  # a verb outside the closed list: it ends a noun phrase, takes its own object
PURPOSE = "PURPOSE"  # 送 受 洗 至 辱 既爵 … right after 拜
CHAR = "CHAR"  # anything else
PUNCT = "PUNCT"
DANG = "DANG"  # 當: "level with", opens a place phrase and stays inside it (當西序)

NEGATORS = "不 弗 毋 勿".split()
COUNTS = {"再": 2, "三": 3, "壹": 1, "一": 1}
RESPONSES = ["荅", "答"]
PREPOSITIONS = "于 於 自 在".split()
WITHS = "以 與".split()
ANDS = ["及"]
#: 序 "in order" (序進, 序升) only right before a verb; elsewhere it is the wall of the hall
#: 若 "if" opens a conditional whose subject is the actor of the 則 clause (若大夫之耦不勝，則亦執弛弓);
#: 古者 / 昔者 "in old times" (郊特牲 古者尸無事則立: the 尸 stands); 親 "in person" (玉藻 大夫不親拜: not
#: bowing; 郊特牲 肉袒親割: nothing bared named 親割)
ADVERBS = "乃 遂 皆 亦 又 少 先 俱 竝 並 各 徧 遍 既 將 則 而 因 猶 疑 已 還 咸 必 且 序 若 唯 惟 而后 而後 然後 然后 古者 昔者 親".split()
LIKES = ["如"]
SAYS = ["曰"]
ZHIS = ["之"]
ORDERS = "東上 西上 南上 北上".split()
DIRECTIONS = "東 西 南 北 上 下 左 右 前 後 中 間 閒 端 外 內 側 旁 隅 方 首 末".split()
NUMBERS = "一 二 三 四 五 六 七 八 九 十 兩 百 千 壹 貳".split()
OTHER_VERBS = (
    "戒 速 厭 謀 舉 羞 至 視 哭 踊 致 遷 載 錯 布 陳 張 縣 作 使 帥 止 拂 扱 兼 擩 食 嘗 飯 酳 奉 "
    "贊 沃 筮 見 聽 聞 賜 歸 饋 宿 涖 倚 負 侍 御 有 無 為 爲 謂 卜 占 寫 示 誓 鼓 奏 歌 樂 "
    "稽顙 左還 右還 還 拾 決 繼 乘 合 比 納 行 厭 待 由 交 改 "
    "撫 挼 摶 更 易 遣 勝 承 述 謁 勞 延 儐 擯 求 挂 餕 衽 饗 問 拭 啟 卷 闔 斂 展 卻 攝 持 概 牽 傳 "
    "成踊 括髮 成服 馮 度 投 肅 跪 筵几 刲 流"  # the mourner's leaps, hair bound, mourning dress put on, the corpse
    # leant on (禮記); 投壺's measuring, throwing; 曲禮's bow that ushers the guest in (主人肅客而入: the host
    # enters) and kneeling (客自前跪，徹飯齊: no place 前跪); the mat and armrest laid (昏義 主人筵几於廟，而
    # 拜迎于門外: the temple is where they are laid, not where he bows); the victim cut and its blood that
    # flows (雜記 刲羊，血流于前，乃降: the blood runs in front, he comes down from the roof)
).split()
#: acts outside the closed list that take no thing: a closed-list act after them is the next act
#: (主人哭拜賓, 成服拜賓 — 奔喪), never a thing as after 致 or 聽 (致命, 聽命)
INTRANSITIVE_OTHER = "哭 踊 成踊 括髮 成服".split()
#: 拜's purposes, folded into the 拜 tuple (SCHEMA: 拜送爵, 拜受爵, 拜洗, 拜至, 拜辱, 拜既爵).
PURPOSES = "送 受 洗 至 辱 既爵 崇酒 妥 酒".split()
#: prefixes that belong to the surface: verb lemma -> prefixes
PREFIXES = {"辭": ["禮"], "祭": ["振", "絕"]}
#: extra actor and noun terms the lexicon misses, found by the patterns VERB…者 (舉觶者) at run time
SPEECH_OPEN = "「『“‘"
SPEECH_CLOSE = "」』”’"
CLAUSE_MARKS = "，,：︰:；;。！？!?「」『』“”‘’"
SENTENCE_MARKS = "。；;！？!?"
#: what opens the text of a new day (夙興 "rising early", 厥明 / 質明 "at dawn", 明日 "the next day"):
#: a sentence opening on one inside a passage is a new scene, nobody carried into it; no name either
NEW_DAY = ("夙興", "厥明", "質明", "明日")
#: what a clause is trimmed of at either end: its marks, the list mark 、 and spaces
CLAUSE_TRIM = CLAUSE_MARKS + "、 \u3000\t\r\n"

# -- verb classes (traditional lemmas from pipeline.labels.VERBS) ---------------------------------
#: a participant written right after the verb is its target (獻賓, 酢主人, 拜賓, 迎賓 …)
TARGET_VERBS = set("揖 拜 讓 獻 酬 酢 迎 送 從 請 命 告 授 受 俟 辭 對".split())
#: acts done to someone written after them almost always (送賓, 獻尸, 授主人; 問 and 勞 outside the
#: closed list: 聘禮 公問大夫), unlike a bow, a salute or a refusal, which often end their clause (答拜,
#: 揖, 辭): where a 斷句 cut one from the two names after it, the first is its target
#: (walk._Run._targets_cut_off)
TAKE_SOMEONE = set("獻 酬 酢 迎 送 授 命 告 請 問 勞".split())
#: a participant introduced by 以 / 與 is the one these acts are done with (主人以賓三揖)
MUTUAL_VERBS = set("揖 讓 拜".split())
#: verbs of motion: a bare place after them is where they go (升堂, 即位, 就席, 適洗, 降席)
MOTION_VERBS = set("升 降 入 出 適 進 退 反 復 即 就 立 坐 俟 從 迎".split())
#: after these a closed-list character is a thing, not an act (取祭, 設洗, 受命, 卒洗, 辭降)
OBJECT_VERBS = set("取 執 奠 設 加 徹 受 授 實 委 卒 辭 薦".split())
#: the acts of the cup, whose thing follows them too (酌散, 洗角觶, 飲射爵)
CUP_VERBS = set("酌 洗 飲".split())
#: after these, unknown characters up to the clause end or 于 / 以 are the thing handled (受爵弁; 袒朱襦
#: the robe bared, 洗角 the cup washed, 釋服 the robes taken off), as after the 受 / 送 of a bow (拜受角)
OPEN_OBJECT_VERBS = set("取 執 奠 設 加 徹 受 授 實 委 袒 洗 釋".split())
#: characters that never start or make such a thing (function words, pronouns, the charge 命,
#: 人 someone: 授人, 旅 the round of pledges: 受旅)
NOT_THINGS = set("之 其 於 于 以 而 者 也 焉 矣 諸 乎 則 乃 遂 亦 又 皆 各 命 如 若 與 及 所 自 此 彼 是 人 旅".split())
#: what follows 長 when it is a length, not the eldest (長如笴, 杠長三仞, 長尺有握, 長脅 the long ribs)
LENGTH_AFTER = "如一二三四五六七八九十尺寸丈仞尋笴武有脅"
#: the one handed a thing, written between 授 and the thing without being a named participant:
#: 人 someone, 老 the house steward (士昏禮 主人降，授老鴈; 授人脯; 聘禮 授老幣)
HANDED_PERSONS = set("人 老".split())
#: characters of the closed list that are also nouns (祭 the offering, 薦 the dishes, 洗 the basin,
#: 獻 the gift: 聘禮 奉獻將命, 坐奠獻, 坐取獻)
NOUNABLE = set("祭 薦 命 射 洗 降 拜 升 盥 酬 獻".split())
#: nounable characters received that are no thing (受命 the charge, 受酬 the pledge): no object
#: 反 / 復 / 即 / 就 right before another verb are adverbs ("back", "again", "then")
ADVERBIAL_VERBS = set("反 復 即 就".split())
#: these verbs are said to a participant who then does what follows: 命佐食祭; 請徹俎 asks for an
#: act that is no act of the passage's either (GUIDE 3.1: 請見 → object 見)
COMMAND_VERBS = set("命 請 告".split())
#: the verbs whose object is what they ask for, written out (命取矢, 請徹俎), and the words that end
#: it (請退可也: "may withdraw")
REQUEST_VERBS = set("命 請".split())
REQUEST_STOPS = set("可 則".split())  # 則: 請業則起 (曲禮) asks for the lesson; rising is what follows
#: causatives: the participant after them does what follows (使人受俎, 使二人舉觶…洗, 遣舉奠盥)
CAUSATIVES = set("使 遣".split())
#: the causatives that send someone off: what follows the errand is the one sent's (遣X盥，出)
DISPATCHING = set("遣".split())
#: dish words that are also closed-list verbs (薦 "the offerings"): a thing after 其 / 辟 or a
#: possessor (主婦薦、俎), or when a list of things goes on (薦、俎)
DISH_NOUNS = set("薦".split())
#: 對 is "facing, opposite" (筵對席, 長兄弟對之; 士昏禮 對敦于北, 設對醬于東: the matching dish), not the reply, before these
NOT_REPLY_AFTER = set("之 席 筵 敦 醬".split())
#: verbs whose object is the act declined or finished (辭洗, 辭降, 卒洗, 卒爵)
#: (辭 + 升 is never "declines the climb" in the corpus: the editors write 小臣正辭，升 — one declines,
#: the bower climbs)
ACT_OBJECT_VERBS = {"卒": None, "辭": set("洗 降 拜 坐".split()), "俟": {"射"}}  # 俟射: waits for the shooting
#: a closed-list character right after these verbs is a thing, not a second act: 祭薦 (offers from
#: the dishes), 執奠 / 酌奠 (the cup set down, the 奠)
NOUN_AFTER = {"祭": set("薦"), "執": set("奠"), "酌": set("奠")}
#: foods and dishes whose offering pieces are named X祭 (肺祭, 黍稷肺祭, 籩祭, 豆祭, 膴祭): after a
#: verb's object of this kind, 祭 is part of the thing (取黍稷肺祭授尸), unless a place or a thing
#: follows it (擩于醢，祭于豆間). A drinking cup is never such an X: 執爵祭 is the act.
OFFERING_SOURCES = set("肺 黍 稷 籩 豆 膴 脯 醢 菹 韭".split())
#: titles made of a verb and its thing (舉奠, the one who raised the 奠; 負侯, the one who holds the
#: target): a name only where they open a predicate; right after a subject (嗣舉奠) or after an act
#: of the clause (執旌負侯而俟) they are the act 舉 / 負 and the thing
VERB_TITLES = set("舉奠 負侯".split())
#: the five ranks named together (覲禮: 公侯伯子男皆就其旂而立): one participant of the acts, where
#: the lexicon reads 公, the archery target 侯 and the rest apart (each rank its own ACTOR span)
RANKS = set("公侯伯子男".split())
#: participants that only assist the principal (宗人贊祭, 庶子贊授肺) do not take over the
#: carried actor: the principal's sequence goes on after their clause
ASSIST_WORDS = set("贊".split())
#: verbs of treating a person (延之 bids him up, 勞之 greets him): after X延之 / X勞之 the acts
#: without a subject are the treated one's, not X's (擯者延之曰：「升。」升成拜 → the one bidden)
TREATING_VERBS = set("延 勞 賜".split())
#: nouns written with a closed-list character (其實, a vessel's contents) and manners
#: (反面揖: bows having turned to face back, no return): no act. Also the kin and ranks of 喪服 and
#: the 記: 從父 / 從祖 / 從母 (the father's brother's line, the mother's sister: 從父昆弟 is a cousin,
#: not "follows the father"), 適子 / 適孫 / 適婦 (嫡, the principal heir: 適子冠於阼 is no going),
#: 出妻 (a divorced wife), 從服 (mourning worn by extension), 命夫 / 命婦 (the ranked man and wife,
#: as 喪服's 傳 defines them: 兄弟有命夫、命婦在焉 commands no one); the dragons rising and falling
#: painted on the king's banner (覲禮: 象日月、升龍、降龍); and a cloth of N 升 (衰三升, 冠六升: the
#: count of its threads, no ascent); 從車, the carriages that follow (士昏禮: 從車二乘, no one follows);
#: 其實, a vessel's contents (聘禮 其實棗蒸栗擇; 士喪禮 兩瓦甒，其實醴酒: no one fills); 爵弁, the
#: sparrow-brown cap (士冠禮 受爵弁，加之: the cap received, no cup 爵 in it); 侑幣, the gift that urges
#: the guest to eat (公食大夫禮 受侑幣: no 侑, the participant of 有司徹, is in it); 飲酒, the drinking wine
#: (公食大夫禮 飲酒、漿飲，俟于東房; 飲酒，實于觶，加于豐: no one drinks; never an act in the corpus's 經)
#: Also 酬幣, the pledge gift sent (聘禮 致饗以酬幣: no one pledges); 長衣, the long robe (聘禮
#: 主人長衣練冠以受: no elder 長); 小聘, the lesser embassy (聘禮 小聘曰問: no participant); 私獻, a private
#: gift (聘禮 賓若私獻: no presenting); the set words
#: of a rite (士昏禮 昏辭曰, 士冠禮 字辭曰, 醴辭, 醮辭: no one declines); 降等, of a lower rank (曲禮 客若降等:
#: no one descends)
NOUN_WORDS = ("降等 其實 爵弁 侑幣 酬幣 私獻 長衣 小聘 昏辭 醮辭 醴辭 字辭 飲酒 反面 從父 從祖 從母 從服 從車 適子 適孫 適婦 出妻 命夫 命婦 升龍 降龍 " + " ".join(n + "升" for n in "一二三四五六七八九十")).split()
#: things written with a closed-list character: 庭實, the gifts displayed in the court (no act of 實);
#: a thing, so that opening a clause it is the topic of its act (聘禮 賓奉幣，庭實從; 庭實設: no one is named
#: for the following and the setting out, not the guest carried on). configs/lexicon/objects.txt lists it
#: too, for the OBJECT span; this keeps the reading where a configured lexicon lacks it
THING_WORDS = ("庭實",)
#: 將 before a verb: the act is about to be done, not done (公將射，則…; 予一人將受之)
ABOUT_TO = "將"
#: the hands: a place only after 于 (實于左手), manner elsewhere (尚左手, 左執爵)
HANDS = set("左手 右手".split())
#: after 洗 these make it the basin standing somewhere (洗在阼階東南; 士冠禮 洗有篚在西), not the washing
BASIN_STANDS = set("在 有".split())
#: 相 "each other" before these (相左, 相右, 相揖, 相拜; 公食大夫禮 大夫相食, officers feeding one another;
#: 士昏禮 相對, facing each other) is an adverb, not the 相 (the assistant)
MUTUAL_AFTER_XIANG = set("左 右 揖 拜 見 交 答 荅 食 對".split())
#: the count prefixes 再 三 壹 apply to these only (三獻 is "third presentation")
COUNTED_VERBS = set("拜 揖 讓 辭".split())
#: 眾 alone is "the many" (the rest of the participants) where 皆 follows it (眾皆繼射)
CROWD = "眾"
#: a count of two or more written before a participant that opens a clause, or joins one by 與 / 及 /
#: 、, is part of the name: the pair or group acts (少牢 二佐食各取黍于一敦, 祝與二佐食皆出; the dev
#: gold's 二大夫). Not 一: 一小射正授弓 is one of them, named 小射正 in the gold
GROUP_COUNTS = set("二三四五六七八九十兩")
#: what may stand between such a group and its act (二佐食各取黍, 祝與二佐食皆出)
GROUP_ADVERBS = set("皆 各".split())
#: 士昏禮's women who attend the bride (媵) and the groom (御): participants only where one opens a
#: clause (or is joined to one by 、 / 與 / 及) and an act follows at once (媵受, 御布對席, 媵、御沃盥交).
#: Elsewhere they are verbs: 媵爵 / 媵觶 "present the cup" (大射, 燕禮), 御於 "attend on" (士相見禮).
#: So is the bride herself, 女 (女出于母左, 女次…立于房中), elsewhere "you" (汝) in speech, and the
#: steward 老 (聘禮 老牽牛以致之。…老退), elsewhere "old" (鄉老, 老者)
ATTENDANTS = set("媵 御 女 老 子".split())
#: 繼 "go on to, in turn" and 兼 "both together": the closed-list character after them is the act,
#: not a thing (眾賓繼射; 少牢 兼祭于豆祭, offers the two together)
CONTINUING = ("繼", "兼")
#: places that are also things (席, 筵, 洗 …): a place after a motion verb or 于
PLACE_NOUNS = set("席 筵 洗 篚 俎 豆 侯 物 乏 位 堂 階 序 門 房 戶".split())


@dataclass
class Vocabulary:
    """Normalised word tables for one normaliser."""

    normalise: Callable[[str], str]
    #: normalised term -> set of kinds
    kinds: dict[str, set[str]] = field(default_factory=dict)
    #: normalised verb surface -> traditional lemma
    lemmas: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    max_len: int = 1
    #: normalised forms of the verb classes
    target_verbs: set[str] = field(default_factory=set)
    take_someone: set[str] = field(default_factory=set)
    mutual_verbs: set[str] = field(default_factory=set)
    motion_verbs: set[str] = field(default_factory=set)
    object_verbs: set[str] = field(default_factory=set)
    #: the verbs a thing follows: OBJECT_VERBS and the acts of the cup (酌散, 洗角觶, 飲射爵)
    handling_verbs: set[str] = field(default_factory=set)
    open_object_verbs: set[str] = field(default_factory=set)
    not_things: set[str] = field(default_factory=set)
    nounable: set[str] = field(default_factory=set)
    adverbial_verbs: set[str] = field(default_factory=set)
    command_verbs: set[str] = field(default_factory=set)
    request_verbs: set[str] = field(default_factory=set)
    request_stops: set[str] = field(default_factory=set)
    #: 由 "by way of": the place after it is where the act after it goes
    by_way: str = "由"
    #: 所 + verb: "where … was done", the head of a place (所設中之西南)
    the_place_where: str = "所"
    #: the mats: a place each participant has his own of (賓介席末: each at his mat's end)
    mats: str = "席筵"
    #: 亦 "also": the participant before it is the subject of what follows
    also: str = "亦"
    causatives: set[str] = field(default_factory=set)
    dispatching: set[str] = field(default_factory=set)
    about_to: str = ABOUT_TO
    dish_nouns: set[str] = field(default_factory=set)
    not_reply_after: set[str] = field(default_factory=set)
    counted_verbs: set[str] = field(default_factory=set)
    place_nouns: set[str] = field(default_factory=set)
    purposes: set[str] = field(default_factory=set)
    act_objects: dict[str, Optional[set[str]]] = field(default_factory=dict)
    prefixes: dict[str, set[str]] = field(default_factory=dict)
    noun_after: dict[str, set[str]] = field(default_factory=dict)
    offering_sources: set[str] = field(default_factory=set)
    verb_titles: set[str] = field(default_factory=set)
    basin_stands: set[str] = field(default_factory=set)
    assist_words: set[str] = field(default_factory=set)
    mutual_after_xiang: set[str] = field(default_factory=set)
    treating_verbs: set[str] = field(default_factory=set)
    hands: set[str] = field(default_factory=set)
    #: 左 / 右 alone: the hand one acts with, between a subject and its act (祝左執角)
    hand_sides: frozenset = frozenset()
    #: :data:`NEW_DAY` as the view writes it
    new_day: tuple = ()
    xiang: str = "相"
    zhe: str = "者"
    ye: str = "也"
    persons_counted: frozenset = frozenset()
    report_verbs: frozenset = frozenset()
    ranks: frozenset = frozenset()
    name_openers: frozenset = frozenset()
    #: 有 / 無 "there is (not)": they open no VERB…者 name (若有奇者 is "if there is an odd one";
    #: the gold names 執爵者 in 有執爵者, 遵者 in 有遵者), though the name may follow them
    existentials: frozenset = frozenset()
    #: 凡 "all, whenever": opening a sentence, a rule for whoever does it (the 記's: no one carried
    #: into it); opening a VERB…者 word, a class the rule is about, not a participant
    generals: frozenset = frozenset()
    not_acts_after: frozenset = frozenset()
    #: the sides of a laid piece that 進 puts forward (進腠 the skin side, 魚進鬐 the fin, 進柢 the
    #: base, 進末 / 進本): how a dish is laid, no one advances
    laid_forward: frozenset = frozenset()
    #: the powers offered to or bowed to (祭天, 祭山、丘陵, 拜日, 祭饎爨: a stove, any X爨): the
    #: act's target (GUIDE 3.4), not a thing handled
    powers: frozenset = frozenset()
    stove: str = "爨"
    then_words: frozenset = frozenset()
    received_not_things: frozenset = frozenset()
    measured: frozenset = frozenset()
    continuing: frozenset = frozenset()
    crowd: str = CROWD
    group_counts: frozenset = frozenset()
    group_adverbs: frozenset = frozenset()
    attendants: frozenset = frozenset()
    intransitive: frozenset = frozenset()
    handed_persons: frozenset = frozenset()
    measures: frozenset = frozenset()
    its: str = "其"
    #: 某 "so-and-so", the name the set words put for whoever speaks or is spoken of: no participant
    placeholder: str = "某"
    #: 侑 "to urge (to eat)", after the 祝 who does it (祝侑); elsewhere 有司徹's 侑, a participant
    urge: str = "侑"
    prayer: str = "祝"
    all_word: str = "皆"

    def prefix_set(self) -> frozenset[str]:
        """Every beginning of every word of :attr:`kinds` (kept until a word is added)."""
        cached = self.__dict__.get("_prefixes")
        if cached is None or cached[0] != len(self.kinds):
            cached = (len(self.kinds), frozenset(w[:k] for w in self.kinds for k in range(1, len(w) + 1)))
            self.__dict__["_prefixes"] = cached
        return cached[1]

    @classmethod
    def build(cls, lexicon: Lexicon, normalise: Callable[[str], str]) -> "Vocabulary":
        n = normalise
        voc = cls(normalise=n)

        def add(term: str, kind: str) -> None:
            key = n(term)
            if key:
                voc.kinds.setdefault(key, set()).add(kind)
                voc.max_len = max(voc.max_len, len(key))

        for label, terms in lexicon.terms.items():
            for term in terms:
                if label == "VERB":
                    lemma = lexicon.verb_lemmas.get(term, term)
                    if lemma not in VERBS:
                        continue
                    voc.lemmas[n(term)] = lemma
                add(term, label)
        for lemma in VERBS:  # the closed list is the contract even if a lexicon file lacks one
            voc.lemmas.setdefault(n(lemma), lemma)
            add(lemma, "VERB")
        for words, kind in (
            (NEGATORS, NEG), (RESPONSES, RESP), (PREPOSITIONS, PREP), (WITHS, WITH), (ANDS, AND),
            (ADVERBS, ADV), (LIKES, LIKE), (SAYS, SAY), (ZHIS, ZHI), (ORDERS, ORDER),
            (DIRECTIONS, DIR), (NUMBERS, NUM), (PURPOSES, PURPOSE), (["當"], DANG),
        ):
            for w in words:
                add(w, kind)
        for w in OTHER_VERBS:
            if n(w) not in voc.lemmas:
                add(w, OTHERV)
        for w in VERB_TITLES:  # participants only where the clause analyser says so, so not in
            add(w, ACTOR)      # the lexicon that the span ruler and the 斷句 features read
        for w in RANKS:
            add(w, ACTOR)
        for w in NOUN_WORDS:
            add(w, CHAR)
        for w in THING_WORDS:
            add(w, OBJECT)
        for w, value in COUNTS.items():
            add(w, COUNT)
            voc.counts[n(w)] = value
        for lemma, words in PREFIXES.items():
            voc.prefixes[n(lemma)] = {n(w) for w in words}
            for w in words:
                add(w, PREFIX)

        def norm_set(items: set[str]) -> set[str]:
            return {n(x) for x in items}

        voc.target_verbs = norm_set(TARGET_VERBS)
        voc.take_someone = norm_set(TAKE_SOMEONE)
        voc.mutual_verbs = norm_set(MUTUAL_VERBS)
        voc.motion_verbs = norm_set(MOTION_VERBS)
        voc.object_verbs = norm_set(OBJECT_VERBS)
        voc.handling_verbs = norm_set(OBJECT_VERBS | CUP_VERBS)
        voc.open_object_verbs = norm_set(OPEN_OBJECT_VERBS)
        voc.not_things = norm_set(NOT_THINGS)
        voc.nounable = norm_set(NOUNABLE)
        voc.adverbial_verbs = norm_set(ADVERBIAL_VERBS)
        voc.command_verbs = norm_set(COMMAND_VERBS)
        voc.request_verbs = norm_set(REQUEST_VERBS)
        voc.request_stops = norm_set(REQUEST_STOPS)
        voc.causatives = norm_set(CAUSATIVES)
        voc.dispatching = norm_set(DISPATCHING)
        voc.about_to = n(ABOUT_TO)
        voc.by_way, voc.the_place_where, voc.mats, voc.also = n(voc.by_way), n(voc.the_place_where), n(voc.mats), n(voc.also)
        voc.dish_nouns = norm_set(DISH_NOUNS)
        voc.not_reply_after = norm_set(NOT_REPLY_AFTER)
        voc.counted_verbs = norm_set(COUNTED_VERBS)
        voc.place_nouns = norm_set(PLACE_NOUNS)
        voc.purposes = norm_set(set(PURPOSES))
        voc.act_objects = {n(k): (norm_set(v) if v else None) for k, v in ACT_OBJECT_VERBS.items()}
        voc.noun_after = {n(k): norm_set(v) for k, v in NOUN_AFTER.items()}
        voc.offering_sources = norm_set(OFFERING_SOURCES)
        voc.verb_titles = norm_set(VERB_TITLES)
        voc.basin_stands = norm_set(BASIN_STANDS)
        voc.assist_words = norm_set(ASSIST_WORDS)
        voc.mutual_after_xiang = norm_set(MUTUAL_AFTER_XIANG)
        voc.treating_verbs = norm_set(TREATING_VERBS)
        voc.hands = norm_set(HANDS)
        voc.hand_sides = frozenset(n(x) for x in ("左", "右"))
        voc.new_day = tuple(n(w) for w in NEW_DAY)
        voc.xiang = n("相")
        voc.zhe = n("者")
        voc.ye = n("也")
        voc.persons_counted = frozenset(n(x) for x in ("一人", "二人", "三人", "四人"))
        voc.report_verbs = frozenset(n(x) for x in ("反", "復"))
        voc.name_openers = frozenset(n(x) for x in ("坐", "立", "不"))
        voc.existentials = frozenset(n(x) for x in ("有", "無"))
        voc.generals = frozenset(n(x) for x in ("凡",))
        voc.not_acts_after = frozenset(n(x) for x in ("為", "無"))
        voc.laid_forward = frozenset(n(x) for x in "腠鬐柢末本")
        voc.powers = frozenset(n(x) for x in ("天", "地", "日", "月", "山", "川", "丘陵", "四瀆", "方明", "社", "稷"))
        voc.stove = n("爨")
        voc.then_words = frozenset(n(x) for x in ("則",))
        voc.received_not_things = frozenset(n(x) for x in ("命", "酬"))
        voc.continuing = frozenset(n(x) for x in CONTINUING)
        voc.crowd = n(CROWD)
        voc.group_counts = norm_set(GROUP_COUNTS)
        voc.group_adverbs = norm_set(GROUP_ADVERBS)
        voc.attendants = frozenset(norm_set(ATTENDANTS))
        voc.intransitive = frozenset(norm_set(INTRANSITIVE_OTHER))
        voc.handed_persons = norm_set(HANDED_PERSONS)
        voc.measured = frozenset(n(x) for x in ("長",))  # 長 the eldest, or a length
        voc.measures = frozenset(n(LENGTH_AFTER))
        voc.ranks = frozenset(n(x) for x in ("公", "諸公", "卿", "大夫", "士", "上大夫", "下大夫", "小卿", "孤卿", "卿大夫", "公卿", "士大夫", "子姓", "兄弟"))
        voc.its = n("其")
        voc.placeholder = n("某")
        voc.urge, voc.prayer = n("侑"), n("祝")
        voc.all_word = n("皆")
        return voc
