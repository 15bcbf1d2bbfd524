"""Glyphs an unpunctuated edition writes where the punctuated XHTML edition writes another character.

How the edition variants of ``pipeline/text/normalise.py`` (VARIANTS, the blocks of 2026-11-27) were
found: each chapter's text in the 四庫 注疏 and 四部叢刊 鄭注 editions is aligned character by character
with the XHTML edition's (Han characters only, after ``normalise_str``; difflib), and every
one-for-one replacement is counted. A glyph the XHTML edition never writes in any chapter is a
candidate variant; whether it is one (㒒 for 僕) or one edition's misreading (柬 for 東) is a reader's
call, so this lists, it does not decide. Glyphs already in VARIANTS are left out.

Dev chapters and 喪服 (11) only by default: the test chapters' texts are not read.

    .venv/bin/python bench/edition_glyphs.py [--chapters 03,04,05,07,10,11,15] [--min 1]
        → bench/results/edition-glyphs.md
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
EDITIONS = {"zhushu-siku": "四庫 注疏", "zhengzhu-sbck": "四部叢刊 鄭注"}


def han_stream(path: Path) -> str:
    from pipeline.layers.features import is_han
    from pipeline.read.inputs import read_file
    from pipeline.text.normalise import normalise_str

    return "".join(c for c in normalise_str(read_file(path).record["text"]) if is_han(c))


def replacements(a: str, b: str) -> list[tuple[str, str, str]]:
    """(glyph of ``a``, character of ``b``, context) for each one-for-one replacement of ≤ 2 characters."""
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1 <= 2:
            for x, y in zip(a[i1:i2], b[j1:j2]):
                out.append((x, y, f"{a[max(0, i1 - 6):i2 + 6]} / {b[max(0, j1 - 6):j2 + 6]}"))
    return out


def main() -> int:
    from pipeline.text.normalise import VARIANTS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", default="03,04,05,07,10,11,15")
    parser.add_argument("--min", type=int, default=1, help="least number of alignments to list a glyph")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "edition-glyphs.md")
    args = parser.parse_args()
    chapters = args.chapters.split(",")
    xhtml_chars = Counter()
    for path in sorted((CORPUS / "zhushu-xhtml").glob("*.xhtml")):
        xhtml_chars.update(han_stream(path))
    lines = ["# Glyphs of the unpunctuated editions against the XHTML edition", "",
             f"`python bench/edition_glyphs.py --chapters {args.chapters} --min {args.min}`: one-for-one "
             "replacements in the aligned Han text of each chapter, for glyphs the XHTML edition never writes "
             "(any chapter) and VARIANTS does not already fold. A list for a reader, not a decision.", ""]
    for folder, name in EDITIONS.items():
        pairs: Counter = Counter()
        context: dict = {}
        for chapter in chapters:
            a = next((CORPUS / folder).glob(f"{chapter}_*"), None)
            b = next((CORPUS / "zhushu-xhtml").glob(f"{chapter}_*"), None)
            if a is None or b is None:
                continue
            for x, y, ctx in replacements(han_stream(a), han_stream(b)):
                pairs[(x, y)] += 1
                context.setdefault((x, y), ctx)
        rows = [(n, x, y) for (x, y), n in pairs.most_common()
                if n >= args.min and not xhtml_chars[x] and x not in VARIANTS]
        lines += [f"## {name} ({folder})", "", "| times | glyph | XHTML | code point | context (edition / XHTML) |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [f"| {n} | {x} | {y} | U+{ord(x):04X} | {context[(x, y)]} |" for n, x, y in rows]
        lines.append("")
        print(name, len(rows), "candidates", flush=True)
    args.out.write_text("\n".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
