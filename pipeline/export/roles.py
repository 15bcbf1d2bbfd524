"""Where in the text each role of an action tuple is written.

Tuples name their roles as strings (actor 主人, location 阼階上當楣); CoNLL-U and the views need
offsets. Within the tuple's clause a role is found as a tagged span of the matching label with
that text, else as the first occurrence of the string. When several tuples of one clause name the
same string (坐取爵…坐奠爵), each takes the next occurrence not yet taken. An inferred actor is not
in the text and gets no offsets; a role whose string is not in its clause (normalised away) neither.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from typing import Any, Optional

from pipeline.export.source import ExportDocument

#: tuple field -> span label that writes it
ROLE_LABELS: dict[str, str] = {
    "actor": "ACTOR",
    "verb": "VERB",
    "object": "OBJECT",
    "target": "ACTOR",
    "location": "LOCATION",
    "facing": "FACING",
}

Offsets = tuple[int, int]


def _occurrences(text: str, needle: str, start: int, end: int) -> list[Offsets]:
    out = []
    if not needle:
        return out
    pos = text.find(needle, start, end)
    while pos != -1:
        out.append((pos, pos + len(needle)))
        pos = text.find(needle, pos + 1, end)
    return out


def _candidates(doc: ExportDocument, action: dict[str, Any], role: str, spans_in_clause: list[dict[str, Any]]) -> list[Offsets]:
    value = action.get(role)
    if not isinstance(value, str) or not value:
        return []
    s, e = action["start"], action["end"]
    label = ROLE_LABELS[role]
    if role == "verb":
        surface = action.get("surface") or value
        found = [(sp["start"], sp["end"]) for sp in spans_in_clause
                 if sp.get("label") == label and (doc.text[sp["start"]:sp["end"]] in surface or doc.text[sp["start"]:sp["end"]] == value)]
        return found or _occurrences(doc.text, value, s, e) or _occurrences(doc.text, surface, s, e)
    found = [(sp["start"], sp["end"]) for sp in spans_in_clause
             if sp.get("label") == label and doc.text[sp["start"]:sp["end"]] == value]
    return found or _occurrences(doc.text, value, s, e)


def locate_roles(doc: ExportDocument) -> list[dict[str, Offsets]]:
    """For each action of ``doc`` (same order): role -> raw (start, end) of where it is written."""
    spans_sorted = sorted(doc.spans, key=lambda sp: (sp["start"], sp["end"]))
    span_starts = [sp["start"] for sp in spans_sorted]
    taken: dict[tuple[int, int], dict[str, set[Offsets]]] = defaultdict(lambda: defaultdict(set))
    out: list[dict[str, Offsets]] = []
    for action in doc.actions:
        s, e = action["start"], action["end"]
        in_clause = []
        for i in range(bisect.bisect_left(span_starts, s), len(spans_sorted)):
            if span_starts[i] >= e:
                break
            if spans_sorted[i]["end"] <= e:
                in_clause.append(spans_sorted[i])
        used = taken[(s, e)]
        roles: dict[str, Offsets] = {}
        for role in ROLE_LABELS:
            if role == "actor" and action.get("actor_inferred"):
                continue
            candidates = _candidates(doc, action, role, in_clause)
            if not candidates:
                continue
            choice: Optional[Offsets] = next((c for c in candidates if c not in used[role]), candidates[0])
            used[role].add(choice)
            roles[role] = choice
        out.append(roles)
    return out
