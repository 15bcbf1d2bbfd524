"""Turn the hand-written gold (annotations/actions/src/**.txt) into Prodigy-style JSONL.

The source format (annotations/GUIDE.md, "Source format") is one block per passage:

    @ 17 p34
    {主人}<拜>，{尸}答<拜>。{主人}又<拜>{侑}，{侑}答<拜>。
    拜 主人
    拜 尸
    拜 主人 t=侑
    拜 侑

The second line is the passage with its spans marked inline ({ACTOR} <VERB> [OBJECT]
(LOCATION) |FACING|); the remaining lines are the action tuples, one per VERB span, in
text order: the verb as written, the actor (`*X` inferred, `-` none), then roles.
Offsets are computed here, never typed: the marked line with its marks removed must equal
the XHTML 經 paragraph exactly, and every role string must be found in the passage, so a
slip of the pen fails loudly instead of becoming a wrong offset.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import srsly

sys.path.insert(0, str(Path(__file__).resolve().parent))
from passages import read_passages  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "actions"
SRC = ROOT / "src"

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from pipeline.labels import SPAN_LABELS, VERBS  # noqa: E402

OPEN = {"{": "ACTOR", "<": "VERB", "[": "OBJECT", "(": "LOCATION"}
CLOSE = {"}": "ACTOR", ">": "VERB", "]": "OBJECT", ")": "LOCATION"}
FACING_MARK = "|"

#: Written variants of a lemma (古今字/異體) that the text uses for a closed-list verb.
VARIANTS = {"醋": "酢"}
#: Characters that end a clause (section 4: start/end is the clause that states the act).
CLAUSE_BREAKS = set("，。；︰：！？「」『』")
SENTENCE_BREAKS = set("。；！？")
COUNT_PREFIX = {"再": 2, "三": 3, "壹": 1, "一": 1}
COUNTED_VERBS = {"拜", "揖", "讓", "辭"}
RESPONSE_PREFIX = {"荅", "答"}
NEGATORS = {"不", "弗", "毋", "勿"}
#: Manner words that the surface keeps for 祭 (振祭 → 祭, surface 振祭).
MANNER_PREFIX = {"祭": ("振", "絕", "綏")}
ROLE_KEYS = {"o": "object", "t": "target", "l": "location", "f": "facing", "p": "purpose"}


class GoldError(ValueError):
    """A source block that cannot be turned into gold; the message names the passage."""


@dataclass
class Block:
    file: Path
    line: int
    chapter: str
    index: int
    marked: str
    tuple_lines: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def where(self) -> str:
        return f"{self.file.name}:{self.line} ({self.chapter} p{self.index})"


def parse_source(path: Path) -> tuple[dict[str, str], list[Block]]:
    """Read one source file: `!key value` directives and `@ NN pK` blocks."""
    directives: dict[str, str] = {}
    blocks: list[Block] = []
    current: Block | None = None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("!"):
            key, _, value = line[1:].partition(" ")
            directives[key] = value.strip()
            continue
        if line.startswith("@"):
            m = re.fullmatch(r"@\s*(\d\d)\s+p(\d+)", line)
            if not m:
                raise GoldError(f"{path.name}:{n}: bad block header {line!r}")
            current = Block(path, n, m.group(1), int(m.group(2)), "")
            blocks.append(current)
            continue
        if current is None:
            raise GoldError(f"{path.name}:{n}: text before the first block header")
        if line.startswith("%"):
            current.notes.append(line[1:].strip())
        elif not current.marked:
            current.marked = line.strip()
        else:
            current.tuple_lines.append((n, line.strip()))
    return directives, blocks


def strip_marks(block: Block) -> tuple[str, list[dict]]:
    """Remove the inline marks; return the plain text and the spans with offsets."""
    out: list[str] = []
    spans: list[dict] = []
    open_label: str | None = None
    open_at = 0
    for ch in block.marked:
        if ch in OPEN or (ch == FACING_MARK and open_label is None):
            if open_label is not None:
                raise GoldError(f"{block.where()}: nested span mark {ch!r}")
            open_label = OPEN.get(ch, "FACING")
            open_at = len(out)
        elif ch in CLOSE or (ch == FACING_MARK and open_label == "FACING"):
            label = CLOSE.get(ch, "FACING")
            if open_label != label:
                raise GoldError(f"{block.where()}: mark {ch!r} closes {open_label}")
            if len(out) == open_at:
                raise GoldError(f"{block.where()}: empty {label} span")
            spans.append({"start": open_at, "end": len(out), "label": label})
            open_label = None
        else:
            out.append(ch)
    if open_label is not None:
        raise GoldError(f"{block.where()}: unclosed {open_label} span")
    return "".join(out), spans


def clause_of(text: str, start: int, end: int) -> tuple[int, int]:
    """The stretch between clause-ending punctuation that holds text[start:end]."""
    s = start
    while s > 0 and text[s - 1] not in CLAUSE_BREAKS:
        s -= 1
    e = end
    while e < len(text) and text[e] not in CLAUSE_BREAKS:
        e += 1
    return s, e


def quoted_ranges(text: str) -> list[tuple[int, int]]:
    """Ranges inside 「…」 (quoted speech gives no acts)."""
    ranges, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "「":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "」" and depth:
            depth -= 1
            if depth == 0:
                ranges.append((start, i + 1))
    return ranges


def parse_tuple_line(block: Block, n: int, line: str) -> tuple[str, str, dict[str, str]]:
    parts = line.split()
    if len(parts) < 2:
        raise GoldError(f"{block.file.name}:{n}: tuple line needs a verb and an actor: {line!r}")
    written, actor, opts = parts[0], parts[1], {}
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        if not eq or key not in {*ROLE_KEYS, "n", "neg", "v", "s", "r"}:
            raise GoldError(f"{block.file.name}:{n}: bad option {part!r}")
        opts[key] = value
    return written, actor, opts


def build_action(block: Block, text: str, span: dict, n: int, line: str) -> dict:
    """One tuple from its VERB span and its line; prefixes give count, response, negation."""
    written, actor_field, opts = parse_tuple_line(block, n, line)
    verb_text = text[span["start"]:span["end"]]
    if written != verb_text:
        raise GoldError(f"{block.file.name}:{n}: tuple verb {written!r} but VERB span is {verb_text!r}")
    lemma = opts.get("v") or VARIANTS.get(verb_text, verb_text)
    if lemma not in VERBS:
        raise GoldError(f"{block.file.name}:{n}: verb {lemma!r} is not in the closed list")
    s, e = span["start"], span["end"]
    count: int | None = None
    response = False
    manner = MANNER_PREFIX.get(lemma, ())
    if s > 0 and text[s - 1] in manner:
        s -= 1
    if lemma in COUNTED_VERBS and s > 0 and text[s - 1] in COUNT_PREFIX:
        count = COUNT_PREFIX[text[s - 1]]
        s -= 1
    if s > 0 and text[s - 1] in RESPONSE_PREFIX:
        response = True
        s -= 1
    negated = s > 0 and text[s - 1] in NEGATORS
    purpose = opts.get("p") or None
    if purpose and text.startswith(purpose, e):
        e += len(purpose)
    if "n" in opts:
        count = int(opts["n"]) if opts["n"] not in ("", "null") else None
    if "neg" in opts:
        negated = opts["neg"] == "1"
    if "r" in opts:
        response = opts["r"] == "1"
    surface = opts.get("s") or text[s:e]
    if surface not in text:
        raise GoldError(f"{block.file.name}:{n}: surface {surface!r} not in the passage")
    if actor_field == "-":
        actor, inferred = None, True
    elif actor_field.startswith("*"):
        actor, inferred = actor_field[1:], True
    else:
        actor, inferred = actor_field, False
    if actor is not None:
        for name in re.split(r"[、與及]", actor):
            if name and name not in text:
                raise GoldError(f"{block.file.name}:{n}: actor {name!r} not in the passage")
        if not inferred and actor not in text[:span["start"]]:
            raise GoldError(f"{block.file.name}:{n}: written actor {actor!r} not before its verb")
    roles: dict[str, str | None] = {}
    for key, name in ROLE_KEYS.items():
        value = opts.get(key) or None
        if value is not None and value not in text:
            raise GoldError(f"{block.file.name}:{n}: {name} {value!r} not in the passage")
        roles[name] = value
    cs, ce = clause_of(text, span["start"], span["end"])
    return {
        "actor": actor,
        "actor_inferred": inferred,
        "verb": lemma,
        "surface": surface,
        "count": count,
        "response": response,
        "negated": negated,
        "purpose": roles["purpose"],
        "object": roles["object"],
        "target": roles["target"],
        "location": roles["location"],
        "facing": roles["facing"],
        "start": cs,
        "end": ce,
    }


def build_record(block: Block, source_text: str, file_name: str, annotator: str) -> dict:
    text, spans = strip_marks(block)
    if text != source_text:
        at = next((i for i, (a, b) in enumerate(zip(text, source_text)) if a != b),
                  min(len(text), len(source_text)))
        raise GoldError(
            f"{block.where()}: marked text differs from the XHTML passage at {at}: "
            f"{text[max(0, at - 5):at + 5]!r} vs {source_text[max(0, at - 5):at + 5]!r}"
        )
    for span in spans:
        if span["label"] not in SPAN_LABELS:
            raise GoldError(f"{block.where()}: unknown label {span['label']}")
    quotes = quoted_ranges(text)
    verb_spans = [s for s in spans if s["label"] == "VERB"]
    for vs in verb_spans:
        if any(qs <= vs["start"] < qe for qs, qe in quotes):
            raise GoldError(f"{block.where()}: VERB span inside quoted speech at {vs['start']}")
    if len(verb_spans) != len(block.tuple_lines):
        raise GoldError(
            f"{block.where()}: {len(verb_spans)} VERB spans but {len(block.tuple_lines)} tuple lines"
        )
    actions = [build_action(block, text, vs, n, line)
               for vs, (n, line) in zip(verb_spans, block.tuple_lines)]
    tokens = [{"text": ch, "start": i, "end": i + 1, "id": i, "ws": False}
              for i, ch in enumerate(text)]
    for span in spans:
        span["token_start"] = span["start"]
        span["token_end"] = span["end"] - 1
    spans = [{"text": text[s["start"]:s["end"]], **{k: s[k] for k in ("start", "end", "token_start", "token_end", "label")}}
             for s in spans]
    meta = {
        "doc": f"{file_name}#p{block.index}",
        "chapter": block.chapter,
        "layer": "JING",
        "source": "zhushu-xhtml",
        "annotator": annotator,
        "passage_index": block.index,
    }
    if block.notes:
        meta["notes"] = block.notes
    return {"text": text, "meta": meta, "tokens": tokens, "spans": spans,
            "actions": actions, "answer": "accept"}


def build_file(path: Path) -> list[dict]:
    """All records of one source file, in file order; duplicates of a passage are refused."""
    directives, blocks = parse_source(path)
    annotator = directives.get("annotator", "A1")
    records, seen = [], set()
    cache: dict[str, dict] = {}
    for block in blocks:
        key = (block.chapter, block.index)
        if key in seen:
            raise GoldError(f"{block.where()}: passage annotated twice in one file")
        seen.add(key)
        if block.chapter not in cache:
            cache[block.chapter] = read_passages(block.chapter)
        passage = cache[block.chapter].get(block.index)
        if passage is None:
            raise GoldError(f"{block.where()}: no 經 paragraph p{block.index} in chapter {block.chapter}")
        records.append(build_record(block, passage.text, passage.file, annotator))
    return records


def target_path(src: Path) -> Path:
    """src/test/17.txt → test/17.jsonl; src/agreement/A2.txt → agreement/A2.jsonl."""
    rel = src.relative_to(SRC)
    return ROOT / rel.parent / (rel.stem + ".jsonl")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path, help="source files (default: all)")
    parser.add_argument("--check", action="store_true", help="validate only, write nothing")
    args = parser.parse_args(argv)
    sources = args.sources or sorted(SRC.rglob("*.txt"))
    failed = 0
    for src in (s.resolve() for s in sources):
        try:
            records = build_file(src.resolve())
        except GoldError as err:
            print(f"ERROR {err}", file=sys.stderr)
            failed += 1
            continue
        n_actions = sum(len(r["actions"]) for r in records)
        n_spans = sum(len(r["spans"]) for r in records)
        out = target_path(src.resolve())
        if not args.check:
            out.parent.mkdir(parents=True, exist_ok=True)
            srsly.write_jsonl(out, records)
        print(f"{src.relative_to(SRC)}: {len(records)} passages, {n_actions} actions, {n_spans} spans"
              + ("" if args.check else f" → {out.relative_to(ROOT)}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
