"""Scoring action tuples against gold (SCHEMA section 4): the key is (actor, verb, negated).

Both sides are folded first (simplified forms, 荅→答, 於→于, 眾/衆→众, 醋→酢 …), so an edition's
character forms never count as errors. Tuples are matched as multisets of keys; among tuples with
the same key, pairs are formed in text order, preferring tuples whose clauses overlap. Role
accuracies are measured on the matched pairs only.

``match_tuples`` scores one list against another (one passage, or a whole set when every tuple
carries a ``doc`` field, which then keeps documents apart). ``evaluate_records`` runs an extractor
over gold records (Prodigy-style JSONL, one 經 passage each) and scores it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable, Optional, Sequence

from pipeline.actions.normal import fold

ROLES = ("actor_inferred", "count", "response", "purpose", "object", "target", "location", "facing")
_VERB_VARIANTS = {"醋": "酢"}


def _norm(value: Any, normalise: Optional[Callable[[str], str]]) -> Any:
    if isinstance(value, str):
        return fold(_VERB_VARIANTS.get(value, value), normalise)
    return value


def tuple_key(t: dict, normalise: Optional[Callable[[str], str]] = None) -> tuple:
    return (t.get("doc"), _norm(t.get("actor"), normalise), _norm(t.get("verb"), normalise), bool(t.get("negated")))


def _overlap(a: dict, b: dict) -> int:
    try:
        return max(0, min(a["end"], b["end"]) - max(a["start"], b["start"]))
    except (KeyError, TypeError):
        return 0


def _pairs(gold: list[dict], pred: list[dict]) -> list[tuple[dict, dict]]:
    """Greedy pairs within one key: overlapping clauses first, then text order."""
    used: set[int] = set()
    pairs: list[tuple[dict, dict]] = []
    rest: list[dict] = []
    for g in gold:
        best, best_ov = None, 0
        for j, p in enumerate(pred):
            if j not in used and _overlap(g, p) > best_ov:
                best, best_ov = j, _overlap(g, p)
        if best is None:
            rest.append(g)
        else:
            used.add(best)
            pairs.append((g, pred[best]))
    free = [p for j, p in enumerate(pred) if j not in used]
    pairs.extend(zip(rest, free))
    return pairs


def _text_order(t: dict) -> tuple:
    return (str(t.get("doc")), t.get("start") or 0, t.get("end") or 0, str(t.get("verb")), str(t.get("actor")))


def _prf(tp: int, n_gold: int, n_pred: int) -> dict[str, float]:
    p = tp / n_pred if n_pred else (1.0 if not n_gold else 0.0)
    r = tp / n_gold if n_gold else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _clause_key(t: dict, normalise: Optional[Callable[[str], str]]) -> tuple:
    return (t.get("doc"), _norm(t.get("verb"), normalise), bool(t.get("negated")))


def unmatched(missed: list[dict], spurious: list[dict],
              normalise: Optional[Callable[[str], str]] = None) -> list[tuple[str, Optional[dict], Optional[dict]]]:
    """The unmatched tuples as (kind, gold, predicted): a missed gold tuple and a spurious one of the
    same verb whose clauses overlap are one act given to the wrong actor (``actor_wrong``, or
    ``actor_none`` when the reader gave it nobody); what is left is a verb missed (``verb_missed``,
    no prediction) or a verb read where the gold has none (``verb_spurious``, no gold)."""
    free: dict[tuple, list[dict]] = defaultdict(list)
    for t in spurious:
        free[_clause_key(t, normalise)].append(t)
    out: list[tuple[str, Optional[dict], Optional[dict]]] = []
    for g in missed:
        candidates = free.get(_clause_key(g, normalise), [])
        hit = next((p for p in candidates if _overlap(g, p) > 0), None)
        if hit is None:
            out.append(("verb_missed", g, None))
            continue
        candidates.remove(hit)
        out.append(("actor_none" if hit.get("actor") is None else "actor_wrong", g, hit))
    out.extend(("verb_spurious", None, p) for rest in free.values() for p in rest)
    return out


#: the "actor before" of a passage's first tuple (no actor equals it)
_FIRST = object()


def _previous_actors(tuples: Iterable[dict], normalise: Optional[Callable[[str], str]]) -> dict[int, Any]:
    """id of each tuple → the actor of the tuple before it in its passage (text order), folded; the
    first of a passage has :data:`_FIRST`."""
    by_doc: dict[Any, list[dict]] = defaultdict(list)
    for t in tuples:
        by_doc[t.get("doc")].append(t)
    before: dict[int, Any] = {}
    for found in by_doc.values():
        previous: Any = _FIRST
        for t in sorted(found, key=lambda t: (t.get("start") or 0, t.get("end") or 0)):
            before[id(t)] = previous
            previous = _norm(t.get("actor"), normalise)
    return before


def error_kinds(pairs: list[tuple[dict, dict]], wrong_ones: list[tuple[str, Optional[dict], Optional[dict]]],
                carried: Optional[Sequence[Optional[str]]] = None) -> dict[str, Any]:
    """Where the tuples go wrong: the :func:`unmatched` tuples (``wrong_ones``) counted by kind, and ``by_actor``, the
    recall of the gold tuples whose actor the clause writes and of those whose actor is carried over
    from before (``actor_inferred``): how far subject ellipsis costs. Given ``carried`` (for each of
    ``wrong_ones``, :func:`carried_kinds`), ``carried`` counts the acts of a carried actor given to
    the wrong one (or to nobody) by what went wrong."""
    kinds = {"actor_wrong": 0, "actor_none": 0, "verb_missed": 0, "verb_spurious": 0}
    wrong = {"written": 0, "inferred": 0}
    for kind, g, _p in wrong_ones:
        kinds[kind] += 1
        if kind in ("actor_wrong", "actor_none") and g is not None:
            wrong["inferred" if g.get("actor_inferred") else "written"] += 1
    by_actor: dict[str, dict[str, Any]] = {}
    for name, inferred in (("written", False), ("inferred", True)):
        n_gold = sum(1 for g, _ in pairs if bool(g.get("actor_inferred")) == inferred) + sum(
            1 for _, g, _ in wrong_ones if g is not None and bool(g.get("actor_inferred")) == inferred)
        matched = sum(1 for g, _ in pairs if bool(g.get("actor_inferred")) == inferred)
        by_actor[name] = {"gold": n_gold, "matched": matched, "recall": round(matched / n_gold, 4) if n_gold else 0.0,
                          "actor_wrong": wrong[name]}
    out: dict[str, Any] = {**kinds, "by_actor": by_actor}
    if carried is not None:
        out["carried"] = {how: sum(1 for c in carried if c == how) for how in CARRIED}
    return out


#: what went wrong with a carried actor (:func:`carried_kinds`)
CARRIED = ("handed_on", "reader_kept", "reader_changed", "both_changed")


def carried_kinds(wrong_ones: list[tuple[str, Optional[dict], Optional[dict]]],
                  normalise: Optional[Callable[[str], str]] = None,
                  gold: Iterable[dict] = (), pred: Iterable[dict] = ()) -> list[Optional[str]]:
    """For each of ``wrong_ones`` (:func:`unmatched`) whose gold actor is carried over and read wrong
    or not at all, with all the ``gold`` and ``pred`` tuples: did the reader keep the actor of the act
    before it where the gold changes it (``reader_kept``), change it where the gold keeps it
    (``reader_changed``), or change it to another than the gold's (``both_changed``) — or did both
    keep it, the error handed on from an act before (``handed_on``)? None for the other kinds and
    for written actors."""
    gold_before, pred_before = _previous_actors(gold, normalise), _previous_actors(pred, normalise)
    out: list[Optional[str]] = []
    for kind, g, p in wrong_ones:
        how = None
        if kind in ("actor_wrong", "actor_none") and g is not None and g.get("actor_inferred") \
                and id(g) in gold_before and id(p) in pred_before:
            gold_kept = gold_before[id(g)] == _norm(g.get("actor"), normalise)
            reader_kept = pred_before[id(p)] == _norm(p.get("actor"), normalise)
            how = ("handed_on" if reader_kept and gold_kept else "reader_kept" if reader_kept
                   else "reader_changed" if gold_kept else "both_changed")
        out.append(how)
    return out


def match_tuples(
    gold: list[dict], pred: list[dict], normalise: Optional[Callable[[str], str]] = None
) -> dict[str, Any]:
    """P/R/F1 on the (actor, verb, negated) key and role accuracies on the matched pairs.

    Returns ``{"gold", "pred", "matched", "precision", "recall", "f1", "roles": {role: {"correct",
    "total", "accuracy"}}, "errors": {...}, "unmatched": [...], "carried_kinds": [...], "missed": [...], "spurious": [...]}``
    (the unmatched tuples, by kind in ``unmatched`` (:func:`unmatched`) and counted in ``errors``
    (:func:`error_kinds`)).
    """
    by_key_g: dict[tuple, list[dict]] = defaultdict(list)
    by_key_p: dict[tuple, list[dict]] = defaultdict(list)
    for t in gold:
        by_key_g[tuple_key(t, normalise)].append(t)
    for t in pred:
        by_key_p[tuple_key(t, normalise)].append(t)
    pairs: list[tuple[dict, dict]] = []
    missed: list[dict] = []
    spurious: list[dict] = []
    for key in set(by_key_g) | set(by_key_p):
        g, p = by_key_g.get(key, []), by_key_p.get(key, [])
        got = _pairs(g, p)
        pairs.extend(got)
        paired_g = {id(a) for a, _ in got}
        paired_p = {id(b) for _, b in got}
        missed.extend(t for t in g if id(t) not in paired_g)
        spurious.extend(t for t in p if id(t) not in paired_p)
    roles: dict[str, dict[str, float]] = {}
    for role in ROLES:
        correct = sum(_norm(a.get(role), normalise) == _norm(b.get(role), normalise) for a, b in pairs)
        total = len(pairs)
        roles[role] = {"correct": correct, "total": total, "accuracy": round(correct / total, 4) if total else 0.0}
    out: dict[str, Any] = {"gold": len(gold), "pred": len(pred), "matched": len(pairs)}
    out.update(_prf(len(pairs), len(gold), len(pred)))
    out["roles"] = roles
    # in text order (the keys came in set order): which missed and spurious tuples pair up, and so what
    # the errors are called, is the same from run to run
    missed.sort(key=_text_order)
    spurious.sort(key=_text_order)
    out["unmatched"] = unmatched(missed, spurious, normalise)
    out["carried_kinds"] = carried_kinds(out["unmatched"], normalise, gold, pred)
    out["errors"] = error_kinds(pairs, out["unmatched"], out["carried_kinds"])
    out["missed"] = missed
    out["spurious"] = spurious
    return out


def evaluate_records(records: Iterable[dict], extractor=None, verbs: Optional[Iterable[str]] = None) -> dict[str, Any]:
    """Run ``extractor`` (default :class:`ActionExtractor`) on each gold record's ``text`` as one
    punctuated 經 passage and score it with :func:`match_tuples`; tuples of verbs outside the
    closed list are ignored on both sides, as SCHEMA says."""
    from pipeline.actions import ActionExtractor, Passage
    from pipeline.labels import VERBS

    extractor = extractor or ActionExtractor()
    allowed = {_norm(v, None) for v in (verbs or VERBS)}
    gold_all: list[dict] = []
    pred_all: list[dict] = []
    for n, rec in enumerate(records):
        doc = (rec.get("meta") or {}).get("doc", n)
        pred = [a.to_dict() for a in extractor.extract([Passage.from_raw(rec["text"])])]
        for t in rec.get("actions", []):
            if _norm(t.get("verb"), None) in allowed:
                gold_all.append(dict(t, doc=doc))
        for t in pred:
            if _norm(t.get("verb"), None) in allowed:
                pred_all.append(dict(t, doc=doc))
    return match_tuples(gold_all, pred_all)


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m pipeline.actions.evaluate GOLD.jsonl…``: figures of the default extractor as JSON."""
    import argparse
    import json

    import srsly

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("gold", nargs="+", help="gold JSONL files (one 經 passage per record)")
    parser.add_argument("--errors", action="store_true", help="also list the missed and spurious tuples")
    args = parser.parse_args(argv)
    records = [r for path in args.gold for r in srsly.read_jsonl(path)]
    result = evaluate_records(records)
    keep = {k: v for k, v in result.items() if k not in ("missed", "spurious")}
    keep["roles"] = {role: v["accuracy"] for role, v in result["roles"].items()}
    print(json.dumps(keep, ensure_ascii=False, indent=1))
    if args.errors:
        for kind in ("missed", "spurious"):
            for t in sorted(result[kind], key=lambda t: (str(t.get("doc")), t.get("start", 0))):
                print(kind, t.get("doc"), t.get("start"), t.get("actor"), t.get("verb"), t.get("negated"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
