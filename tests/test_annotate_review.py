"""The review page end to end in headless Chromium (Debian's chromium + chromium-driver, Selenium).

A scholar corrects the pipeline's proposals for seed 003 (鄉飲酒禮): the LOCATION 阼階上當楣 that
the proposal missed is marked with the keys, the FACING 北面 is removed and marked again with the
mouse, the tuple gets its location typed in; the next sentence is rejected, undone and accepted; a
注 passage proposed as 經 is relabelled ZHU. The answers must be in the store, and `yili train`'s
data from the store must carry the corrections. Chromium missing is a failure naming
scripts/ci-services.sh, never a skip.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from pipeline.annotate.jsonl import write_jsonl
from pipeline.annotate.review import ReviewServer, ReviewSession, load_tasks
from pipeline.annotate.store import AnswerStore
from pipeline.annotate.tasks import record_tasks
from pipeline.annotate.training import train_from_store

from test_annotate import SEED_003, seed_record

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def _tasks() -> list[dict]:
    record = seed_record()
    # the proposal missed the first LOCATION: no span, no location in the tuple
    missed = next(s for s in record["spans"] if s["label"] == "LOCATION")
    record["spans"] = [s for s in record["spans"] if s is not missed]
    record["actions"][0]["location"] = None
    relations = list(record_tasks(record, kind="relations"))[1:]
    raw = SEED_003.read_text(encoding="utf-8")
    zhu = next(l for l in raw.splitlines() if l.startswith("三揖者,將進揖"))
    layer = list(record_tasks({"text": zhu, "meta": {"doc": SEED_003.name}}, kind="layers"))
    assert layer[0]["label"] == "JING"  # the wrong proposal the scholar corrects
    return relations + layer


@pytest.fixture()
def browser():
    if not CHROMIUM or not CHROMEDRIVER:
        pytest.fail("headless Chromium and chromedriver are needed: run scripts/ci-services.sh "
                    "(installs Debian's chromium and chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is needed for the browser test: pip install -e '.[test]'")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="yili-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def test_review_page_corrections_reach_training_data(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    tasks = _tasks()
    write_jsonl(tmp_path / "tasks.jsonl", tasks)
    db = str(tmp_path / "answers.db")
    store = AnswerStore(db)
    queue = load_tasks(tmp_path / "tasks.jsonl", store, "review-test", "tester")
    server = ReviewServer(ReviewSession(queue, store, "review-test", "tester"), port=0).start()
    wait = WebDriverWait(browser, 15)

    def progress() -> str:
        return browser.find_element(By.ID, "progress").text

    def tok(i: int):
        return browser.find_element(By.CSS_SELECTOR, f'#text .tok[data-i="{i}"]')

    def keys(*seq) -> None:
        ActionChains(browser).send_keys(*seq).perform()

    try:
        assert server.url.startswith("http://127.0.0.1:")
        browser.get(server.url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "task")
        assert progress() == "0 / 3"
        assert "主人阼階上當楣北面再拜" in browser.find_element(By.ID, "text").text.replace("ACTOR", "").replace("FACING", "").replace("VERB", "")
        # keys: label 4 (LOCATION), cursor to 阼 (token 2), extend to 楣 (token 6), Enter
        keys("4", Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT * 4).key_up(Keys.SHIFT).perform()
        keys(Keys.ENTER)
        marks = {m.get_attribute("data-label"): m.text for m in browser.find_elements(By.CSS_SELECTOR, "#text mark.span")}
        assert marks["LOCATION"].startswith("阼階上當楣")
        # mouse: click 北面 to remove it, then drag across it with label 5 (FACING)
        tok(7).click()
        assert "FACING" not in {m.get_attribute("data-label") for m in browser.find_elements(By.CSS_SELECTOR, "#text mark.span")}
        browser.find_element(By.CSS_SELECTOR, '#labels button[data-label="FACING"]').click()
        ActionChains(browser).click_and_hold(tok(7)).move_to_element(tok(8)).release().perform()
        marks = {m.get_attribute("data-label"): m.text for m in browser.find_elements(By.CSS_SELECTOR, "#text mark.span")}
        assert marks["FACING"].startswith("北面")
        # the tuple: type the location the proposal missed
        row = browser.find_element(By.CSS_SELECTOR, '#tuples tbody tr[data-row="0"]')
        assert row.find_element(By.CSS_SELECTOR, 'input[data-field="actor"]').get_attribute("value") == "主人"
        row.find_element(By.CSS_SELECTOR, 'input[data-field="location"]').send_keys("阼階上當楣")
        browser.find_element(By.ID, "accept").click()
        wait.until(lambda d: progress() == "1 / 3")
        assert "賓西階上當楣北面答拜" in browser.find_element(By.ID, "text").text.replace("ACTOR", "").replace("LOCATION", "").replace("FACING", "").replace("VERB", "")
        # reject, undo, accept with the keys
        keys("x")
        wait.until(lambda d: progress() == "2 / 3")
        keys("u")
        wait.until(lambda d: progress() == "1 / 3")
        keys("a")
        wait.until(lambda d: progress() == "2 / 3")
        # the layer task: 注 proposed as JING → Z, accept
        assert browser.find_element(By.CSS_SELECTOR, '#layers button.active').text == "JING"
        keys("z")
        assert browser.find_element(By.CSS_SELECTOR, '#layers button.active').text == "ZHU"
        browser.find_element(By.ID, "accept").click()
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "done")
        assert progress() == "3 / 3"
    finally:
        server.stop()
        store.close()

    with AnswerStore(db) as store:
        rows = list(store.answers("review-test"))
    assert [r.answer for r in rows] == ["accept", "reject", "accept", "accept"]
    assert {r.annotator for r in rows} == {"tester"} and len({r.session for r in rows}) == 1
    first = rows[0].record
    assert first["_annotator_id"] == "tester" and first["answer"] == "accept"
    assert first["_input_hash"] == tasks[0]["_input_hash"] and first["_task_hash"] == tasks[0]["_task_hash"]
    assert [(s["text"], s["label"]) for s in first["spans"]] == [("主人", "ACTOR"), ("阼階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB")]
    assert {r["label"] for r in first["relations"]} == {"ARG_ACTOR", "ARG_LOCATION", "ARG_FACING"}
    assert first["actions"][0]["location"] == "阼階上當楣" and first["actions"][0]["count"] == 2
    assert rows[3].record["label"] == "ZHU"

    report = train_from_store("review-test", db, tmp_path / "train")
    assert (report.layer_examples, report.span_examples) == (1, 2)
    layers = [json.loads(l) for l in (tmp_path / "train" / "layers.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(l["label"], l["text"][:6]) for l in layers] == [("ZHU", "三揖者,將進")]
    import spacy
    from spacy.tokens import DocBin

    docs = list(DocBin().from_disk(report.docbin).get_docs(spacy.blank("zh").vocab))
    assert [(s.text, s.label_) for s in docs[0].spans["sc"]] == [("主人", "ACTOR"), ("阼階上當楣", "LOCATION"), ("北面", "FACING"), ("拜", "VERB")]
    assert "LOCATION" not in {s["label"] for s in tasks[0]["spans"]}  # the training data changed with the edit


def test_review_server_answers_local_json_only_and_refuses_bad_spans(tmp_path):
    import urllib.error
    import urllib.request

    tasks = _tasks()
    with AnswerStore(str(tmp_path / "a.db")) as store:
        server = ReviewServer(ReviewSession(tasks, store, "d", "tester"), port=0).start()
        try:
            def post(path, body, content_type="application/json", host=None):
                req = urllib.request.Request(server.url.rstrip("/") + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": content_type, **({"Host": host} if host else {})})
                try:
                    with urllib.request.urlopen(req, timeout=10) as res:
                        return res.status, json.loads(res.read())
                except urllib.error.HTTPError as exc:
                    return exc.code, json.loads(exc.read())

            answer = {"task": {"spans": [{"start": 0, "end": 2, "label": "ACTOR"}], "actions": []}, "answer": "accept"}
            assert post("/api/answer", answer, content_type="text/plain")[0] == 403  # a cross-site form
            assert post("/api/answer", answer, host="evil.example:80")[0] == 403  # DNS rebinding
            overlap = {"task": {"spans": [{"start": 0, "end": 2, "label": "ACTOR"}, {"start": 1, "end": 3, "label": "VERB"}],
                                "actions": []}, "answer": "accept"}
            status, body = post("/api/answer", overlap)
            assert status == 400 and "overlap" in body["error"]
            status, body = post("/api/answer", answer)
            assert status == 200 and body["progress"]["done"] == 1
        finally:
            server.stop()
        [row] = list(store.answers("d"))
        assert [s["text"] for s in row.record["spans"]] == ["主人"] and row.record["actions"] == [] and row.record["relations"] == []


def test_review_serves_the_tasks_it_can_and_names_the_lines_it_cannot(tmp_path):
    """A tasks file with a line cut short and a record with no text: those two are named with their
    lines, the others are served (the first bad line had stopped `yili review` with a traceback)."""
    tasks = _tasks()
    path = tmp_path / "tasks.jsonl"
    write_jsonl(path, tasks)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([lines[0], b'{"text": "\xe4\xb8\xbb', b'{"meta": {}}', *lines[1:]]))
    store = AnswerStore(str(tmp_path / "answers.db"))
    refused: list[str] = []
    queue = load_tasks(path, store, "review-test", "tester", refused=refused)
    store.close()
    assert [t["text"] for t in queue] == [t["text"] for t in tasks]
    assert refused == [f"{path}:2: not JSON: Unterminated string starting at column 10", f"{path}:3: no text to review"]


def test_review_says_why_it_cannot_start(tmp_path):
    """A tasks file that is not there, or a port another program holds: status 2 and why (both had
    been tracebacks)."""
    import socket

    from typer.testing import CliRunner

    from pipeline.cli import app

    runner = CliRunner()
    db = str(tmp_path / "answers.db")
    result = runner.invoke(app, ["review", str(tmp_path / "gone.jsonl"), "--db", db])
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and "cannot read the tasks" in said and "No such file" in said
    write_jsonl(tmp_path / "tasks.jsonl", _tasks())
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["review", str(tmp_path / "tasks.jsonl"), "--db", db, "--port", str(port)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and f"cannot serve the page on 127.0.0.1:{port}" in said and "choose another --port" in said
