"""Print gold records for reading: spans inline and one line per tuple with its clause."""

from __future__ import annotations

import sys
from pathlib import Path

import srsly

MARK = {"ACTOR": "{}", "VERB": "<>", "OBJECT": "[]", "LOCATION": "()", "FACING": "||"}


def render(record: dict) -> str:
    text = record["text"]
    out, pos = [], 0
    for span in sorted(record["spans"], key=lambda s: s["start"]):
        a, b = MARK[span["label"]]
        out += [text[pos:span["start"]], a, text[span["start"]:span["end"]], b]
        pos = span["end"]
    out.append(text[pos:])
    lines = [f"== {record['meta']['doc']}", "".join(out)]
    for t in record["actions"]:
        roles = " ".join(f"{k}={t[k]}" for k in ("object", "target", "location", "facing", "purpose") if t[k])
        flags = "".join([("*" if t["actor_inferred"] else ""), ("!NEG " if t["negated"] else ""),
                         ("RESP " if t["response"] else "")])
        count = f" x{t['count']}" if t["count"] else ""
        lines.append(f"  {flags}{t['actor']} {t['verb']}[{t['surface']}]{count} {roles}  <{text[t['start']:t['end']]}>")
    return "\n".join(lines)


if __name__ == "__main__":
    path = Path(sys.argv[1])
    wanted = set(sys.argv[2:])
    for rec in srsly.read_jsonl(path):
        if not wanted or f"p{rec['meta']['passage_index']}" in wanted:
            print(render(rec))
