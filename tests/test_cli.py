"""The commands besides `yili process`: `yili classify` (SCHEMA section 6) and `yili evaluate actions`.

The passages are real: a 經 sentence of 鄉飲酒禮, 鄭玄's gloss on it and a 疏 paragraph opening
with 「釋曰」, copied from seed 003 (儀禮注疏 鄉飲酒禮).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import srsly
from typer.testing import CliRunner

from pipeline.cli import app

runner = CliRunner()

JING = "主人坐取爵于篚，降洗。賓降。主人坐奠爵于階前，辭。"
ZHU = "降，下也。辭，辭賓降也。今文無坐字。"
SHU = "釋曰：自此至「主人復阼階揖降」，論主人獻賓之事。云「辭，辭賓降也」者，以其賓降，故主人辭之。"


def test_classify_given_a_text_file_says_which_command_reads_one(tmp_path):
    """A scholar hands `yili classify` the passage itself: every line fails as JSON, and the run says
    that classify reads records and `yili process` reads text (a JSONL file with a bad line does not)."""
    src = tmp_path / "passage.txt"
    src.write_text(JING + "\n" + ZHU + "\n", encoding="utf-8")
    result = runner.invoke(app, ["classify", str(src), "-o", str(tmp_path / "o.jsonl")], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "passage.txt holds no JSONL record" in result.output and "yili process" in result.output
    records = tmp_path / "r.jsonl"
    records.write_text("{oops\n", encoding="utf-8")
    result = runner.invoke(app, ["classify", str(records), "-o", str(tmp_path / "o.jsonl")], env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "holds no JSONL record" not in result.output


def test_classify_labels_each_record_and_counts_bad_lines(tmp_path):
    src = tmp_path / "in.jsonl"
    lines = [
        json.dumps({"text": JING, "meta": {"id": "a"}}, ensure_ascii=False),
        "{not json",
        json.dumps({"text": ZHU}, ensure_ascii=False),
        json.dumps({"meta": {"id": "no text"}}),
        json.dumps({"text": SHU}, ensure_ascii=False),
        json.dumps({"text": ""}),
    ]
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["classify", str(src), "-o", str(out)])
    assert result.exit_code == 2, result.output  # two bad records, nothing else lost
    records = list(srsly.read_jsonl(out))
    assert len(records) == 6  # one output line per input line, in order
    assert records[0]["meta"] == {"id": "a"} and records[0]["label"] == "JING"
    assert records[2]["label"] == "ZHU"
    assert records[4]["label"] == "SHU"
    assert f"{src}:2" in records[1]["error"]
    assert f"{src}:4" in records[3]["error"]
    for rec in (records[0], records[2], records[4]):
        assert set(rec["scores"]) == {"JING", "ZHU", "SHU", "OTHER"}
        assert abs(sum(rec["scores"].values()) - 1.0) < 1e-3
        assert rec["scores"][rec["label"]] == max(rec["scores"].values())
    # empty text: OTHER, with a low score
    assert records[5]["label"] == "OTHER" and records[5]["scores"]["OTHER"] < 0.5
    # the file reads as yili process's output does (主人, not \u4e3b\u4eba), and the count is of
    # the records labelled, not of the lines read
    assert JING in out.read_text(encoding="utf-8")
    said = " ".join(result.output.split())
    assert "4 of 6 record(s) classified" in said and "document(s) read: 1 as consecutive units" in said, said


def test_classify_with_a_corrupt_model_names_the_file_and_the_fix(tmp_path):
    model = tmp_path / "layers"
    model.mkdir()
    (model / "classifier.joblib").write_bytes(b"\x00not a model")
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"text": JING}, ensure_ascii=False) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["classify", str(src), "-o", str(tmp_path / "o.jsonl"), "-m", str(model)])
    assert result.exit_code == 2
    assert "classifier.joblib" in result.output and "yili train layers" in result.output
    assert not (tmp_path / "o.jsonl").exists()


def test_evaluate_actions_scores_the_forms_per_chapter(tmp_path):
    """On one dev chapter (03 士相見禮): the unpunctuated form really loses its marks, and each
    figure is a real comparison (a broken extractor would score 0)."""
    from pipeline.actions.report import load_split, score_records, variant
    from pipeline.process import DocumentProcessor

    records = [r for r in load_split("dev") if r["meta"]["chapter"] == "03"]
    assert len(records) >= 12  # the gold of the chapter (it grows with each annotation round)
    text, spans = variant(records[0], "unpunctuated")
    assert "，" not in text and "。" not in text
    # gold spans moved into the stripped text still cover the same characters
    original = {(s["label"], s["text"]) for s in records[0]["spans"]}
    assert {(s["label"], text[s["start"]:s["end"]]) for s in spans} == original
    figures = score_records(records, DocumentProcessor())
    for form in ("punctuated", "unpunctuated", "simplified"):
        got = figures[form]["all"]
        assert got["gold"] == sum(len(r["actions"]) for r in records)
        assert got["f1"] > 0.7, (form, got)
        assert set(got["spans"]) >= {"ACTOR", "VERB", "all"}
    assert list(figures["punctuated"]["chapters"]) == ["03"]


def test_the_splits_name_their_chapters_from_the_gold_files(tmp_path):
    """``split_chapters``: the chapters a split holds are the gold's files (the bench scripts that
    print or tune on dev chapters read them from here), dev and test apart; a split without gold is
    an error naming the folder."""
    from pipeline.actions.report import load_split, split_chapters

    dev, test = split_chapters("dev"), split_chapters("test")
    assert dev == tuple(sorted({r["meta"]["chapter"] for r in load_split("dev")}))
    assert len(dev) >= 6 and len(test) >= 4 and not set(dev) & set(test)
    with pytest.raises(FileNotFoundError, match="nowhere"):
        split_chapters("nowhere", tmp_path)


def test_the_unseen_form_reads_each_chapter_with_its_own_punctuator():
    """``unpunctuated-unseen``: the passages of a chapter go through the processor given for that
    chapter, whose 斷句 model is the one given (here one trained on 鄉飲酒禮 alone), not the shipped one."""
    from pipeline.actions.report import UNSEEN, load_split, score_records
    from pipeline.process import DocumentProcessor
    from pipeline.text.punctuate import Punctuator, training_units

    units = training_units(["04"])
    small = Punctuator(max_iterations=20).fit([u[2] for u in units], [u[1] for u in units])
    reader = DocumentProcessor(splitter=small)
    assert reader.splitter is small
    records = [r for r in load_split("dev") if r["meta"]["chapter"] == "03"]
    figures = score_records(records, DocumentProcessor(), variants=("unpunctuated",), unseen={"03": reader})
    shipped, unseen = figures["unpunctuated"]["all"], figures[UNSEEN]["all"]
    assert unseen["gold"] == shipped["gold"] == sum(len(r["actions"]) for r in records)
    assert 0.5 < unseen["f1"] < shipped["f1"]  # a model that saw only one other chapter reads worse
    assert list(figures[UNSEEN]["chapters"]) == ["03"]


def test_a_chapter_read_as_one_document_knows_the_names_its_passages_give(tmp_path):
    """``as_documents``: 特牲's gold passages with 尸 and 祝 out of the lexicon (as a chapter the
    lexicon was not written from) and no span model: read one by one, the many passages that write
    them once or twice lose them; read as the chapter's document they have them."""
    import shutil

    from pipeline.actions.report import load_split, score_records
    from pipeline.config import load_config
    from pipeline.nlp.lexicon import default_lexicon_dir
    from pipeline.process import DocumentProcessor

    folder = tmp_path / "lexicon"
    shutil.copytree(default_lexicon_dir(), folder)
    actors = folder / "actors.txt"
    actors.write_text("".join(line + "\n" for line in actors.read_text(encoding="utf-8").splitlines()
                              if line.strip() not in ("尸", "祝")), encoding="utf-8")
    processor = DocumentProcessor(load_config(overrides={"paths": {"lexicon": str(folder)}, "nlp": {"span_model": None}}))
    records = [r for r in load_split("dev") if r["meta"]["chapter"] == "15"]
    alone = score_records(records, processor, variants=("punctuated",))["punctuated"]["all"]
    together = score_records(records, processor, variants=("punctuated",), as_documents=True)["punctuated"]["all"]
    assert together["gold"] == alone["gold"] == sum(len(r["actions"]) for r in records)
    # 0.943, 0.913 (0.878 before a facing or a hand between a name and its act, 0.852 before a
    # sentence going on to an act only a person does, 0.823 before 答拜 and 拜送 below)
    assert together["f1"] > alone["f1"] + 0.02
    # alone, a passage keeps 尸 where it opens a sentence before a bow, or a clause before 答拜, 拜送 or
    # 拜受 (subjects.passage_subjects): ACTOR 0.919 alone (0.901 before the two of 2026-11-30, 0.848 before
    # the first, 0.885 before the rest), 0.976 together
    assert together["spans"]["ACTOR"]["f1"] > alone["spans"]["ACTOR"]["f1"] + 0.05


def test_unreachable_dask_scheduler_is_named_as_such_not_as_an_output_problem(tmp_path):
    """No scheduler listens on port 1: the error says so (it used to read "cannot write OUT")."""
    import dask
    import distributed  # noqa: F401  its defaults in dask.config first: set() below must not leave a
    # "distributed" section without them behind (a later LocalCluster failed with KeyError: 'distributed')

    doc = tmp_path / "doc.txt"
    doc.write_text("主人升，賓升。", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        result = runner.invoke(app, ["process", str(doc), "-o", str(out), "-q", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in message
    assert "cannot write" not in message and not out.exists()


def test_evaluate_actions_scores_the_configuration_it_is_given(tmp_path):
    """-c scores another configuration: with every lexicon verb kept as a VERB span (verb_spans =
    "lexicon"), dev VERB span precision falls below the default's, and the command is recorded.
    --form reads the gold passages in that form only (the per-chapter table says nan for the others);
    a form it does not know is named with the choices."""
    cfg = tmp_path / "lexicon_verbs.cfg"
    cfg.write_text('[actions]\nverb_spans = "lexicon"\n', encoding="utf-8")
    figures = {}
    wrong = tmp_path / "errors.jsonl"
    for name, extra in (("default", ["--errors", str(wrong)]), ("lexicon", ["-c", str(cfg)])):
        out = tmp_path / f"{name}.json"
        result = runner.invoke(app, ["evaluate", "actions", "--split", "dev", "--no-unseen", "--no-documents",
                                     "--form", "punctuated", "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
        figures[name] = json.loads(out.read_text(encoding="utf-8"))
    verb = {k: f["splits"]["dev"]["punctuated"]["all"]["spans"]["VERB"] for k, f in figures.items()}
    assert verb["lexicon"]["precision"] < verb["default"]["precision"] - 0.03
    assert verb["lexicon"]["recall"] >= verb["default"]["recall"]
    assert figures["lexicon"]["command"] == f"yili evaluate actions -c {cfg} --no-unseen --no-documents --form punctuated"
    assert figures["default"]["command"] == "yili evaluate actions --no-unseen --no-documents --form punctuated"
    assert figures["default"]["documents"] == {}
    assert set(figures["default"]["splits"]["dev"]) == {"passages", "punctuated"}
    table = (tmp_path / "default.md").read_text(encoding="utf-8")
    assert re.search(r"\| dev \| 05 \| \d+ \| 0\.9\d\d \| nan \| nan \| 0\.9", table), table
    # where the tuples go wrong: the written actors are read better than the carried ones, and the
    # kinds of error add up to what was missed
    errors = figures["default"]["splits"]["dev"]["punctuated"]["all"]["errors"]
    assert errors["by_actor"]["written"]["recall"] > errors["by_actor"]["inferred"]["recall"] > 0.9
    got = figures["default"]["splits"]["dev"]["punctuated"]["all"]
    assert errors["actor_wrong"] + errors["actor_none"] + errors["verb_missed"] == got["gold"] - got["matched"]
    assert errors["actor_wrong"] + errors["actor_none"] + errors["verb_spurious"] == got["pred"] - got["matched"]
    assert re.search(r"\| dev \| punctuated \| \d+ \| 0\.99\d \| \d+ \| 0\.9\d\d( \| \d+){8} \|", table), table
    assert sum(errors["carried"].values()) == errors["by_actor"]["inferred"]["actor_wrong"]
    # --errors: each unmatched tuple once, in the passage it belongs to, of the kind the counts give
    records = list(srsly.read_jsonl(wrong))
    kinds = Counter(e["kind"] for r in records for e in r["errors"])
    assert kinds == Counter({k: errors[k] for k in ("actor_wrong", "actor_none", "verb_missed", "verb_spurious") if errors[k]})
    # the carried actors read wrong, each with what went wrong, as the table counts them
    carried = Counter(e["carried"] for r in records for e in r["errors"] if e["carried"])
    assert carried == Counter({k: n for k, n in errors["carried"].items() if n}) and len(carried) == 4
    assert all(e["actor_inferred"] and e["kind"] in ("actor_wrong", "actor_none") for r in records for e in r["errors"] if e["carried"])
    assert {r["split"] for r in records} == {"dev"} and {r["form"] for r in records} == {"punctuated"}
    for r in records:
        for e in r["errors"]:
            assert e["clause"] and e["clause"] in r["text"]
            if e["kind"] == "verb_spurious":
                assert e["gold_actor"] is None and e["actor_inferred"] is None
            if e["kind"] == "actor_wrong":
                assert e["actor"] is not None and e["actor"] != e["gold_actor"]
            if e["kind"] == "actor_none":
                assert e["actor"] is None and e["gold_actor"] is not None
    # and each span read wrong once: per label, what the gold has and was not read exactly, what was
    # read and is not in the gold (a boundary's or a label's read, or spurious)
    spans = figures["default"]["splits"]["dev"]["punctuated"]["all"]["spans"]
    wrong_spans = [e for r in records for e in r["span_errors"]]
    assert {e["kind"] for e in wrong_spans} == {"boundary", "label", "missed", "spurious"}
    for label in ("ACTOR", "VERB", "OBJECT", "LOCATION", "FACING"):
        gold, tp = spans[label]["gold"], round(spans[label]["recall"] * spans[label]["gold"])
        read = round(tp / spans[label]["precision"]) if spans[label]["precision"] else 0
        assert sum(e["label"] == label and e["kind"] != "spurious" for e in wrong_spans) == gold - tp
        assert sum((e["read"] or e)["label"] == label and e["kind"] != "missed" for e in wrong_spans) == read - tp
    for r in records:
        for e in r["span_errors"]:
            assert r["text"][e["start"]:e["end"]] == e["text"]
            if e["kind"] == "boundary":
                assert e["read"]["label"] == e["label"] and (e["read"]["start"], e["read"]["end"]) != (e["start"], e["end"])
                assert e["read"]["start"] < e["end"] and e["start"] < e["read"]["end"]
    bad = runner.invoke(app, ["evaluate", "actions", "--split", "dev", "--form", "punctuate", "--out", str(tmp_path / "x.json")])
    assert bad.exit_code == 2 and "unknown --form punctuate" in bad.output and "unpunctuated" in bad.output
    assert not (tmp_path / "x.json").exists()


def test_unpunctuated_scoring_reads_gold_roles_without_marks():
    """賓、介 in the edition is 賓介 once the marks are gone: the gold strings of that form lose
    the marks too, so a plural role can match; the other forms keep the gold as written."""
    from pipeline.actions.report import gold_actions, load_split, variant

    record = next(r for r in load_split("dev") if any("、" in (a.get("actor") or "") for a in r["actions"]))
    plain = gold_actions(record, "unpunctuated")
    assert all("、" not in (a.get(k) or "") for a in plain for k in ("actor", "object", "target", "location"))
    assert [a["verb"] for a in plain] == [a["verb"] for a in record["actions"]]
    assert any("、" in (a.get("actor") or "") for a in gold_actions(record, "punctuated"))
    assert any(a["actor"] and "、" not in a["actor"] and a["actor"] != o["actor"]
               for a, o in zip(plain, record["actions"]))
    # the clause of each tuple moves into the text without marks (the wrong actor of an act is told
    # from a verb missed by the overlap of the clauses)
    from pipeline.text.marks import is_text_char

    def strip(s: str) -> str:
        return "".join(c for c in s if is_text_char(c))

    text = variant(record, "unpunctuated")[0]
    assert text == strip(record["text"])
    assert [text[a["start"]:a["end"]] for a in plain] == [strip(record["text"][a["start"]:a["end"]]) for a in record["actions"]]
    assert any(a["start"] != o["start"] for a, o in zip(plain, record["actions"]))


def test_process_takes_the_layer_of_undecided_text_from_the_user(tmp_path):
    """A copy of the classic without its commentary (the first 15 paragraphs of 鄉射禮's 經, one per
    line, as a web copy has it: 183 Han characters, too short for pipeline/layers/classic.py to call
    it the classic alone) has no marker; `--layer JING` makes every paragraph 經, as meta.layer does a
    record, instead of leaving the layer model to guess (it reads some as 注: a 注 follows each 經
    in the editions it learned from; 14 tuples for 22)."""
    import json

    from pipeline.corpus import iter_units

    paragraphs = [u.text for u in iter_units("zhushu-xhtml", chapters=["05"]) if u.layer == "JING"][:15]
    doc = tmp_path / "xiangshe-jing.txt"
    doc.write_text("\n".join(paragraphs) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["process", str(doc), "-o", str(out), "-q", "--no-resume", "--layer", "JING"])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert {(s["layer"], s["evidence"]) for s in record["segments"]} == {("JING", "marker")}
    assert sum(s["end"] - s["start"] for s in record["segments"]) >= sum(map(len, paragraphs))
    assert len(record["actions"]) >= 20
    unnamed = runner.invoke(app, ["process", str(doc), "-o", str(out), "--no-resume"])  # without it: a word on --layer
    assert unnamed.exit_code == 0 and "--layer JING" in unnamed.output
    bad = runner.invoke(app, ["process", str(doc), "-o", str(out), "-q", "--layer", "經"])
    assert bad.exit_code == 2 and "not one of JING, ZHU, SHU, OTHER" in bad.output
