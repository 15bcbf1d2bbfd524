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
