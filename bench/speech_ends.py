"""Where unquoted speech ends, read unpunctuated: the extractor's speech against the edition's 「」.

    .venv/bin/python bench/speech_ends.py [--out bench/results/speech-ends.json]

Every dev gold passage (annotations/actions/dev; the test chapters are not read) that quotes after 曰
is stripped of its marks, as `yili evaluate actions` strips the unpunctuated form, and read by
`yili process`'s pipeline (shipped models, ``meta.layer`` JING). For each 曰 the speech the edition
quotes after it is compared with the speech the extractor reads there without the marks
(:attr:`pipeline.actions.passage.Reading.speech`, :mod:`pipeline.actions.speech`): where it ends
the same, sooner (narrative after it gets tuples and spans) or later (acts read as said). Also with
the speech-word rule alone (no narrative openers), the reading before 2026-11-30's thirteenth
session. Writes JSON and Markdown beside each other.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def gold_speech(text: str) -> tuple[str, list[bool]]:
    """``text`` without its marks and, per kept character, whether the edition quotes it."""
    from pipeline.actions.report import _strip
    from pipeline.actions.speech import speech_mask

    stripped, where = _strip(text)
    mask = speech_mask(text)
    said = [False] * len(stripped)
    for i in range(len(text)):
        if mask[i] and where[i + 1] > where[i]:
            said[where[i]] = True
    return stripped, said


def read_speech(processor, stripped: str) -> list[bool]:
    """Per character of ``stripped``, whether the extractor reads it as unquoted speech."""
    readings = []
    read = processor.extractor.read

    def keep(*args, **kwargs):
        reading = read(*args, **kwargs)
        readings.append(reading)
        return reading

    processor.extractor.read = keep
    try:
        processor.process({"text": stripped, "meta": {"layer": "JING"}})
    finally:
        processor.extractor.read = read
    said = [False] * len(stripped)
    for reading in readings:
        for ranges in reading.speech:
            for s, e in ranges:
                said[s:min(e, len(said))] = [True] * (min(e, len(said)) - max(s, 0))
    return said


def compare(stripped: str, gold: list[bool], ours: list[bool]) -> list[tuple[str, int, int, int]]:
    """Per 曰 the gold quotes after: (verdict, position, gold end, our end)."""
    out = []
    for k, ch in enumerate(stripped):
        if ch != "曰":
            continue

        def end(mask: list[bool]) -> int:
            j = k + 1
            while j < len(mask) and mask[j]:
                j += 1
            return j

        g, p = end(gold), end(ours)
        if g == k + 1:
            continue  # the edition quotes nothing right after this 曰
        out.append(("same" if g == p else "ours short" if p < g else "ours long", k, g, p))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "speech-ends.json")
    args = parser.parse_args()

    from pipeline.actions.report import load_split
    from pipeline.process import DocumentProcessor

    processor = DocumentProcessor()
    records = [r for r in load_split("dev") if "曰" in r["text"]]
    figures: dict = {"command": "python bench/speech_ends.py", "passages": len(records)}
    examples: list[str] = []
    for name in ("shipped", "speech words alone"):
        x = processor.extractor
        saved = x.narrative_openers, x.narrative_words
        if name != "shipped":
            x.narrative_openers, x.narrative_words = frozenset(), ()
        counts: Counter = Counter()
        try:
            for r in records:
                stripped, gold = gold_speech(r["text"])
                for verdict, k, g, p in compare(stripped, gold, read_speech(processor, stripped)):
                    counts[verdict] += 1
                    if name == "shipped" and verdict != "same":
                        examples.append(f"{r['meta']['doc']}: {stripped[max(0, k - 8):k]}曰 edition [{stripped[k + 1:g]}] "
                                        f"{stripped[g:g + 6]} — read [{stripped[k + 1:p]}] ({verdict})")
        finally:
            x.narrative_openers, x.narrative_words = saved
        figures[name] = {"said": sum(counts.values()), **dict(counts)}
        print(name, dict(counts), flush=True)
    figures["misread (shipped)"] = examples
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    lines = ["# Unquoted speech, read unpunctuated (dev gold)", "",
             f"`{figures['command']}`: {figures['passages']} dev passages with 曰, stripped of their marks; for "
             "each 曰 the edition quotes after, where the extractor's speech ends against the edition's 」.", "",
             "| reading | 曰 | same end | ends sooner | ends later |", "| --- | --- | --- | --- | --- |"]
    for name in ("shipped", "speech words alone"):
        row = figures[name]
        lines.append(f"| {name} | {row['said']} | {row.get('same', 0)} | {row.get('ours short', 0)} | {row.get('ours long', 0)} |")
    lines += ["", "Where the shipped reading differs:", ""] + [f"- {e}" for e in examples]
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
