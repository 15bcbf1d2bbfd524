"""Exports read back with their own libraries (srsly, csv, pyarrow, duckdb, conllu, spaCy).

The input records are built by hand from four 經 passages of seed 003 (鄉飲酒禮, 儀禮注疏) and one
注: the tuples are written from reading the text as SCHEMA section 4 says, and the offsets are
found in the real file. A second record holds one of the passages alone, as a JSONL record would.
One more test exports the real output of the pipeline on seed 003.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SEED_003 = REPO / "pipeline" / "samples" / "003_c8719e2da7acda31.txt"
SHARED = REPO.parent / "shared"

# (passage, layer, spans in textual order, acts in textual order: (clause, fields))
PASSAGES = [
    (
        "主人一相迎于門外,再拜賓,賓答拜,拜介,介答拜。", "JING",
        [("主人", "ACTOR"), ("迎", "VERB"), ("門外", "LOCATION"), ("拜", "VERB"), ("賓", "ACTOR"),
         ("賓", "ACTOR"), ("拜", "VERB"), ("拜", "VERB"), ("介", "ACTOR"), ("介", "ACTOR"), ("拜", "VERB")],
        [("主人一相迎于門外", dict(actor="主人", verb="迎", surface="迎", location="門外")),
         ("再拜賓", dict(actor="主人", actor_inferred=True, verb="拜", surface="再拜", count=2, target="賓")),
         ("賓答拜", dict(actor="賓", verb="拜", surface="答拜", response=True)),
         ("拜介", dict(actor="主人", actor_inferred=True, verb="拜", surface="拜", target="介")),
         ("介答拜", dict(actor="介", verb="拜", surface="答拜", response=True))],
    ),
    (
        "主人與賓三揖,至於階,三讓。主人升,賓升。主人阼階上當楣北面再拜。賓西階上當楣北面答拜。", "JING",
        [("主人", "ACTOR"), ("賓", "ACTOR"), ("揖", "VERB"), ("階", "LOCATION"), ("讓", "VERB"),
         ("主人", "ACTOR"), ("升", "VERB"), ("賓", "ACTOR"), ("升", "VERB"),
         ("主人", "ACTOR"), ("阼階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB"),
         ("賓", "ACTOR"), ("西階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB")],
        [("主人與賓三揖", dict(actor="主人", verb="揖", surface="三揖", count=3, target="賓")),
         ("三讓", dict(actor="主人", actor_inferred=True, verb="讓", surface="三讓", count=3)),
         ("主人升", dict(actor="主人", verb="升", surface="升")),
         ("賓升", dict(actor="賓", verb="升", surface="升")),
         ("主人阼階上當楣北面再拜", dict(actor="主人", verb="拜", surface="再拜", count=2, location="阼階上當楣", facing="北面")),
         ("賓西階上當楣北面答拜", dict(actor="賓", verb="拜", surface="答拜", response=True, location="西階上當楣", facing="北面"))],
    ),
    (
        "主人坐取爵,實之賓之席前,西北面獻賓。", "JING",
        [("主人", "ACTOR"), ("坐", "VERB"), ("取", "VERB"), ("爵", "OBJECT"), ("實", "VERB"),
         ("賓之席前", "LOCATION"), ("西北面", "FACING"), ("獻", "VERB"), ("賓", "ACTOR")],
        [("主人坐取爵", dict(actor="主人", verb="坐", surface="坐")),
         ("主人坐取爵", dict(actor="主人", verb="取", surface="取", object="爵")),
         ("實之賓之席前", dict(actor="主人", actor_inferred=True, verb="實", surface="實", object="之", location="賓之席前")),
         ("西北面獻賓", dict(actor="主人", actor_inferred=True, verb="獻", surface="獻", target="賓", facing="西北面"))],
    ),
    ("獻,進也,進酒於賓。", "ZHU", [("獻", "VERB"), ("賓", "ACTOR")], []),
    (
        "賓進受爵,以復位。主人阼階上拜送爵,賓少退。", "JING",
        [("賓", "ACTOR"), ("進", "VERB"), ("受", "VERB"), ("爵", "OBJECT"), ("復", "VERB"), ("位", "LOCATION"),
         ("主人", "ACTOR"), ("阼階上", "LOCATION"), ("拜", "VERB"), ("爵", "OBJECT"), ("賓", "ACTOR"), ("退", "VERB")],
        [("賓進受爵", dict(actor="賓", verb="進", surface="進")),
         ("賓進受爵", dict(actor="賓", verb="受", surface="受", object="爵")),
         ("以復位", dict(actor="賓", actor_inferred=True, verb="復", surface="復", location="位")),
         ("主人阼階上拜送爵", dict(actor="主人", verb="拜", surface="拜送爵", purpose="送", object="爵", location="阼階上")),
         ("賓少退", dict(actor="賓", verb="退", surface="少退"))],
    ),
]

TUPLE_DEFAULTS = dict(actor=None, actor_inferred=False, verb=None, surface=None, count=None, response=False,
                      negated=False, purpose=None, object=None, target=None, location=None, facing=None)


def annotate(text: str, offset: int, passage: str, layer: str, spans: list, acts: list) -> dict:
    """Segments, sentences, clauses, spans and tuples of one passage found at ``offset`` in ``text``."""
    assert text[offset:offset + len(passage)] == passage
    out = {"segments": [{"layer": layer, "start": offset, "end": offset + len(passage), "text": passage,
                         "evidence": "marker", "score": 1.0}],
           "sentences": [], "clauses": [], "spans": [], "actions": []}
    for m in re.finditer(r"[^。]+。", passage):
        out["sentences"].append({"start": offset + m.start(), "end": offset + m.end(), "layer": layer})
    for m in re.finditer(r"[^,。]+", passage):
        out["clauses"].append({"start": offset + m.start(), "end": offset + m.end(), "layer": layer})
    cursor = 0
    for surface, label in spans:
        s = passage.index(surface, cursor)
        cursor = s + len(surface)
        out["spans"].append({"start": offset + s, "end": offset + cursor, "label": label, "text": surface})
    cursor, previous = 0, None
    for clause, fields in acts:
        if previous and previous[0] == clause:  # two acts stated by one clause (坐取爵)
            s = previous[1]
        else:
            s = passage.index(clause, cursor)
            cursor = s + len(clause)
        previous = (clause, s)
        out["actions"].append({**TUPLE_DEFAULTS, **fields, "start": offset + s, "end": offset + s + len(clause)})
    return out


def seed003_record() -> dict:
    """The whole seed 003 file as `yili process` would give it, with the five passages annotated by hand."""
    text = SEED_003.read_text(encoding="utf-8")
    record = {"text": text, "meta": {"source": str(SEED_003), "encoding": "utf-8", "layout": "web"},
              "segments": [], "sentences": [], "clauses": [], "spans": [], "actions": [], "removed": []}
    for passage, layer, spans, acts in PASSAGES:
        part = annotate(text, text.index(passage), passage, layer, spans, acts)
        for key, items in part.items():
            record[key].extend(items)
    return record


def note_record() -> dict:
    """The first passage alone, as a JSONL input record with ``meta.layer`` (no source file, no chapter)."""
    passage, layer, spans, acts = PASSAGES[0]
    record = {"text": passage, "meta": {"source": "notes/hand.jsonl", "layer": "JING"}, "removed": []}
    record.update(annotate(passage, 0, passage, layer, spans, acts))
    return record


def error_record() -> dict:
    return {"text": "", "meta": {"source": "broken.txt"}, "error": "broken.txt: UnicodeDecodeError"}


def write_input(path: Path, records: list[dict]) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


@pytest.fixture
def processed(tmp_path) -> Path:
    return write_input(tmp_path / "processed.jsonl", [seed003_record(), error_record(), note_record()])


@pytest.fixture
def exported(tmp_path, processed):
    from pipeline.export import run_export

    out = tmp_path / "export"
    report = run_export([processed], out, formats="jsonl,csv,parquet,duckdb,conllu,docbin")
    return out, report


# -- the hand data is what the text says ------------------------------------------------------------
def test_hand_offsets_are_the_texts():
    record = seed003_record()
    text = record["text"]
    assert text[6632 + 21:6632 + 32] == "主人阼階上當楣北面再拜"  # the passage of the brief, found by reading
    for span in record["spans"]:
        assert text[span["start"]:span["end"]] == span["text"]
    assert len(record["actions"]) == 20 and len(record["spans"]) == 51
    two = [a for a in record["actions"] if text[a["start"]:a["end"]] == "主人坐取爵"]
    assert [a["verb"] for a in two] == ["坐", "取"]


# -- chapters and ids ----------------------------------------------------------------------------
def test_chapter_rule():
    from pipeline.read.chapters import chapter_of

    seeds = {p.name[:3]: p.read_text(encoding="utf-8") for p in sorted((REPO / "pipeline" / "samples").glob("*.txt"))}
    # titles: 鄉飲酒禮第四 (003), 鄉射禮第五 (001), 特牲饋食禮第十五 (002), 乡射礼第五 simplified (000)
    assert chapter_of({"source": "x/003_c8719e2da7acda31.txt"}, seeds["003"]) == "04"
    assert chapter_of({}, seeds["001"]) == "05"
    assert chapter_of({}, seeds["002"]) == "15"
    assert chapter_of({}, seeds["000"]) == "05"
    assert chapter_of({}, seeds["004"]) is None  # 覲禮 text without a numbered title
    assert chapter_of({"source": "../shared/corpus/zhushu-siku/04_xiangyinjiuli.txt"}, "") == "04"
    assert chapter_of({"chapter": 7, "source": "04_xiangyinjiuli.txt"}, "") == "07"
    assert chapter_of({}, "卷四:鄉飲酒禮第四") == "04"
    assert chapter_of({}, "士冠禮第十") is None  # the number must be the chapter's own
    juan08 = SHARED / "corpus" / "danshu-sbck" / "juan08.txt"
    assert chapter_of({"source": str(juan08)}, juan08.read_text(encoding="utf-8")) == "04"  # 郷飲酒禮第四


def test_ids_are_stable_and_distinct():
    from pipeline.export.ids import document_id
    from pipeline.export.source import ExportDocument

    a = document_id({"source": "/home/a/shared/corpus/zhushu-siku/04_xiangyinjiuli.txt", "encoding": "utf-8"}, "x")
    b = document_id({"source": "../shared/corpus/zhushu-siku/04_xiangyinjiuli.txt", "encoding": "gb18030"}, "y")
    c = document_id({"source": "../shared/corpus/zhengzhu-sbck/04_xiangyinjiuli.txt", "encoding": "utf-8"}, "x")
    assert a == b and a != c
    # records given as JSONL share a source: the text tells them apart
    assert document_id({"source": "n.jsonl"}, "甲") != document_id({"source": "n.jsonl"}, "乙")
    doc = ExportDocument.from_record(seed003_record())
    again = ExportDocument.from_record(seed003_record())
    assert doc.action_ids == again.action_ids and len(set(doc.action_ids)) == 20
    passage_start = doc.text.index(PASSAGES[1][0])
    assert f"{doc.doc_id}:{passage_start + 21}-{passage_start + 32}:拜" in doc.action_ids


# -- every format read back ------------------------------------------------------------------------
def test_report_counts(exported):
    _, report = exported
    assert report.documents == 2 and len(report.errors) == 1 and "UnicodeDecodeError" in report.errors[0][1]
    assert report.rows == {"documents": 2, "segments": 6, "sentences": 9 + 22 + 1 + 5,
                           "spans": 51 + 11, "actions": 25}


def test_jsonl_actions_read_back_with_srsly(exported):
    import srsly

    out, _ = exported
    rows = list(srsly.read_jsonl(out / "actions.jsonl"))
    record = seed003_record()
    text = record["text"]
    assert len(rows) == 25
    mine = [r for r in rows if r["chapter"] == "04"]
    assert len(mine) == 20
    for row, act in zip(mine, record["actions"]):
        assert (row["start"], row["end"]) == (act["start"], act["end"])
        assert row["clause"] == text[act["start"]:act["end"]]
        assert (row["actor"], row["verb"], row["count"], row["target"]) == (act["actor"], act["verb"], act["count"], act["target"])
        assert row["id"].startswith(row["doc_id"] + ":")
        sent = next(s for s in record["sentences"] if s["start"] <= act["start"] < s["end"])
        assert row["sentence_id"] == f"{row['doc_id']}:{sent['start']}-{sent['end']}:sentence"
        assert row["layer"] == "JING"
    bow = next(r for r in mine if r["clause"] == "主人阼階上當楣北面再拜")
    assert (bow["location"], bow["facing"], bow["count"]) == ("阼階上當楣", "北面", 2)
    note = [r for r in rows if r["chapter"] is None]
    assert [r["clause"] for r in note] == ["主人一相迎于門外", "再拜賓", "賓答拜", "拜介", "介答拜"]
    assert [r["start"] for r in note] == [0, 9, 13, 17, 20]


def test_csv_read_back(exported):
    out, _ = exported
    with open(out / "spans.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    text = SEED_003.read_text(encoding="utf-8")
    assert len(rows) == 62
    zhu = [r for r in rows if r["layer"] == "ZHU"]
    assert [(r["text"], r["label"]) for r in zhu] == [("獻", "VERB"), ("賓", "ACTOR")]
    for r in rows:
        if r["chapter"] == "04":
            assert text[int(r["start"]):int(r["end"])] == r["text"]
    with open(out / "documents.csv", encoding="utf-8", newline="") as handle:
        docs = list(csv.DictReader(handle))
    assert docs[0]["text"] == text  # the raw text survives CSV quoting, line breaks and all
    assert [d["n_actions"] for d in docs] == ["20", "5"]


def test_parquet_read_back_with_pyarrow(exported):
    import pyarrow as pa
    import pyarrow.parquet as pq
    import srsly

    out, _ = exported
    table = pq.read_table(out / "actions.parquet")
    assert table.schema.field("start").type == pa.int64()
    assert table.schema.field("actor_inferred").type == pa.bool_()
    assert table.to_pylist() == list(srsly.read_jsonl(out / "actions.jsonl"))
    sentences = pq.read_table(out / "sentences.parquet").to_pylist()
    kinds = [s["kind"] for s in sentences]
    assert kinds.count("sentence") == 10 and kinds.count("clause") == 27
    clause = next(s for s in sentences if s["text"] == "西北面獻賓")
    assert clause["sentence_id"].endswith(":sentence") and clause["layer"] == "JING"


def test_duckdb_queries_and_update(tmp_path, processed):
    import duckdb

    from pipeline.export import run_export
    from pipeline.export.duck import EXAMPLE_QUERIES

    out = tmp_path / "db"
    run_export([processed], out, formats="duckdb,jsonl,parquet")
    con = duckdb.connect(str(out / "yili.duckdb"), read_only=True)
    counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("documents", "spans", "actions")}
    acts = dict(con.execute(EXAMPLE_QUERIES["acts per actor"]).fetchall())
    bows = con.execute(EXAMPLE_QUERIES["who bows to whom"]).fetchall()
    offsets = con.execute('SELECT start, "end" FROM actions WHERE clause = ?', ["主人阼階上拜送爵"]).fetchall()
    con.close()
    assert counts == {"documents": 2, "spans": 62, "actions": 25}
    assert acts == {"主人": 15, "賓": 8, "介": 2}
    assert bows == [("主人", "介", 2), ("主人", "賓", 2)]
    passage = PASSAGES[4][0]
    start = SEED_003.read_text(encoding="utf-8").index(passage) + passage.index("主人阼階上拜送爵")
    assert offsets == [(start, start + 8)]

    # the same export again: nothing is duplicated, in the database or in the files
    run_export([processed], out, formats="duckdb,jsonl,parquet")
    con = duckdb.connect(str(out / "yili.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM actions").fetchone()[0] == 25
    assert con.execute("SELECT count(DISTINCT id) FROM spans").fetchone()[0] == 62
    con.close()
    assert sum(1 for _ in open(out / "actions.jsonl", encoding="utf-8")) == 25

    # a re-processed seed 003 that lost its last act: its rows are replaced, the note's stay
    changed = seed003_record()
    dropped = changed["actions"].pop()
    run_export([write_input(tmp_path / "again.jsonl", [changed])], out, formats="duckdb,jsonl,parquet")
    con = duckdb.connect(str(out / "yili.duckdb"), read_only=True)
    left = con.execute("SELECT count(*), count(*) FILTER (WHERE clause = '賓少退') FROM actions").fetchone()
    docs = con.execute("SELECT n_actions FROM documents ORDER BY n_actions").fetchall()
    con.close()
    assert dropped["verb"] == "退" and left == (24, 0)
    assert docs == [(5,), (19,)]
    import pyarrow.parquet as pq

    assert pq.read_table(out / "actions.parquet").num_rows == 24
    assert sum(1 for _ in open(out / "actions.jsonl", encoding="utf-8")) == 24


def test_conllu_read_back_with_conllu(exported):
    import conllu

    out, _ = exported
    sentences = conllu.parse((out / "sentences.conllu").read_text(encoding="utf-8"))
    record = seed003_record()
    text = record["text"]
    assert len(sentences) == 10  # 9 sentences of seed 003's passages and 注, 1 of the note
    spans_back = set()
    for sent in sentences:
        if sent.metadata["chapter"] != "04":
            continue
        for tok in sent:
            s, e = map(int, tok["misc"]["TokenRange"].split(":"))
            assert text[s:e] == tok["form"]
        label = None
        for tok in sent:
            tag = (tok["misc"] or {}).get("Span")
            s, e = map(int, tok["misc"]["TokenRange"].split(":"))
            if tag and tag.startswith("B-"):
                label = [s, e, tag[2:]]
                spans_back.add(tuple(label))
            elif tag and tag.startswith("I-"):
                spans_back.discard(tuple(label))
                label[1] = e
                spans_back.add(tuple(label))
    assert spans_back == {(sp["start"], sp["end"], sp["label"]) for sp in record["spans"]}

    first = next(s for s in sentences if s.metadata["text"] == "主人一相迎于門外,再拜賓,賓答拜,拜介,介答拜。"
                 and s.metadata["chapter"] == "04")
    base = text.index("主人一相迎于門外")
    assert int(first.metadata["start"]) == base and first.metadata["layer"] == "JING"
    acts = {k: json.loads(v) for k, v in first.metadata.items() if k.startswith("action ")}
    assert [a["verb"] for a in acts.values()] == ["迎", "拜", "拜", "拜", "拜"]
    assert acts["action a2"]["target"] == "賓" and acts["action a2"]["count"] == 2
    by_offset = {int(t["misc"]["TokenRange"].split(":")[0]) - base: t for t in first}
    assert by_offset[11]["form"] == "賓" and by_offset[11]["misc"]["Role"] == "a2.target"
    assert by_offset[13]["form"] == "賓" and by_offset[13]["misc"]["Role"] == "a3.actor"
    assert by_offset[10]["misc"]["Role"] == "a2.verb" and by_offset[10]["misc"]["Span"] == "B-VERB"
    assert by_offset[8]["upos"] == "PUNCT"


def test_docbin_read_back_with_spacy(exported):
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    out, _ = exported
    docs = list(DocBin().from_disk(out / "segments.spacy").get_docs(Vocab()))
    record = seed003_record()
    assert len(docs) == 6
    assert [d.user_data["layer"] for d in docs] == ["JING", "JING", "JING", "ZHU", "JING", "JING"]
    got = set()
    for doc in docs:
        if doc.user_data["chapter"] != "04":
            continue
        off = doc.user_data["offset"]
        assert doc.text == record["text"][off:off + len(doc.text)]
        for span in doc.spans["sc"]:
            got.add((off + span.start_char, off + span.end_char, span.label_))
    assert got == {(sp["start"], sp["end"], sp["label"]) for sp in record["spans"]}
    rite = next(d for d in docs if d.text.startswith("主人與賓三揖"))
    assert [s.text for s in rite.sents] == ["主人與賓三揖,至於階,三讓。", "主人升,賓升。",
                                            "主人阼階上當楣北面再拜。", "賓西階上當楣北面答拜。"]
    assert [a["verb"] for a in rite.user_data["actions"]] == ["揖", "讓", "升", "升", "拜", "拜"]
    assert rite.user_data["actions"][0]["target"] == "賓"


def test_conllu_with_the_pipelines_tokenizer(tmp_path, processed):
    """--tokenizer jieba: words from the ritual lexicon, still raw offsets and whole spans."""
    import conllu

    from pipeline.export import run_export

    out = tmp_path / "jieba"
    run_export([processed], out, formats="conllu,docbin", tokenizer="jieba")
    record = seed003_record()
    text = record["text"]
    sentences = [s for s in conllu.parse((out / "sentences.conllu").read_text(encoding="utf-8"))
                 if s.metadata["chapter"] == "04"]
    bow = next(s for s in sentences if s.metadata["text"] == "主人阼階上當楣北面再拜。")
    forms = [t["form"] for t in bow]
    assert "".join(forms) == "主人阼階上當楣北面再拜。"
    assert "阼階上當楣" in forms and "主人" in forms  # ritual terms stay whole
    place = bow[forms.index("阼階上當楣")]
    s, e = map(int, place["misc"]["TokenRange"].split(":"))
    assert text[s:e] == "阼階上當楣" and place["misc"]["Span"] == "B-LOCATION"
    assert place["misc"]["Role"] == "a1.location"
    assert bow[-1]["upos"] == "PUNCT"
    for sent in sentences:
        for tok in sent:
            s, e = map(int, tok["misc"]["TokenRange"].split(":"))
            assert text[s:e] == tok["form"]


def test_docbin_and_conllu_update_not_duplicate(tmp_path, processed):
    import conllu
    from spacy.tokens import DocBin

    from pipeline.export import run_export

    out = tmp_path / "x"
    run_export([processed], out, formats="conllu,docbin")
    run_export([processed], out, formats="conllu,docbin")
    assert len(conllu.parse((out / "sentences.conllu").read_text(encoding="utf-8"))) == 10
    assert len(DocBin().from_disk(out / "segments.spacy")) == 6
    run_export([write_input(tmp_path / "note.jsonl", [note_record()])], out, formats="conllu,docbin")
    assert len(conllu.parse((out / "sentences.conllu").read_text(encoding="utf-8"))) == 10
    assert len(DocBin().from_disk(out / "segments.spacy")) == 6


def test_command_line(tmp_path, processed):
    import typer
    from typer.testing import CliRunner

    from pipeline.export import export_command

    app = typer.Typer()
    app.command("export")(export_command)
    app.command("noop")(lambda: None)  # two commands, as in `yili`
    result = CliRunner().invoke(app, ["export", str(processed), "-o", str(tmp_path / "cli"), "-f", "jsonl,duckdb"])
    assert result.exit_code == 0, result.output
    assert "2 document(s) exported, 1 error record(s) skipped" in result.output
    assert (tmp_path / "cli" / "actions.jsonl").exists() and (tmp_path / "cli" / "yili.duckdb").exists()
    bad = CliRunner().invoke(app, ["export", str(processed), "-o", str(tmp_path / "cli"), "-f", "xml"])
    assert bad.exit_code == 2


def test_command_line_counts_the_lines_it_cannot_read(tmp_path, processed):
    """A processed file copied short (its last line cut inside a character) and one hand-edited line
    that is no JSON: the other documents are exported, each bad line is named, and the exit status is
    the number of lines lost. The cut line had stopped the whole export with a bare UnicodeDecodeError;
    the error record `yili process` wrote is passed over and not counted."""
    import typer
    from typer.testing import CliRunner

    from pipeline.export import export_command

    app = typer.Typer()
    app.command("export")(export_command)
    app.command("noop")(lambda: None)
    data = processed.read_bytes()
    whole = json.dumps(seed003_record(), ensure_ascii=False).encode("utf-8")
    cut = whole[:whole.index("主人".encode("utf-8")) + 1]  # one byte into 主
    spoiled = tmp_path / "spoiled.jsonl"
    spoiled.write_bytes(data + b'{"text": "a", \n' + cut)
    result = CliRunner().invoke(app, ["export", str(spoiled), "-o", str(tmp_path / "cli"), "-f", "jsonl"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert f"skipped {spoiled}:4: invalid JSON (Expecting property name enclosed in double quotes at column 15)" in result.output
    assert f"skipped {spoiled}:5: not UTF-8" in result.output
    assert "2 document(s) exported, 1 error record(s) skipped, 2 line(s) unreadable" in result.output
    assert len((tmp_path / "cli" / "documents.jsonl").read_text(encoding="utf-8").splitlines()) == 2


def test_find_reads_either_script_and_any_spelling_and_says_when_nothing_holds_it(tmp_path, processed):
    """--find is typed as the scholar has it: 主人一相迎于门外，再拜宾 (simplified) and 再拜賔 (the 四庫's
    spelling) find the passage the seed writes 主人一相迎于門外,再拜賓 (they had found nothing, and the
    flow page was empty without a word); a text no document holds is said to be so."""
    import typer
    from typer.testing import CliRunner

    from pipeline.export import export_command, load_documents
    from pipeline.export.views.flow import flow_rows
    from pipeline.export.views.passages import select_passages

    doc = load_documents(processed).documents[0]
    at = doc.text.index("主人一相迎于門外,再拜賓")
    assert doc.find("主人一相迎于门外,再拜宾") == at and doc.find("再拜賔") == doc.text.index("再拜賓")
    assert doc.find("主人一相迎于门外,再拜宾", at + 1) == -1
    flow = flow_rows(doc, find="一相迎于门外")
    assert flow.start == at + 2 and flow.rows[0].clause == "再拜賓"
    assert len(select_passages(doc, find="再拜宾")) == 1 == len(select_passages(doc, find="再拜賓"))
    app = typer.Typer()
    app.command("export")(export_command)
    app.command("noop")(lambda: None)
    result = CliRunner().invoke(app, ["export", str(processed), "-o", str(tmp_path / "v"), "-f", "html", "--find", "天子三揖"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "'天子三揖' occurs in none of the 2 document(s)" in result.output


# -- the pipeline's own output ---------------------------------------------------------------------
def test_real_processed_seed_exports_consistently(tmp_path, processed_seeds):
    import conllu
    import duckdb
    import pyarrow.parquet as pq
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    from pipeline.export import run_export
    record = processed_seeds["003"]  # the pipeline's own output on seed 003 (shared with test_process)
    assert "error" not in record, record.get("error")
    processed = write_input(tmp_path / "seed003.jsonl", [record])
    out = tmp_path / "real"
    report = run_export([processed], out)
    text = record["text"]
    assert report.documents == 1 and not report.errors
    assert report.rows["actions"] == len(record["actions"]) > 0
    actions = pq.read_table(out / "actions.parquet").to_pylist()
    assert [(a["start"], a["end"], a["verb"], a["actor"]) for a in actions] == [
        (a["start"], a["end"], a["verb"], a["actor"]) for a in record["actions"]]
    assert all(a["chapter"] == "04" for a in actions)
    assert {a["layer"] for a in actions} <= {"JING", "ZHU", "SHU", "OTHER"}
    con = duckdb.connect(str(out / "yili.duckdb"), read_only=True)
    spans = con.execute('SELECT start, "end", label, text FROM spans ORDER BY seq').fetchall()
    con.close()
    assert spans == [(s["start"], s["end"], s["label"], text[s["start"]:s["end"]]) for s in record["spans"]]
    tagged_layers = {"JING", "ZHU", "SHU"}
    sentences = conllu.parse((out / "sentences.conllu").read_text(encoding="utf-8"))
    removed = [(r["start"], r["end"]) for r in record["removed"]]

    def has_content(s: int, e: int) -> bool:
        return any(not text[i].isspace() and not any(rs <= i < re_ for rs, re_ in removed) for i in range(s, e))

    assert len(sentences) == sum(1 for s in record["sentences"] if s["layer"] in tagged_layers
                                 and has_content(s["start"], s["end"]))
    for sent in sentences[:200]:
        for tok in sent:
            s, e = map(int, tok["misc"]["TokenRange"].split(":"))
            assert tok["form"] in text[s:e]
    docs = list(DocBin().from_disk(out / "segments.spacy").get_docs(Vocab()))
    assert len(docs) == sum(1 for s in record["segments"] if s["layer"] in tagged_layers and s["end"] > s["start"])
    in_docs = sum(len(d.spans["sc"]) for d in docs)
    assert in_docs == sum(1 for s in record["spans"] if s["end"] > s["start"])


def test_without_the_export_extra(tmp_path, processed, monkeypatch):
    """A plain `pip install yili` has no pyarrow, duckdb or matplotlib: the default export ('all') writes
    every other format and says which it left out and how to get them; Parquet asked for by name is
    refused before anything is written. Both had ended in a ModuleNotFoundError traceback, the second
    after the JSONL and CSV files of 'all' were written."""
    import sys

    import typer
    from typer.testing import CliRunner

    from pipeline.export import export_command

    for name in ("pyarrow", "pyarrow.parquet", "duckdb", "matplotlib"):
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed: importing it fails
    app = typer.Typer()
    app.command("export")(export_command)
    app.command("noop")(lambda: None)
    result = CliRunner().invoke(app, ["export", str(processed), "-o", str(tmp_path / "all")])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "not written: parquet, duckdb, html (they need duckdb, matplotlib, pyarrow: pip install 'yili[export]')" in said
    written = sorted(p.name for p in (tmp_path / "all").iterdir())
    assert "actions.jsonl" in written and "sentences.conllu" in written and "segments.spacy" in written
    assert not [n for n in written if n.endswith((".parquet", ".duckdb", ".html"))]
    result = CliRunner().invoke(app, ["export", str(processed), "-o", str(tmp_path / "pq"), "-f", "csv,parquet"])
    assert result.exit_code == 2
    assert "cannot export: parquet needs pyarrow: pip install 'yili[export]'" in " ".join(result.output.split())
    assert not (tmp_path / "pq").exists()
