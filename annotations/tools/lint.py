"""Consistency warnings on built gold: roles that have no matching span, explicit actors far away.

Not errors (a role may legitimately be written without a span, e.g. 辭洗's object 洗),
but each warning is worth a look before a file is taken as gold.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import srsly

ROOT = Path(__file__).resolve().parents[1] / "actions"
ROLE_LABEL = {"location": "LOCATION", "facing": "FACING", "object": "OBJECT", "target": "ACTOR"}
SENTENCE_END = "。；"


def sentence_of(text: str, start: int) -> tuple[int, int]:
    s = start
    while s > 0 and text[s - 1] not in SENTENCE_END:
        s -= 1
    e = start
    while e < len(text) and text[e] not in SENTENCE_END:
        e += 1
    return s, e


def lint(record: dict) -> list[str]:
    text = record["text"]
    spans = {(text[s["start"]:s["end"]], s["label"]) for s in record["spans"]}
    out = []
    for t in record["actions"]:
        where = f"{record['meta']['doc']} {t['verb']}@{t['start']}"
        for role, label in ROLE_LABEL.items():
            value = t[role]
            if not value or value in ("之", "其"):
                continue
            parts = [p for p in re.split(r"[、與及]", value) if p]
            if role == "object" and t["verb"] in ("卒", "辭", "命", "請"):
                continue
            for part in parts:
                if (part, label) not in spans:
                    out.append(f"{where}: {role} {part!r} has no {label} span")
        if t["actor"] and not t["actor_inferred"]:
            s, _ = sentence_of(text, t["start"])
            at = text.rfind(t["actor"], s, t["end"])
            if at < 0:
                out.append(f"{where}: written actor {t['actor']!r} not in the act's sentence")
            elif at + len(t["actor"]) < t["start"]:
                # the stretch between the written subject and the act's clause must hold
                # nothing but place and facing phrases (GUIDE 3.2)
                covered = set()
                for sp in record["spans"]:
                    if sp["label"] in ("LOCATION", "FACING", "ACTOR"):
                        covered.update(range(sp["start"], sp["end"]))
                gap = [i for i in range(at + len(t["actor"]), t["start"])
                       if text[i] not in "，、于於在自皆亦又先遂乃也以" and i not in covered]
                if any(text[i] in "，" for i in range(at, t["start"])) and gap:
                    out.append(f"{where}: written actor {t['actor']!r} separated by {text[at:t['end']]!r}")
    return out


if __name__ == "__main__":
    # with no argument only the dev gold: whoever tunes the extractor must not read warnings about the
    # held-out test chapters by accident (name annotations/actions/test/*.jsonl to lint them)
    paths = [Path(p) for p in sys.argv[1:]] or sorted((ROOT / "dev").glob("*.jsonl"))
    n = 0
    for path in paths:
        for rec in srsly.read_jsonl(path):
            for w in lint(rec):
                print(w)
                n += 1
    print(f"{n} warnings", file=sys.stderr)
