"""Bad input through the real `yili process` (typer's CliRunner), files made in tmp_path.

Covered elsewhere, not repeated here: GB18030/Big5 files, 10 MB without a newline, astral
characters and entities in a JSONL record, a corrupt layer or 斷句 model, a file deleted during a
BatchRunner run (tests/test_robustness.py); invalid JSON lines, records without text, a missing
file, binary and empty files (tests/test_process.py); an output under a file (tests/test_batch.py).
This file adds what those leave open: a stray byte in one JSONL line, line separators and lone
surrogates inside JSON strings, a legacy-encoded JSONL file, a Kanripo file with entities and astral
characters read by its reader, a file that vanishes during a CLI run, an output path that is a folder,
an --executor or -j that cannot work, a lexicon file (`[paths] lexicon`) with a line not in UTF-8; and for the annotation commands (`yili
tasks`, `import`, `convert`), lines that are no JSON, cut inside a character, or records that cannot be
made tasks of, and options of `yili tasks` that cannot work. Gold under annotations/ with bad lines:
tests/test_gold_input.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from offsets import check_offsets
import srsly
from typer.testing import CliRunner

from pipeline.cli import app
from tests.conftest import CORPUS

runner = CliRunner()

# 鄉飲酒禮 經 (seed 003)
JING = "主人戒賓，賓拜辱。主人答拜，乃請賓，賓禮辭，許。主人再拜，賓答拜。主人退，賓拜辱。"
JING2 = "主人坐取爵于上篚，降洗。賓降。主人坐奠爵于階前，辭。賓對。"


def run(*args: str, out: Path):
    result = runner.invoke(app, ["process", *args, "-o", str(out), "-q", "--no-resume"])
    lines = list(srsly.read_jsonl(out)) if out.exists() else []
    return result, lines


def acts(record: dict) -> list[tuple]:
    return [(a["actor"], a["verb"]) for a in record["actions"]]


def test_a_stray_byte_spoils_only_its_own_jsonl_line(tmp_path):
    """One line with a byte that is not UTF-8: that line is an error naming file:line, the others go through."""
    src = tmp_path / "r.jsonl"
    good = [json.dumps({"text": t, "meta": {"id": i}}, ensure_ascii=False).encode("utf-8") for i, t in enumerate([JING, JING2])]
    bad = '{"text": "賓降'.encode("utf-8") + b"\xff" + '。"}'.encode("utf-8")
    src.write_bytes(b"\n".join([good[0], bad, good[1]]) + b"\n")
    result, lines = run(str(src), out=tmp_path / "o.jsonl")
    assert result.exit_code == 1, result.output
    assert len(lines) == 3
    assert lines[0]["text"] == JING and lines[2]["text"] == JING2  # read as UTF-8, not as GB18030 nonsense
    assert lines[1]["error"].startswith(f"{src}:2: not UTF-8") and "0xFF" in lines[1]["error"]
    assert lines[1]["meta"] == {"source": str(src), "line": 2}
    assert f"{src}:2" in result.output  # reported on the terminal too
    for rec in (lines[0], lines[2]):
        check_offsets(rec)
        assert ("主人", "拜") in acts(rec) or ("賓", "降") in acts(rec)


def test_line_separators_and_lone_surrogates_inside_json_strings(tmp_path):
    """U+2028 and U+0085 may stand unescaped in a JSON string: they do not end the record. A lone
    surrogate (valid JSON, not valid Unicode) fails its record alone and the output is still written."""
    src = tmp_path / "r.jsonl"
    records = [
        {"text": "賓降\u2028主人辭降。", "meta": {"id": "ls"}},
        {"text": "賓\ud800降。", "meta": {"id": "surrogate"}},
        {"text": "主人升\u0085賓升。", "meta": {"id": "nel"}},
    ]
    src.write_text("\n".join(json.dumps(r, ensure_ascii=(r["meta"]["id"] == "surrogate")) for r in records) + "\n",
                   encoding="utf-8")
    assert "\u2028" in src.read_text(encoding="utf-8")  # written raw, as json.dumps(ensure_ascii=False) does
    result, lines = run(str(src), out=tmp_path / "o.jsonl")
    assert result.exit_code == 1, result.output
    assert [r.get("meta", {}).get("id") for r in lines] == ["ls", None, "nel"]
    assert lines[0]["text"] == records[0]["text"] and lines[2]["text"] == records[2]["text"]
    assert lines[1]["error"].startswith(f"{src}:2: ") and "surrogate" in lines[1]["error"]
    assert ("賓", "降") in acts(lines[0]) and ("主人", "辭") in acts(lines[0])
    assert ("主人", "升") in acts(lines[2]) and ("賓", "升") in acts(lines[2])
    for rec in (lines[0], lines[2]):
        check_offsets(rec)


@pytest.mark.parametrize("encoding", ["gb18030", "big5"])
def test_a_jsonl_file_in_a_legacy_encoding_is_still_read(tmp_path, encoding):
    src = tmp_path / f"{encoding}.jsonl"
    src.write_bytes("\n".join(json.dumps({"text": t}, ensure_ascii=False) for t in (JING, JING2)).encode(encoding) + b"\n")
    result, lines = run(str(src), out=tmp_path / "o.jsonl")
    assert result.exit_code == 0, result.output
    assert [r["text"] for r in lines] == [JING, JING2]
    assert ("主人", "答拜") in acts(lines[0]) or ("主人", "拜") in acts(lines[0])


def test_a_kanripo_file_with_entities_and_astral_characters(tmp_path):
    """A real Kanripo 鄭注 file with entities and astral characters put into its 經 and 注: read by the
    Kanripo reader, offsets stay code points into the raw text, the layers come out as without them."""
    original = sorted((CORPUS / "zhengzhu-sbck").glob("*.txt"))[0]
    raw = original.read_text(encoding="utf-8")
    # every 賓/賔 becomes an entity, every 摯 the astral 𧰼, every 雉 the astral 𧃊
    changed = raw.replace("賔", "&KR0925;").replace("賓", "&KR0925;").replace("摯", "𧰼").replace("雉", "𧃊")
    assert changed.count("&KR0925;") >= 10 and changed.count("𧰼") >= 5 and changed.count("𧃊") >= 2
    plain, odd = tmp_path / "plain.txt", tmp_path / "odd.txt"
    plain.write_text(raw, encoding="utf-8")
    odd.write_text(changed, encoding="utf-8")
    result, lines = run(str(plain), str(odd), out=tmp_path / "o.jsonl")
    assert result.exit_code == 0, result.output
    base, rec = lines
    assert rec["text"] == changed and rec["meta"]["layout"].startswith("kanripo")
    check_offsets(rec)
    # the same run of layers, with the same evidence
    assert [(s["layer"], s["evidence"]) for s in rec["segments"]] == [(s["layer"], s["evidence"]) for s in base["segments"]]
    # no segment, sentence, clause or span starts or ends inside an entity
    entities = [m.span() for m in re.finditer(r"&KR0925;", changed)]
    for key in ("segments", "sentences", "clauses", "spans"):
        for item in rec[key]:
            for edge in (item["start"], item["end"]):
                assert not any(s < edge < e for s, e in entities), (key, item)
    # the astral characters sit in 經/注 segments, whole
    astral = [i for i, ch in enumerate(changed) if ch in "𧰼𧃊"]
    inside = [i for i in astral if any(s["start"] <= i < s["end"] and s["layer"] in ("JING", "ZHU") for s in rec["segments"])]
    assert len(inside) == len(astral)
    assert len(rec["actions"]) >= len(base["actions"]) // 2 > 0


def test_a_file_that_vanishes_during_a_cli_run(tmp_path, monkeypatch):
    """Three files listed at the start; the third is deleted once the first is done: exit status 1,
    the error names it, the two others are in the output."""
    from pipeline.process import DocumentProcessor

    folder = tmp_path / "in"
    folder.mkdir()
    files = []
    for k, text in enumerate([JING, JING2, JING]):
        path = folder / f"{k}.txt"
        path.write_text(text, encoding="utf-8")
        files.append(path)
    doomed = files[2]
    real = DocumentProcessor.process_item

    def process_then_delete(self, item):
        out = real(self, item)
        if doomed.exists():
            doomed.unlink()
        return out

    monkeypatch.setattr(DocumentProcessor, "process_item", process_then_delete)
    result, lines = run(str(folder), out=tmp_path / "o.jsonl")
    assert result.exit_code == 1, result.output
    assert len(lines) == 3
    assert [r.get("text") for r in lines[:2]] == [JING, JING2] and lines[1]["actions"]
    assert lines[2]["error"] == f"{doomed}: no such file"
    assert str(doomed) in result.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_output_path_that_is_a_folder(tmp_path, jobs):
    src = tmp_path / "a.txt"
    src.write_text(JING, encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    result = runner.invoke(app, ["process", str(src), "-o", str(folder), "-q", "--no-resume", "-j", jobs])
    assert result.exit_code == 2
    assert f"cannot write {folder}" in result.output and "Is a directory" in result.output
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "out"]  # no temporary or spool files left


def _processed(tmp_path: Path) -> Path:
    """`yili process` output of two real 經 passages (鄉飲酒禮), as the annotation commands read it."""
    out = tmp_path / "processed.jsonl"
    src = tmp_path / "r.jsonl"
    src.write_text("\n".join(json.dumps({"text": t, "meta": {"layer": "JING", "doc": f"p{i}"}}, ensure_ascii=False)
                             for i, t in enumerate([JING, JING2])) + "\n", encoding="utf-8")
    assert runner.invoke(app, ["process", str(src), "-o", str(out), "-q", "--no-resume"]).exit_code == 0
    return out


def test_yili_tasks_reads_past_the_lines_it_cannot_use(tmp_path):
    """`yili tasks` over a processed file with a hand-edited line that is no JSON, a record whose action
    has lost its offsets, a last line cut inside a character, and a file that is not there: each is
    named with its line, the good records still become tasks, and the exit status counts the four (the
    first of them had stopped the run with a traceback)."""
    processed = _processed(tmp_path)
    good = processed.read_bytes()
    broken = json.loads(good.splitlines()[0])
    broken["actions"][0].pop("start")
    spoiled = tmp_path / "spoiled.jsonl"
    second = good.splitlines()[1]
    cut = second.index("主".encode("utf-8")) + 1  # one byte into 主
    spoiled.write_bytes(good + b"{oops\n" + json.dumps(broken, ensure_ascii=False).encode("utf-8") + b"\n" + second[:cut])
    assert spoiled.read_bytes().count(b"\n") == 4
    out = tmp_path / "tasks.jsonl"
    result = runner.invoke(app, ["tasks", str(spoiled), str(tmp_path / "gone.jsonl"), "-o", str(out)])
    assert result.exit_code == 4, result.output
    text = " ".join(result.output.split())  # the terminal wraps long lines
    assert f"{spoiled}:3: not JSON" in text
    assert f"{spoiled}:4: cannot be made tasks of (KeyError: 'start')" in text
    assert f"{spoiled}:5: not UTF-8 (byte {cut} of the line, 0xE4: unexpected end of data)" in text
    assert f"{tmp_path / 'gone.jsonl'}: no such file" in text
    tasks = list(srsly.read_jsonl(out))
    assert {t["meta"]["doc"] for t in tasks} == {"p0", "p1"} and all(t["relations"] for t in tasks if t["spans"])


def test_yili_import_and_convert_refuse_a_cut_line_alone_and_count_what_they_refuse(tmp_path):
    """Answers copied short (the last line cut inside a character) and one line that is no JSON: the
    other answers are stored, the two are refused with their lines, and the exit status is 2 (it was
    1 whatever the count; the cut line had stopped the import with a UnicodeDecodeError)."""
    processed = _processed(tmp_path)
    tasks = tmp_path / "tasks.jsonl"
    assert runner.invoke(app, ["tasks", str(processed), "-o", str(tasks)]).exit_code == 0
    lines = tasks.read_bytes().splitlines()
    assert len(lines) >= 3
    answers = tmp_path / "answers.jsonl"
    answers.write_bytes(b"\n".join(lines[:-1]) + b"\n{oops\n" + lines[-1][:40] + "主".encode("utf-8")[:2])
    result = runner.invoke(app, ["import", str(answers), "--db", str(tmp_path / "store.db"), "-d", "t"])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"refused {answers}:{len(lines)}: not JSON" in text
    assert f"refused {answers}:{len(lines) + 1}: not UTF-8" in text
    assert f"{len(lines) - 1} answer(s) stored in 't'" in text
    converted = runner.invoke(app, ["convert", str(answers), "-o", str(tmp_path / "c.jsonl"), "--to", "doccano"])
    assert converted.exit_code == 2, converted.output
    assert len((tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()) == len(lines) - 1


def test_a_long_path_is_never_broken_in_a_message(tmp_path):
    """A scholar's files deep in folders: every command names them whole on one line, whatever the
    terminal's width, so the path can be copied from the message (the annotation commands' and
    `yili export`'s consoles broke it where the line wrapped, and export cut the reason short)."""
    deep = tmp_path / ("儀禮注疏校勘" * 8) / "第三次整理的標注文件"
    deep.mkdir(parents=True)
    processed = _processed(tmp_path)
    mine = deep / "answers.jsonl"
    mine.write_bytes(processed.read_bytes() + b"{oops\n")
    assert len(str(mine)) > 100
    for command in (["tasks", str(mine), "-o", str(mine)], ["convert", str(mine), "-o", str(mine), "--to", "doccano"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert f"the output {mine} is also an input" in result.output  # on one line as written
    result = runner.invoke(app, ["tasks", str(mine), "-o", str(tmp_path / "t.jsonl")])
    assert result.exit_code == 1 and f"{mine}:3: not JSON" in result.output
    result = runner.invoke(app, ["export", str(mine), "-o", str(tmp_path / "x"), "-f", "jsonl"])
    assert f"skipped {mine}:3: invalid JSON (Expecting property name enclosed in double quotes at column 2)" in result.output


@pytest.mark.parametrize("cfg, says", [
    ("[nlp\ntokenizer = \"char\"\n", "file: {cfg}, line: 1"),           # a bracket left open
    ("[nlp]\n  tokenizer = \"char\"\nx\n", "[line 3]: 'x"),            # a stray line
    ("[nlp]\ntokenizer = ${paths.none}\n", "interpolation key 'paths.none'"),
])
def test_a_config_that_cannot_be_read_is_named_with_its_line(tmp_path, cfg, says):
    """A -c file with a syntax fault stops the run once (status 2) with the file and the line; the
    parser's own message had named the text '<string>', not the file."""
    src = tmp_path / "a.txt"
    src.write_text(JING, encoding="utf-8")
    path = tmp_path / "mine.cfg"
    path.write_text(cfg, encoding="utf-8")
    result = runner.invoke(app, ["process", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", "-c", str(path)],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert f"cannot set up the pipeline: config {path} cannot be read: " in text
    assert says.format(cfg=path) in text and "<string>" not in text
    assert not (tmp_path / "o.jsonl").exists()


def test_a_link_to_nowhere_in_a_folder_of_witnesses_stops_the_run_naming_it(tmp_path):
    """A witness is set-up: a folder of editions holding a link whose file is gone stops the run once
    (status 2) and names the link and where it led (it had said only "no such file")."""
    src = tmp_path / "a.txt"
    src.write_text(JING, encoding="utf-8")
    editions = tmp_path / "editions"
    editions.mkdir()
    (editions / "b.txt").write_text(JING2, encoding="utf-8")
    (editions / "gone.txt").symlink_to(tmp_path / "moved.txt")
    result = runner.invoke(app, ["process", str(src), "-o", str(tmp_path / "o.jsonl"), "-q", "--witness", str(editions)],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert f"--witness: {editions / 'gone.txt'} is a link to {tmp_path / 'moved.txt'}, which leads to no file" in result.output


@pytest.mark.parametrize("command", [["process"], ["classify"], ["tasks"], ["convert", "--to", "doccano"]])
def test_an_output_that_is_an_input_is_refused_before_anything_is_written(tmp_path, command):
    """`-o` naming the input itself (a slip of the shell's history): the output replaces its file when
    the run ends, so the scholar's input was lost; now the run stops at once and the file is as it was."""
    src = tmp_path / "mine.jsonl"
    src.write_text(json.dumps({"text": JING, "meta": {"layer": "JING"}}, ensure_ascii=False) + "\n", encoding="utf-8")
    before = src.read_bytes()
    # the same file named another way
    result = runner.invoke(app, [command[0], str(tmp_path / "." / "mine.jsonl"), "-o", str(src), *command[1:]],
                           env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert f"the output {src} is also an input" in " ".join(result.output.split())
    assert src.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.jsonl"]


def test_an_output_inside_the_folder_read_is_not_read_back_as_input(tmp_path):
    """`yili process ch/ -o ch/out.jsonl` run twice: the second run had read the first run's output as
    one more input (its records processed again, its error records failing anew)."""
    folder = tmp_path / "ch"
    folder.mkdir()
    (folder / "a.txt").write_text(JING, encoding="utf-8")
    (folder / "b.txt").write_bytes(b"\x00\x01binary")
    out = folder / "out.jsonl"
    for _ in range(2):
        result = runner.invoke(app, ["process", str(folder), "-o", str(out), "-q"])
        assert result.exit_code == 1, result.output  # b.txt, and only b.txt
        assert [Path(r["meta"]["source"]).name for r in srsly.read_jsonl(out)] == ["a.txt", "b.txt"]


@pytest.mark.parametrize("name", ["objects.txt", "nonterms.txt"])
def test_lexicon_file_not_utf8_is_named_with_its_line(tmp_path: Path, name: str):
    """A scholar's lexicon (`[paths] lexicon`) with a line saved in another encoding: the run stops
    before reading anything (status 2), naming the file and line (it had said only "position 3853")."""
    import shutil

    from pipeline.nlp.lexicon import default_lexicon_dir

    lexicon = tmp_path / "lexicon"
    shutil.copytree(default_lexicon_dir(), lexicon)
    lines = (lexicon / name).read_bytes().split(b"\n")
    lines.insert(3, "主人之贊者".encode("big5", "replace"))
    (lexicon / name).write_bytes(b"\n".join(lines))
    cfg = tmp_path / "mine.cfg"
    cfg.write_text(f'[paths]\nlexicon = "{lexicon}"\n', encoding="utf-8")
    text = tmp_path / "t.txt"
    text.write_text(JING, encoding="utf-8")
    result, lines_out = run(str(text), "-c", str(cfg), out=tmp_path / "o.jsonl")
    assert result.exit_code == 2, result.output
    # rich folds a long path at the terminal's width: compared without the white space
    assert f"{name}:4:notUTF-8(byte1oftheline,0xA5" in "".join(result.output.split())
    assert lines_out == []


@pytest.mark.parametrize("options, said", [
    (["--select", "random"], "unknown --select 'random': one of uncertain"),
    (["--kind", "span"], "unknown --kind 'span': one of relations, spans, layers"),
    (["--unit", "passage"], "unknown --unit 'passage': one of sentence, segment"),
    (["--layer", "jing"], "unknown --layer 'jing': one of JING, ZHU, SHU, OTHER"),
    (["--span-model", "models/spans"], "--span-model orders the tasks of --select uncertain"),
    (["--select", "uncertain", "--span-model", "no/such/model"], "cannot load the span model no/such/model"),
])
def test_yili_tasks_options_that_cannot_work_stop_before_reading(tmp_path, options, said):
    """An option of `yili tasks` that cannot work is said at once with status 2 and no tasks file
    (an unknown --select and a span model that would not load ended in a traceback after reading
    every input; --unit passage gave sentence tasks and --layer jing none, in silence)."""
    processed = _processed(tmp_path)
    out = tmp_path / "tasks.jsonl"
    result = runner.invoke(app, ["tasks", str(processed), "-o", str(out), *options])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())
    assert not out.exists()


@pytest.mark.parametrize("options, said", [
    (["--executor", "thread"], "unknown --executor 'thread': use 'local' or 'dask'"),
    (["-j", "0"], "Invalid value for '-j' / '--jobs'"),  # click's wording of the range after it varies
])
def test_process_options_that_cannot_work_stop_before_reading(tmp_path, options, said):
    """`yili process --executor thread` had loaded the models and ended in a traceback; `-j 0` had run
    with one worker, as if asked for."""
    text = tmp_path / "t.txt"
    text.write_text(JING, encoding="utf-8")
    result, lines = run(str(text), *options, out=tmp_path / "o.jsonl")
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())
    assert lines == [] and not (tmp_path / "o.jsonl").exists()


def test_a_record_cut_inside_its_text_says_where_the_string_starts(tmp_path):
    """json's message for a string left open ends in "starting at"; with the column after it the
    error had read "Unterminated string starting at at column 10"."""
    records = tmp_path / "r.jsonl"
    records.write_text('{"text": "主人坐取爵\n', encoding="utf-8")
    result, lines = run(str(records), out=tmp_path / "o.jsonl")
    assert result.exit_code == 1
    assert "invalid JSON (Unterminated string starting at column 10)" in lines[0]["error"]


@pytest.mark.parametrize("setting, said", [
    ('[action]\nmodel_names = false\n', "[action] is no section yili reads (did you mean [actions]?)"),
    ('[actions]\nmodel_name = false\n', "[actions] model_name is no setting yili reads (did you mean model_names?)"),
])
def test_a_config_setting_yili_does_not_read_is_named(tmp_path, setting, said):
    """A misspelt section or key of a -c file had been ignored in silence (the run went on with the
    default); now every command that reads -c stops with status 2 naming it and the nearest setting.
    The annotation commands had passed over any -c that could not be read, and their answers went to
    the default store."""
    cfg = tmp_path / "mine.cfg"
    cfg.write_text(setting, encoding="utf-8")
    text = tmp_path / "t.txt"
    text.write_text(JING, encoding="utf-8")
    result, lines = run(str(text), "-c", str(cfg), out=tmp_path / "o.jsonl")
    assert result.exit_code == 2 and lines == []
    assert said in " ".join(result.output.split())
    for command in (["export-answers", "-o", str(tmp_path / "a.jsonl")], ["agreement"],
                    ["evaluate", "actions", "--split", "dev", "--no-unseen", "--no-documents", "--out", str(tmp_path / "f.json")]):
        result = runner.invoke(app, [*command, "-c", str(cfg)], env={"YILI_DB": str(tmp_path / "default.sqlite")})
        assert result.exit_code == 2, (command, result.output)
        assert said in " ".join(result.output.split())
    assert not (tmp_path / "default.sqlite").exists()


def test_the_settings_yili_reads_pass(tmp_path):
    """Every section and key of configs/default.cfg, and [annotate] db, which it leaves out."""
    from pipeline.config import default_config_path, load_config

    own = default_config_path().read_text(encoding="utf-8") + '\n[annotate]\ndb = "answers.sqlite"\n'
    cfg = tmp_path / "all.cfg"
    cfg.write_text(own, encoding="utf-8")
    assert load_config(cfg)["annotate"] == {"db": "answers.sqlite"}


def test_a_missing_extra_is_named_with_its_install_command(tmp_path, monkeypatch):
    """Without dask, `--executor dask` had ended in a RuntimeError traceback; without torch, `yili train
    stanza` said "pip install 'yili'": rich had read [stanza] as markup and dropped it."""
    import sys

    for name in ("dask", "dask.distributed", "torch", "stanza"):
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed: importing it fails
    text = tmp_path / "t.txt"
    text.write_text(JING, encoding="utf-8")
    result, lines = run(str(text), "--executor", "dask", out=tmp_path / "o.jsonl")
    assert result.exit_code == 2, result.output
    assert "the Dask executor needs the extra: pip install 'yili[dask]'" in " ".join(result.output.split())
    result = runner.invoke(app, ["train", "stanza", "--out", str(tmp_path / "stanza"), "--steps", "1", "--no-evaluate"])
    assert result.exit_code == 2, result.output
    assert "then pip install 'yili[stanza]'" in " ".join(result.output.split())
