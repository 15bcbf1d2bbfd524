"""The annotation workflow on real passages: tasks, hashes, validation, import/export round trips,
converters (Label Studio, Doccano, brat), agreement, selection and training data.

Passages are read from the bundled seed 003 (鄉飲酒禮, 「主人阼階上當楣北面再拜」), the gold of
annotations/actions/ and the Siku edition in ../shared/corpus (an astral 𧃊 in 特牲饋食禮, a
Kanripo entity &KR1969; in 大射). Expected values come from reading those texts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.annotate.agreement import agreement, cohen_kappa
from pipeline.annotate.hashing import set_hashes
from pipeline.annotate.importer import convert_command, export_answers, import_answers
from pipeline.annotate.jsonl import read_lines, write_jsonl
from pipeline.annotate.labelstudio import from_labelstudio, to_labelstudio
from pipeline.annotate.relations import actions_from_relations
from pipeline.annotate.select import order_tasks, uncertainties
from pipeline.annotate.store import AnswerStore
from pipeline.annotate.tasks import make_tasks, record_tasks, tasks_command
from pipeline.annotate.tokens import char_tokens
from pipeline.annotate.training import span_examples, write_docbin
from pipeline.annotate.validate import validate_record

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEED_003 = REPO / "pipeline" / "samples" / "003_c8719e2da7acda31.txt"
GOLD = REPO / "annotations" / "actions"
SIKU = SHARED / "corpus" / "zhushu-siku"


def _span(text: str, word: str, label: str, after: int = 0) -> dict:
    start = text.index(word, after)
    return {"start": start, "end": start + len(word), "label": label, "text": word}


def _action(actor, verb, surface, start, end, **roles) -> dict:
    base = {"actor": actor, "actor_inferred": False, "verb": verb, "surface": surface, "count": None,
            "response": False, "negated": False, "purpose": None, "object": None, "target": None,
            "location": None, "facing": None, "start": start, "end": end}
    base.update(roles)
    return base


def seed_record() -> dict:
    """A processed-record for seed 003's 經 paragraph 「主人與賓三揖……賓西階上當楣北面答拜。」 (line 111)."""
    line = next(l for l in SEED_003.read_text(encoding="utf-8").splitlines() if "主人阼階上當楣北面再拜" in l)
    raw = SEED_003.read_text(encoding="utf-8")
    offset = raw.index(line)
    text = raw  # offsets into the whole decoded file, as `yili process` writes them
    s1 = offset + line.index("主人阼階")
    e1 = offset + line.index("賓西階上")
    e2 = offset + len(line)
    spans = [
        _span(text, "主人", "ACTOR", s1), _span(text, "阼階上當楣", "LOCATION", s1), _span(text, "北面", "FACING", s1),
        _span(text, "拜", "VERB", s1),
        _span(text, "賓", "ACTOR", e1), _span(text, "西階上當楣", "LOCATION", e1), _span(text, "北面", "FACING", e1),
        _span(text, "拜", "VERB", e1),
    ]
    actions = [
        _action("主人", "拜", "再拜", s1, e1, count=2, location="阼階上當楣", facing="北面"),
        _action("賓", "拜", "答拜", e1, e2, response=True, location="西階上當楣", facing="北面"),
    ]
    return {
        "text": text,
        "meta": {"source": str(SEED_003.name)},
        "segments": [{"layer": "JING", "start": offset, "end": e2, "text": line, "evidence": "layout", "score": 0.9}],
        "sentences": [
            {"start": offset, "end": s1, "layer": "JING", "kind": "sentence"},
            {"start": s1, "end": e1, "layer": "JING", "kind": "sentence"},
            {"start": e1, "end": e2, "layer": "JING", "kind": "sentence"},
        ],
        "spans": spans,
        "actions": actions,
    }


def siku_astral_record() -> dict:
    """特牲饋食禮 in the Siku edition: 「主人升酌酳上𧃊上𧃊拜受爵主人¶\\n答拜」, 𧃊 (U+270CA) an astral character."""
    raw = (SIKU / "15_teshengkuishili.txt").read_text(encoding="utf-8")
    start = raw.index("主人升酌酳上𧃊上𧃊拜受爵")
    end = raw.index("答拜", start) + 2
    text = raw[start:end]
    second = text.index("上𧃊", text.index("上𧃊") + 1)
    spans = [_span(text, "主人", "ACTOR"), _span(text, "升", "VERB"), _span(text, "酌", "VERB"), _span(text, "上𧃊", "ACTOR", second),
             _span(text, "拜", "VERB"), _span(text, "爵", "OBJECT"), _span(text, "主人", "ACTOR", text.index("爵")),
             _span(text, "拜", "VERB", text.index("答"))]
    actions = [
        _action("主人", "升", "升", 0, text.index("酌"), ),
        _action("主人", "酌", "酌", text.index("酌"), text.index("酳"), actor_inferred=True),
        _action("上𧃊", "拜", "拜受爵", second, text.index("主人", second), purpose="受", object="爵"),
        _action("主人", "拜", "答拜", text.index("主人", second), len(text), response=True),
    ]
    return {"text": text, "meta": {"doc": "15_teshengkuishili.txt", "layer": "JING", "source": "zhushu-siku"},
            "spans": spans, "actions": actions}


# -- tokens and tasks ------------------------------------------------------------------------------
def test_tokens_one_per_character_astral_and_entities():
    astral = siku_astral_record()["text"]
    tokens = char_tokens(astral)
    assert [t["text"] for t in tokens[:8]] == ["主", "人", "升", "酌", "酳", "上", "𧃊", "上"]
    assert tokens[6]["end"] - tokens[6]["start"] == 1  # 𧃊 is one code point, one token
    assert all(t["ws"] is False for t in tokens)
    raw = (SIKU / "07_dashe.txt").read_text(encoding="utf-8")
    start = raw.index("從豆&KR1969;聲")
    entity = char_tokens(raw[start:start + 13])
    assert [t["text"] for t in entity] == ["從", "豆", "&KR1969;", "聲", "近", "似"]
    assert (entity[2]["start"], entity[2]["end"]) == (2, 10)


def test_relation_tasks_for_seed_003_sentence():
    tasks = list(record_tasks(seed_record(), kind="relations"))
    assert [t["text"] for t in tasks] == ["主人與賓三揖,至於階,三讓。主人升,賓升。", "主人阼階上當楣北面再拜。", "賓西階上當楣北面答拜。"]
    task = tasks[1]
    assert [(s["text"], s["label"], s["token_start"], s["token_end"]) for s in task["spans"]] == [
        ("主人", "ACTOR", 0, 1), ("阼階上當楣", "LOCATION", 2, 6), ("北面", "FACING", 7, 8), ("拜", "VERB", 10, 10)]
    rels = {(r["label"], r["head"], r["child"]) for r in task["relations"]}
    assert rels == {("ARG_ACTOR", 10, 1), ("ARG_LOCATION", 10, 6), ("ARG_FACING", 10, 8)}
    assert task["actions"][0]["start"] == 0 and task["actions"][0]["end"] == 12 and task["actions"][0]["count"] == 2
    raw = SEED_003.read_text(encoding="utf-8")
    assert raw[task["meta"]["start"]:task["meta"]["end"]] == task["text"]
    assert task["meta"]["layer"] == "JING" and task["meta"]["unit"] == "sentence"
    assert list(task)[:2] == ["text", "meta"] and isinstance(task["_input_hash"], int)
    assert validate_record(task, "accept") == []


def test_span_and_layer_tasks():
    spans_task = list(record_tasks(seed_record(), kind="spans"))[1]
    assert "relations" not in spans_task and "actions" not in spans_task and len(spans_task["spans"]) == 4
    layer_tasks = list(record_tasks(seed_record(), kind="layers"))
    assert len(layer_tasks) == 1 and layer_tasks[0]["label"] == "JING"
    assert layer_tasks[0]["text"].startswith("主人與賓三揖") and layer_tasks[0]["meta"]["score"] == 0.9


def test_task_hash_counts_relations_and_tuples():
    task = list(record_tasks(seed_record(), kind="relations"))[1]
    other = json.loads(json.dumps(task))
    other["relations"] = other["relations"][:2]  # a relation-only edit: spans unchanged
    del other["_input_hash"], other["_task_hash"]
    set_hashes(other)
    assert other["_input_hash"] == task["_input_hash"]
    assert other["_task_hash"] != task["_task_hash"]
    counted = json.loads(json.dumps(task))
    counted["actions"][0]["count"] = 3
    assert set_hashes(counted, overwrite=True)["_task_hash"] != task["_task_hash"]
    kept = dict(task, _task_hash=123)
    assert set_hashes(kept)["_task_hash"] == 123  # hashes a record carries are kept (db-in does the same)


def test_gold_passages_become_tasks_and_tuples_survive_relations():
    records = [json.loads(l) for l in (GOLD / "dev" / "03.jsonl").read_text(encoding="utf-8").splitlines()]
    tasks = list(make_tasks(records, unit="segment"))
    assert len(tasks) == len(records)
    for record, task in zip(records, tasks):
        assert task["text"] == record["text"] and validate_record(task, "accept") == []
        assert actions_from_relations(task["text"], task["spans"], task["actions"], task["spans"], task["relations"]) == record["actions"]
    first = tasks[0]  # 03 p25: 主人對曰︰「…」出迎於門外，再拜。…
    verbs = [r for r in first["relations"] if r["label"] == "ARG_ACTOR" and first["text"][r["head_span"]["start"]] == "對"]
    assert [first["text"][r["child_span"]["start"]:r["child_span"]["end"]] for r in verbs] == ["主人"]


# -- validation --------------------------------------------------------------------------------------
def test_validation_reasons():
    task = list(record_tasks(siku_astral_record(), kind="relations", unit="segment"))[0]
    task["answer"] = "accept"
    assert validate_record(task) == []
    text = task["text"]
    i = text.index("上𧃊", text.index("上𧃊") + 1)
    bad = json.loads(json.dumps(task))
    # a tool that counted UTF-16 units puts the second 上𧃊 one unit further on
    bad["spans"] = [dict(s, start=s["start"] + 1, end=s["end"] + 1) if s["start"] == i else s for s in bad["spans"]]
    assert any("must count code points" in p for p in validate_record(bad))
    wrong_label = json.loads(json.dumps(task))
    wrong_label["spans"][0]["label"] = "PERSON"
    assert any("'PERSON' is not in the schema" in p for p in validate_record(wrong_label))
    shifted = json.loads(json.dumps(task))
    shifted["spans"][0]["token_end"] = 5
    assert any("token_end is 5" in p for p in validate_record(shifted))
    head = json.loads(json.dumps(task))
    head["relations"][0]["head_span"] = head["relations"][0]["child_span"]
    assert any("not a VERB" in p for p in validate_record(head))
    assert validate_record({k: v for k, v in task.items() if k != "answer"}) == ["no answer"]
    raw = (SIKU / "07_dashe.txt").read_text(encoding="utf-8")
    start = raw.index("從豆&KR1969;聲")
    cut = {"text": raw[start:start + 12], "answer": "accept", "spans": [{"start": 2, "end": 5, "label": "OBJECT"}]}
    assert any("cuts a character" in p for p in validate_record(cut))


# -- import / export ---------------------------------------------------------------------------------
def test_round_trip_is_byte_identical_with_astral_characters(tmp_path):
    exported = tmp_path / "tasks.jsonl"
    records = [json.loads(l) for l in (GOLD / "dev" / "03.jsonl").read_text(encoding="utf-8").splitlines()]
    write_jsonl(tmp_path / "in.jsonl", records + [siku_astral_record()])
    tasks_command([tmp_path / "in.jsonl"], exported, kind="relations", unit="segment")
    assert "\\ud85c\\udcca" in exported.read_text(encoding="utf-8")  # 𧃊 written as JSON's surrogate pair
    with AnswerStore(str(tmp_path / "answers.db")) as store:
        report = import_answers([exported], store, "round", annotator="A1")
        assert report.rejected == [] and report.stored == len(records) + 1
        export_answers(store, "round", tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == exported.read_bytes()
    last = json.loads((tmp_path / "again.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert "上𧃊" in last["text"] and len("上𧃊") == 2


def test_import_keeps_every_valid_record_and_explains_the_rest(tmp_path):
    tasks = list(record_tasks(seed_record(), kind="relations"))
    good = [dict(t, answer="accept") for t in tasks]
    broken = json.loads(json.dumps(good[1]))
    broken["spans"][1]["text"] = "阼階"
    lines = [json.dumps(good[0]), "{not json", json.dumps(broken), json.dumps(good[1]), json.dumps(dict(good[2], answer="maybe"))]
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with AnswerStore(str(tmp_path / "s.db")) as store:
        report = import_answers([path], store, "d", annotator="A1")
        assert report.stored == 2
        assert [r.where.rsplit(":", 1)[1] for r in report.rejected] == ["2", "3", "5"]
        assert "not JSON" in report.rejected[0].reasons[0]
        assert "'阼階' but text[2:7] is '阼階上當楣'" in report.rejected[1].reasons[0]
        assert "answer 'maybe'" in report.rejected[2].reasons[0]
        assert [json.loads(a.raw)["text"] for a in store.answers("d")] == [tasks[0]["text"], tasks[1]["text"]]


# -- converters ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("tool,suffix", [("labelstudio", "ls.json"), ("doccano", "doccano.jsonl"), ("brat", "brat")])
def test_converters_round_trip(tmp_path, tool, suffix):
    records = [json.loads(l) for l in (GOLD / "dev" / "10.jsonl").read_text(encoding="utf-8").splitlines()][:5]
    write_jsonl(tmp_path / "in.jsonl", records + [siku_astral_record()])
    tasks_command([tmp_path / "in.jsonl"], tmp_path / "tasks.jsonl", unit="segment")
    layer_src = tmp_path / "layer.jsonl"
    tasks_command([tmp_path / "in.jsonl"], layer_src, kind="layers")
    for source in (tmp_path / "tasks.jsonl", layer_src):
        out = tmp_path / f"{source.stem}.{suffix}"
        assert convert_command([source], out, tool).rejected == []
        back = tmp_path / f"{source.stem}.{tool}.back.jsonl"
        report = convert_command([out], back, "prodigy")
        assert report.rejected == []
        assert back.read_bytes() == source.read_bytes()


def test_labelstudio_counts_utf16_units_and_edits_come_back():
    task = list(record_tasks(siku_astral_record(), kind="relations", unit="segment"))[0]
    exported = to_labelstudio([dict(task, answer="accept")])[0]
    results = {r["id"]: r for r in exported["annotations"][0]["result"] if r["type"] == "labels"}
    second = task["text"].index("上𧃊", task["text"].index("上𧃊") + 1)
    span_id = next(i for i, r in results.items() if r["value"]["text"] == "上𧃊" and r["value"]["start"] > second)
    assert results[span_id]["value"]["start"] == second + 1  # one 𧃊 before it: 2 UTF-16 units
    # the annotator removes the OBJECT 爵 in Label Studio (and with it the relation)
    ann = exported["annotations"][0]
    obj = next(i for i, r in results.items() if r["value"]["labels"] == ["OBJECT"])
    ann["result"] = [r for r in ann["result"] if r.get("id") != obj and r.get("to_id") != obj]
    [(where, record, error)] = list(from_labelstudio([exported]))
    assert error is None and validate_record(record) == []
    assert "OBJECT" not in {s["label"] for s in record["spans"]}
    act = record["actions"][2]
    assert (act["actor"], act["verb"], act["purpose"], act["object"]) == ("上𧃊", "拜", "受", None)


# -- agreement, selection, training --------------------------------------------------------------------
def test_agreement_between_gold_and_second_annotation(tmp_path):
    a2 = [json.loads(l) for l in (GOLD / "agreement" / "A2.jsonl").read_text(encoding="utf-8").splitlines()]
    docs = {r["meta"]["doc"] for r in a2}
    a1 = [json.loads(l) for f in sorted(GOLD.glob("*/*.jsonl")) if f.parent.name != "agreement"
          for l in f.read_text(encoding="utf-8").splitlines()]
    a1 = [r for r in a1 if r["meta"]["doc"] in docs]
    assert len(a1) == len(a2) == 50
    write_jsonl(tmp_path / "a1.jsonl", a1)
    write_jsonl(tmp_path / "a2.jsonl", a2)
    with AnswerStore(str(tmp_path / "s.db")) as store:
        import_answers([tmp_path / "a1.jsonl"], store, "agree", annotator="A1")
        import_answers([tmp_path / "a2.jsonl"], store, "agree", annotator="A2")
        [pair] = agreement(store.answers("agree"))
    assert (pair.a, pair.b, pair.common, pair.compared) == ("A1", "A2", 50, 50)
    assert pair.tuples.reference == sum(len(r["actions"]) for r in a1)
    assert pair.tuples.other == sum(len(r["actions"]) for r in a2)
    assert pair.tuples.f1 > 0.99 and pair.spans["VERB"].f1 > 0.99


def test_cohen_kappa_on_layer_answers(tmp_path):
    raw = SEED_003.read_text(encoding="utf-8")
    jing = next(l for l in raw.splitlines() if l.startswith("主人與賓三揖"))
    zhu = next(l for l in raw.splitlines() if l.startswith("三揖者,將進揖"))
    shu = next(l for l in raw.splitlines() if "「主人」至「答拜」" in l).strip()
    other = next(l for l in raw.splitlines() if l.startswith("卷四"))
    texts = [jing, zhu, shu, other]
    a = ["JING", "ZHU", "SHU", "OTHER"]
    b = ["JING", "ZHU", "ZHU", "OTHER"]  # B takes the 疏 for 注
    assert cohen_kappa(a, b) == pytest.approx((0.75 - 0.25) / (1 - 0.25))
    for name, labels in (("A", a), ("B", b)):
        write_jsonl(tmp_path / f"{name}.jsonl", ({"text": t, "label": y, "answer": "accept"} for t, y in zip(texts, labels)))
    with AnswerStore(str(tmp_path / "s.db")) as store:
        for name in "AB":
            import_answers([tmp_path / f"{name}.jsonl"], store, "layers", annotator=name)
        [pair] = agreement(store.answers("layers"))
    assert len(pair.layer_pairs) == 4 and pair.kappa == pytest.approx(2 / 3)


def test_select_uncertain_orders_by_layer_scores_and_span_disagreement():
    record = seed_record()
    record["segments"] = [dict(record["segments"][0], end=record["sentences"][1]["start"], score=0.95),
                          dict(record["segments"][0], start=record["sentences"][1]["start"], score=0.55)]
    layer_tasks = list(record_tasks(record, kind="layers"))
    assert uncertainties(layer_tasks) == pytest.approx([0.05, 0.45])
    span_tasks = list(record_tasks(seed_record(), kind="spans"))

    def model(text):  # a span model that misses every LOCATION
        return [(s["start"], s["end"], s["label"]) for t in span_tasks if t["text"] == text for s in t["spans"] if s["label"] != "LOCATION"]

    scores = uncertainties(span_tasks, span_model=model)
    assert scores == pytest.approx([0.0, 1 - 6 / 7, 1 - 6 / 7])
    ordered = order_tasks(span_tasks, layer_model=None, span_model=model)
    assert [t["text"][:2] for t in ordered] == ["主人", "賓西", "主人"] and ordered[2]["text"].startswith("主人與賓")


def test_docbin_from_accepted_answers(tmp_path):
    from spacy.tokens import DocBin
    import spacy

    tasks = list(record_tasks(siku_astral_record(), kind="relations", unit="segment"))
    write_jsonl(tmp_path / "a.jsonl", (dict(t, answer="accept") for t in tasks))
    with AnswerStore(str(tmp_path / "s.db")) as store:
        import_answers([tmp_path / "a.jsonl"], store, "train", annotator="A1")
        examples = span_examples(store, "train")
    write_docbin(examples, tmp_path / "spans.spacy")
    [doc] = list(DocBin().from_disk(tmp_path / "spans.spacy").get_docs(spacy.blank("zh").vocab))
    assert doc.text == tasks[0]["text"]
    assert [(s.text, s.label_) for s in doc.spans["sc"]][3] == ("上𧃊", "ACTOR")
    assert len(doc.ents) == len(tasks[0]["spans"])


def test_spacy_span_model_adapter_for_selection(tmp_path):
    import spacy

    from pipeline.annotate.select import SpacySpanModel

    nlp = spacy.blank("zh")  # the character segmenter: one token per character, as in the tasks
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": "ACTOR", "pattern": "主人"}, {"label": "ACTOR", "pattern": "賓"},
                        {"label": "VERB", "pattern": "拜"}, {"label": "FACING", "pattern": "北面"}])
    nlp.to_disk(tmp_path / "spans")
    model = SpacySpanModel(str(tmp_path / "spans"))
    tasks = list(record_tasks(seed_record(), kind="spans"))
    assert model.predict(["主人阼階上當楣北面再拜。"]) == [[(0, 2, "ACTOR"), (7, 9, "FACING"), (10, 11, "VERB")]]
    scores = uncertainties(tasks, span_model=model)
    # sentence 1: the model finds 主人 ×2 and 賓 ×2 where the task proposes nothing → full disagreement;
    # sentences 2 and 3: 3 of the 4 proposed spans (all but the LOCATION) → F1 6/7
    assert scores == pytest.approx([1.0, 1 - 6 / 7, 1 - 6 / 7])


def test_brat_writes_a_span_across_lines_as_fragments_and_reads_it_back(tmp_path):
    # 特牲饋食禮 (Siku): 「主人冠端𤣥即位于門外西¶\n<pb:…>¶\n面」 — the facing 西面 is parted by a page break
    raw = (SIKU / "15_teshengkuishili.txt").read_text(encoding="utf-8")
    start = raw.index("主人冠端𤣥即位于門外西")
    end = raw.index("面注冠端", start) + 1
    text = raw[start:end]
    facing = {"start": text.index("西¶"), "end": len(text), "label": "FACING", "text": text[text.index("西¶"):]}
    record = {"text": text, "meta": {"doc": "15_teshengkuishili.txt"},
              "spans": [_span(text, "主人", "ACTOR"), _span(text, "即", "VERB"), _span(text, "位", "LOCATION"), facing],
              "actions": [_action("主人", "即", "即", 0, len(text), location="位", facing="西面")]}
    write_jsonl(tmp_path / "in.jsonl", [record])
    tasks_command([tmp_path / "in.jsonl"], tmp_path / "tasks.jsonl", unit="segment")
    assert convert_command([tmp_path / "tasks.jsonl"], tmp_path / "brat", "brat").rejected == []
    ann = (tmp_path / "brat" / "00001.ann").read_text(encoding="utf-8").splitlines()
    west = text.index("西¶")
    pb = text.index("<pb:")
    assert f"T4\tFACING {west} {west + 2};{pb} {pb + 25};{len(text) - 1} {len(text)}\t西¶ <pb:KR1d0028_WYG_015-2b>¶ 面" in ann
    assert convert_command([tmp_path / "brat"], tmp_path / "back.jsonl", "prodigy").rejected == []
    assert (tmp_path / "back.jsonl").read_bytes() == (tmp_path / "tasks.jsonl").read_bytes()
    # a span parted by anything but line breaks is not one span: refused
    (tmp_path / "brat" / "00001.ann").write_text("\n".join(
        line.replace(f"ACTOR 0 2\t主人", "ACTOR 0 1;2 3\t主 冠") for line in ann) + "\n", encoding="utf-8")
    report = convert_command([tmp_path / "brat"], tmp_path / "back2.jsonl", "prodigy")
    assert "discontinuous span T1" in report.rejected[0].reasons[0]
