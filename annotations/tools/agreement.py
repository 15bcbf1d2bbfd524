"""Agreement between two annotations of the same passages (A1 gold vs the A2 re-annotation).

Figures: tuple F1 on the evaluation key (actor, verb, negated) — compared as multisets per
passage, after the same light normalisation on both sides — also on that key plus the clause,
and span F1 per label on exact (start, end, label). The disagreements are listed so that each
can be resolved in the gold. Writes annotations/actions/AGREEMENT.md unless --no-write;
--out writes another file instead (e.g. AGREEMENT-B1.md for the independent annotation B1),
keeping what stands above its `<!-- figures -->` marker.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import srsly

ROOT = Path(__file__).resolve().parents[1] / "actions"
FOLD = str.maketrans({"荅": "答", "於": "于", "衆": "眾"})


def norm(value: str | None) -> str | None:
    return None if value is None else value.translate(FOLD)


def tuple_key(t: dict, with_clause: bool = False) -> tuple:
    key = (norm(t["actor"]), norm(t["verb"]), bool(t["negated"]))
    return key + ((t["start"], t["end"]) if with_clause else ())


def prf(tp: int, n_a: int, n_b: int) -> tuple[float, float, float]:
    p = tp / n_b if n_b else 1.0
    r = tp / n_a if n_a else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def compare(a: list[dict], b: list[dict], name: str = "A2") -> dict:
    """Counts for B measured against A (A is the reference)."""
    stats: dict[str, list[int]] = {}
    diffs: list[str] = []

    def add(name: str, ca: Counter, cb: Counter) -> None:
        s = stats.setdefault(name, [0, 0, 0])
        s[0] += sum((ca & cb).values())
        s[1] += sum(ca.values())
        s[2] += sum(cb.values())

    by_doc = {r["meta"]["doc"]: r for r in a}
    for rb in b:
        ra = by_doc.get(rb["meta"]["doc"])
        if ra is None:
            raise SystemExit(f"{rb['meta']['doc']}: not in the reference files")
        if ra["text"] != rb["text"]:
            raise SystemExit(f"{rb['meta']['doc']}: texts differ")
        ka = Counter(tuple_key(t) for t in ra["actions"])
        kb = Counter(tuple_key(t) for t in rb["actions"])
        add("tuple (actor, verb, negated)", ka, kb)
        add("tuple + clause", Counter(tuple_key(t, True) for t in ra["actions"]),
            Counter(tuple_key(t, True) for t in rb["actions"]))
        full = ("actor", "actor_inferred", "verb", "surface", "count", "response", "negated",
                "purpose", "object", "target", "location", "facing", "start", "end")
        fa = Counter(tuple(norm(str(t[k])) for k in full) for t in ra["actions"])
        fb = Counter(tuple(norm(str(t[k])) for k in full) for t in rb["actions"])
        add("tuple, all fields", fa, fb)
        for label in ("ACTOR", "VERB", "OBJECT", "LOCATION", "FACING"):
            sa = Counter((s["start"], s["end"]) for s in ra["spans"] if s["label"] == label)
            sb = Counter((s["start"], s["end"]) for s in rb["spans"] if s["label"] == label)
            add(f"span {label}", sa, sb)
        sa_all = Counter((s["start"], s["end"], s["label"]) for s in ra["spans"])
        sb_all = Counter((s["start"], s["end"], s["label"]) for s in rb["spans"])
        add("span (all labels)", sa_all, sb_all)
        text = ra["text"]
        for key, n in (ka - kb).items():
            diffs.append(f"{ra['meta']['doc']}: A1 only {key} ×{n}")
        for key, n in (kb - ka).items():
            diffs.append(f"{ra['meta']['doc']}: {name} only {key} ×{n}")
        for key, n in (fa - fb).items():
            if tuple_key(dict(zip(full, key)) | {"negated": key[6] == "True"}) in kb:
                diffs.append(f"{ra['meta']['doc']}: roles differ, A1 {dict(zip(full, key))}")
        for (s, e, label), n in (sa_all - sb_all).items():
            diffs.append(f"{ra['meta']['doc']}: span A1 only {label} {text[s:e]!r}@{s}")
        for (s, e, label), n in (sb_all - sa_all).items():
            diffs.append(f"{ra['meta']['doc']}: span {name} only {label} {text[s:e]!r}@{s}")
    return {"stats": stats, "diffs": diffs, "n": len(b)}


def load_reference() -> list[dict]:
    recs: list[dict] = []
    for split in ("test", "dev"):
        for path in sorted((ROOT / split).glob("*.jsonl")):
            recs.extend(srsly.read_jsonl(path))
    return recs


def report(result: dict, split_counts: dict[str, int], name: str = "A2") -> str:
    lines = [f"| measure | A1 items | {name} items | agreed | precision | recall | F1 |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, (tp, na, nb) in result["stats"].items():
        p, r, f = prf(tp, na, nb)
        lines.append(f"| {name} | {na} | {nb} | {tp} | {p:.3f} | {r:.3f} | {f:.3f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a2", type=Path, default=ROOT / "agreement" / "A2.jsonl")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "AGREEMENT.md",
                        help="markdown file whose figures section is rewritten (default AGREEMENT.md)")
    args = parser.parse_args(argv)
    b = list(srsly.read_jsonl(args.a2))
    a = load_reference()
    splits = Counter("test" if r["meta"]["chapter"] in {"12", "13", "14", "17"} else "dev" for r in b)
    name = args.a2.stem
    result = compare(a, b, name)
    table = report(result, dict(splits), name)
    print(f"{result['n']} passages ({dict(splits)})")
    print(table)
    print("\n".join(result["diffs"]) or "no disagreements")
    if not args.no_write:
        write_markdown(result, table, dict(splits), args.out, name, args.a2)
    return 0


def write_markdown(result: dict, table: str, splits: dict[str, int],
                   path: Path = ROOT / "AGREEMENT.md", name: str = "A2",
                   a2: Path = ROOT / "agreement" / "A2.jsonl") -> None:
    marker = "<!-- figures -->"
    head = path.read_text(encoding="utf-8").split(marker)[0] if path.exists() else ""
    body = [marker, "", f"{result['n']} passages: {splits.get('test', 0)} test, {splits.get('dev', 0)} dev.",
            f"Reference A1 (the gold as it stands now), compared {name}. Command: "
            "`.venv/bin/python annotations/tools/agreement.py"
            + ("" if name == "A2" else f" --a2 {_rel(a2)} --out {_rel(path)}") + "`.", "", table, "",
            f"Disagreements still present between {name} and the gold:", ""]
    body += [f"- {d}" for d in result["diffs"]] or ["- none"]
    path.write_text(head + "\n".join(body) + "\n", encoding="utf-8")


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT.parents[1]))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    sys.exit(main())
