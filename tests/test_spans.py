"""The span post-pass (pipeline.actions.spans) on real 經 passages of the dev chapters."""

from __future__ import annotations

import re

import pytest


def spans(processor, text: str, label: str, layer: str = "JING") -> list[str]:
    out = processor.process({"text": text, "meta": {"layer": layer}})
    return [s["text"] for s in out["spans"] if s["label"] == label]


def test_numbers_and_attributes_join_the_thing(processor):
    """05 p345, 05 p518, 05 p585, 07 p199: the count and the attribute make one thing."""
    assert spans(processor, "三耦皆執弓，搢三而挾一个。", "OBJECT") == ["弓", "三", "一个"]  # 三: the arrows
    assert spans(processor, "釋獲者坐取中之八算，改實八算于中，興，執而俟。", "OBJECT") == ["中之八算", "八算"]
    assert spans(processor, "不勝者皆襲，說決拾，郤左手，右加弛弓于其上。", "OBJECT") == ["決拾", "弛弓"]
    assert spans(processor, "賓進，受虛觶，降，奠于篚，易觶，興洗。", "OBJECT")[0] == "虛觶"


def test_tallies_are_a_thing_only_with_their_determiner(processor):
    """05 p521 釋獲 is the act; 05 p544 右獲, 05 p568 賢獲 are the tallies."""
    assert spans(processor, "釋獲者坐而釋獲，每一个釋一算。", "OBJECT") == ["一算"]
    assert spans(processor, "釋獲者東面于中西坐，先數右獲。", "OBJECT") == ["右獲"]
    assert "賢獲" in spans(processor, "司射復位，釋獲者遂進取賢獲，執以升，自西階。", "OBJECT")


def test_no_thing_in_a_bow_purpose_a_look_a_definition_or_the_archers_gear(processor):
    """04 p187 不拜既爵, 04 p131 拜崇酒, 05 p355 視矦中, 05 p547 二算為純, 05 p299 袒、決、遂."""
    assert "爵" not in spans(processor, "賓坐祭，立飲，不拜既爵。", "OBJECT")
    assert spans(processor, "主人阼階上北面再拜崇酒。", "OBJECT") == []
    assert spans(processor, "皆左足履物，還，視矦中，俯正足。", "LOCATION") == ["物"]
    assert spans(processor, "二算為純。", "OBJECT") == []
    gear = spans(processor, "司射適堂西，袒、決、遂，取弓于階西。", "OBJECT")
    assert gear == ["弓"]


def test_nothing_is_marked_in_quoted_speech(processor):
    """05 p305: 請射于賓 is what the 司射 says; the 賓 after the quote is marked."""
    text = "司射適阼階上，東北面告于主人，曰︰「請射于賓。」賓許。"
    out = processor.process({"text": text, "meta": {"layer": "JING"}})["spans"]
    assert [(s["start"], s["text"]) for s in out if s["label"] == "ACTOR"] == [(0, "司射"), (12, "主人"), (text.index("賓許"), "賓")]


def test_places_written_around_other_words(processor):
    """04 p17 于兩壺, 04 p176 賓南, 05 p330 阼階下之東南 and 堂前三笴, 07 p207 大夫之右,
    05 p521 上射於右."""
    assert spans(processor, "設篚于禁南，東肆，加二勺于兩壺。", "LOCATION") == ["禁南", "兩壺"]
    assert spans(processor, "介降立于賓南。", "LOCATION") == ["賓南"]
    assert spans(processor, "降自西階，阼階下之東南，堂前三笴，西面北上坐。", "LOCATION") == ["西階", "阼階下之東南", "堂前三笴"]
    assert spans(processor, "賓大夫之右坐奠觶，拜，執觶興。", "LOCATION") == ["大夫之右"]
    assert spans(processor, "上射於右，下射於左。", "LOCATION") == ["右", "左"]


def test_hands_order_and_the_top_of_the_steps_are_no_places(processor):
    """04 p99 右手取肺 (manner) against 05 p558 實于左手; 07 p181 序進 (in order); 05 p534 盡階."""
    assert spans(processor, "興，右手取肺，卻左手執本，坐。", "LOCATION") == []
    assert spans(processor, "兼斂算，實于左手。", "LOCATION") == ["左手"]
    assert spans(processor, "升自西階，序進，酌散。", "LOCATION") == ["西階"]
    assert spans(processor, "升自西階，盡階，不升堂，告于賓。", "LOCATION") == ["西階", "堂"]


def test_participants_named_by_a_phrase(processor):
    """07 p179 媵爵者, 05 p579 勝者之弟子, 04 p152 如賓禮, 04 p280 以相拜."""
    assert spans(processor, "媵爵者阼階下皆北面再拜稽首。", "ACTOR") == ["媵爵者"]
    assert spans(processor, "勝者之弟子洗觶，升酌，南面坐奠于豐上。", "ACTOR") == ["勝者之弟子"]
    assert spans(processor, "主人以介揖讓升，拜如賓禮。", "ACTOR") == ["主人", "介"]
    assert spans(processor, "司正立于楹間以相拜，皆揖，復席。", "ACTOR") == ["司正"]


def test_the_same_spans_in_simplified_and_unpunctuated_text(processor):
    """The rules read the normalised view and the clauses, not the written forms or the marks."""
    trad = "不勝者進，北面坐取豐上之觶，興，少退，立卒觶。"
    simp = "不胜者进，北面坐取丰上之觯，兴，少退，立卒觯。"
    assert spans(processor, trad, "OBJECT") == ["豐上之觶", "觶"]
    assert spans(processor, simp, "OBJECT") == ["丰上之觯", "觯"]
    bare = "眾弓倚于堂西矢在其上"
    assert spans(processor, bare, "OBJECT")[0] == "眾弓"


def test_other_layers_keep_the_lexicon_spans(processor):
    """注 is not refined: its spans are the lexicon's (其 inside, the 爵 of 既爵)."""
    text = "獲者執其薦，立飲，不拜既爵。"
    assert spans(processor, text, "OBJECT", layer="ZHU") == ["其薦", "爵"]
    assert spans(processor, text, "OBJECT", layer="JING") == ["薦"]


def test_things_written_as_one_word(processor):
    """15 p151 牲鼎 (a run of things), 15 p224 魚一 (the count after it), 15 p436 徹尸俎 (the
    owner's vessel) against 04 p170 授主人爵 (a verb of giving: a target and a thing)."""
    assert spans(processor, "主人在右，及佐食舉牲鼎。", "OBJECT") == ["牲鼎"]
    assert spans(processor, "佐食受，加于肵俎。舉獸幹、魚一，亦如之。", "OBJECT")[-1] == "魚一"
    assert spans(processor, "命佐食徹尸俎，俎出于廟門。", "OBJECT") == ["尸俎", "俎"]
    assert spans(processor, "賓揖讓升，授主人爵于兩楹之間。", "OBJECT") == ["爵"]


def test_verb_nouns_after_a_handling_act(processor):
    """15 p176 酌奠 "the libation", 15 p259 受祭 "the offering pieces", 15 p227 實舉 "the raised
    pieces"; the 奠 and 祭 that are acts keep their VERB span."""
    out = processor.process({"text": "祝洗，酌奠，奠于鉶南。", "meta": {"layer": "JING"}})["spans"]
    assert [(s["text"], s["label"]) for s in out if s["text"] == "奠"] == [("奠", "OBJECT"), ("奠", "VERB")]
    assert "祭" in spans(processor, "主人坐，左執角，受祭，祭之。", "OBJECT")
    assert spans(processor, "尸實舉于菹豆。", "OBJECT") == ["舉"]
    assert spans(processor, "尸實舉于菹豆。", "LOCATION") == ["菹豆"]


def test_a_place_and_a_thing_joined_by_zhi(processor):
    """15 p354 酌于西方之尊 (after 于: the place), 10 p1 迎于帷門之外."""
    assert spans(processor, "主人洗觶，酌于西方之尊，西階前北面酬賓。", "LOCATION") == ["西方之尊", "西階前"]
    assert spans(processor, "侯氏亦皮弁迎于帷門之外，再拜。", "LOCATION") == ["帷門之外"]


def test_a_thing_the_lexicon_lacks_after_a_verb_of_handling(processor):
    """07 p384 右執簫 (the bow's tip), 10 p102 加書于服上, 04 p99 執本: unknown words right after
    取 / 執 / 加 … and closed by the clause end or 于 are the thing handled, a span and the tuple's
    object; a list keeps a span per thing (05 p636 設薦、俎), 授人 hands to someone."""
    out = processor.process({"text": "左執弣，右執簫，南揚弓。", "meta": {"layer": "JING"}})
    assert [s["text"] for s in out["spans"] if s["label"] == "OBJECT"] == ["弣", "簫", "弓"]
    assert [a["object"] for a in out["actions"] if a["verb"] == "執"] == ["弣", "簫"]
    assert spans(processor, "大史加書于服上。", "OBJECT") == ["書"]
    assert spans(processor, "東面設薦、俎。", "OBJECT") == ["薦", "俎"]
    assert spans(processor, "以馬出，授人，九馬隨之。", "OBJECT") == ["馬", "九馬"]


def test_a_place_the_lexicon_only_partly_knows_is_the_tuples_place(processor):
    """07 p353 取弓矢于次, 10 p102 加書于服上, 15 p292 加于肵: the place the extractor reads after 于 is
    the LOCATION span (the lexicon lacks 次, 服上, 肵); a function word is none (所設中之西)."""
    assert spans(processor, "三耦取弓矢于次。", "LOCATION") == ["次"]
    assert spans(processor, "大史加書于服上，侯氏受。", "LOCATION") == ["服上"]
    assert spans(processor, "燔者受，加于肵，出。", "LOCATION") == ["肵"]
    assert "所" not in spans(processor, "司射先立于所設中之西，東面以聽政。", "LOCATION")


def test_a_thing_set_out_before_zai_is_a_thing(processor):
    """07 p46 篚在洗西 and an unknown head of X在 (鼓在其南): things of an inventory, not participants."""
    assert spans(processor, "篚在洗西，南陳。", "OBJECT") == ["篚"]
    assert spans(processor, "鼓在其南，東鼓。", "OBJECT") == ["鼓"]
    assert spans(processor, "大夫在干侯之東北，北面。", "ACTOR") == ["大夫"]


def test_a_name_in_zhe_after_yu_keeps_the_yu_out(processor):
    """05 p930 (記) 樂正與立者齒: 與 joins the ones standing; the name is 立者, not 與立者."""
    assert spans(processor, "樂正與立者齒。", "ACTOR") == ["樂正", "立者"]


def test_the_contents_of_a_stand_listed_without_an_act_are_not_marked(processor):
    """05 p911 (記) 賓俎，脊、脅、肩、肺: an inventory, its pieces unmarked (GUIDE §2); 15 p147
    薦兩豆，葵菹、蝸醢: in a sentence with an act the list is what is served, and is marked."""
    assert "脊" not in spans(processor, "賓俎，脊、脅、肩、肺。主人俎，脊、脅、臂、肺。", "OBJECT")
    assert "葵菹" in spans(processor, "主婦盥于房中，薦兩豆，葵菹、蝸醢，醢在北。", "OBJECT")


def test_zun_setting_out_the_jars_is_no_jar(processor):
    """04 p17 尊兩壺于房戶間, 05 p17 尊於賓席之東: 尊 is the verb "sets out jars"; the jars are 兩壺."""
    assert spans(processor, "尊兩壺于房戶間，斯禁。", "OBJECT")[0] == "兩壺"
    assert "尊" not in spans(processor, "尊於賓席之東，兩壺，斯禁。", "OBJECT")
    assert spans(processor, "賓弟子及兄弟弟子洗，各酌于其尊。", "LOCATION") == ["其尊"]  # the jar itself


def test_chang_before_a_measure_is_a_length(processor):
    """05 p987 (記) 楅，長如笴: a length, not 長 the eldest; 05 p818 長受酬: the eldest."""
    assert spans(processor, "楅，長如笴，博三寸。", "ACTOR") == []
    assert spans(processor, "長受酬，酬者不拜，乃飲。", "ACTOR")[0] == "長"


def test_the_archers_gear_taken_off_and_taking_in_turn(processor):
    """05 p724 說決、拾 takes the gear off (things), 07 p320 袒、決、遂 puts it on (acts); 05 p999
    拾取矢 is "takes in turn"."""
    assert spans(processor, "司射乃適堂西，釋弓，去扑，說決、拾、襲，反位。", "OBJECT") == ["弓", "扑", "決", "拾"]
    assert "決" not in spans(processor, "司射適次，袒、決、遂，執弓，挾乘矢於弓外，見鏃於弣，右巨指鉤弦。", "OBJECT")
    text = "取誘射之矢者，既拾取矢，而后兼誘射之乘矢而取之。"
    assert spans(processor, text, "OBJECT") == ["矢", "乘矢"]  # as the gold: the name's 矢 is no thing handled
    assert spans(processor, text, "ACTOR") == ["取誘射之矢者"]  # a name the span CRF reads whole


def test_the_gear_taken_off_is_two_things_without_marks(processor):
    """05 p724 說決、拾、襲 read without its marks: the thumb-ring and the armlet taken off, two things
    as the edition lists them, though the 斷句 cuts 說決|拾襲 (the 拾 is no act of putting it on)."""
    text = "司射乃適堂西釋弓去扑說決拾襲反位"
    assert spans(processor, text, "OBJECT") == ["弓", "扑", "決", "拾"]
    assert spans(processor, "司射適堂西袒決遂取弓于階西", "OBJECT") == ["弓"]  # 袒決遂: put on


def test_things_used_honoured_hit_or_measured(processor):
    """07 p424 以弓為畢 uses the bow; 05 p859 不崇酒 honours no wine; 05 p521 若中 "if it hits";
    05 p959 容弓 is a width; 05 p348 所設中 is the holder set out."""
    assert spans(processor, "司馬正東面以弓為畢。", "OBJECT") == ["弓"]
    assert spans(processor, "賓酢主人，主人不崇酒，不拜眾賓。", "OBJECT") == []
    assert spans(processor, "若中，則釋獲者坐而釋獲，每一个釋一算。", "OBJECT") == ["一算"]
    assert spans(processor, "射自楹間，物長如笴，其間容弓，距隨長武。", "OBJECT") == []
    assert spans(processor, "君國中射，則皮樹中，以翿旌獲，白羽與朱羽糅；", "OBJECT") == ["皮樹中", "翿旌"]


def test_things_and_participants_without_their_noun(processor):
    """05 p345 搢三 (arrows), 05 p574 委其餘 (the rest), 04 p345 使人, 07 p419 負侯 heading a clause."""
    assert spans(processor, "降復位，坐，兼斂算，實八算于中，委其餘于中西，興，共而俟。", "OBJECT") == ["算", "八算", "餘"]
    assert spans(processor, "若有諸公、大夫，則使人受俎，如賓禮。", "ACTOR") == ["諸公", "大夫", "人"]
    assert spans(processor, "負侯許諾，如初去侯，皆執旌以負其侯而俟。", "ACTOR") == ["負侯"]


def test_the_archers_tent_and_places_led_by_qi_suoshe_or_reaching(processor):
    """07 p320 適次, 07 p470 于次中; 05 p525 由其階, 05 p348 所設中之西南, 05 p479 及楅揖, 07 p387 至乏;
    05 p429 由其位南進 (南 goes with 進) against 05 p207 大夫之右拜送."""
    assert spans(processor, "司射適次，袒、決、遂，執弓，挾乘矢於弓外，見鏃於弣，右巨指鉤弦。", "LOCATION")[0] == "次"
    assert spans(processor, "後者遂取誘射之矢，兼乘矢而取之，以授有司于次中。", "LOCATION") == ["次中"]
    assert spans(processor, "賓、主人、大夫揖，皆由其階降，揖。", "LOCATION") == ["其階"]
    assert spans(processor, "司射先立于所設中之西南，東面。", "LOCATION") == ["所設中之西南"]
    assert spans(processor, "司射反位，上耦揖進，當楅北面揖，及楅揖。", "LOCATION")[-1] == "楅"
    assert spans(processor, "負侯皆許諾，以宮趨，直西，及乏南，又諾以商，至乏，聲止。", "LOCATION") == ["乏南", "乏"]
    assert "其位" in spans(processor, "袒，執弓，由其位南進，與司射交于階前，相左，升自西階。", "LOCATION")
    assert spans(processor, "主人大夫之右拜送。", "LOCATION") == ["大夫之右"]
    # 15 p173: 及 before a counted thing joins it to the things set out (及兩鉶), it reaches no place
    text = "主婦設兩敦黍稷于俎南，西上，及兩鉶，芼設于豆南，南陳。"
    assert "兩鉶" in spans(processor, text, "OBJECT") and "兩鉶" not in spans(processor, text, "LOCATION")


def test_one_place_or_participant_written_with_zhi(processor):
    """07 p43 大侯之乏東北, 07 p541 反司正之位, 07 p250 大夫卒受者 (GUIDE 3.4)."""
    assert spans(processor, "又尊于大侯之乏東北，兩壺獻酒。", "LOCATION") == ["大侯之乏東北"]
    assert spans(processor, "大射正退，反司正之位。", "LOCATION") == ["司正之位"]
    assert spans(processor, "大夫卒受者以虛觶降，奠于篚。", "ACTOR") == ["大夫卒受者"]


def test_one_is_inside_the_thing_and_a_jointed_list_is_an_inventory(processor):
    """07 p25 一建鼓 (GUIDE 2: the numeral is inside); 05 p1024 折脊、脅、肺 lists the 俎's contents."""
    assert spans(processor, "一建鼓在其南，東鼓。", "OBJECT") == ["一建鼓"]
    assert spans(processor, "獲者之俎，折脊、脅、肺、臑。", "OBJECT") == ["俎"]


def test_the_cut_lung_of_an_inventory_and_mouthfuls_eaten_are_no_things(processor):
    """特牲's 記 lists each stand's pieces (15 p570 膚一，離肺一; p559 刌肺三): 離 and 刌 say how the lung is
    cut, as 折 says a piece is jointed, so the item is an inventory's (GUIDE §2), unmarked; 15 p222
    尸三飯 counts the mouthfuls the impersonator eats, the act, not the grain; handed, the lung is one;
    爵 before 韠 / 鞸 / 弁 is a colour."""
    assert spans(processor, "膚一，離肺一。", "OBJECT") == []
    assert spans(processor, "刌肺三，", "OBJECT") == []
    assert spans(processor, "尸三飯，告飽。祝侑，主人拜。", "OBJECT") == []
    # 15 p491: 爵 before the kneepad is its colour (a sparrow's head), no cup
    assert spans(processor, "唯尸、祝、佐食玄端，玄裳、黃裳、雜裳可也，皆爵鞸。", "OBJECT") == []
    assert not [w for w in spans(processor, "舉骼及獸、魚如初。尸又三飯，告飽。", "OBJECT") if "飯" in w]
    assert spans(processor, "右取肺，坐祭之。", "OBJECT") == ["肺"]


def test_the_hosts_stand_and_the_stopped_cup_are_one_thing(processor):
    """特牲 15 p469 祝命徹阼俎、豆、籩: the host's stand named by his side of the hall, as 尸俎 by its
    owner; p571 阼俎︰臂… heads an inventory; p330 三獻作止爵: the cup set down undrunk is raised again."""
    assert spans(processor, "祝命徹阼俎、豆、籩，設于東序下。", "OBJECT") == ["阼俎", "豆", "籩"]
    assert spans(processor, "阼俎︰臂，正脊二骨，橫脊，長脅二骨，短脅，", "OBJECT") == ["阼俎"]
    assert spans(processor, "三獻作止爵。", "OBJECT") == ["止爵"]


def test_the_offering_of_the_things_handled_is_one_thing_with_them(processor):
    """特牲 15 p203 佐食取黍稷肺祭授尸 and p286 祝贊籩祭: the offering pieces of the millets and lung, of the
    baskets, handed over (the tuples already read no act 祭 there; the spans had cut it off)."""
    assert spans(processor, "佐食取黍稷肺祭授尸。尸祭之，祭酒，啐酒，告旨。", "OBJECT") == ["黍稷肺祭", "酒", "酒"]
    assert spans(processor, "祝贊籩祭。尸受，祭之，祭酒，啐酒。", "OBJECT") == ["籩祭", "酒", "酒"]


def test_an_item_listed_beside_a_thing_is_a_thing_and_acts_listed_are_not(processor):
    """15 p147 蝸醢 is a kind of 醢 (the gold marks it so), 12 柶 the spoon buried beside the 巾,
    neither in the lexicon as written; 07 p732 釋弓、視算 and 07 p510 授弓、拂弓 list acts, not things."""
    assert spans(processor, "薦兩豆，葵菹、蝸醢，醢在北。", "OBJECT")[:3] == ["兩豆", "葵菹", "蝸醢"]
    assert spans(processor, "巾、柶、鬊、蚤埋于坎。", "OBJECT")[:2] == ["巾", "柶"]
    assert spans(processor, "司射釋弓、視算，如初。", "OBJECT") == ["弓"]
    assert "拂弓" not in spans(processor, "一小射正授弓、拂弓，皆以俟于東堂。", "OBJECT")

def test_lexicon_words_of_the_archery_and_drinking(processor):
    """04 p348 說屨, 05 p1033 矢束, 07 p338 北階; non-terms 04 p354 無算爵, 04 p23 羹定."""
    assert spans(processor, "說屨，揖讓如初，升，坐。", "OBJECT") == ["屨"]
    assert spans(processor, "大夫說矢束，坐說之。", "OBJECT") == ["矢束"]
    assert spans(processor, "卒畫，自北階下。", "LOCATION") == ["北階"]
    assert spans(processor, "無算爵。", "OBJECT") == spans(processor, "羹定。", "OBJECT") == []


def test_the_owner_heading_an_inventory_and_jars_set_out(processor):
    """04 p436 {賓}[俎] heads the list of its contents (GUIDE 3.4); 07 p40 尊 before the participant
    served and 07 p43 又尊 are the act of setting out jars; 西鑮之南: the direction names the rack."""
    assert spans(processor, "賓俎，脊、脅、肩、肺。", "OBJECT") == ["俎"]
    assert spans(processor, "賓俎，脊、脅、肩、肺。", "ACTOR") == ["賓"]
    assert spans(processor, "尊士旅食于西鑮之南，北面，兩圜壺。", "OBJECT") == ["兩圜壺"]
    assert spans(processor, "尊士旅食于西鑮之南，北面，兩圜壺。", "LOCATION") == ["西鑮之南"]
    assert "尊" not in spans(processor, "又尊于大侯之乏東北，兩壺獻酒。", "OBJECT")


def test_the_order_of_a_line_hides_no_title_after_it_in_unpunctuated_text(processor):
    """05 p243 and p403 without their marks: 北上 / 東上 is the order of a line (a non-term), so
    the guest and the musicians after it are 賓 and 工, not 上賓 and 上工."""
    actors = spans(processor, "主人揖先入賓厭眾賓眾賓皆入門左東面北上賓少進", "ACTOR")
    assert actors[-1] == "賓" and "上賓" not in actors
    acts = processor.process({"text": "入升自西階北面東上工坐相者坐授瑟", "meta": {"layer": "JING"}})["actions"]
    assert ("工", "坐") in [(a["actor"], a["verb"]) for a in acts]


def test_nothing_is_marked_in_unquoted_speech_of_unpunctuated_text(processor):
    """04 p277 without its marks: the host's words after 曰 (請安于賓) have no quotation marks to
    bound them; where the extractor reads the speech to end (the tuples yield nothing inside it),
    nothing is marked either — the 賓 spoken of is no span, the 賓 told and the 賓 who declines are."""
    text = "主人升復席司正洗觶升自西階阼階上北面受命于主人主人曰請安于賓司正告于賓賓禮辭許"
    out = processor.process({"text": text, "meta": {"layer": "JING"}})
    assert [(s["start"], s["text"]) for s in out["spans"] if s["label"] == "ACTOR"] == [
        (0, "主人"), (5, "司正"), (21, "主人"), (23, "主人"), (30, "司正"), (34, "賓"), (35, "賓")]
    assert ("賓", "辭") in [(a["actor"], a["verb"]) for a in out["actions"]]


def test_the_lie_of_things_an_alignment_or_an_extent_is_no_part_of_the_place_in_unpunctuated_text(processor):
    """04 p17, 05 p438, 05 p20, 15 p69 without their marks: 東肆 / 南順 / 東首 are the way things lie,
    南當洗 the line they are set on, 南北以堂深 a measure — none of them is part of the place before
    them (with the marks, 禁南，東肆, the comma keeps them apart)."""
    def places(text):
        return spans(processor, text, "LOCATION")

    out = processor.process({"text": "尊兩壺于房戶間斯禁有玄酒在西設篚于禁南東肆加二勺于兩壺", "meta": {"layer": "JING"}})
    assert [s["text"] for s in out["spans"] if s["label"] == "LOCATION"] == ["房戶間", "西", "禁南", "兩壺"]
    assert ("設", "禁南") in [(a["verb"], a["location"]) for a in out["actions"]]
    assert places("乃設楅于中庭南當洗東肆") == ["中庭", "當洗"]
    assert places("設洗于阼階東南南北以堂深東西當東榮水在洗東") == ["阼階東南", "當東榮", "洗東"]
    assert places("棜在其南南順實獸于其上東首") == ["其南", "其上"]


def test_a_row_a_drums_face_or_a_side_of_the_body_is_no_part_of_the_place_in_unpunctuated_text(processor):
    """07 p22, 15 p173, 03 p72, 07 p320 without their marks: 南鼓 is the way the drum faces, 南陳 the
    way a row runs (as 東肆 above), 左頭 and 右巨指 a side of the body: the place before them ends
    where the edition's comma stood (阼階西，南鼓; 結于面，左頭)."""
    def places(text):
        return spans(processor, text, "LOCATION")

    assert places("建鼓在阼階西南鼓應鼙在其東南鼓") == ["阼階西", "其東"]
    assert "豆南" in places("主婦設兩敦黍稷于俎南西上及兩鉶芼設于豆南南陳")
    assert places("上大夫相見以羔飾之以布四維之結于面左頭如麛執之") == ["面"]
    assert places("司射適次袒決遂執弓挾乘矢於弓外見鏃於弣右巨指鉤弦") == ["次", "弓外", "弣"]


def test_an_inventory_cut_item_by_item_by_the_duanju_is_not_marked(processor):
    """05 p1024 and 04's 記 without their marks: the 斷句 cuts the list whose 、 is lost item by
    item (折脊|脅|肺|臑), and three such clauses in a row of a sentence with no act are an inventory,
    as 脊、脅、肺 is with its marks; two (尊|綌冪, what 05 p892 sets out) are not."""
    assert spans(processor, "獲者之俎折脊脅肺臑", "OBJECT") == ["俎"]
    things = spans(processor, "賓俎脊脅肩肺主人俎脊脅臂肺介俎脊脅肫胳肺肺皆離皆右體進腠", "OBJECT")
    assert not {"脊", "脅"} & set(things) and things.count("俎") == 3
    assert spans(processor, "尊綌冪賓至徹之", "OBJECT") == ["尊", "綌冪"]


def test_a_stand_named_with_a_colon_heads_an_inventory(processor):
    """15 特牲 (記) p551, p571, p579: 尸俎︰右肩、臂…，正脊二骨，橫脊… lists what the stand holds, each
    piece written its own way (a count, a side, 正 / 橫 / 長): only the head is marked (GUIDE 3.4), as
    the gold has it; in a sentence with an act the things stay (設俎︰ is no inventory then)."""
    assert spans(processor, "尸俎︰右肩、臂、臑、肫、胳，正脊二骨，橫脊，長脅二骨，短脅。", "OBJECT") == ["俎"]
    assert [x[-1] for x in spans(processor, "阼俎︰臂，正脊二骨，橫脊，長脅二骨，短脅，", "OBJECT")] == ["俎"]
    assert spans(processor, "佐食俎︰觳折，脊，脅，", "OBJECT") == ["俎"]
    assert spans(processor, "佐食俎︰觳折，脊，脅，", "ACTOR") == ["佐食"]
    assert "脊" in spans(processor, "佐食設俎︰觳折，脊，脅。", "OBJECT")


def test_a_stand_cut_off_by_the_duanju_heads_an_inventory_in_unpunctuated_text(processor):
    """The same 記 passages without their marks (祝俎脾脡脊二骨脅二骨, 阼俎臂正脊二骨…): the 斷句
    cuts the stand off as a clause of its own (祝俎|脾脡|脊二骨|…), and it heads the rest."""
    for text in ("祝俎脾脡脊二骨脅二骨", "阼俎臂正脊二骨橫脊長脅二骨短脅"):
        assert [x[-1] for x in spans(processor, text, "OBJECT")] == ["俎"], text


def test_a_name_ending_on_zhe_takes_no_second_name(processor):
    """04 p223 相者二人, 07 p243 立于洗南者二人: the gold marks the name and the count apart, as it
    does 15 p521 沃尸盥者一人; without marks 05 p1018 主皮之射者勝者又射 names two (射者, 勝者), as
    07 p595 命三耦及眾射者勝者 does. A name not ending on 者 still takes it (眾賓勝者, 大夫卒受者)."""
    assert spans(processor, "相者二人，皆左何瑟，後首。", "ACTOR") == ["相者", "二人"]
    assert spans(processor, "降，與立于洗南者二人皆再拜稽首送觶。", "ACTOR") == ["立于洗南者", "二人"]
    assert spans(processor, "禮射不主皮主皮之射者勝者又射不勝者降", "ACTOR") == ["射者", "勝者", "不勝者"]
    assert spans(processor, "沃尸盥者一人奉槃者東面", "ACTOR") == ["沃尸盥者", "一人", "奉槃者"]
    assert spans(processor, "眾賓勝者皆袒、決、遂，執張弓。", "ACTOR") == ["眾賓勝者"]


def test_fan_x_zhe_is_whenever_not_a_name(processor):
    """04 p445 / 05 p917, the 記: 凡奠者於左 "whenever (a cup) is set down, on the left": no one is
    named, and the gold marks nothing; 媵爵者 and 遵者 stay names."""
    assert spans(processor, "凡奠者於左，", "ACTOR") == []
    assert spans(processor, "公卒觶，媵爵者皆降。", "ACTOR") == ["公", "媵爵者"]


def test_things_joined_by_yu_keep_a_span_each(processor):
    """05 p617: 徹豐與觶 handles two things (the tuple's object is 豐與觶, as written); the spans
    stay one per thing, as 設薦、俎's do."""
    text = "眾賓繼飲，射爵者辯，乃徹豐與觶。"
    out = processor.process({"text": text, "meta": {"layer": "JING"}})
    assert [a["object"] for a in out["actions"] if a["verb"] == "徹"] == ["豐與觶"]
    things = [s["text"] for s in out["spans"] if s["label"] == "OBJECT"]
    assert things[-2:] == ["豐", "觶"] and "豐與觶" not in things


def test_names_over_the_spans_of_a_long_paragraph_as_one_by_one(processor):
    """``_with_names`` looks only at the spans near each name (a paragraph of the whole classic has
    thousands): it gives what reading every span for every name gives, on the 經 of seed 003 run
    together as one line, with names inside spans, around them (宗婦 over 婦), crossing them and repeated."""
    from pipeline.actions.spans import _with_names
    from pipeline.read.inputs import read_file
    from tests.conftest import SEEDS

    def one_by_one(spans, names):
        out = list(spans)
        for s, e in names:
            inside = [x for x in out if s <= x[0] and x[1] <= e]
            if (s, e, "ACTOR") in inside or any(a < e and s < b for a, b, _l in out if (a, b, _l) not in inside):
                continue
            out = [x for x in out if x not in inside] + [(s, e, "ACTOR")]
        return sorted(out)

    seed = next(p for p in SEEDS if p.name.startswith("003_"))
    record = processor.process_item(read_file(seed))
    text = "".join(s["text"] for s in record["segments"] if s["layer"] == "JING").replace("\n", "")
    spans = processor._tag_many([text])[0]
    assert len(spans) > 500
    names = []
    for k, (s, e, _label) in enumerate(spans[::7]):
        names += [(s, e), (max(0, s - 1), e), (s, e + 2), (s + 1, e + 1), (max(0, s - 3), s + 1)]
    names += names[:40]  # a name met again after it was taken
    got = _with_names(spans, names)
    assert got == one_by_one(spans, names)
    assert sum(label == "ACTOR" for *_r, label in got) > sum(label == "ACTOR" for *_r, label in spans)


@pytest.fixture(scope="module")
def lacking(tmp_path_factory):
    """A processor whose lexicon lacks 角 (a chapter never seen brings its own cups)."""
    import shutil

    from pipeline.config import load_config
    from pipeline.nlp.lexicon import default_lexicon_dir
    from pipeline.process import DocumentProcessor

    folder = tmp_path_factory.mktemp("lexicon") / "lexicon"
    shutil.copytree(default_lexicon_dir(), folder)
    objects = folder / "objects.txt"
    objects.write_text("".join(line for line in objects.read_text(encoding="utf-8").splitlines(keepends=True)
                               if line.strip() != "角"), encoding="utf-8")
    config = load_config()
    return DocumentProcessor({**config, "paths": {**(config.get("paths") or {}), "lexicon": str(folder)}})


def test_a_thing_the_lexicon_lacks_handled_with_a_bow_of_receiving_is_marked(lacking):
    """15 p256 主人拜受角，尸拜送 with a lexicon that lacks 角: the thing received with the bow is
    the tuple's object and so an OBJECT span, as the thing after 受 alone is."""
    assert spans(lacking, "主人拜受角，尸拜送。", "OBJECT") == ["角"]
    assert spans(lacking, "主人洗角，升，酌，酳尸。", "OBJECT") == ["角"]  # 15 p245


def test_a_thing_handled_once_is_one_where_a_thing_is_written_again(lacking, processor):
    """15 p275 with a lexicon that lacks 角: 執角 and 受角 make 角 a thing, so the 角 of 卒角 (卒 takes
    no unknown thing of its own) is one too. 04 p382 and p388 as one text: 釋服 makes 服 a thing, but
    賓服鄉服 (he wears his robes) writes it where no thing is written."""
    text = ("祝左執角，祭豆，興，取肺，坐祭，嚌之，興，加于俎，坐祭酒，啐酒，以肝從。祝左執角，右取肝擩于鹽，振祭，"
            "嚌之，加于俎，卒角，拜。主人答拜，受角，酌，獻佐食。佐食北面拜受角，主人拜送。佐食坐祭，卒角，拜。"
            "主人答拜，受角，降，反于篚。升，入復位。")
    out = lacking.process({"text": text, "meta": {"layer": "JING"}})
    cups = sorted(s["start"] for s in out["spans"] if s["label"] == "OBJECT" and s["text"] == "角")
    assert cups == [m.start() for m in re.finditer("角", text)]
    assert spans(processor, "明日，賓服鄉服以拜賜。主人釋服。", "OBJECT") == ["服"]


def test_a_written_subject_no_span_marks_is_a_participant():
    """10 p13 侯氏用束帛、乘馬儐使者，使者再拜受 where neither the lexicon nor the span model marked
    使者 (a chapter whose participants the lexicon lacks): the extractor read the second 使者 as the
    one who bows, so it is an ACTOR span; the first, whom the gifts honour, is no subject and stays
    unmarked here. A subject written as a list (04 p247 賓、介降, 05 p225 大夫及眾賓皆升) is no one span."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.actions.spans import refine_passages

    x = ActionExtractor()
    for raw, expected in (("侯氏用束帛、乘馬儐使者，使者再拜受。", ["侯氏", "使者"]), ("大師，則為之洗，賓、介降，主人辭降。", ["主人"]),
                          ("主人揖讓，以賓升，大夫及眾賓皆升，就席。", ["主人"])):
        passage = Passage.from_raw(raw)
        actions = x.extract([passage])
        # the spans of a lexicon that knows 侯氏 and 主人 only
        passage.spans = [(m.start(), m.end(), "ACTOR") for m in re.finditer("侯氏|主人", passage.view.text)]
        out = refine_passages(raw, [], [passage], [True], actions, acted_verbs_only=False)
        actors = [(s["start"], s["text"]) for s in out if s["label"] == "ACTOR"]
        assert [t for _s, t in actors] == expected, actors
        if raw.startswith("侯氏"):
            assert actors[1][0] == raw.index("使者再拜")


def test_a_thing_set_out_keeps_no_direction_after_it_in_unpunctuated_text(processor):
    """15 p494, 07 p16, 05 p512 without their marks (設洗，南北以堂深; 設乏，西十、北十; 設中，南當楅):
    the direction after the thing set out opens its measure or its line, so the thing is no place
    (洗南 of the lexicon, 乏西 and 中南 of the model, read whole) — the tuple's thing is the span."""
    assert spans(processor, "設洗南北以堂深東西當東榮", "OBJECT") == ["洗"]
    assert spans(processor, "設洗南北以堂深東西當東榮", "LOCATION") == ["當東榮"]
    assert spans(processor, "司馬命張侯弟子說束遂繫左下綱設乏西十北十凡乏用革", "LOCATION") == []
    assert "中" in spans(processor, "釋獲者坐設中南當楅西當西序東面", "OBJECT")
    # with 于 the place after the thing stays one: 設篚于洗南
    assert spans(processor, "設篚于洗南", "LOCATION") == ["洗南"]


@pytest.fixture(scope="module")
def lacking_things(tmp_path_factory):
    """A processor whose lexicon lacks the things of 士相見禮 and 特牲 that are none of the other
    chapters' (a chapter never seen brings its own vessels, victims' parts and gifts)."""
    import shutil

    from pipeline.config import load_config
    from pipeline.nlp.lexicon import default_lexicon_dir
    from pipeline.process import DocumentProcessor

    gone = {"扃", "簋", "贄", "雉", "骼", "肩"}
    folder = tmp_path_factory.mktemp("lexicon") / "lexicon"
    shutil.copytree(default_lexicon_dir(), folder)
    objects = folder / "objects.txt"
    objects.write_text("".join(line for line in objects.read_text(encoding="utf-8").splitlines(keepends=True)
                               if line.strip() not in gone), encoding="utf-8")
    config = load_config()
    return DocumentProcessor({**config, "paths": {**(config.get("paths") or {}), "lexicon": str(folder)}})


def test_a_thing_the_lexicon_lacks_right_after_a_handling_verb_is_marked(lacking_things):
    """One unmarked character after a verb that handles things, ending its clause or before 于 / 及,
    is the thing: 15 p157 抽扃, 15 p234 舉骼, 15 p442 分簋, 03 p25 奉贄 and 03 p49 辭其贄 (其 stays out),
    with a lexicon that lacks them. Not what is compared (03 p69 如執雉), nor a person (10 p74 授人) or a
    direction (07 p516 還右)."""
    assert "扃" in spans(lacking_things, "鼎西面錯，右人抽扃，委于鼎北。", "OBJECT")
    assert "骼" in spans(lacking_things, "舉骼及獸、魚如初。", "OBJECT")
    assert "簋" in spans(lacking_things, "筵對席，佐食分簋、鉶。", "OBJECT")
    assert "贄" in spans(lacking_things, "主人揖，入門右。賓奉贄，入門左。", "OBJECT")
    assert spans(lacking_things, "士見於大夫，終辭其贄。", "OBJECT") == ["贄"]
    assert "雉" not in spans(lacking_things, "下大夫相見以雁，飾之以布，維之以索，如執雉。", "OBJECT")
    assert "右" not in spans(lacking_things, "司馬升，命去侯如初，還右，乃降。", "OBJECT")
    assert "人" not in spans(lacking_things, "以馬出，授人，九馬隨之。", "OBJECT")


def test_the_ground_of_declining_is_no_thing_handled(processor):
    """04 p331, 05 p781 賓辭以俎: the 賓 declines on the ground of the stand before him; the 俎 is not
    handled (GUIDE §2), so no OBJECT — where 徹俎 handles it, it is one."""
    assert spans(processor, "主人曰︰「請坐于賓。」賓辭以俎。", "OBJECT") == []
    assert spans(processor, "賓辭以俎", "OBJECT") == []
    assert spans(processor, "主人曰︰「請徹俎。」賓許。", "OBJECT") == []  # in the quote: nothing marked
    assert spans(processor, "司正降階前，命弟子俟徹俎。", "OBJECT") == ["俎"]


def test_a_participants_hand_is_no_place(processor):
    """聘禮 (received text; the corpus lacks the rite): 賓右取脯，左奉之 is the guest's right hand, as
    尸左執觶 is the 尸's left — 賓 the ACTOR of 取 and of the acts after it, not the place 賓右 (the
    lexicon's, for 主人賓右奠觚). Where someone is named before it (主人賓右奠觚) or no hand's act
    follows (介右坐奠爵, 04 p173) it stays a place; without marks as well, unless the clause before ends
    on a name (主人|賓右奠觚, tested in test_actions)."""
    def read(text):
        out = processor.process({"text": text, "meta": {"layer": "JING"}})
        return [(s["text"], s["label"]) for s in out["spans"]], [(a["actor"], a["verb"]) for a in out["actions"]]

    spans, acts = read("賓右取脯，左奉之，乃歸，執以出。")
    assert spans[0] == ("賓", "ACTOR") and ("賓右", "LOCATION") not in spans
    assert acts == [("賓", "取"), ("賓", "執"), ("賓", "出")]
    # without marks too, where no clause before it ends on a name (the 斷句 may cut a subject off)
    assert read("賓右取脯左奉之乃歸執以出") == (spans, acts)
    spans, acts = read("主人賓右奠觚答拜，降盥。")
    assert ("賓右", "LOCATION") in spans and acts[0] == ("主人", "奠")
    spans, acts = read("主人實爵，酢于西階上，介右坐奠爵，遂拜，執爵興。")
    assert ("介右", "LOCATION") in spans and ("主人", "奠") in acts


def test_court_gifts_and_snail_relish_are_things(processor):
    """聘禮 (received text) 庭實設: the court gifts are set out, a thing, not the court 庭 and a filling
    實; 15 p147 主婦…薦兩豆葵菹蝸醢 without marks: the snail relish whole, not its 醢."""
    assert spans(processor, "賓奉束帛加璧享。庭實設。", "OBJECT") == ["束帛", "璧", "庭實"]
    assert spans(processor, "賓奉束帛加璧享。庭實設。", "LOCATION") == []
    assert "蝸醢" in spans(processor, "主婦盥于房中薦兩豆葵菹蝸醢醢在北", "OBJECT")  # without marks
