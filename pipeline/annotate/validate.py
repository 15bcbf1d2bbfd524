"""Every check an answer must pass before it is stored; each failure is a reason a scholar can read.

Offsets are code points of ``text`` (SCHEMA section 2): ``text[start:end]`` must be the span's
``text`` where the record gives one, so a tool that counted UTF-16 units (an astral 𧃊 counted
twice) or bytes is caught here; and no span, token or relation may cut a written character in
two (an ``&KR1969;`` entity is one character: see :mod:`pipeline.annotate.tokens`).
"""

from __future__ import annotations

from typing import Any, Optional

from pipeline.annotate.tokens import char_units
from pipeline.labels import LAYERS, RELATION_LABELS, SPAN_LABELS

ANSWERS: tuple[str, ...] = ("accept", "reject", "ignore")
ROLE_FIELDS: tuple[str, ...] = ("actor", "object", "target", "location", "facing", "purpose", "surface")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(text: str, limit: int = 24) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _check_tokens(text: str, tokens: Any, problems: list[str]) -> Optional[dict[str, dict[int, int]]]:
    if not isinstance(tokens, list):
        problems.append("tokens is not a list")
        return None
    by_start: dict[int, int] = {}
    by_end: dict[int, int] = {}
    previous_end = 0
    for i, tok in enumerate(tokens):
        if not isinstance(tok, dict) or not _is_int(tok.get("start")) or not _is_int(tok.get("end")):
            problems.append(f"token {i}: no integer start/end")
            return None
        s, e = tok["start"], tok["end"]
        if not (0 <= s < e <= len(text)):
            problems.append(f"token {i}: offsets {s}-{e} outside the text (length {len(text)})")
            return None
        if s < previous_end:
            problems.append(f"token {i}: starts at {s}, inside the previous token")
            return None
        if "text" in tok and tok["text"] != text[s:e]:
            problems.append(f"token {i}: text {_show(str(tok['text']))} but text[{s}:{e}] is {_show(text[s:e])}")
            return None
        if "id" in tok and tok["id"] != i:
            problems.append(f"token {i}: id is {tok['id']}")
            return None
        by_start[s], by_end[e] = i, i
        previous_end = e
    return {"start": by_start, "end": by_end}


def _check_span(text: str, i: int, sp: Any, index, boundaries: set[int], labels: tuple[str, ...], problems: list[str],
                what: str = "span") -> bool:
    if not isinstance(sp, dict) or not _is_int(sp.get("start")) or not _is_int(sp.get("end")):
        problems.append(f"{what} {i}: no integer start/end")
        return False
    s, e, label = sp["start"], sp["end"], sp.get("label")
    name = f"{what} {i} ({label} {s}-{e})"
    if not (0 <= s < e <= len(text)):
        problems.append(f"{name}: offsets outside the text (length {len(text)})")
        return False
    if label not in labels:
        problems.append(f"{name}: label {label!r} is not in the schema ({' '.join(labels)})")
    if "text" in sp and sp["text"] != text[s:e]:
        problems.append(f"{name}: text {_show(str(sp['text']))} but text[{s}:{e}] is {_show(text[s:e])}"
                        " (offsets must count code points)")
        return False
    if s not in boundaries or e not in boundaries:
        problems.append(f"{name}: cuts a character in two (e.g. an &KR…; entity)")
        return False
    if index is not None:
        ts, te = index["start"].get(s), index["end"].get(e)
        if ts is None or te is None:
            problems.append(f"{name}: does not align with the tokens")
            return False
        for key, want in (("token_start", ts), ("token_end", te)):
            if key in sp and sp[key] != want:
                problems.append(f"{name}: {key} is {sp[key]}, the tokens say {want}")
                return False
    return True


def _check_relations(text: str, relations: Any, spans: list[dict[str, Any]], tokens: Any, problems: list[str]) -> None:
    if not isinstance(relations, list):
        problems.append("relations is not a list")
        return
    by_offsets = {(sp["start"], sp["end"]): sp for sp in spans if isinstance(sp, dict)}
    for i, rel in enumerate(relations):
        if not isinstance(rel, dict):
            problems.append(f"relation {i}: not an object")
            continue
        label = rel.get("label")
        if label not in RELATION_LABELS:
            problems.append(f"relation {i}: label {label!r} is not in the schema ({' '.join(RELATION_LABELS)})")
        for end in ("head", "child"):
            ref = rel.get(f"{end}_span")
            token = rel.get(end)
            if isinstance(ref, dict):
                span = by_offsets.get((ref.get("start"), ref.get("end")))
                if span is None:
                    problems.append(f"relation {i}: {end}_span {ref.get('start')}-{ref.get('end')} is not one of the spans")
                    continue
            elif _is_int(token) and isinstance(tokens, list):
                span = next((sp for sp in spans if sp.get("token_start", -1) <= token <= sp.get("token_end", -2)), None)
                if span is None:
                    problems.append(f"relation {i}: {end} token {token} is in no span")
                    continue
            else:
                problems.append(f"relation {i}: no {end}_span and no {end} token")
                continue
            if _is_int(token) and "token_start" in span and not (span["token_start"] <= token <= span["token_end"]):
                problems.append(f"relation {i}: {end} token {token} is outside its span ({span['token_start']}-{span['token_end']})")
            if end == "head" and span.get("label") != "VERB":
                problems.append(f"relation {i}: head is a {span.get('label')} span, not a VERB")
            if end == "child" and span.get("label") == "VERB":
                problems.append(f"relation {i}: child is a VERB span")


def _check_actions(text: str, actions: Any, problems: list[str]) -> None:
    if not isinstance(actions, list):
        problems.append("actions is not a list")
        return
    for i, action in enumerate(actions):
        if not isinstance(action, dict):
            problems.append(f"action {i}: not an object")
            continue
        if not isinstance(action.get("verb"), str) or not action["verb"]:
            problems.append(f"action {i}: no verb")
        s, e = action.get("start"), action.get("end")
        if not (_is_int(s) and _is_int(e) and 0 <= s < e <= len(text)):
            problems.append(f"action {i}: clause offsets {s}-{e} are not inside the text (length {len(text)})")
        for key in ROLE_FIELDS:
            if action.get(key) is not None and not isinstance(action[key], str):
                problems.append(f"action {i}: {key} is not a string")
        if action.get("count") is not None and not _is_int(action["count"]):
            problems.append(f"action {i}: count is not an integer")
        for key in ("actor_inferred", "response", "negated"):
            if key in action and not isinstance(action[key], bool):
                problems.append(f"action {i}: {key} is not true/false")


def validate_record(record: Any, default_answer: Optional[str] = None) -> list[str]:
    """The reasons ``record`` cannot be stored; an empty list means it is valid."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    problems: list[str] = []
    text = record.get("text")
    if not isinstance(text, str) or not text:
        return ["no text"]
    answer = record.get("answer", default_answer)
    if answer not in ANSWERS:
        problems.append("no answer" if answer is None else f"answer {answer!r} is not one of {', '.join(ANSWERS)}")
    for key in ("_input_hash", "_task_hash"):
        if key in record and not _is_int(record[key]):
            problems.append(f"{key} is not an integer")
    boundaries = {0, len(text)} | {e for _, e in char_units(text)}
    index = _check_tokens(text, record["tokens"], problems) if "tokens" in record else None
    spans = record.get("spans")
    good_spans: list[dict[str, Any]] = []
    if spans is not None:
        if not isinstance(spans, list):
            problems.append("spans is not a list")
        else:
            for i, sp in enumerate(spans):
                if _check_span(text, i, sp, index, boundaries, SPAN_LABELS, problems):
                    good_spans.append(sp)
            ordered = sorted(good_spans, key=lambda sp: (sp["start"], sp["end"]))
            for a, b in zip(ordered, ordered[1:]):
                if b["start"] < a["end"]:
                    problems.append(f"spans overlap: {a.get('label')} {a['start']}-{a['end']} and {b.get('label')} {b['start']}-{b['end']}")
    if "relations" in record:
        _check_relations(text, record["relations"], good_spans, record.get("tokens"), problems)
    if "actions" in record:
        _check_actions(text, record["actions"], problems)
    if "label" in record:
        allowed = LAYERS + SPAN_LABELS if spans else LAYERS
        if record["label"] not in allowed:
            problems.append(f"label {record['label']!r} is not in the schema ({' '.join(allowed)})")
    return problems
