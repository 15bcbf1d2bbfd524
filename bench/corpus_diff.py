"""What a change does to the whole corpus: two `yili process` outputs compared, document by document.

    .venv/bin/python -m pipeline.cli process ../shared/corpus ../shared/seeds -o BEFORE.jsonl --no-resume -q -j 2
    (change the code)
    .venv/bin/python -m pipeline.cli process ../shared/corpus ../shared/seeds -o AFTER.jsonl --no-resume -q -j 2
    .venv/bin/python bench/corpus_diff.py BEFORE.jsonl AFTER.jsonl

For every document: how many tuples (actor, verb, start) and spans (start, end, label) one output
has that the other lacks. The tuples and spans themselves are printed only for the documents of
the dev chapters (03 04 05 07 10 15, any edition) and the seeds: the test chapters (12 13 14 17) are
counted, never shown — reading their outputs is developing on them — and so are the chapters the
action gold leaves out (11, and the held-back ones if a corpus ever holds them).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pipeline.actions.report import split_chapters  # noqa: E402

#: the chapters whose changes are printed (annotations/actions/SPLITS.md: dev)
DEV = frozenset(split_chapters("dev"))
#: a corpus file's chapter: its name's leading number (05_xiangsheli.txt); the SBCK 單疏 juan files have none
_CHAPTER = re.compile(r"^(\d\d)_")


def read(path: Path) -> dict[str, dict[str, Any]]:
    """The records of a `yili process` output by document (``meta.source``, else the line number);
    a line that is no JSON record stops the comparison, named by file and line."""
    from pipeline.annotate.jsonl import read_lines

    out: dict[str, dict[str, Any]] = {}
    for line in read_lines(path):
        if line.error or not isinstance(line.record, dict):
            raise SystemExit(f"{path}:{line.number}: {line.error or 'not a JSON object'}")
        out[str((line.record.get("meta") or {}).get("source") or line.number)] = line.record
    return out


def shown(source: str) -> bool:
    """Are a document's changes printed? A seed, or a corpus file of a dev chapter."""
    name = Path(source).name
    if "/seeds/" in source.replace("\\", "/"):
        return True
    m = _CHAPTER.match(name)
    return bool(m) and m.group(1) in DEV


def tuples(record: dict[str, Any]) -> Counter:
    return Counter((a.get("start"), a.get("actor") or "", a.get("verb")) for a in record.get("actions") or [])


def spans(record: dict[str, Any]) -> Counter:
    return Counter((s["start"], s["end"], s["label"]) for s in record.get("spans") or [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--spans", action="store_true", help="print the spans that changed too (dev documents only)")
    args = parser.parse_args(argv)
    before, after = read(args.before), read(args.after)
    changed = 0
    for source in sorted(set(before) | set(after)):
        a, b = before.get(source), after.get(source)
        if a is None or b is None:
            print(f"{source}: only in {'AFTER' if a is None else 'BEFORE'}")
            changed += 1
            continue
        gone_t, new_t = tuples(a) - tuples(b), tuples(b) - tuples(a)
        gone_s, new_s = spans(a) - spans(b), spans(b) - spans(a)
        if not (gone_t or new_t or gone_s or new_s):
            continue
        changed += 1
        print(f"{source}: tuples −{sum(gone_t.values())} +{sum(new_t.values())}, spans −{sum(gone_s.values())} +{sum(new_s.values())}")
        if not shown(source):
            continue
        text = a.get("text") or ""
        for sign, found in (("−", gone_t), ("+", new_t)):
            for (start, actor, verb), n in sorted(found.items(), key=lambda x: (x[0][0] or 0, x[0][1], x[0][2] or "")):
                at = text[start:start + 12].replace("\n", " ") if isinstance(start, int) else ""
                print(f"    {sign} {actor or '∅'} {verb}  {at}" + (f"  ×{n}" if n > 1 else ""))
        if args.spans:
            for sign, found in (("−", gone_s), ("+", new_s)):
                for (s, e, label), n in sorted(found.items()):
                    print(f"    {sign} {label} {text[s:e]}" + (f"  ×{n}" if n > 1 else ""))
    print(f"{changed} of {len(set(before) | set(after))} documents changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
