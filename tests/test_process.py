"""`yili process` as SCHEMA section 6 says: one output line per document, offsets valid, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import srsly
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import SEEDS, corpus_files

runner = CliRunner()


def check_offsets(record: dict) -> int:
    """Every offset of every segment, sentence, clause, span and tuple lies in the text and says what it claims."""
    text = record["text"]
    n = 0
    for seg in record["segments"]:
        assert 0 <= seg["start"] <= seg["end"] <= len(text)
        assert text[seg["start"] : seg["end"]] == seg["text"]
        n += 1
    for key in ("sentences", "clauses", "removed"):
        for item in record[key]:
            assert 0 <= item["start"] <= item["end"] <= len(text), (key, item)
            n += 1
    for span in record["spans"]:
        assert 0 <= span["start"] < span["end"] <= len(text)
        assert text[span["start"] : span["end"]] == span["text"]
        n += 1
    for act in record["actions"]:
        assert 0 <= act["start"] < act["end"] <= len(text)
        clause = "".join(text[act["start"] : act["end"]].split())
        # the surface of the act is written inside the clause that states it (line breaks aside)
        surface = act["surface"]
        assert all(ch in clause for ch in surface if not ch.isspace()), (act, clause)
        n += 1
    return n


def test_every_seed_processes_without_error(processed_seeds):
    assert set(processed_seeds) == {"000", "001", "002", "003", "004"}
    for name, record in processed_seeds.items():
        assert "error" not in record, (name, record.get("error"))
        assert record["meta"]["encoding"] in ("utf-8", "utf-8-sig")
        assert record["segments"] and record["sentences"] and record["spans"], name
        check_offsets(record)


def test_seed_outputs_carry_jing_and_actions(processed_seeds):
    # every seed holds 經 text with ritual acts (000 鄉射禮, 001 鄉射禮, 002 特牲饋食禮, 003 鄉飲酒禮, 004 覲禮)
    for name, record in processed_seeds.items():
        layers = {s["layer"] for s in record["segments"]}
        assert "JING" in layers, name
        assert len(record["actions"]) >= 20, (name, len(record["actions"]))
        verbs = {a["verb"] for a in record["actions"]}
        assert verbs & {"拜", "揖", "升", "降", "受", "奠"}, (name, verbs)


def test_offsets_hold_on_every_corpus_file(tmp_path):
    """Every file of the corpus through `yili process` with two workers (as a user runs a folder)."""
    files = corpus_files()
    out = tmp_path / "corpus.jsonl"
    result = runner.invoke(app, ["process", *map(str, files), "-o", str(out), "-q", "--no-resume", "-j", "2"])
    assert result.exit_code == 0, result.output
    records = list(srsly.read_jsonl(out))
    assert [r["meta"]["source"] for r in records] == [str(p) for p in files]
    checked = 0
    for record in records:
        assert "error" not in record, record.get("error")
        checked += check_offsets(record)
    assert checked > 10_000


def test_cli_process_writes_one_line_per_document_in_order(tmp_path):
    good = tmp_path / "a.txt"
    good.write_text("主人坐取爵于上篚，以降。賓降。", encoding="utf-8")
    records = tmp_path / "r.jsonl"
    records.write_text(
        "\n".join(
            [
                json.dumps({"text": "賓西階上北面拜洗。", "meta": {"layer": "JING", "id": "x1"}, "keep": [1, 2]}, ensure_ascii=False),
                "{not json",
                json.dumps({"meta": {"id": "no-text"}}),
                json.dumps({"text": "主人阼階上拜送爵。", "meta": {"layer": "JING"}}, ensure_ascii=False),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    missing = tmp_path / "missing.txt"
    out = tmp_path / "out" / "o.jsonl"
    result = runner.invoke(app, ["process", str(good), str(records), str(missing), "-o", str(out), "-q"])
    lines = list(srsly.read_jsonl(out))
    assert len(lines) == 6
    # failures: the bad JSON line (line 2), the record without text (line 3), the missing file
    assert result.exit_code == 3
    assert "error" not in lines[0] and lines[0]["meta"]["source"] == str(good)
    assert lines[1]["keep"] == [1, 2] and lines[1]["meta"]["id"] == "x1"  # unknown fields kept
    assert lines[1]["segments"] == [{"layer": "JING", "start": 0, "end": 9, "text": "賓西階上北面拜洗。", "evidence": "marker", "score": 1.0}]
    assert f"{records}:2" in lines[2]["error"] and "invalid JSON" in lines[2]["error"]
    assert f"{records}:3" in lines[3]["error"] and "text" in lines[3]["error"]
    assert lines[3]["meta"]["id"] == "no-text"
    assert "error" not in lines[4] and lines[4]["actions"]
    assert "no such file" in lines[5]["error"]
    act = lines[4]["actions"][0]
    assert (act["verb"], act["purpose"], act["object"]) == ("拜", "送", "爵")


@pytest.mark.parametrize("record,said", [
    ({"text": 5}, "record has no string 'text' field"),
    ({"meta": {"source": "x"}}, "record has no string 'text' field"),
    ("主人揖，先入。", "a record must be a JSON object, got str"),
    ({"text": "主人揖，先入。", "meta": "JING"}, "'meta' must be an object"),
    ({"text": "主人揖，先入。", "meta": {"layer": "jing"}}, "meta.layer 'jing' is not one of JING, ZHU, SHU, OTHER"),
])
def test_the_python_api_says_what_is_wrong_with_a_record(processor, record, said):
    """DocumentProcessor.process, called from a scholar's script (README, "From Python"), names
    the fault as yili process names a bad JSONL line; it had raised AttributeError ('int' object
    has no attribute 'encode'), KeyError 'text' or TypeError (string indices must be integers)."""
    with pytest.raises(ValueError) as caught:
        processor.process(record)
    assert str(caught.value) == said


def test_binary_and_empty_files(tmp_path):
    binary = tmp_path / "b.txt"
    binary.write_bytes(bytes(range(256)) * 4)
    empty = tmp_path / "e.txt"
    empty.write_bytes(b"")
    out = tmp_path / "o.jsonl"
    result = runner.invoke(app, ["process", str(binary), str(empty), "-o", str(out), "-q"])
    lines = list(srsly.read_jsonl(out))
    assert result.exit_code == 1
    assert str(binary) in lines[0]["error"]
    assert "error" not in lines[1] and lines[1]["text"] == "" and lines[1]["actions"] == []


def test_the_summary_names_each_failed_input_on_one_row_of_an_80_column_terminal(tmp_path):
    """A failed input's row says 'failed' and names the line to mend (r.jsonl:2); its error, printed in
    full as it happens, is not squeezed into a column of the table (which had folded each such row
    over a dozen blank lines)."""
    records = tmp_path / "r.jsonl"
    records.write_text(json.dumps({"text": "主人阼階上拜送爵。"}, ensure_ascii=False) + "\n{not json\n"
                       + json.dumps({"meta": {}}) + "\n", encoding="utf-8")
    binary = tmp_path / "b.txt"
    binary.write_bytes("主人拜。\n".encode("utf-8") * 3 + b"\x00\x01")
    result = runner.invoke(app, ["process", str(records), str(binary), "-o", str(tmp_path / "o.jsonl"), "--no-resume"],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 3, result.output
    assert f"{binary}: binary data (NUL bytes or control characters, the first at line 4, byte 1: 0x00)" in result.output
    lines = result.output.splitlines()
    head = next(i for i, line in enumerate(lines) if "經/注/疏/other" in line)
    rows = lines[head + 2:head + 6]  # under the header's rule: one line per input, nothing between
    assert [row.split()[:2] for row in rows] == [["r.jsonl:1", "record"], ["r.jsonl:2", "failed"],
                                                  ["r.jsonl:3", "failed"], ["b.txt", "failed"]]
    assert rows[0].split()[-1] == "1"  # its one tuple


def test_a_folder_s_files_left_out_are_told_and_a_link_to_nowhere_is_an_error(tmp_path):
    """A folder holds what a scholar gathered: a TEI .xml and a scan are left out by their kind, and the
    run says so (they had gone unmentioned); a link whose file is gone is that document's error, not
    skipped."""
    folder = tmp_path / "ch"
    folder.mkdir()
    (folder / "a.txt").write_text("主人拜賓，賓荅拜。\n", encoding="utf-8")
    (folder / "b.xml").write_text("<TEI><text><body><p>主人拜賓，賓荅拜。</p></body></text></TEI>", encoding="utf-8")
    (folder / "scan.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "gone.txt").symlink_to(tmp_path / "moved.txt")
    out = tmp_path / "o.jsonl"
    result = runner.invoke(app, ["process", str(folder), "-o", str(out), "--no-resume"], env={"COLUMNS": "200"})
    records = list(srsly.read_jsonl(out))
    assert result.exit_code == 1, result.output
    assert [Path(r["meta"]["source"]).name for r in records] == ["a.txt", "gone.txt"]
    assert records[0]["actions"] and records[1]["error"] == f"{folder / 'gone.txt'}: a link to {tmp_path / 'moved.txt'}, which leads to no file"
    assert "2 file(s) in the folders named were left out" in result.output and "(.png 1, .xml 1;" in result.output
    # named, the .xml is read (as markup)
    assert runner.invoke(app, ["process", str(folder / "b.xml"), "-o", str(out), "-q"]).exit_code == 0
    assert [a["verb"] for a in srsly.read_jsonl(out).__next__()["actions"]] == ["拜", "拜"]


def test_samples_flag_processes_the_bundled_seeds(tmp_path):
    out = tmp_path / "s.jsonl"
    result = runner.invoke(app, ["process", "--samples", "-o", str(out)], env={"COLUMNS": "220"})
    assert result.exit_code == 0, result.output
    lines = list(srsly.read_jsonl(out))
    assert [Path(r["meta"]["source"]).name for r in lines] == [p.name for p in SEEDS]
    # the per-document summary table: its header and one row per seed with its tuple count
    assert "經/注/疏/other" in result.output and "tuples" in result.output
    for seed, record in zip(SEEDS, lines):
        row = next(line for line in result.output.splitlines() if seed.name[:12] in line)
        assert str(len(record["actions"])) in row


def test_batched_sentence_breaks_equal_each_layers_own_splitter(processor):
    """The 斷句 of a document's unpunctuated segments, predicted in one batch, is what each segment's
    layer-bound splitter (Punctuator.for_layer) gives it alone: 經, 注 and 疏 each with their own features."""
    from pipeline.read.inputs import read_file
    from pipeline.text.normalise import segment_view
    from pipeline.text.quotations import quotation_breaks
    from pipeline.text.sentences import Break
    from pipeline.text.view import overlapping

    path = next(p for p in corpus_files() if p.parent.name == "zhushu-siku")  # an unpunctuated edition
    record = read_file(path).record
    text = record["text"]
    _layout, segments, removed = processor.layers(record)
    drop = sorted((r.start, r.end) for r in removed)
    views = [(seg, segment_view(text, seg.start, seg.end, overlapping(drop, seg.start, seg.end))) for seg in segments]
    views = [(seg, view) for seg, view in views if view.text]
    batched = processor._breaks(views)
    layers = {views[n][0].layer for n in batched}
    assert {"JING", "ZHU", "SHU"} <= layers, layers
    # on top of the model's breaks, a clause break where a later 疏 quotes the 經/注 from there
    quoted = quotation_breaks([view.text for _seg, view in views], [seg.layer for seg, _view in views])
    added = 0
    for n, given in batched.items():
        seg, view = views[n]
        alone = processor.splitter.for_layer(seg.layer).breaks(view.text)
        extra = [Break(pos, "clause") for pos in quoted[n] if pos not in {b.pos for b in alone}]
        added += len(extra)
        assert given.breaks(view.text) == sorted(alone + extra, key=lambda b: b.pos), (seg.layer, view.text[:40])
    assert added > 0
    # and the layer matters: somewhere the same text would be cut differently as another layer
    differs = sum(
        processor.splitter.for_layer("SHU" if views[n][0].layer == "JING" else "JING").breaks(views[n][1].text) != b.found
        for n, b in batched.items()
    )
    assert differs > 0


def test_verb_spans_are_the_acts_performed_unless_the_config_asks_for_every_lexicon_verb():
    """04 鄉飲酒禮: in 主人辭降 the act is 辭 and 降 only what is declined, so 降 is no VERB span
    (GUIDE §2, SCHEMA: one VERB span per tuple); 注 text keeps every lexicon verb."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    jing = "主人坐取爵于篚，降洗。賓降，主人辭降。賓對。"
    verbs = {}
    for mode in ("acts", "lexicon"):
        cfg = load_config()
        cfg["actions"]["verb_spans"] = mode
        out = DocumentProcessor(cfg).process({"text": jing, "meta": {"layer": "JING"}})
        verbs[mode] = [(s["start"], s["text"]) for s in out["spans"] if s["label"] == "VERB"]
        assert [a["verb"] for a in out["actions"]] == ["坐", "取", "降", "洗", "降", "辭", "對"]
    assert verbs["acts"] == [(2, "坐"), (3, "取"), (8, "降"), (9, "洗"), (12, "降"), (16, "辭"), (20, "對")]
    assert verbs["lexicon"] == sorted(verbs["acts"] + [(17, "降")])
    zhu = DocumentProcessor().process({"text": "主人辭降，辭賓降也。", "meta": {"layer": "ZHU"}})
    assert [s["text"] for s in zhu["spans"] if s["label"] == "VERB"] == ["辭", "降", "辭", "降"]


def test_the_tuples_read_the_configured_lexicon(tmp_path):
    """``[paths] lexicon`` reaches the extractor, not only the tagger: 大祝 (禮記 曾子問's great 祝), added
    to a copy of the lexicon, is the one who acts, and a span of the tagger."""
    import shutil

    from pipeline.config import load_config
    from pipeline.nlp.lexicon import default_lexicon_dir
    from pipeline.process import DocumentProcessor

    text = "大祝裨冕，執束帛，升自西階盡等，不升堂，命毋哭。"
    record = {"text": text, "meta": {"layer": "JING"}}
    before = DocumentProcessor().process(record)
    assert [a["actor"] for a in before["actions"]] == [None] * 4  # 大 unknown: 祝 is no subject
    folder = tmp_path / "lexicon"
    shutil.copytree(default_lexicon_dir(), folder)
    with open(folder / "actors.txt", "a", encoding="utf-8") as f:
        f.write("大祝\n")
    after = DocumentProcessor(load_config(overrides={"paths": {"lexicon": str(folder)}})).process(record)
    assert [(a["actor"], a["verb"], a["negated"]) for a in after["actions"]] == [
        ("大祝", "執", False), ("大祝", "升", False), ("大祝", "升", True), ("大祝", "命", False)]
    assert {"text": "大祝", "label": "ACTOR"} in [{k: s[k] for k in ("text", "label")} for s in after["spans"]]


def _lexicon_without(tmp_path, *actors: str, file: str = "actors.txt"):
    import shutil

    from pipeline.nlp.lexicon import default_lexicon_dir

    folder = tmp_path / "lexicon"
    shutil.copytree(default_lexicon_dir(), folder)
    path = folder / file
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(line for line in lines if line.strip() not in actors) + "\n", encoding="utf-8")
    return folder


def test_a_place_the_lexicon_lacks_is_where_one_goes_to_or_comes_out_of(tmp_path):
    """大射's 次 (the shooters' screen) out of the lexicon: after 適 (and 反, 即, 就, 復) and 出 the
    characters nobody knows up to the clause end are the place (司馬正適次; 上耦出次)."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "次", file="locations.txt")))
    acts = extractor.extract([Passage.from_raw("司馬正適次，袒、決、遂，執弓，右挾之，出。上耦出次，西面揖進。")])
    assert [(a.verb, a.location) for a in acts if a.verb in ("適", "出")] == [("適", "次"), ("出", None), ("出", "次")]


def test_a_thing_the_lexicon_lacks_is_handled_before_a_verb_outside_the_closed_list(tmp_path):
    """特牲's 右取肝擩于鹽 with 肝 out of the lexicon: what 取 takes is 肝, closed by 擩 (to dip) as
    it would be by 于 or the clause end."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "肝", file="objects.txt")))
    acts = extractor.extract([Passage.from_raw("尸左執角，右取肝擩于鹽，振祭，嚌之。")])
    assert [(a.verb, a.object) for a in acts][:2] == [("執", "角"), ("取", "肝")]


def test_a_name_only_the_span_model_reads_is_the_actor(tmp_path):
    """特牲's 主婦, taken out of the lexicon as in a chapter whose names it lacks: the span CRF still
    reads her as an ACTOR, and with ``[actions] model_names`` (the default) the tuples follow it."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    folder = _lexicon_without(tmp_path, "主婦")
    record = {"text": "主婦盥于房中，薦兩豆，葵菹、蝸醢，醢在北。", "meta": {"layer": "JING"}}
    acts = {}
    for flag in (False, True):
        out = DocumentProcessor(load_config(overrides={"paths": {"lexicon": str(folder)}, "actions": {"model_names": flag}})).process(record)
        assert "主婦" in [s["text"] for s in out["spans"] if s["label"] == "ACTOR"]
        acts[flag] = [(a["actor"], a["verb"]) for a in out["actions"]]
    assert acts == {False: [(None, "盥"), (None, "薦")], True: [("主婦", "盥"), ("主婦", "薦")]}
    assert load_config()["actions"]["model_names"] is True


def test_model_names_leave_out_things_definitions_and_the_sent():
    """ACTOR spans a model may read wrongly are no participant: a thing after 眾 (眾弓矢), what a
    definition is about (方明者，木也), one sent (使人 + act); a lexicon participant stays itself."""
    from pipeline.actions import ActionExtractor, Passage

    extractor = ActionExtractor(model_names=True)

    def actors(text: str, *names: str) -> list:
        p = Passage.from_raw(text)
        found = [p.view.text.index(extractor.normalise(n)) for n in names]  # the view is normalised
        p.spans = [(at, at + len(n), "ACTOR") for at, n in zip(found, names)]
        return [(a.actor, a.verb) for a in extractor.extract([p])]

    assert actors("眾弓矢不挾。總眾弓矢、楅，皆適次而俟。", "眾弓矢") == [(None, "挾"), (None, "適"), (None, "俟")]
    assert actors("方明者，木也，方四尺。設六色︰東方青，南方赤。", "方明者") == [(None, "設")]
    assert actors("使人受俎，如初。", "使人")[0][0] != "使人"
    # the same spans read as names where nothing rules them out
    assert actors("佐食者盥出。", "佐食者") == [("佐食者", "盥"), ("佐食者", "出")]


def test_a_name_read_once_holds_for_the_whole_document(tmp_path):
    """A chapter calls its participants the same throughout, but the span model does not read
    every mention: with 佐食 out of the lexicon, a name it read in one 經 passage of the document
    (特牲's 佐食北面立于中庭) is 佐食 in another where it read none (佐食授挼祭)."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "佐食")), model_names=True)

    def passage(text: str, *names: str) -> Passage:
        p = Passage.from_raw(text)
        found = [p.view.text.index(extractor.normalise(n)) for n in names]
        p.spans = [(at, at + len(n), "ACTOR") for at, n in zip(found, names)]
        return p

    named = passage("佐食北面立于中庭。", "佐食")
    later = "主人拜受角，尸拜送。主人退，佐食授挼祭。"
    alone = [(a.actor, a.verb) for a in extractor.extract([passage(later)])]
    assert ("佐食", "授") not in alone
    together = [(a.actor, a.verb) for a in extractor.extract([named, passage(later)])]
    assert together == [("佐食", "立"), ("主人", "拜"), ("尸", "拜"), ("主人", "退"), ("佐食", "授")]
    # a description (立者: whoever stands) and a number (三獻: the third to offer, here) are no names
    # of the document
    assert extractor.document_names([passage("立者升。", "立者"), passage("三獻作止爵。", "三獻"), named]) == {"佐食"}



def test_who_opens_clause_after_clause_before_an_act_is_a_participant(tmp_path):
    """A chapter the lexicon was not written from: with 尸 and 祝 out of it (single characters the
    span model does not read), 特牲 still makes them the subjects of acts clause after clause, and
    the document's reading says so; 肝 and 燔 open clauses too, but seldom and before few acts."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "尸", "祝", "宗婦")), model_names=True)
    chapter = ["祝迎尸于門外。", "尸入門左，北面盥，宗人授巾。", "尸至於階，祝延尸。尸升，入，祝先，主人從。",
               "尸即席坐，主人拜妥尸。", "祝洗，酌奠，奠于鉶南，遂命佐食啟會。", "祝酌，授尸，尸以醋主人。",
               "尸拜受，主人拜送。尸祭酒，啐酒，賓長以肝從。",
               "肝從。左執爵，取肝擩于鹽，坐振祭，嚌之。宗人受，加于俎。燔亦如之。",
               # 宗婦: a character nothing knows and 婦, whom the lexicon knows
               "宗婦執兩籩，戶外坐。主婦受，設于敦南。", "宗婦徹祝豆、籩入于房，徹主婦薦、俎。",
               "主人降，洗，酌，致爵于主婦。席于房中，南面。主婦拜受爵，主人西面答拜。宗婦薦豆、俎，從獻皆如主人。"]
    passages = [Passage.from_raw(text) for text in chapter]
    assert extractor.document_names(passages) == {extractor.normalise(n) for n in ("尸", "祝", "宗婦")}  # as the view writes them
    acts = [(a.actor, a.verb) for a in extractor.extract(passages)]
    assert acts[:4] == [("祝", "迎"), ("尸", "入"), ("尸", "盥"), ("宗人", "授")]
    assert [a for a in acts if a[1] in ("祭", "啐")][:2] == [("尸", "祭"), ("尸", "啐")]
    assert [a for a in acts if a[1] == "徹"] == [("宗婦", "徹"), ("宗婦", "徹")]
    # one passage alone opens too few clauses to tell; but there the one 祝 leads in (祝延尸) then
    # opens a clause before an act (尸升): 尸 is someone in that passage (subjects.handed_names)
    alone = [(a.actor, a.verb) for a in extractor.extract([Passage.from_raw(chapter[2])])]
    assert ("尸", "升") in alone and ("尸", "入") in alone


def test_who_opens_a_sentence_before_a_bow_is_someone_in_that_passage_read_alone(tmp_path):
    """覲禮 with 侯氏 out of the lexicon (as a chapter the lexicon was not written from): a passage read
    alone gives one or two sentences, too few for clause after clause, but a word nobody knows that
    opens a sentence before an act only a person does (再拜稽首, 送) is its subject there. A rite's
    name (鄉飲酒之禮: 飲 is no act), a later clause of a sentence (順羽 of 興，順羽，且左還: how he acts)
    and a thing opening a sentence (肝從: 從 is no act only a person does) stay no one."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "侯氏")), model_names=True)

    def acts(text: str) -> list[tuple]:
        return [(a.actor, a.verb) for a in extractor.extract([Passage.from_raw(text)])]

    assert acts("侯氏再拜稽首。") == [("侯氏", "拜"), ("侯氏", "稽首")]  # 10, p33
    assert acts("使者出。侯氏送，再拜，儐使者，諸公賜服者，束帛、四馬，儐大史亦如之。")[:3] == [
        ("使者", "出"), ("侯氏", "送"), ("侯氏", "拜")]  # 10, p104
    plain = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path / "plain", "侯氏")))
    assert ("侯氏", "拜") not in [(a.actor, a.verb) for a in plain.extract([Passage.from_raw("侯氏再拜稽首。")])]
    assert extractor._passage_names(Passage.from_raw("鄉飲酒之禮。主人就先生而謀賓、介。")) == frozenset()  # 04, p1
    shoot = "耦揖進，坐兼取乘矢，興，順羽，且左還，毋周，反面揖。"  # 05
    assert extractor._passage_names(Passage.from_raw(shoot)) == frozenset()
    assert extractor._passage_names(Passage.from_raw("肝從。左執爵，取肝擩于鹽，坐振祭，嚌之。")) == frozenset()  # 15


def test_who_opens_a_sentence_that_goes_on_to_an_act_only_a_person_does_is_someone_read_alone(tmp_path):
    """覲禮 with 侯氏 out of the lexicon, a passage read alone: a word nobody knows opening a sentence
    before an act things do too (入, 降) is its subject where a later clause of the sentence, with no
    word of its own, opens on an act only a person does (侯氏入門右，坐奠圭; 侯氏降自西階，東面授宰幣):
    the sentence's acts are one person's. Not a thing that follows (肝從，左執爵 where the 斷句 leaves no
    full stop: 從 opens sentences on things), a time (明日卒奠，…即位而徹之) nor a rank alone (小 of
    小射正一人，取公之決 where 射正 is new: 射 read as its act)."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "侯氏")), model_names=True)

    def acts(text: str) -> list[tuple]:
        return [(a.actor, a.verb) for a in extractor.extract([Passage.from_raw(text)])]

    assert acts("侯氏入門右，坐奠圭，再拜稽首。") == [  # 10, p56
        ("侯氏", "入"), ("侯氏", "坐"), ("侯氏", "奠"), ("侯氏", "拜"), ("侯氏", "稽首")]
    read = acts("侯氏升致命。王撫玉。侯氏降自西階，東面授宰幣，西階前再拜稽首，以馬出，授人，九馬隨之。")  # 10, p74
    assert read[:2] == [("侯氏", "升"), ("侯氏", "降")] and ("侯氏", "授") in read and ("侯氏", "稽首") in read
    liver = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path / "liver", "肝", file="objects.txt")),
                            model_names=True)
    assert liver._passage_names(Passage.from_raw("肝從，左執爵，取肝擩于鹽，坐振祭，嚌之。")) == frozenset()  # 15
    assert extractor._passage_names(Passage.from_raw("明日卒奠，冪用綌，即位而徹之，加勺。")) == frozenset()  # 15, 記
    ranks = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path / "ranks", "小射正", "射正")),
                            model_names=True)
    assert ranks._passage_names(Passage.from_raw("小射正一人，取公之決、拾于東坫上。")) == frozenset()  # 07


def test_a_sentence_the_duanju_ends_in_text_without_marks_is_a_sentence_for_the_names_too(tmp_path):
    """覲禮 unpunctuated, 侯氏 out of the lexicon, a passage read alone: where the 斷句 ends a sentence
    (使者出|侯氏送再拜) the word opening the next one is read as a sentence's opening is in punctuated
    text (侯氏送: 送 is an act only a person does); with the same clauses and no sentence end between
    them, 侯氏送 is a later clause and stays no one's name, as before."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.actions.passage import make_view
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "侯氏")), model_names=True)
    raw = "使者出侯氏送再拜"  # 10, p104, its marks taken away
    clauses = [(0, 3), (3, 6), (6, 8)]
    cut = Passage(make_view(raw), sentences=[(0, 3), (3, 8)], clauses=clauses)
    whole = Passage(make_view(raw), sentences=[(0, 8)], clauses=clauses)
    assert extractor._passage_names(cut) == frozenset({"侯氏"})
    assert extractor._passage_names(whole) == frozenset()
    assert [(a.actor, a.verb) for a in extractor.extract([cut])][:3] == [("使者", "出"), ("侯氏", "送"), ("侯氏", "拜")]


def test_a_facing_or_a_hand_between_a_name_and_its_act_leaves_the_name_its_subject(tmp_path):
    """特牲 with 祝 out of the lexicon, a passage read alone: the facing one takes (祝東面告利成) or the hand
    one acts with (祝左執角) stands between a subject and its act as 又 or 不 do; a clause opening on
    故 "so" (故起東面坐, a 注 the 四庫 runs into its 經) names no one."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "祝")), model_names=True)

    def acts(text: str) -> list[tuple]:
        return [(a.actor, a.verb) for a in extractor.extract([Passage.from_raw(text)])]

    assert acts("祝東面告利成。") == [("祝", "告")]  # 15, p430
    assert acts("祝左執角，祭豆，興，取肺，坐祭，嚌之。")[:3] == [("祝", "執"), ("祝", "祭"), ("祝", "興")]  # 15, p275
    assert extractor._passage_names(Passage.from_raw("故起東面坐。")) == frozenset()


def test_who_answers_a_bow_is_someone_read_alone(tmp_path):
    """特牲 with 尸 out of the lexicon, a passage read alone: a word nobody knows right before 答拜,
    拜送 or 拜受 is someone, at the head of a later clause too (主人再拜，尸答拜; 主人拜受角，尸拜送: things
    do not bow to another). Before another act a later clause's word stays no one (主人拜，尸坐: how
    or where he sits, as often), and so does a word that holds a participant the vocabulary knows."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "尸")), model_names=True)

    def acts(text: str) -> list[tuple]:
        return [(a.actor, a.verb) for a in extractor.extract([Passage.from_raw(text)])]

    assert acts("主人再拜，尸答拜。") == [("主人", "拜"), ("尸", "拜")]  # 15, p47
    assert acts("主人拜受角，尸拜送。") == [("主人", "拜"), ("尸", "拜")]  # 15, p256
    assert acts("祝酌，授尸，尸拜受。")[-1] == ("尸", "拜")
    assert extractor._passage_names(Passage.from_raw("主人拜，尸坐。")) == frozenset()
    assert extractor._passage_names(Passage.from_raw("主人拜，眾賓答拜。")) == frozenset()  # known


def test_a_word_listed_with_participants_at_the_head_of_a_clause_is_one_read_alone(tmp_path):
    """大射 with 卿 and 少師 out of the lexicon: read alone, 07 p703 諸公、卿、大夫皆降 and 07 p298
    大師及少師、上工皆降 list participants before their act, so the new word is one of them (the gold's
    actor is the whole list); a list after an act (為母、妻、昆弟, those mourned for in 喪服) or after
    a verb (赴母、妻) names no one."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "卿", "少師")), model_names=True)

    def actors(text: str) -> list:
        return [a.actor for a in extractor.extract([Passage.from_raw(text)])]

    assert actors("三耦既拾取矢，諸公、卿、大夫皆降，如初位。")[-1] == "諸公、卿、大夫"
    assert actors("主人受爵，降奠于篚，復位。大師及少師、上工皆降，立于鼓北，群工陪于後。")[4:] == ["大師及少師、上工"] * 2
    assert extractor._passage_names(Passage.from_raw("大夫之庶子為母、妻、昆弟。")) == frozenset()
    assert extractor._passage_names(Passage.from_raw("赴母、妻、長子，則曰：「君之臣某之某死。」")) == frozenset()

def test_a_glyph_of_the_siku_edition_reads_as_the_word_it_writes():
    """大射 in the 四庫 edition writes 僕 as 㒒 (30 times, 僕 never): 㒒人師 is the lexicon's 僕人師
    for the lexicon alone (no span model), and its acts compare equal to the gold's, written on the
    XHTML edition's 僕人師."""
    from pipeline.actions.evaluate import match_tuples
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor
    from pipeline.text.normalise import normalise_str

    processor = DocumentProcessor(load_config(overrides={"nlp": {"span_model": None}}))
    text = "㒒人師洗升實觶以授賓諸公卿大夫受觶于席以降適西階上北面立飲卒觶授執爵者反就席"  # 07, 四庫, line 1047
    out = processor.process({"text": text, "meta": {"layer": "JING"}})
    assert {"label": "ACTOR", "start": 0, "end": 3} in [{k: s[k] for k in ("label", "start", "end")} for s in out["spans"]]
    acts = [(a["actor"], a["verb"]) for a in out["actions"]]
    assert acts[:4] == [("㒒人師", "洗"), ("㒒人師", "升"), ("㒒人師", "實"), ("㒒人師", "授")]
    gold = [{"actor": "僕人師", "verb": v, "negated": False} for v in ("洗", "升", "實", "授")]
    assert match_tuples(gold, out["actions"][:4], normalise_str)["matched"] == 4


def test_a_pronoun_opening_clause_after_clause_is_no_participant():
    """有司徹 (a test chapter: found when its whole files read worse, 2026-11-27): 其 ("he", the one
    the passage is about) opens 其受, 其獻, 其酌 and follows its subject in 主人其祭 as a participant
    opens clauses; no name holds a pronoun or a particle, so the acts stay with who does them."""
    from pipeline.actions import ActionExtractor, Passage

    extractor = ActionExtractor()
    chapter = ["主婦設二鉶與糗、脩，如尸禮。主人其祭糗脩、祭鉶、祭酒、受豕匕湇、拜啐酒，皆如尸禮。嘗鉶不拜。",
               "其受豕脀，受豕燔，亦如尸禮。坐卒爵，拜。主婦北面答拜，受爵。",
               "其獻祝與二佐食，其位、其薦脀皆如儐。", "主婦獻祝，其酌如儐。", "主婦其洗獻于尸，亦如儐。"]
    passages = [Passage.from_raw(text) for text in chapter]
    assert extractor.document_names(passages) == frozenset()
    acts = [(a.actor, a.verb) for a in extractor.extract(passages[:2])]
    assert acts[:2] == [("主婦", "設"), ("主人", "祭")]
    assert {actor for actor, verb in acts[1:7]} == {"主人"}
    assert ("主婦", "答") in acts or ("主婦", "拜") in acts
    assert "其" not in {actor for actor, _ in acts}


def test_a_list_of_names_the_duanju_cut_is_rejoined_where_the_document_names_one(tmp_path):
    """大射 unpunctuated, with 卿 and 卿大夫 out of the lexicon and 卿 a name of the document: the
    斷句 cuts 卿|大夫皆降 as it cuts lists (賓、諸公、卿、大夫 loses its 、), and the two names side by
    side are one group again, as two the lexicon knows are."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    config = load_config(overrides={"paths": {"lexicon": str(_lexicon_without(tmp_path, "卿", "卿大夫"))}, "nlp": {"span_model": None}})
    processor = DocumentProcessor(config)
    record = {"text": "卿大夫皆降再拜稽首公答拜", "meta": {"layer": "JING"}}
    out = processor.process(record, names=["卿"])
    assert [record["text"][c["start"]:c["end"]] for c in out["clauses"]][:2] == ["卿", "大夫皆降"]
    assert [(a["actor"], a["verb"]) for a in out["actions"]] == [("卿大夫", "降"), ("卿大夫", "拜"), ("卿大夫", "稽首"), ("公", "拜")]


def test_a_receipt_without_the_bow_is_an_act_of_its_own_in_unpunctuated_text():
    """大射, unpunctuated, as a 斷句 model that never saw the chapter cuts it: 旅食不拜受爵|坐祭|立飲.
    The editors write 不拜，受爵 (8 times in the 11 of the dev 經): the 旅食 do not bow, and receive
    the cup — two tuples, where 拜受爵 is one (拜, purpose 受). Punctuated text keeps its commas."""
    from pipeline.actions import ActionExtractor, Passage

    extractor = ActionExtractor()
    p = Passage.from_raw("旅食不拜受爵坐祭立飲", clauses=[(0, 6), (6, 8), (8, 10)])
    p.sentences = [(0, 10)]
    assert [(a.actor, a.verb, a.negated, a.purpose) for a in extractor.extract([p])][:2] == [
        ("旅食", "拜", True, None), ("旅食", "受", False, None)]
    punctuated = Passage.from_raw("眾工不拜受爵，祭飲。")
    assert [(a.verb, a.purpose) for a in extractor.extract([punctuated])][:1] == [("拜", "受")]


def test_a_name_written_twice_in_a_row_ends_one_clause_and_opens_the_next():
    """大射 and 鄉射, unpunctuated, as a 斷句 model that never saw the chapter cuts them (no break
    between the two names): 擯者告于公公許 is 告于公，公許 — 公 is told, then assents; 釋獲者命小史小史命獲者
    is two commands."""
    from pipeline.actions import ActionExtractor, Passage

    extractor = ActionExtractor()
    read = []
    for text, clauses in (("賓告于擯者請旅諸臣擯者告于公公許", [(0, 9), (9, 16)]), ("釋獲者命小史小史命獲者", [(0, 11)])):
        p = Passage.from_raw(text, clauses=clauses)
        p.sentences = [(0, len(text))]
        read.append([(a.actor, a.verb) for a in extractor.extract([p])])
    assert read[0] == [("賓", "告"), ("賓", "請"), ("擯者", "告"), ("公", "許")]
    assert read[1] == [("釋獲者", "命"), ("小史", "命")]


def test_a_name_read_twice_in_a_row_is_two_mentions(tmp_path):
    """特牲 unpunctuated, 尸 out of the lexicon: a span model reads 授尸尸受 as one name 尸尸; it is
    the one given to, then the one who receives and acts on (the spans say so too)."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.actions.spans import refine
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "尸")), model_names=True)
    p = Passage.from_raw("舉肺脊以授尸尸受振祭嚌之左執之", clauses=[(0, 2), (2, 6), (6, 8), (8, 10), (10, 12), (12, 15)])  # the 斷句's
    p.sentences, p.spans = [(0, 6), (6, 15)], [(5, 7, "ACTOR")]
    assert [(a.actor, a.verb) for a in extractor.extract([p])] == [(None, "授"), ("尸", "受"), ("尸", "祭"), ("尸", "嚌"), ("尸", "執")]
    assert [sp for sp in refine(p.view.text, p.spans, p.clauses) if sp[2] == "ACTOR"] == [(5, 6, "ACTOR"), (6, 7, "ACTOR")]


def test_a_rank_or_head_of_an_office_the_lexicon_knows_is_an_office_of_its_own(tmp_path):
    """大射's 小樂正, 宰胥 and 胥 out of the lexicon (樂正 and 宰 stay): one clause each opens on them
    before an act, enough for a title made as offices are (小-, -胥); 每一人 is no title."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "小樂正", "宰胥", "胥")), model_names=True)
    passages = [Passage.from_raw(text) for text in ("小樂正立于西階東。", "宰胥薦脯醢。", "每一人揖。")]
    assert extractor.document_names(passages) == {extractor.normalise(n) for n in ("小樂正", "宰胥")}
    assert [(a.actor, a.verb) for a in extractor.extract(passages)][:2] == [("小樂正", "立"), ("宰胥", "薦")]


def test_a_number_of_people_who_act_together_is_a_participant(tmp_path):
    """特牲's 兩𦿉 (the two who eat the leftovers) out of the lexicon: a name that opens on a number
    is no name the span model gives the whole document (三獻), but one that opens clause after clause
    before acts is."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.nlp.lexicon import Lexicon

    extractor = ActionExtractor(lexicon=Lexicon.load(_lexicon_without(tmp_path, "兩𦿉")), model_names=True)
    chapter = ["兩𦿉執爵拜，", "主人西面再拜，祝曰︰「𦿉有以也。」兩𦿉奠舉于俎，許諾，皆答拜。",
               "祭酒，卒爵，拜。主人答拜。兩𦿉皆降，實爵于篚。"]
    passages = [Passage.from_raw(text) for text in chapter]
    assert extractor.normalise("兩𦿉") in extractor.document_names(passages)
    assert [(a.actor, a.verb) for a in extractor.extract(passages)][:2] == [("兩𦿉", "執"), ("兩𦿉", "拜")]


def test_a_participant_read_from_the_document_is_an_actor_span_wherever_it_acts(tmp_path):
    """The spans follow the names the tuples read: with 尸 and 祝 out of the lexicon, a 特牲 text
    marks them ACTOR where the document makes them participants (尸 of 延尸 too), as it does the
    names the lexicon has, with no span model to read them."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    lexicon = str(_lexicon_without(tmp_path, "尸", "祝"))
    text = ("祝迎尸于門外。尸入門左，北面盥，宗人授巾。尸至於階，祝延尸。尸升，入，祝先，主人從。"
            "尸即席坐，主人拜妥尸。祝洗，酌奠，奠于鉶南，遂命佐食啟會。祝酌，授尸，尸以醋主人。")
    # no span model: the shipped one was trained on 特牲 and knows 尸 and 祝 itself
    config = load_config(overrides={"paths": {"lexicon": lexicon}, "nlp": {"span_model": None}})
    out = DocumentProcessor(config).process({"text": text, "meta": {"layer": "JING"}})
    actors = [(s["start"], s["text"]) for s in out["spans"] if s["label"] == "ACTOR"]
    assert [at for at, name in actors if name == "尸"] == [i for i, ch in enumerate(text) if ch == "尸"]
    assert [at for at, name in actors if name == "祝"] == [i for i, ch in enumerate(text) if ch == "祝"]
    assert {name for _at, name in actors} == {"尸", "祝", "宗人", "主人", "佐食"}
    # a name that holds a word the lexicon knows otherwise: 侯氏 of 覲禮, not the 侯 of archery
    lexicon = str(_lexicon_without(tmp_path / "2", "侯氏"))
    config = load_config(overrides={"paths": {"lexicon": lexicon}, "nlp": {"span_model": None}})
    text = "侯氏升，西面立。大史述命。侯氏降兩階之間，北面再拜稽首。侯氏入門右，坐奠圭，再拜稽首。"
    out = DocumentProcessor(config).process({"text": text, "meta": {"layer": "JING"}})
    marked = [(s["start"], s["text"], s["label"]) for s in out["spans"] if "侯" in s["text"]]
    assert marked == [(at, "侯氏", "ACTOR") for at in (0, 13, 28)]


def test_the_passages_of_one_document_are_processed_with_the_names_of_all(tmp_path):
    """``DocumentProcessor.process_document``: a chapter's passages given one by one (as the gold
    holds them) are read as `yili process` reads the chapter's file. With 尸 out of the lexicon, a
    passage that writes 尸 once learns it from the others; alone it cannot."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    config = load_config(overrides={"paths": {"lexicon": str(_lexicon_without(tmp_path, "尸"))}, "nlp": {"span_model": None}})
    processor = DocumentProcessor(config)
    # the last passage: 尸 follows (從: things follow too, 肝從) in a later clause, which a passage
    # read alone leaves to the one named before it (subjects.passage_subjects)
    texts = ["尸入門左，北面盥，宗人授巾。", "尸至於階，祝延尸。尸升，入，祝先，主人從。", "尸即席坐，主人拜妥尸。",
             "祝前，尸從，遂出于廟門。"]
    records = [{"text": text, "meta": {"layer": "JING"}} for text in texts]
    assert processor.document_names(records) == {"尸"}
    together = processor.process_document(records)
    alone = processor.process(records[-1])
    assert [(a["actor"], a["verb"]) for a in together[-1]["actions"]] == [("尸", "從"), ("尸", "出")]
    assert [(a["actor"], a["verb"]) for a in alone["actions"]] == [("祝", "從"), ("祝", "出")]
    assert [s["text"] for s in together[-1]["spans"] if s["label"] == "ACTOR"] == ["祝", "尸"]
    # every other field as process gives it for the passage alone
    assert {k: v for k, v in together[-1].items() if k not in ("actions", "spans")} == \
        {k: v for k, v in alone.items() if k not in ("actions", "spans")}


def test_a_passage_processed_alone_reads_its_document_s_names(tmp_path):
    """``DocumentProcessor.process(record, names)``: a passage taken out of its document (as the
    evaluations read the gold) gets the names the document's other passages give it. With 佐食 out
    of the lexicon and no span model, nothing in 特牲's 主人退，佐食授挼祭 reads it as a name."""
    from pipeline.config import load_config
    from pipeline.process import DocumentProcessor

    lexicon = str(_lexicon_without(tmp_path, "佐食"))
    processor = DocumentProcessor(load_config(overrides={"paths": {"lexicon": lexicon}, "nlp": {"span_model": None}}))
    record = {"text": "主人拜受角，尸拜送。主人退，佐食授挼祭。", "meta": {"layer": "JING"}}
    alone = [(a["actor"], a["verb"]) for a in processor.process(record)["actions"]]
    named = [(a["actor"], a["verb"]) for a in processor.process(record, names=["佐食"])["actions"]]
    assert alone == [("主人", "拜"), ("尸", "拜"), ("主人", "退"), ("主人", "授")]
    assert named == [("主人", "拜"), ("尸", "拜"), ("主人", "退"), ("佐食", "授")]


def test_a_web_copy_with_half_width_marks_reads_as_with_full_width_ones(processor):
    """Seed 004 (覲禮, 經 and 注 run on with their 疏) with its 。；：？！ made .;:?!: the reader and the
    run-together splitter look for 。, and read the working copy where an ASCII full stop after a Han
    character is one; the same segments and tuples at the same offsets (before: 0.92 tuple agreement)."""
    text = next(p for p in SEEDS if p.name.startswith("004_")).read_text(encoding="utf-8")
    half = text.translate(str.maketrans("。；：？！", ".;:?!"))
    full_out, half_out = (processor.process({"text": t, "meta": {"source": "004.txt"}}) for t in (text, half))
    assert [(s["layer"], s["start"], s["end"]) for s in half_out["segments"]] == \
        [(s["layer"], s["start"], s["end"]) for s in full_out["segments"]]
    assert all(s["text"] == half[s["start"]:s["end"]] for s in half_out["segments"])  # the raw text, not the copy
    key = lambda a: (a["actor"], a["verb"], a["start"], a["end"])  # noqa: E731
    assert [key(a) for a in half_out["actions"]] == [key(a) for a in full_out["actions"]]
    assert len(full_out["actions"]) > 30


def test_a_paragraph_written_again_is_tagged_once_and_reads_alike(processor, monkeypatch):
    """A web copy doubles paragraphs (seed 001): the span model reads each distinct text of a
    document once, and the copy gets the same spans and tuples at its own offsets."""
    import types

    paragraph = "主人坐取爵于上篚，以降。賓降。主人坐奠爵于篚，興對。賓坐取爵，適洗南，北面。主人阼階上北面再拜。"
    text = "\n\n".join([paragraph, "賓西階上答拜。", paragraph])  # three segments, no layer given
    nlp = processor.nlp
    read: list[str] = []
    real_pipe = nlp.pipe

    def pipe(self, texts, **kwargs):
        texts = list(texts)
        read.extend(texts)
        return real_pipe(texts, **kwargs)

    monkeypatch.setattr(nlp, "pipe", types.MethodType(pipe, nlp))
    out = processor.process({"text": text})
    assert [s["layer"] for s in out["segments"]][::2] == ["JING", "JING"]
    assert read and len(read) == len(set(read)) < len(out["segments"])
    second = text.rindex(paragraph)

    def of(lo: int, hi: int) -> tuple[list, list]:
        spans = [(s["start"] - lo, s["end"] - lo, s["label"]) for s in out["spans"] if lo <= s["start"] and s["end"] <= hi]
        acts = [(a["start"] - lo, a["actor"], a["verb"]) for a in out["actions"] if lo <= a["start"] and a["end"] <= hi]
        return spans, acts

    first_copy, second_copy = of(0, len(paragraph)), of(second, second + len(paragraph))
    assert first_copy == second_copy and len(first_copy[0]) > 10 and len(first_copy[1]) > 8


def test_no_one_serves_or_tells_those_he_is_one_of(processor):
    """No actor carried on does an act to those he is one of: 大射 辯獻士。士既獻者立于東方…乃薦士 —
    the 士 who have drunk are served, by someone unnamed; 鄉射 賓、主人、大夫若皆與射，則遂告于賓，
    適阼階上告于主人 — the three do not tell themselves. A helper is not the one she helps (特牲 記 in
    seed 002: 主婦贊薦者執以坐于戶外授主婦; the XHTML writes 宗婦贊薦者)."""
    def acts(text: str) -> list[tuple]:
        out = processor.process({"text": text, "meta": {"layer": "JING"}})
        return [(a["actor"], a["verb"], a["target"]) for a in out["actions"]]

    got = acts("辯獻士。士既獻者立于東方，西面，北上。乃薦士。")
    assert ("士既獻者", "立", None) in got and (None, "薦", "士") in got
    got = acts("賓、主人、大夫若皆與射，則遂告于賓，適阼階上告于主人，主人與賓為耦。")
    assert [actor for actor, verb, _ in got if verb == "告"] == [None, None]
    assert ("主婦贊薦者", "授", "主婦") in acts("主婦贊薦者執以坐于戶外授主婦")  # seed 002, unpunctuated

