"""A Prodigy-style record rebuilt from what another annotation tool sends back.

Label Studio, Doccano and brat know spans, relations and (Label Studio, Doccano) document labels,
but not our tokens, tuples or meta. The converters send those along (Label Studio's ``data``,
Doccano's extra keys, a ``.json`` file beside brat's ``.ann``) as the *base* record, and this
module puts the tool's spans and relations back into it:

- tokens are recomputed (one per character, :mod:`pipeline.annotate.tokens`);
- a span or relation the base already had (same offsets and label) keeps its exact dict, and the
  base's keys keep their order, so an unchanged record comes back byte for byte;
- the tuples follow the edited spans and relations (:func:`relations.actions_from_relations`).
"""

from __future__ import annotations

from typing import Any, Optional

from pipeline.annotate.relations import actions_from_relations, relations_from_actions, span_ref
from pipeline.annotate.tokens import TokenIndex, char_tokens

#: (start, end, label) of a span; (head span index, child span index, label) of a relation
SpanTriple = tuple[int, int, str]
RelationTriple = tuple[int, int, str]


class ConvertError(ValueError):
    """A record from another tool that cannot be turned into ours; the message says why."""


def utf16_to_cp(text: str) -> list[int]:
    """Map UTF-16 code unit offset → code point offset (index = UTF-16 offset)."""
    out = []
    for i, ch in enumerate(text):
        out.append(i)
        if ord(ch) > 0xFFFF:
            out.append(i + 1)  # an offset between the two halves lands after the character
    out.append(len(text))
    return out


def cp_to_utf16(text: str, offset: int) -> int:
    return offset + sum(1 for ch in text[:offset] if ord(ch) > 0xFFFF)


def has_astral(text: str) -> bool:
    return any(ord(ch) > 0xFFFF for ch in text)


def build_spans(text: str, triples: list[SpanTriple], base_spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Our span dicts (with token indices) in text order; the base's dicts where unchanged."""
    tokens = char_tokens(text)
    index = TokenIndex(tokens)
    reuse = {(sp.get("start"), sp.get("end"), sp.get("label")): sp for sp in base_spans if isinstance(sp, dict)}
    spans = []
    for s, e, label in sorted(triples, key=lambda t: (t[0], t[1])):
        if (s, e, label) in reuse:
            spans.append(reuse[(s, e, label)])
            continue
        tok = index.span(s, e)
        if tok is None:
            raise ConvertError(f"span {label} {s}-{e} cuts a character of the text in two")
        spans.append({"text": text[s:e], "start": s, "end": e, "token_start": tok[0], "token_end": tok[1], "label": label})
    return spans


def build_relations(spans: list[dict[str, Any]], pairs: list[tuple[dict[str, Any], dict[str, Any], str]],
                    base_relations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Relations from (head span, child span, label); the base's dicts where unchanged."""
    def key(head: dict[str, Any], child: dict[str, Any], label: str) -> tuple:
        return head.get("start"), head.get("end"), child.get("start"), child.get("end"), label

    reuse = {key(r.get("head_span") or {}, r.get("child_span") or {}, r.get("label")): r
             for r in base_relations if isinstance(r, dict)}
    out = []
    for head, child, label in pairs:
        k = key(head, child, label)
        if k in reuse:
            out.append(reuse[k])
        else:
            out.append({"head": head["token_end"], "child": child["token_end"], "head_span": span_ref(head),
                        "child_span": span_ref(child), "label": label})
    return out


def rebuild(text: str, base: Optional[dict[str, Any]], span_triples: Optional[list[SpanTriple]],
            relation_pairs: Optional[list[tuple[SpanTriple, SpanTriple, str]]], label: Optional[str],
            answer: Optional[str], extra: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """The record: ``base`` (the record sent to the tool, if it came back) updated with the tool's answer.

    ``span_triples`` None means the tool had no span view (a layer task); ``relation_pairs`` None
    means it had no relations (keep none unless the base had tuples).
    """
    base = dict(base or {})
    if base.get("text") not in (None, text):
        raise ConvertError("the text differs from the text of the record sent to the tool")
    record: dict[str, Any] = {"text": text}
    record.update({k: v for k, v in base.items() if k != "text"})
    if span_triples is not None:
        base_spans = base.get("spans") or []
        spans = build_spans(text, span_triples, base_spans)
        tokens = char_tokens(text)
        record["tokens"] = base["tokens"] if base.get("tokens") == tokens else tokens
        record["spans"] = spans
        by_key = {(sp["start"], sp["end"], sp["label"]): sp for sp in spans}
        if relation_pairs is not None or "relations" in base or "actions" in base:
            pairs = []
            for head, child, rel_label in relation_pairs or []:
                if head not in by_key or child not in by_key:
                    raise ConvertError(f"relation {rel_label} joins a span that is not among the spans")
                pairs.append((by_key[head], by_key[child], rel_label))
            if relation_pairs is None and "relations" in base:  # the tool kept no relations: recompute
                relations = relations_from_actions(text, spans, base.get("actions") or [])
            else:
                relations = build_relations(spans, pairs, base.get("relations") or [])
            record["relations"] = relations
            if "actions" in base or relations:
                old_spans = base_spans if base_spans else []
                record["actions"] = actions_from_relations(text, old_spans, base.get("actions") or [], spans, relations)
    if label is not None:
        record["label"] = label
    if answer is not None:
        record["answer"] = answer
    if extra:
        record.update(extra)
    return record
