"""brat standoff, both ways.

Export: a folder with, per record, ``NNNNN.txt`` (the text, exactly), ``NNNNN.ann`` (``T`` lines
for spans, ``R`` lines for relations — ``Arg1`` the VERB, ``Arg2`` the role) and ``NNNNN.json``
(our whole record but its text, which brat ignores and the import reads back), plus an
``annotation.conf`` declaring our labels. brat has no document labels: a layer is written as an
entity of that layer's label spanning the whole text.

Offsets: brat counts characters of the decoded ``.txt`` (Python strings: code points), so they are
taken as they are. A span across a line break is written as brat writes it, one fragment per line
(``0 2;3 5``) and read back as one span; other discontinuous spans have no place in our schema and
are refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.annotate.rebuild import ConvertError, rebuild
from pipeline.labels import LAYERS, RELATION_LABELS, SPAN_LABELS


def annotation_conf() -> str:
    relations = "\n".join(f"{label}\tArg1:VERB, Arg2:<ENTITY>" for label in RELATION_LABELS)
    return "[entities]\n" + "\n".join(SPAN_LABELS + LAYERS) + f"\n\n[relations]\n{relations}\n\n[events]\n\n[attributes]\n"


def fragments(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The pieces of ``[start, end)`` between line breaks, as brat writes a span that crosses lines."""
    out, pos = [], start
    for i in range(start, end + 1):
        if i == end or text[i] in "\r\n":
            if i > pos:
                out.append((pos, i))
            pos = i + 1
    return out or [(start, end)]


def to_ann(record: dict[str, Any]) -> str:
    text = record["text"]
    lines = []
    ids: dict[tuple[int, int], str] = {}
    for sp in record.get("spans") or []:
        tid = f"T{len(ids) + 1}"
        ids[(sp["start"], sp["end"])] = tid
        pieces = fragments(text, sp["start"], sp["end"])
        where = ";".join(f"{s} {e}" for s, e in pieces)
        lines.append(f"{tid}\t{sp['label']} {where}\t{' '.join(text[s:e] for s, e in pieces)}")
    if record.get("label") in LAYERS:
        pieces = fragments(text, 0, len(text))
        where = ";".join(f"{s} {e}" for s, e in pieces)
        lines.append(f"T{len(ids) + 1}\t{record['label']} {where}\t{' '.join(text[s:e] for s, e in pieces)}")
    for n, rel in enumerate(record.get("relations") or [], 1):
        head = ids.get((rel["head_span"]["start"], rel["head_span"]["end"]))
        child = ids.get((rel["child_span"]["start"], rel["child_span"]["end"]))
        if head and child:
            lines.append(f"R{n}\t{rel['label']} Arg1:{head} Arg2:{child}")
    return "".join(line + "\n" for line in lines)


def write_brat(folder: str | Path, records: Iterable[dict[str, Any]]) -> int:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "annotation.conf").write_text(annotation_conf(), encoding="utf-8")
    count = 0
    for count, record in enumerate(records, 1):
        stem = folder / f"{count:05d}"
        stem.with_suffix(".txt").write_text(record["text"], encoding="utf-8", newline="")
        stem.with_suffix(".ann").write_text(to_ann(record), encoding="utf-8", newline="")
        stem.with_suffix(".json").write_text(json.dumps({k: v for k, v in record.items() if k != "text"}, ensure_ascii=False),
                                             encoding="utf-8")
    return count


def from_ann(text: str, ann: str, base: Optional[dict[str, Any]]) -> dict[str, Any]:
    entities: dict[str, tuple[int, int, str]] = {}
    span_list = []
    label = None
    pairs = []
    for number, line in enumerate(ann.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split("\t", 2)
        ident = fields[0]
        if ident.startswith("T"):
            kind_offsets = fields[1].split(" ")
            name, offsets = kind_offsets[0], " ".join(kind_offsets[1:])
            pieces = [tuple(int(x) for x in part.split()) for part in offsets.split(";")]
            for (_, e1), (s2, _) in zip(pieces, pieces[1:]):
                if text[e1:s2].strip("\r\n") or s2 < e1:  # only line breaks may part the fragments
                    raise ConvertError(f"line {number}: discontinuous span {ident} ({offsets})")
            s, e = pieces[0][0], pieces[-1][1]
            written = " ".join(text[a:b] for a, b in pieces)
            if len(fields) > 2 and fields[2] != written:
                raise ConvertError(f"line {number}: {ident} says {fields[2]!r} but the text at {offsets} is {written!r}")
            if name in LAYERS:  # the layer, written as an entity over the whole text
                label = name
                continue
            entities[ident] = (s, e, name)
            span_list.append((s, e, name))
        elif ident.startswith("R"):
            name, arg1, arg2 = fields[1].split(" ")[:3]
            head, child = arg1.split(":", 1)[1], arg2.split(":", 1)[1]
            if head not in entities or child not in entities:
                raise ConvertError(f"line {number}: relation {ident} joins an unknown entity")
            pairs.append((head, child, name))
        # A (attributes), N (normalisations), # (notes), E (events): not part of our schema
    relation_pairs = [(entities[h], entities[c], name) for h, c, name in pairs]
    base = base or {}
    has_spans = bool(span_list) or "spans" in base or label is None
    return rebuild(text, base, span_list if has_spans else None,
                   relation_pairs if (relation_pairs or "relations" in base) else None, label, base.get("answer"))


def read_brat(path: str | Path) -> Iterator[tuple[str, Optional[dict[str, Any]], Optional[str]]]:
    """Every ``.ann`` of a folder (or one ``.ann`` file), with its ``.txt`` and optional ``.json``."""
    path = Path(path)
    files = sorted(path.glob("*.ann")) if path.is_dir() else [path]
    for ann in files:
        where = str(ann)
        try:
            with open(ann.with_suffix(".txt"), encoding="utf-8", newline="") as handle:
                text = handle.read()
            side = ann.with_suffix(".json")
            base = json.loads(side.read_text(encoding="utf-8")) if side.is_file() else None
            with open(ann, encoding="utf-8", newline="") as handle:
                yield where, from_ann(text, handle.read(), base), None
        except (ConvertError, OSError, ValueError, IndexError, KeyError) as exc:
            yield where, None, str(exc)
