"""The answer store against both databases: SQLite (a file) and PostgreSQL (a server on localhost).

PostgreSQL comes from scripts/ci-services.sh (Debian's postgresql, a test role and database);
the URL is YILI_TEST_PG_URL, by default the one that script creates. A missing server is a
failure that names the script, never a silent skip.
"""

from __future__ import annotations

import json
import os
import uuid

import pytest

from pipeline.annotate.importer import export_answers, import_answers
from pipeline.annotate.jsonl import write_jsonl
from pipeline.annotate.store import AnswerStore, NewAnswer, StoreError
from pipeline.annotate.tasks import record_tasks
from pipeline.annotate.training import layer_data, span_examples

from test_annotate import seed_record, siku_astral_record

PG_URL = os.environ.get("YILI_TEST_PG_URL", "postgresql://yili:yili@127.0.0.1:5432/yili_test")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        s = AnswerStore(f"sqlite:///{tmp_path / 'answers.db'}")
    else:
        try:
            s = AnswerStore(PG_URL)
        except StoreError as exc:
            pytest.fail(f"PostgreSQL is not reachable ({exc}); start it with scripts/ci-services.sh "
                        "(installs Debian's postgresql and creates the test database)")
    yield s
    s.close()


def _dataset() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"  # answers are never deleted: every test run gets its own dataset


def test_answers_are_appended_never_overwritten(store):
    dataset = _dataset()
    task = list(record_tasks(seed_record(), kind="relations"))[1]
    first = dict(task, answer="accept", _annotator_id="A1", _session_id="s1", _timestamp=1_700_000_000)
    corrected = json.loads(json.dumps(first))
    corrected["actions"][0]["count"] = 3
    corrected.update(_session_id="s2", _timestamp=1_700_000_100)
    ids = store.add(dataset, [NewAnswer(json.dumps(first), first, "A1", "s1")])
    ids += store.add(dataset, [NewAnswer(json.dumps(corrected), corrected, "A1", "s2")])
    rows = list(store.answers(dataset))
    assert [r.id for r in rows] == ids and len(rows) == 2
    assert [(r.annotator, r.session) for r in rows] == [("A1", "s1"), ("A1", "s2")]
    assert rows[0].created == "2023-11-14T22:13:20.000000Z"  # _timestamp 1700000000 in UTC
    assert rows[0].input_hash == rows[1].input_hash == task["_input_hash"]
    [latest] = store.latest(dataset)
    assert latest.id == ids[1] and latest.record["actions"][0]["count"] == 3
    assert store.datasets()[dataset] == 2
    cur = store.conn.cursor()
    with pytest.raises(Exception, match="append-only"):
        cur.execute("UPDATE answers SET answer = 'reject'")
    if store.dialect == "sqlite":
        store.conn.rollback()
    with pytest.raises(Exception, match="append-only"):
        cur.execute("DELETE FROM answers")
    if store.dialect == "sqlite":
        store.conn.rollback()
    assert len(list(store.answers(dataset))) == 2


def test_round_trip_through_each_database(store, tmp_path):
    dataset = _dataset()
    tasks = list(record_tasks(siku_astral_record(), kind="relations", unit="segment")) + list(record_tasks(seed_record()))
    exported = tmp_path / "tasks.jsonl"
    write_jsonl(exported, tasks)
    report = import_answers([exported], store, dataset, annotator="A1", session="s-import")
    assert report.rejected == [] and report.stored == len(tasks)
    export_answers(store, dataset, tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == exported.read_bytes()


def test_training_data_follows_the_latest_answer(store, tmp_path):
    dataset = _dataset()
    task = list(record_tasks(seed_record(), kind="relations"))[1]
    layer = list(record_tasks(seed_record(), kind="layers"))[0]
    store.add(dataset, [NewAnswer(json.dumps(dict(task, answer="accept")), dict(task, answer="accept"), "A1", "s1"),
                        NewAnswer(json.dumps(dict(layer, answer="accept")), dict(layer, answer="accept"), "A1", "s1")])
    assert [len(e.spans) for e in span_examples(store, dataset)] == [4]
    without_facing = dict(task, answer="accept", spans=[s for s in task["spans"] if s["label"] != "FACING"])
    store.add(dataset, [NewAnswer(json.dumps(without_facing), without_facing, "A2", "s2")])
    [example] = span_examples(store, dataset)
    assert [lab for _, _, lab in example.spans] == ["ACTOR", "LOCATION", "VERB"]
    rejected = dict(layer, answer="reject")
    store.add(dataset, [NewAnswer(json.dumps(rejected), rejected, "A2", "s2")])
    assert layer_data(store, dataset).texts == []


def test_reading_commands_refuse_a_store_that_is_not_there(tmp_path):
    """`export-answers`, `agreement` and `train from-store` with a mistyped --db: status 2 naming the
    path, and no empty store left behind (they had reported 0 answers and created the file)."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    runner = CliRunner()
    typo = tmp_path / "answers.sqlte"
    for args in (["export-answers", "-o", str(tmp_path / "out.jsonl")], ["agreement"],
                 ["train", "from-store", "-o", str(tmp_path / "train")]):
        result = runner.invoke(app, [*args, "--db", str(typo)])
        assert result.exit_code == 2, (args, result.output)
        assert "no answer store at" in result.output and "answers.sqlte" in "".join(result.output.split())
        assert not typo.exists()
    with pytest.raises(StoreError, match="no answer store"):
        AnswerStore(str(typo), create=False)


def test_a_dataset_the_store_lacks_is_named_with_those_it_holds(tmp_path):
    from typer.testing import CliRunner

    from pipeline.cli import app

    runner = CliRunner()
    db = tmp_path / "answers.db"
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [dict(t, answer="accept") for t in record_tasks(seed_record(), kind="spans")])
    assert runner.invoke(app, ["import", str(tasks), "--db", str(db), "--dataset", "rites"]).exit_code == 0
    result = runner.invoke(app, ["export-answers", "rite", "-o", str(tmp_path / "out.jsonl"), "--db", str(db)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "no dataset 'rite' in the answer store" in said and "it holds: rites (" in said
    assert not (tmp_path / "out.jsonl").exists()
    result = runner.invoke(app, ["export-answers", "rites", "-o", str(tmp_path / "out.jsonl"), "--db", str(db)])
    assert result.exit_code == 0 and (tmp_path / "out.jsonl").read_text(encoding="utf-8").count("\n") >= 1


def test_a_store_that_cannot_be_opened_is_a_message_not_a_traceback(tmp_path):
    from typer.testing import CliRunner

    from pipeline.cli import app

    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [dict(t, answer="accept") for t in record_tasks(seed_record(), kind="spans")])
    result = CliRunner().invoke(app, ["import", str(tasks), "--db", "postgresql://u:secret@127.0.0.1:1/none"])
    assert result.exit_code == 2, result.output  # an uncaught StoreError would end with 1 and a traceback
    said = " ".join(result.output.split())
    assert "cannot open the answer store postgresql://***@127.0.0.1:1/none" in said and "secret" not in said
