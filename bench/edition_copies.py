"""Every corpus file and copies of it as scholars get them, read by `yili process`: how far each
copy's reading agrees with the file's (layers per Han character; tuples).

Copies: converted to simplified characters (opencc t2s, same length); a Kanripo text without its
org header lines (`#+TITLE`, `#+PROPERTY` …, as Kanripo's web view shows it); a Kanripo text without
any of Kanripo's marks (header lines, page marks, ¶), as other viewers give it, and the 單疏本 so with
ASCII spaces for its full-width ones; Windows line ends;
a byte-order mark; the punctuated XHTML with its ，。；：？！ made half-width; the Kanripo texts and
the seeds as web pages saved from a browser (a line a paragraph, inside a site's menu and footer);
the 鄭注 as a plain text with its 注 in full-width parentheses; the 四庫 as 四庫全書 sites write it
(a passage a line, 疏【…】); the XHTML as 漢川草廬's 十三經注疏
writes it (經(注) lines, [疏] lines), the same cut a sentence a line, and as the sites that mirror it
give it (indented, “” quotes, a 疏 paragraph a line). Characters are
aligned on the Han text (a copy without its header has fewer),
tuples compared by actor, verb and negation (script folded). What a conversion itself destroys
stays in the figures: the 四庫 writes 于 in the 經 and 於 in the 注, and t2s makes both 于.

    .venv/bin/python bench/edition_copies.py [--out bench/results/edition-copies.json]
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
SEEDS = ROOT.parent / "shared" / "seeds"
KANRIPO = ("zhushu-siku", "zhengzhu-sbck", "danshu-sbck")


def _simplified(text: str) -> str:
    import opencc

    out = opencc.OpenCC("t2s").convert(text)
    assert len(out) == len(text)
    return out


def _web_page(text: str) -> str:
    """The text as a site shows it, saved from a browser: a line a paragraph (leading spaces as
    &nbsp;, marks escaped), inside a page with a menu, a breadcrumb, a heading and a footer."""
    import html

    def paragraph(line: str) -> str:
        lead = len(line) - len(line.lstrip(" "))
        return f"<p>{'&nbsp;' * lead}{html.escape(line[lead:])}</p>" if line.strip() else ""

    body = "\n".join(paragraph(line) for line in text.splitlines())
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>儀禮 - 古籍網</title>'
            '<script>var page = "<p>主人</p>";</script><style>p { margin: 0 }</style></head>\n<body>'
            '<nav><a href="/">首頁</a> <a href="/books">古籍</a> <a href="/search">檢索</a></nav>\n'
            '<div class="breadcrumb"><a href="/">首頁</a> &gt; <a href="/jing">經部</a> &gt; 儀禮</div>\n'
            f'<h1>儀禮</h1>\n<div id="content">\n{body}\n</div>\n'
            '<footer>© 2024 古籍網 版權所有 京ICP備00000000號</footer></body></html>\n')


def _unmarked(text: str) -> str:
    """A Kanripo text as another viewer gives it: no header lines, page marks or ¶ (printed lines kept)."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return re.sub(r"<pb:[^>]*>", "", body).replace("¶", "")


def _site_siku(text: str) -> str:
    """The 四庫 as the 四庫全書 sites write it: Kanripo's marks and column breaks gone, a passage a
    line (its printed lines joined up to the end of its 疏), 音義 and 疏 in 【…】, every line indented
    with spaces, the title lines too."""
    out: list[str] = []
    run = ""
    for line in _unmarked(text).replace("/", "").splitlines():
        if line.startswith("\u3000") or line.startswith("欽定"):
            out += [run, line.strip("\u3000")]
            run = ""
        else:
            run += line
    body = "\n".join(filter(None, [*out, run])).replace(")(", "").translate(str.maketrans("()", "【】"))
    body = re.sub(r"(疏【[^】]*】)(?=[^【\n])", "\\1\n", body)
    return "".join(f"       {line}\n" for line in body.splitlines())


def _parenthesised(text: str) -> str:
    """The 鄭注 as a plain copy writes it: Kanripo's marks and column breaks gone, the 注 in
    full-width parentheses, the printed lines kept."""
    return _unmarked(text).replace("/", "").replace("(", "（").replace(")", "）")


def _bracketed_runon(text: str) -> str:
    """The e-book as 漢川草廬's 十三經注疏 writes it: each 經 with its 注 bracketed after it on one
    line, each 疏 a line opened by [疏] (the layers as the e-book's reader finds them)."""
    from pipeline.layers import segment_layers
    from pipeline.read.reading import clean_text

    read = segment_layers(text, "x.xhtml")
    removed = sorted((r.start, r.end) for r in read.removed)
    units = [(s.layer, clean_text(text, s.start, s.end, removed)) for s in read.segments]
    lines: list[list[str]] = []  # [經, 注] or [other line]
    for layer, unit in units:
        if layer == "ZHU" and lines and len(lines[-1]) == 2:
            lines[-1][1] += unit
        elif layer == "JING" and lines and len(lines[-1]) == 2 and not lines[-1][1]:
            lines[-1][0] += unit
        elif layer == "JING":
            lines.append([unit, ""])
        else:
            lines.append([("[疏]" if layer == "SHU" else "") + unit])
    return "\n".join(line[0] + (f"({line[1]})" if len(line) == 2 and line[1] else "") for line in lines) + "\n"


def _sentence_lines(text: str) -> str:
    """The same, cut a sentence a line (a forum's copy of it: a 注 and a 疏 run over several lines)."""
    return "\n".join(part for line in _bracketed_runon(text).splitlines()
                     for part in re.split(r"(?<=。)(?![」)])", line) if part) + "\n"


def _mirrored(text: str) -> str:
    """The same as the sites that mirror 漢川草廬's text give it (and most copies of it online): every
    line indented, “” for 「」, the [疏] line holding the head alone, each of the 疏's paragraphs
    (○注「X」至「Y」, ○釋曰:…) a line of its own."""
    lines: list[str] = []
    for line in _bracketed_runon(text).translate(str.maketrans("「」『』", "“”‘’")).splitlines():
        head, *paragraphs = line.split("○") if line.startswith("[疏]") else [line]
        lines += [head] + ["○" + p.replace("釋曰︰", "釋曰:") for p in paragraphs if p]
    return "".join(f"  {line}\n" for line in lines)


COPIES: dict[str, tuple[Callable[[str], str], tuple[str, ...]]] = {
    "simplified": (_simplified, (*KANRIPO, "zhushu-xhtml")),
    "no org header": (lambda t: "".join(l for l in t.splitlines(keepends=True) if not l.startswith("#")), KANRIPO),
    "no Kanripo marks": (_unmarked, KANRIPO),
    "no Kanripo marks, ASCII spaces": (lambda t: _unmarked(t).replace("\u3000", " "), ("danshu-sbck",)),
    "CRLF line ends": (lambda t: t.replace("\n", "\r\n"), (*KANRIPO, "zhushu-xhtml")),
    "byte-order mark": (lambda t: "\ufeff" + t, (*KANRIPO, "zhushu-xhtml")),
    "half-width marks": (lambda t: t.translate(str.maketrans("，。；：？！", ",.;:?!")), ("zhushu-xhtml",)),
    "web page (HTML)": (_web_page, (*KANRIPO, "seeds")),
    "plain text, 注 in parentheses": (_parenthesised, ("zhengzhu-sbck",)),
    "a 四庫全書 site's copy (疏【…】, a passage a line)": (_site_siku, ("zhushu-siku",)),
    "run-on lines, 注 bracketed": (_bracketed_runon, ("zhushu-xhtml",)),
    "the same, a sentence a line": (_sentence_lines, ("zhushu-xhtml",)),
    "the same as its mirrors give it (indented, a 疏 paragraph a line)": (_mirrored, ("zhushu-xhtml",)),
}


#: copies of the XHTML that are plain text: named ``….xhtml.txt`` (`yili process` reads a file's
#: extension as a hint), matched with their original without it
PLAIN_COPIES = {"run-on lines, 注 bracketed", "the same, a sentence a line",
                "the same as its mirrors give it (indented, a 疏 paragraph a line)"}
AS_TEXT = ".txt"


def process(folder: Path, out: Path) -> dict[str, dict]:
    """`yili process` over ``folder``; output records by file name."""
    subprocess.run([sys.executable, "-m", "pipeline.cli", "process", str(folder), "-o", str(out), "-q", "--no-resume",
                    "-j", "2"], check=True, cwd=ROOT)
    records = map(json.loads, out.read_text(encoding="utf-8").splitlines())
    return {Path(r["meta"]["source"]).name.replace(".xhtml" + AS_TEXT, ".xhtml"): r for r in records}


def han_layers(record: dict) -> tuple[str, list[str]]:
    """The record's Han characters (script folded) and the layer each is read as."""
    from pipeline.layers.features import is_han
    from pipeline.text.normalise import normalise_str

    layer = ["-"] * len(record["text"])
    for s in record["segments"]:
        layer[s["start"]:s["end"]] = [s["layer"]] * (s["end"] - s["start"])
    at = [i for i, c in enumerate(record["text"]) if is_han(c)]
    return normalise_str("".join(record["text"][i] for i in at)), [layer[i] for i in at]


def agreement(original: dict, copy: dict) -> tuple[int, int]:
    """(Han characters read in the same layer in both, Han characters aligned between them): a copy
    without its header lacks the header's characters, and a few variant glyphs fold apart in t2s."""
    a, la = han_layers(original)
    b, lb = han_layers(copy)
    if a == b:
        return sum(x == y for x, y in zip(la, lb)), len(a)
    blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(la[i + k] == lb[j + k] for i, j, n in blocks for k in range(n)), sum(n for _, _, n in blocks)


def tuples(record: dict) -> Counter:
    from pipeline.text.normalise import normalise_str

    return Counter((normalise_str(t.get("actor") or ""), normalise_str(t["verb"]), bool(t.get("negated")))
                   for t in record["actions"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "edition-copies.json")
    args = parser.parse_args()
    started = time.perf_counter()
    files = [p for p in sorted(CORPUS.rglob("*")) if p.is_file() and p.name != "README.md"] + sorted(SEEDS.glob("*.txt"))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        folders = {"original": Path(tmp) / "original"} | {name: Path(tmp) / f"copy{k}" for k, name in enumerate(COPIES)}
        for folder in folders.values():
            folder.mkdir()
        for path in files:
            name, text = f"{path.parent.name}__{path.name}", path.read_text(encoding="utf-8")
            (folders["original"] / name).write_text(text, encoding="utf-8", newline="")
            for copy, (make, editions) in COPIES.items():
                if path.parent.name in editions:  # a copy that is no longer XHTML is named as a text
                    copy_name = name + AS_TEXT if copy in PLAIN_COPIES and name.endswith(".xhtml") else name
                    (folders[copy] / copy_name).write_text(make(text), encoding="utf-8", newline="")
        read = {copy: process(folder, Path(tmp) / f"{folder.name}.jsonl") for copy, folder in folders.items()}
    for copy in COPIES:
        per: dict[str, Counter] = defaultdict(Counter)
        for name, record in read[copy].items():
            original, edition = read["original"][name], name.split("__")[0]
            same, han = agreement(original, record)
            ta, tb = tuples(original), tuples(record)
            per[edition].update({"same": same, "han": han, "errors": int("error" in record), "tuples": sum(ta.values()),
                                 "tuples_copy": sum(tb.values()), "tuples_same": sum((ta & tb).values())})
        for edition, c in sorted(per.items()):
            both = c["tuples"] + c["tuples_copy"]
            rows.append({"copy": copy, "edition": edition, "han_chars": c["han"], "errors": c["errors"],
                         "layer_agreement": round(c["same"] / c["han"], 4), "tuples": c["tuples"],
                         "tuples_copy": c["tuples_copy"],
                         "tuple_agreement_f1": round(2 * c["tuples_same"] / both, 4) if both else None})
    figures = {"command": "python bench/edition_copies.py", "seconds": round(time.perf_counter() - started, 1), "rows": rows}
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# Copies of the corpus editions", "",
             f"`{figures['command']}` ({figures['seconds']} s): each corpus file and its copies read by "
             "`yili process`; a copy's reading against the file's (see the script's docstring).", "",
             "| copy | edition | Han chars aligned | failed | layer agreement | tuples (file / copy) | tuple agreement F1 |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        f1 = "–" if r["tuple_agreement_f1"] is None else r["tuple_agreement_f1"]
        lines.append(f"| {r['copy']} | {r['edition']} | {r['han_chars']} | {r['errors']} | {r['layer_agreement']} | "
                     f"{r['tuples']} / {r['tuples_copy']} | {f1} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
