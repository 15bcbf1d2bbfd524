"""What a change fixed and broke: two ``--errors`` files compared, error by error.

    .venv/bin/python bench/errors_diff.py BEFORE.jsonl AFTER.jsonl [--form punctuated] [--chapter 15]
        [--setting unseen] [--reading passage] [--spans] [--summary]

Both files come from ``yili evaluate actions --errors FILE`` (the dev passages) or from
``python bench/spans.py --errors FILE`` (the held-out dev chapter of each fold; its records also
name the ``setting`` and the ``reading``). An error is the passage, the form and everything the record
says of the tuple (its kind, verb, gold and read actor, clause, what went wrong with a carried actor)
or of the span (``--spans``: kind, label, text, what was read); the errors of BEFORE not in AFTER are
fixed, those of AFTER not in BEFORE are new. Each is printed with the passage it is in, so a rule
is judged on what it does, not only on the F1 it moves. Records of the held-out test split are
refused: reading them is developing on them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FILTERS = ("form", "chapter", "setting", "reading")


def read(path: Path, where: dict[str, Optional[str]]) -> list[dict[str, Any]]:
    """The records of ``path`` that match every filter given (a record without the field matches)."""
    from pipeline.annotate.jsonl import read_lines

    out = []
    for line in read_lines(path):
        record, n = line.record, line.number
        if line.error or not isinstance(record, dict):
            raise SystemExit(f"{path}:{n}: {line.error or 'not a JSON object'}")
        if record.get("split") == "test":
            raise SystemExit(f"{path}:{n}: a record of the held-out test split; compare dev errors only")
        if all(v is None or str(record.get(k, v)) == v for k, v in where.items()):
            out.append(record)
    return out


def errors(records: Iterable[dict[str, Any]], spans: bool = False) -> Counter:
    """(passage, form, error as sorted JSON) → how often, for the tuple errors or the span errors."""
    found: Counter = Counter()
    for r in records:
        place = (r.get("setting", ""), r.get("reading", ""), r["doc"], r["form"])
        for e in r.get("span_errors" if spans else "errors") or []:
            found[(*place, json.dumps(e, ensure_ascii=False, sort_keys=True))] += 1
    return found


def describe(e: dict[str, Any], spans: bool) -> str:
    if spans:
        read = e.get("read") or {}
        return f"{e['kind']} {e['label']} {e['text']}" + (f" → {read.get('label')} {read.get('text')}" if read else "")
    carried = f" ({e['carried']})" if e.get("carried") else ""
    return f"{e['kind']}{carried} {e['verb']}{' negated' if e.get('negated') else ''}: gold {e['gold_actor']} / read {e['actor']} | {e['clause']}"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    for name in FILTERS:
        ap.add_argument(f"--{name}", help=f"only the records of this {name}")
    ap.add_argument("--spans", action="store_true", help="compare the span errors, not the tuple errors")
    ap.add_argument("--summary", action="store_true", help="only the counts")
    args = ap.parse_args(argv)
    where = {k: getattr(args, k) for k in FILTERS}
    before_records, after_records = read(args.before, where), read(args.after, where)
    texts = {(r["doc"], r["form"]): r["text"] for r in [*before_records, *after_records]}
    before, after = errors(before_records, args.spans), errors(after_records, args.spans)
    fixed, new = before - after, after - before
    print(f"{sum(before.values())} errors before, {sum(after.values())} after: {sum(fixed.values())} fixed, {sum(new.values())} new")
    if args.summary:
        return 0
    for title, found in (("fixed", fixed), ("new", new)):
        print(f"\n## {title}")
        last = None
        for (setting, reading, doc, form, error), n in sorted(found.items()):
            if (doc, form) != last:
                print(f"{doc} [{form}{', ' + setting if setting else ''}{', ' + reading if reading else ''}] {texts[doc, form][:90]}")
                last = (doc, form)
            print(f"    {n}× {describe(json.loads(error), args.spans)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
