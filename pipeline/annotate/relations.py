"""Action tuples ↔ Prodigy relations over the task's spans.

A relation goes from a tuple's VERB span (head) to the span that fills one of its roles (child):
ARG_ACTOR and ARG_TARGET point at ACTOR spans, ARG_OBJECT at an OBJECT span, ARG_LOCATION at a
LOCATION span, ARG_FACING at a FACING span. ``head`` / ``child`` are token indices as Prodigy
writes them: the LAST token of the span (``token_end``); ``head_span`` / ``child_span`` repeat the
spans so that the relation can be read without the tokens.

Which VERB span is a tuple's? The first VERB span inside the tuple's clause (``start``..``end``),
in text order, whose text is part of the tuple's ``surface`` (拜 in 再拜) or is its verb, and that
no earlier tuple of the same clause took (出迎 → 出, 迎). A variant written form (醋 for 酢) falls
back to the next VERB span of the clause not yet taken.

Which span fills a role? A span of the role's label whose text is the role's string: inside the
clause, the one nearest the verb; else (an actor carried over from an earlier clause of the same
task: ``actor_inferred``) the nearest one before the verb. A role with no such span gets no
relation (its string may be normalised, or the actor may be outside the task's text).
"""

from __future__ import annotations

from typing import Any, Optional

ROLE_RELATIONS: dict[str, tuple[str, str]] = {
    "actor": ("ARG_ACTOR", "ACTOR"),
    "object": ("ARG_OBJECT", "OBJECT"),
    "target": ("ARG_TARGET", "ACTOR"),
    "location": ("ARG_LOCATION", "LOCATION"),
    "facing": ("ARG_FACING", "FACING"),
}
RELATION_ROLES: dict[str, str] = {rel: role for role, (rel, _) in ROLE_RELATIONS.items()}

#: Characters that end a clause (the unit a tuple's start/end covers).
CLAUSE_BREAKS = set("，。；︰：！？「」『』,.;:!?\n¶")


def _text(text: str, span: dict[str, Any]) -> str:
    return text[span["start"]:span["end"]]


def span_ref(span: dict[str, Any]) -> dict[str, Any]:
    """The span as a relation repeats it (Prodigy's ``head_span`` / ``child_span``)."""
    return {
        "start": span["start"],
        "end": span["end"],
        "token_start": span["token_start"],
        "token_end": span["token_end"],
        "label": span["label"],
    }


def link_verbs(text: str, spans: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[Optional[int]]:
    """For each action, the index in ``spans`` of its VERB span (or None)."""
    verbs = sorted((i for i, sp in enumerate(spans) if sp.get("label") == "VERB"), key=lambda i: spans[i]["start"])
    taken: set[int] = set()
    out: list[Optional[int]] = []
    for action in actions:
        s, e = action.get("start", 0), action.get("end", len(text))
        surface = action.get("surface") or action.get("verb") or ""
        inside = [i for i in verbs if s <= spans[i]["start"] and spans[i]["end"] <= e and i not in taken]
        match = next((i for i in inside if _text(text, spans[i]) in surface or _text(text, spans[i]) == action.get("verb")), None)
        if match is None and inside:
            match = inside[0]
        if match is not None:
            taken.add(match)
        out.append(match)
    return out


def _role_span(text: str, spans: list[dict[str, Any]], label: str, value: str, verb: dict[str, Any],
               clause: tuple[int, int]) -> Optional[int]:
    same = [i for i, sp in enumerate(spans) if sp.get("label") == label and _text(text, sp) == value]
    if not same:
        return None
    s, e = clause
    inside = [i for i in same if s <= spans[i]["start"] and spans[i]["end"] <= e]
    if inside:
        return min(inside, key=lambda i: abs(spans[i]["start"] - verb["start"]))
    before = [i for i in same if spans[i]["end"] <= verb["start"]]
    return max(before, key=lambda i: spans[i]["start"]) if before else None


def relations_from_actions(text: str, spans: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Prodigy ``relations`` for ``actions`` over ``spans`` (which must carry token_start/token_end)."""
    relations: list[dict[str, Any]] = []
    for action, verb_index in zip(actions, link_verbs(text, spans, actions)):
        if verb_index is None:
            continue
        verb = spans[verb_index]
        clause = (action.get("start", 0), action.get("end", len(text)))
        for role, (rel_label, span_label) in ROLE_RELATIONS.items():
            value = action.get(role)
            if not isinstance(value, str) or not value:
                continue
            child_index = _role_span(text, spans, span_label, value, verb, clause)
            if child_index is None or child_index == verb_index:
                continue
            child = spans[child_index]
            relations.append({
                "head": verb["token_end"],
                "child": child["token_end"],
                "head_span": span_ref(verb),
                "child_span": span_ref(child),
                "label": rel_label,
            })
    return relations


def clause_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause holding ``[start, end)``: from after the previous break to the next break (kept)."""
    s = start
    while s > 0 and text[s - 1] not in CLAUSE_BREAKS:
        s -= 1
    e = end
    while e < len(text) and text[e] not in CLAUSE_BREAKS:
        e += 1
    if e < len(text):
        e += 1
    return s, e


def _key(span: dict[str, Any]) -> tuple[Any, Any]:
    return span.get("start"), span.get("end")


def _new_action(text: str, verb: dict[str, Any]) -> dict[str, Any]:
    start, end = clause_around(text, verb["start"], verb["end"])
    word = _text(text, verb)
    return {"actor": None, "actor_inferred": False, "verb": word, "surface": word, "count": None,
            "response": False, "negated": False, "purpose": None, "object": None, "target": None,
            "location": None, "facing": None, "start": start, "end": end}


def actions_from_relations(text: str, old_spans: list[dict[str, Any]], old_actions: list[dict[str, Any]],
                           spans: list[dict[str, Any]], relations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tuples after spans and relations were edited in a tool that knows no tuples.

    ``old_spans`` / ``old_actions`` are the record as it was sent to the tool; ``spans`` /
    ``relations`` are what came back. One tuple per VERB span:

    - an old tuple whose VERB span is still there is kept (count, response, negation, purpose …);
      each role it had a relation for takes the child of the current relation of that label, or
      is cleared if the annotator removed it; a role that had no relation (not written as a span
      in this text: an actor carried over from elsewhere, a normalised string) stays as it was;
    - an old tuple whose VERB span was deleted is dropped; one that had no VERB span is kept;
    - a new VERB span gets a new tuple (verb and surface its text, clause from punctuation, roles
      from its relations), placed in text order among the others.
    """
    old_links = link_verbs(text, old_spans, old_actions)
    old_relations = relations_from_actions(text, old_spans, old_actions) if old_spans else []
    verbs_now = {_key(sp): sp for sp in spans if sp.get("label") == "VERB"}
    linked_now: set[tuple[Any, Any]] = set()
    out: list[dict[str, Any]] = []
    for action, link in zip(old_actions, old_links):
        if link is None:
            out.append(action)
            continue
        key = _key(old_spans[link])
        if key not in verbs_now:
            continue
        linked_now.add(key)
        out.append(_with_roles(text, dict(action), verbs_now[key], old_relations, relations, had_old=True))
    old_verbs = {_key(sp) for sp in old_spans if sp.get("label") == "VERB"}
    for key, verb in sorted(verbs_now.items(), key=lambda kv: kv[0]):
        if key in linked_now or key in old_verbs:  # kept as it was sent (with or without a tuple)
            continue
        action = _with_roles(text, _new_action(text, verb), verb, old_relations, relations, had_old=False)
        at = next((i for i, a in enumerate(out) if a.get("start", 0) > action["start"]), len(out))
        out.insert(at, action)
    return out


def _with_roles(text: str, action: dict[str, Any], verb: dict[str, Any], old_relations: list[dict[str, Any]],
                relations: list[dict[str, Any]], had_old: bool) -> dict[str, Any]:
    clause = (action.get("start", 0), action.get("end", len(text)))
    had = {RELATION_ROLES[r["label"]] for r in old_relations if _key(r["head_span"]) == _key(verb)} if had_old else set()
    now = [r for r in relations if _key(r.get("head_span") or {}) == _key(verb) and r.get("label") in RELATION_ROLES]
    before = action.get("actor")
    for role in had:
        action[role] = None
    for rel in now:
        role = RELATION_ROLES[rel["label"]]
        child = rel["child_span"]
        action[role] = text[child["start"]:child["end"]]
        if role == "actor" and action["actor"] != before:
            action["actor_inferred"] = not (clause[0] <= child["start"] and child["end"] <= clause[1])
    if "actor" in had and action.get("actor") is None and "actor_inferred" in action:
        action["actor_inferred"] = False  # the annotator removed the actor
    return action
