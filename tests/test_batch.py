"""Batch runs: workers, resumption after kill -9, reuse of unchanged inputs, atomic output, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import srsly

from pipeline.batch.runner import BatchRunner
from pipeline.config import load_config
from tests.conftest import REPO, SEEDS

# Real 經 passages (seed 003, 鄉飲酒禮) to build many small documents from.
PASSAGES = [
    "主人坐取爵于上篚，降洗。賓降。主人坐奠爵于階前，辭。賓對。",
    "主人阼階上當楣北面再拜，賓西階上當楣北面答拜。",
    "賓西階上北面拜洗。主人阼階上北面奠爵，遂答拜，降盥。",
    "主人坐取爵，實之賓之席前，西北面獻賓。賓西階上拜，主人少退。",
]


def make_records(folder: Path, n: int) -> Path:
    path = folder / "records.jsonl"
    srsly.write_jsonl(path, [{"text": PASSAGES[i % len(PASSAGES)] + "。" * (i // len(PASSAGES)), "meta": {"id": i}} for i in range(n)])
    return path


def ids(path: Path) -> list[int]:
    return [r["meta"]["id"] for r in srsly.read_jsonl(path)]


def test_two_workers_give_the_same_output_in_input_order(tmp_path):
    records = make_records(tmp_path, 24)
    cfg = load_config()
    one = BatchRunner(cfg, jobs=1, resume=False).run([str(records)], tmp_path / "one.jsonl")
    two = BatchRunner(cfg, jobs=2, resume=False).run([str(records)], tmp_path / "two.jsonl")
    assert one.failed == two.failed == 0
    assert (tmp_path / "one.jsonl").read_text(encoding="utf-8") == (tmp_path / "two.jsonl").read_text(encoding="utf-8")
    assert ids(tmp_path / "two.jsonl") == list(range(24))
    assert not (tmp_path / "one.jsonl.d").exists()  # --no-resume keeps no per-document results


def test_unchanged_inputs_are_reused_and_changed_ones_recomputed(tmp_path):
    records = make_records(tmp_path, 8)
    out = tmp_path / "o.jsonl"
    cfg = load_config()
    first = BatchRunner(cfg).run([str(records)], out)
    assert first.reused == 0 and first.failed == 0
    before = out.read_text(encoding="utf-8")
    second = BatchRunner(cfg).run([str(records)], out)
    assert second.reused == 8 and out.read_text(encoding="utf-8") == before
    rows = list(srsly.read_jsonl(records))
    rows[3]["text"] = "賓降。"
    srsly.write_jsonl(records, rows)
    third = BatchRunner(cfg).run([str(records)], out)
    assert third.reused == 7
    assert list(srsly.read_jsonl(out))[3]["text"] == "賓降。"


def test_kill_9_then_restart_loses_and_duplicates_nothing(tmp_path):
    records = make_records(tmp_path, 400)
    out = tmp_path / "o.jsonl"
    cmd = [sys.executable, "-m", "pipeline.cli", "process", str(records), "-o", str(out), "-q"]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    store = Path(str(out) + ".d")
    deadline = time.time() + 120
    while time.time() < deadline and len(list(store.glob("*.json"))) < 20:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(list(store.glob("*.json")))
    assert 0 < done_before < 400, "the run was not interrupted mid-way"
    assert not out.exists()  # the output is only ever renamed into place whole
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert ids(out) == list(range(400))
    assert not list(tmp_path.glob(".o.jsonl.*.tmp"))


def test_unwritable_output_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "process", str(SEEDS[1]), "-o", str(blocker / "out.jsonl"), "-q"],
        cwd=REPO, capture_output=True, text=True,
    )
    assert result.returncode == 2
    assert "cannot write" in result.stderr and "out.jsonl" in result.stderr


def test_dask_local_cluster_of_two_workers(tmp_path):
    import dask.distributed  # noqa: F401 - a test dependency: ImportError fails the test

    records = make_records(tmp_path, 12)
    cfg = load_config()
    report = BatchRunner(cfg, jobs=2, executor="dask", resume=False).run([str(records)], tmp_path / "d.jsonl")
    local = BatchRunner(cfg, jobs=1, resume=False).run([str(records)], tmp_path / "l.jsonl")
    assert report.failed == local.failed == 0
    assert (tmp_path / "d.jsonl").read_text(encoding="utf-8") == (tmp_path / "l.jsonl").read_text(encoding="utf-8")


def test_results_written_by_workers_are_reused_by_a_later_run(tmp_path):
    """With -j 2 the workers write finished documents into OUT.d/ themselves; a later run (one
    process) finds every one of them and writes the same output byte for byte."""
    records = make_records(tmp_path, 16)
    out = tmp_path / "o.jsonl"
    cfg = load_config()
    two = BatchRunner(cfg, jobs=2).run([str(records)], out)
    assert two.failed == 0 and two.reused == 0
    assert len(list(Path(str(out) + ".d").glob("*.json"))) == 16
    first = out.read_text(encoding="utf-8")
    assert sum(r["actions"] != [] for r in srsly.read_jsonl(out)) == 16
    one = BatchRunner(cfg, jobs=1).run([str(records)], out)
    assert one.reused == 16 and out.read_text(encoding="utf-8") == first
    assert [st.actions for st in one.rows] == [st.actions for st in two.rows]


def test_workers_get_the_largest_documents_first_within_a_bounded_look_ahead():
    from pipeline.batch.schedule import largest_first
    from pipeline.read.inputs import InputItem

    sizes = [3, 50, 7, 20, 1, 90, 4, 60]
    read: list[int] = []

    def todo():
        for i, n in enumerate(sizes):
            read.append(i)
            yield i, InputItem(f"doc{i}", {"text": PASSAGES[0][:1] * n})

    out = largest_first(todo(), max_items=4)
    first = next(out)
    assert first[0] == 1 and read == [0, 1, 2, 3]  # the first window only: memory stays bounded
    assert [i for i, _ in out] == [3, 2, 0, 5, 7, 6, 4]
    # a character budget closes a window too; an error item (no text) counts as empty
    items = [(0, InputItem("a", {"text": "禮" * 10})), (1, InputItem("b", {}, "b: no such file")), (2, InputItem("c", {"text": "禮" * 30}))]
    assert [i for i, _ in largest_first(items, max_chars=10)] == [0, 2, 1]


def test_output_and_results_are_shareable_files_not_private_temp_files(tmp_path):
    """Atomic writes go through mkstemp (mode 0600); what lands has an ordinary file's mode."""
    import stat

    records = make_records(tmp_path, 3)
    out = tmp_path / "out.jsonl"
    old = os.umask(0o022)
    try:
        BatchRunner(load_config(), jobs=1).run([str(records)], out)
    finally:
        os.umask(old)
    modes = {stat.S_IMODE(p.stat().st_mode) for p in [out, *(tmp_path / "out.jsonl.d").iterdir()]}
    assert modes == {0o644}
    assert not [p for p in tmp_path.rglob(".*.tmp")]  # no temporary file left behind


def _lexicon_without(folder: Path, actor: str) -> Path:
    import shutil

    from pipeline.nlp.lexicon import default_lexicon_dir

    shutil.copytree(default_lexicon_dir(), folder)
    path = folder / "actors.txt"
    path.write_text("".join(line + "\n" for line in path.read_text(encoding="utf-8").splitlines() if line.strip() != actor),
                    encoding="utf-8")
    return folder


def test_passages_of_one_document_given_as_records_are_read_with_the_names_of_all(tmp_path):
    """A chapter cut into passages, a JSONL record each (特牲's first 40 gold passages, meta.doc
    "15_….xhtml#pN"), with 尸 out of the lexicon: `yili process` reads each with the names the whole
    chapter gives, as the chapter's file would be read (process_document), one output line per record,
    with one worker or two. A bad line among them cuts nothing; a passage of another chapter between
    them (鄉射) is read alone; ``passages_as_document = false`` reads every record alone."""
    from pipeline.process import DocumentProcessor

    gold = list(srsly.read_jsonl(REPO / "annotations" / "actions" / "dev" / "15.jsonl"))[:40]
    other = next(srsly.read_jsonl(REPO / "annotations" / "actions" / "dev" / "05.jsonl"))
    chapter = [{"text": r["text"], "meta": r["meta"]} for r in gold]
    stranger = {"text": other["text"], "meta": other["meta"]}
    path = tmp_path / "passages.jsonl"
    lines = [json.dumps(r, ensure_ascii=False) for r in chapter]
    lines.insert(20, '{"text": "尸')  # a line cut short
    bad_layer = {"text": "尸入。", "meta": {**chapter[0]["meta"], "layer": "JINGG"}}  # fails in its turn only
    lines.insert(30, json.dumps(bad_layer, ensure_ascii=False))
    lines.insert(10, json.dumps(stranger, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lexicon = _lexicon_without(tmp_path / "lexicon", "尸")
    cfg = load_config(overrides={"paths": {"lexicon": str(lexicon)}, "nlp": {"span_model": None}})
    processor = DocumentProcessor(cfg)
    together = processor.process_document(chapter)
    alone = [processor.process(r) for r in chapter]

    def acts(out: dict) -> list[tuple]:
        return [(a["actor"], a["verb"], a["start"]) for a in out["actions"]]

    def split(written: list[dict]) -> tuple[list[dict], dict]:
        assert f"{path}:22" in written[21]["error"] and "JINGG" in written[31]["error"]
        return written[:10] + written[11:21] + written[22:31] + written[32:], written[10]

    # 尸 answers, 尸 eats … (a passage alone finds 尸 itself only where it opens a sentence before an
    # act only a person does, 尸即席坐, or one that goes on to such an act, with a facing or a hand
    # between them, or where an act was done to him before he opens a clause, 祝延尸。尸升: 9 passages
    # read otherwise before the first two, 6 before the third, 5 since)
    assert sum(acts(t) != acts(a) for t, a in zip(together, alone)) >= 5
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}.jsonl"
        report = BatchRunner(cfg, jobs=jobs, resume=False).run([str(path)], out)
        assert report.failed == 2
        mine, theirs = split(list(srsly.read_jsonl(out)))
        assert [acts(r) for r in mine] == [acts(r) for r in together]
        assert [r["spans"] for r in mine] == [r["spans"] for r in together]
        assert acts(theirs) == acts(processor.process(stranger))
    # ("尸", "入") of 尸入，主人退 comes from the other passages (入: things enter too, 俎入)
    assert ("尸", "入") in [a[:2] for a in acts(together[6])] and ("尸", "入") not in [a[:2] for a in acts(alone[6])]
    alone_cfg = load_config(overrides={"paths": {"lexicon": str(lexicon)}, "nlp": {"span_model": None},
                                       "actions": {"passages_as_document": False}})
    BatchRunner(alone_cfg, jobs=1, resume=False).run([str(path)], tmp_path / "alone.jsonl")
    mine, _theirs = split(list(srsly.read_jsonl(tmp_path / "alone.jsonl")))
    assert [acts(r) for r in mine] == [acts(r) for r in alone]


def test_a_passage_read_with_its_document_s_names_is_not_reused_from_a_run_that_read_it_alone(tmp_path):
    """The results kept for resuming are keyed by the names a record was read with: the same
    passage read alone, then beside the rest of its chapter, is computed again."""
    gold = list(srsly.read_jsonl(REPO / "annotations" / "actions" / "dev" / "15.jsonl"))[:8]
    records = [{"text": r["text"], "meta": r["meta"]} for r in gold]
    lexicon = _lexicon_without(tmp_path / "lexicon", "尸")
    cfg = load_config(overrides={"paths": {"lexicon": str(lexicon)}, "nlp": {"span_model": None}})
    out = tmp_path / "out.jsonl"
    srsly.write_jsonl(tmp_path / "one.jsonl", records[6:7])  # 尸入，主人退。 alone
    BatchRunner(cfg, jobs=1).run([str(tmp_path / "one.jsonl")], out)
    assert ("尸", "入") not in [(a["actor"], a["verb"]) for a in next(srsly.read_jsonl(out))["actions"]]
    srsly.write_jsonl(tmp_path / "one.jsonl", records)  # the same file, now the chapter's first eight
    report = BatchRunner(cfg, jobs=1).run([str(tmp_path / "one.jsonl")], out)
    assert report.reused == 0
    assert [(a["actor"], a["verb"]) for a in list(srsly.read_jsonl(out))[6]["actions"]] == [("尸", "入"), ("主人", "退")]


def test_which_records_are_read_as_passages_of_one_document(tmp_path):
    """Records are one document's passages when they are 經 passages (meta.layer JING) of one JSONL
    file naming one document: meta.doc up to its #, else the same meta.source and meta.chapter, in any
    order; a record naming none, a unit of no stated layer or of another, a whole file, or the same
    document in another file is read apart. Each document is read for names once, its records in
    file order; a file longer than the piece limit is read piece by piece."""
    from pipeline.batch.passages import with_document_names
    from pipeline.read.inputs import iter_inputs

    def rec(text: str, **meta) -> dict:
        return {"text": text, "meta": {"layer": "JING", **meta}}

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    srsly.write_jsonl(a, [rec(PASSAGES[0], doc="04.xhtml#p1"), rec(PASSAGES[2], source="siku", chapter="04"),
                          rec(PASSAGES[1], doc="04.xhtml#p2"), rec(PASSAGES[0], source="sbck", chapter="04"),
                          rec(PASSAGES[3], source="siku", chapter="04"), rec(PASSAGES[1]), {"text": PASSAGES[2], "meta": {"doc": "04.xhtml#p5"}},
                          rec(PASSAGES[3], doc="04.xhtml#p6", layer="ZHU")])
    srsly.write_jsonl(b, [rec(PASSAGES[3], doc="04.xhtml#p3")])
    (tmp_path / "c.txt").write_text(PASSAGES[0], encoding="utf-8")
    inputs = [str(a), str(b), str(tmp_path / "c.txt")]
    asked: list[list[str]] = []

    def names_of(records: list[dict]) -> frozenset[str]:
        asked.append([r["text"] for r in records])
        return frozenset({f"name{len(asked)}"})

    items = list(with_document_names(iter_inputs(inputs), names_of))
    assert [it.record["text"] for it in items] == [PASSAGES[i] for i in (0, 2, 1, 0, 3, 1, 2, 3, 3, 0)]
    assert asked == [[PASSAGES[0], PASSAGES[1]], [PASSAGES[2], PASSAGES[3]]]
    assert [it.names for it in items] == [("name1",), ("name2",), ("name1",), (), ("name2",), (), (), (), (), ()]
    asked.clear()
    items = list(with_document_names(iter_inputs(inputs), names_of, max_records=3))  # a.jsonl in pieces of 3
    assert asked == [[PASSAGES[0], PASSAGES[1]]] and [it.names for it in items][:3] == [("name1",), (), ("name1",)]
    asked.clear()
    list(with_document_names(iter_inputs(inputs), names_of, layers=("JING", "ZHU")))  # 注 read for tuples too
    assert asked[0] == [PASSAGES[0], PASSAGES[1], PASSAGES[3]]


def test_the_run_says_how_many_records_it_read_as_passages_of_one_document(tmp_path):
    """`yili process` on two chapters' gold passages (士相見禮 and 覲禮, meta.doc "NN_….xhtml#pK") says
    that it read them as the passages of two documents, and how to read each alone."""
    from typer.testing import CliRunner

    from pipeline.cli import app

    gold = REPO / "annotations" / "actions" / "dev"
    n = sum(1 for path in ("03.jsonl", "10.jsonl") for _ in srsly.read_jsonl(gold / path))
    result = CliRunner().invoke(app, ["process", str(gold / "03.jsonl"), str(gold / "10.jsonl"), "-o", str(tmp_path / "out.jsonl"),
                                      "--no-resume"])
    assert result.exit_code == 0, result.output
    assert f"{n} record(s) read as the passages of 2 document(s)" in result.output
    assert "[actions] passages_as_document = false" in result.output
