"""The HTML views opened in headless Chromium: what a reader sees is checked, not the HTML source.

Needs Debian's chromium and chromium-driver: `scripts/install-chromium.sh` installs them. Without
them these tests fail (they are not skipped): the views are a deliverable.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_export import PASSAGES, error_record, note_record, seed003_record, write_input

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1400,1800"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = CHROMIUM if CHROMIUM.exists() else (Path(shutil.which("chromium") or "") if shutil.which("chromium") else None)
    driver_path = CHROMEDRIVER if CHROMEDRIVER.exists() else (Path(shutil.which("chromedriver")) if shutil.which("chromedriver") else None)
    if chromium is None or driver_path is None:
        pytest.fail("headless Chromium is not installed (need /usr/bin/chromium and /usr/bin/chromedriver): "
                    "run scripts/install-chromium.sh")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(executable_path=str(driver_path)), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    from pipeline.export import run_export

    folder = tmp_path_factory.mktemp("views")
    processed = write_input(folder / "processed.jsonl", [seed003_record(), error_record(), note_record()])
    run_export([processed], folder / "out", formats="html", find="主人與賓三揖")
    return folder / "out"


def open_page(browser, path: Path):
    from selenium.webdriver.common.by import By

    browser.get(path.resolve().as_uri())
    return browser.find_element(By.TAG_NAME, "body")


def cells(browser, css: str) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    return [[td.text for td in row.find_elements(By.CSS_SELECTOR, "td")]
            for row in browser.find_elements(By.CSS_SELECTOR, css)]


def test_report_shows_actors_verbs_bows_and_places(browser, views):
    from selenium.webdriver.common.by import By

    body = open_page(browser, views / "report.html")
    assert "2 document(s), 25 action tuple(s); 1 error record(s) skipped" in body.text
    # acts per actor: 主人 15 (12 in seed 003, 3 in the note), 賓 8, 介 2; inferred ones counted apart
    assert cells(browser, "table.actors tbody tr") == [["主人", "15", "8", "7"], ["賓", "8", "7", "1"], ["介", "2", "2", "0"]]
    verbs = browser.find_element(By.CSS_SELECTOR, "table.verbs")
    headers = [th.text for th in verbs.find_elements(By.TAG_NAME, "th")]
    assert headers[:3] == ["chapter", "揖", "拜"]  # in the order of the closed verb list
    rows = {r[0]: r[1:] for r in cells(browser, "table.verbs tbody tr")}
    assert rows["04"][headers.index("拜") - 1] == "7" and rows["?"][headers.index("拜") - 1] == "4"
    # bows (拜 稽首 揖) with a target: 三揖 and 再拜賓 to 賓 (once more in the note), 拜介 to 介 (twice)
    assert cells(browser, "table.bows tbody tr") == [["主人", "賓", "3"], ["主人", "介", "2"]]
    assert cells(browser, "table.offerings tbody tr") == [["主人", "賓", "1"]]
    places = dict((p, n) for p, n in cells(browser, "table.places tbody tr"))
    assert places["阼階上當楣"] == "1" and places["門外"] == "2" and places["賓之席前"] == "1"
    facings = sorted(map(tuple, cells(browser, "table.facings tbody tr")))
    assert facings == [("主人", "北面", "1"), ("主人", "西北面", "1"), ("賓", "北面", "1")]
    # the plots are drawn, with their Chinese labels as text
    svgs = browser.find_elements(By.CSS_SELECTOR, "svg")
    assert len(svgs) >= 6 and all(s.size["width"] > 100 for s in svgs)
    labels = {t.text for t in browser.find_elements(By.CSS_SELECTOR, "#actors svg text")}
    assert {"主人", "賓", "介"} <= labels


def test_passages_show_spans_by_label_and_layers_shaded(browser, views):
    from selenium.webdriver.common.by import By

    body = open_page(browser, views / "passages.html")
    sections = browser.find_elements(By.CSS_SELECTOR, "section.passage")
    assert [s.get_attribute("data-layer") for s in sections] == ["JING"]  # --find keeps the one passage
    section = sections[0]
    assert section.value_of_css_property("background-color") == "rgba(255, 247, 214, 1)"  # 經 shade
    marks = [m.text.split() for m in section.find_elements(By.CSS_SELECTOR, "mark")]
    assert marks[:3] == [["主人", "ACTOR"], ["賓", "ACTOR"], ["揖", "VERB"]]
    assert ["阼階上當楣", "LOCATION"] in marks and ["北面", "FACING"] in marks
    assert len(marks) == 17
    assert "主人與賓三揖,至於階,三讓。" in body.text.replace("\n", "").replace("ACTOR", "").replace(
        "VERB", "").replace("LOCATION", "").replace(" ", "")


def test_passages_of_all_layers(browser, tmp_path):
    from selenium.webdriver.common.by import By

    from pipeline.export.source import load_documents
    from pipeline.export.views import passages_html

    docs = load_documents([seed003_record()]).documents
    page = tmp_path / "all.html"
    page.write_text(passages_html(docs), encoding="utf-8")
    open_page(browser, page)
    sections = browser.find_elements(By.CSS_SELECTOR, "section.passage")
    assert [s.get_attribute("data-layer") for s in sections] == ["JING", "JING", "JING", "ZHU", "JING"]
    zhu = sections[3]
    assert zhu.value_of_css_property("background-color") == "rgba(227, 240, 255, 1)"
    assert [m.text.split() for m in zhu.find_elements(By.CSS_SELECTOR, "mark")] == [["獻", "VERB"], ["賓", "ACTOR"]]


def test_flow_follows_who_moves_where(browser, views):
    from selenium.webdriver.common.by import By

    open_page(browser, views / "flow.html")
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    assert len(headings) == 1 and headings[0].startswith("003_c8719e2da7acda31.txt")  # the note lacks the passage
    actors = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.flow th.actor")]
    assert actors == ["主人", "賓"]
    rows = cells(browser, "table.flow tbody tr")
    # each act in textual order: # | clause | 主人 | 賓, starting at 主人與賓三揖 and going on into 坐取爵, 獻賓 …
    assert [r[1] for r in rows[:6]] == ["主人與賓三揖", "三讓", "主人升", "賓升", "主人阼階上當楣北面再拜", "賓西階上當楣北面答拜"]
    assert rows[0][2] == "三揖 → 賓" and rows[0][3] == "← 三揖"
    assert rows[1][2] == "（主人）三讓"
    assert rows[4][2] == "再拜\n阼階上當楣，北面"
    # 賓 bows at 西階上當楣 while 主人 is still where the text last put him
    assert rows[5][3] == "答拜\n西階上當楣，北面" and rows[5][2] == "阼階上當楣，北面"
    clauses = [r[1] for r in rows]
    assert clauses.index("西北面獻賓") > clauses.index("主人坐取爵") and clauses[-1] == "賓少退"
    served = rows[clauses.index("西北面獻賓")]
    assert served[2] == "（主人）獻 → 賓\n西北面" and served[3] == "← 獻"
    back = rows[clauses.index("以復位")]
    assert back[3] == "（賓）復\n位"


def test_views_of_real_processed_output(browser, tmp_path, processed_seeds):
    from selenium.webdriver.common.by import By

    from pipeline.export import run_export
    record = processed_seeds["003"]  # the pipeline's own output on seed 003 (shared with test_process)
    assert "error" not in record, record.get("error")
    out = tmp_path / "real"
    run_export([write_input(tmp_path / "p.jsonl", [record])], out, formats="html", find=PASSAGES[1][0][:6])
    body = open_page(browser, out / "report.html")
    assert f"1 document(s), {len(record['actions'])} action tuple(s)" in body.text
    actors = [r[0] for r in cells(browser, "table.actors tbody tr")]
    assert "主人" in actors[:3] and "賓" in actors[:3]  # the host and the guest lead 鄉飲酒禮
    open_page(browser, out / "flow.html")
    flow_actors = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.flow th.actor")]
    assert flow_actors[:2] == ["主人", "賓"]
    open_page(browser, out / "passages.html")
    marks = [m.text.split()[0] for m in browser.find_elements(By.CSS_SELECTOR, "section.passage mark")]
    assert "主人" in marks and "阼階上當楣" in "".join(marks)
